// Coastal gaps: the country layer (OSM, 10 m) and the subdivision layer (Natural Earth, ~1 km)
// disagree along shores and river banks. Where a country's subdivision polygons leave its land
// uncovered, the nearest subdivision of the same country within its reach (gapKm, or the policy's
// gapKm for that country) answers.

import Flatbush from 'flatbush';
import { tableCell } from '../../src/format/leaves.js';
import { TABLE_GRID } from '../../src/format/layout.js';
import type { Part } from '../sources/parts.js';
import { type Box, partArea, partContains, segmentDistance } from './clip.js';
import type { Piece } from './partition.js';

export const KM_PER_DEG = 111.195;

/** Every segment of the subdivision layer, indexed for nearest-segment search, and the fallback's tallies. */
export interface CoastalGaps {
  parts: Part[];
  hasSubdivisions: boolean[];
  /** Per country: how far (km) the fill reaches. */
  gapKm: Float64Array;
  /** Segments as [ax, ay, bx, by] runs, and the part each belongs to. */
  segs: number[];
  segOwner: number[];
  index: Flatbush;
  /** Distances the fallback answered at, for the report. */
  distancesKm: number[];
  /** Cells where no subdivision of the country lay within its reach. */
  misses: number;
  /** Each subdivision's parent subdivision index, or -1: nested outlines (OSM's levels) overlap. */
  parents: Int32Array;
}

export function createCoastalGaps(
  parts: Part[],
  hasSubdivisions: boolean[],
  gapKm: Float64Array,
  parents: Int32Array = new Int32Array(0),
): CoastalGaps {
  const segs: number[] = [];
  const segOwner: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    for (const r of parts[i].rings) {
      const n = r.length >> 1;
      for (let k = 0; k < n; k++) {
        const j = (k + 1) % n;
        segs.push(r[2 * k], r[2 * k + 1], r[2 * j], r[2 * j + 1]);
        segOwner.push(i);
      }
    }
  }
  const index = new Flatbush(Math.max(1, segOwner.length));
  for (let i = 0; i < segOwner.length; i++) {
    const [ax, ay, bx, by] = [segs[4 * i], segs[4 * i + 1], segs[4 * i + 2], segs[4 * i + 3]];
    index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
  }
  if (segOwner.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  return { parts, hasSubdivisions, gapKm, segs, segOwner, index, distancesKm: [], misses: 0, parents };
}

const cosOf = (y: number) => Math.max(Math.cos((y * Math.PI) / 180), 0.01);

/** Distance (km, local equirectangular frame) from (x, y) to segment `id`. */
function segmentKm(g: CoastalGaps, id: number, x: number, y: number, cos: number): number {
  const s = g.segs;
  return segmentDistance(x, y, s[4 * id], s[4 * id + 1], s[4 * id + 2], s[4 * id + 3], cos) * KM_PER_DEG;
}

/**
 * The nearest of segments `ids` to (x, y): [part index, km]. A shore that a province and its
 * region both draw ties: the part the lookup ranks first wins, as it does inside both.
 */
function nearestOf(g: CoastalGaps, ids: ArrayLike<number>, x: number, y: number): [number, number] {
  const cos = cosOf(y);
  let best = Infinity;
  let bestPart = -1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const d = segmentKm(g, id, x, y, cos);
    if (d < best || (d === best && g.parts[g.segOwner[id]].rank < g.parts[bestPart].rank)) {
      best = d;
      bestPart = g.segOwner[id];
    }
  }
  return [bestPart, best];
}

/** A search filter keeping the segments of country c's parts. */
function ofCountry(g: CoastalGaps, c: number): (id: number) => boolean {
  return (id: number) => g.segOwner.length > 0 && g.parts[g.segOwner[id]].country === c;
}

/** Nearest subdivision part of country c to (x, y) within its reach: [part index or -1, km]. */
function nearestPart(g: CoastalGaps, c: number, x: number, y: number): [number, number] {
  if (!g.hasSubdivisions[c]) return [-1, Infinity];
  const maxDeg = g.gapKm[c] / KM_PER_DEG / cosOf(y);
  const ids = g.index.neighbors(x, y, 64, maxDeg, ofCountry(g, c));
  const [part, km] = nearestOf(g, ids, x, y);
  return part < 0 || km > g.gapKm[c] ? [-1, Infinity] : [part, km];
}

/** The subdivision of country c nearest (x, y) within its reach, or -1; tallied for the report. */
export function nearestSubdivision(g: CoastalGaps, c: number, x: number, y: number): number {
  if (!g.hasSubdivisions[c]) return -1;
  const [part, km] = nearestPart(g, c, x, y);
  if (part < 0) {
    g.misses++;
    return -1;
  }
  g.distancesKm.push(km);
  return g.parts[part].subdivision;
}

/**
 * The leaf's default per table cell (TABLE_GRID² of them, row-major from the south-west), or null
 * when one default serves the whole leaf. Where country c's subdivision pieces `items` leave part
 * of the window uncovered, a point there answers the subdivision nearest its table cell's centre.
 */
export function gapTable(g: CoastalGaps, c: number, items: Piece[], cell: Box, win: Box): Int32Array | null {
  const winArea = (win.x1 - win.x0) * (win.y1 - win.y0);
  // A parent's piece overlaps its children's: leave it out of the sum, which may then fall short
  // of a covered window (a needless table, still right) but never claims an uncovered one full.
  const outer = new Set<number>();
  for (const p of items) for (let s = g.parents[p.part.subdivision] ?? -1; s >= 0; s = g.parents[s] ?? -1) outer.add(s);
  let covered = 0;
  for (const p of items) if (!outer.has(p.part.subdivision)) covered += partArea(p.rings);
  // Overlaps ISO does not link (a region drawn around a province it no longer lists) can still
  // sum past the window: a full sum counts only if every table cell's centre lies in a piece.
  if (covered >= winArea * (1 - 1e-9) && centresCovered(items, cell)) return null;
  const ids = segmentsNearLeaf(g, c, cell);
  const subs = new Set<number>();
  for (const p of items) subs.add(p.part.subdivision);
  for (const id of ids) subs.add(g.parts[g.segOwner[id]].subdivision);
  if (subs.size <= 1) return null;
  const table = new Int32Array(TABLE_GRID * TABLE_GRID);
  for (let k = 0; k < table.length; k++) {
    const [x, y] = tableCentre(cell, k);
    const inside = items.find((p) => partContains(p.rings, x, y));
    if (inside) table[k] = inside.part.subdivision;
    else {
      const [part, km] = nearestOf(g, ids, x, y);
      table[k] = part < 0 || km > g.gapKm[c] ? -1 : g.parts[part].subdivision;
    }
  }
  return table.every((v) => v === table[0]) ? null : table;
}

function tableCentre(cell: Box, k: number): [number, number] {
  const t = tableCell(cell, k);
  return [(t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2];
}

function centresCovered(items: Piece[], cell: Box): boolean {
  for (let k = 0; k < TABLE_GRID * TABLE_GRID; k++) {
    const [x, y] = tableCentre(cell, k);
    if (!items.some((p) => partContains(p.rings, x, y))) return false;
  }
  return true;
}

/**
 * Country c's segments that can be nearest to some table cell's centre: all lie within d0 + the
 * leaf's diagonal of the leaf's centre (d0: the centre's own nearest distance, at most the reach).
 */
function segmentsNearLeaf(g: CoastalGaps, c: number, cell: Box): number[] {
  const cx = (cell.x0 + cell.x1) / 2;
  const cy = (cell.y0 + cell.y1) / 2;
  const cos = cosOf(cy);
  const diagKm = Math.hypot((cell.x1 - cell.x0) * cos, cell.y1 - cell.y0) * KM_PER_DEG;
  const [, d0] = nearestPart(g, c, cx, cy);
  const reachKm = Math.min(d0, g.gapKm[c]) + diagKm;
  const ry = reachKm / KM_PER_DEG;
  const rx = ry / cosOf(Math.abs(cy) + ry);
  return g.index.search(cx - rx, cy - ry, cx + rx, cy + ry, ofCountry(g, c));
}
