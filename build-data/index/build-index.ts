// Builds the cell tree: the 1° grid, child blocks where a cell is crossed by a
// boundary, and geometry records (parts clipped to the cell, quantised) at the
// leaves. Everything the runtime would otherwise compute per lookup is decided
// here: overlap order, the country→subdivision layering, coastal fallbacks.

import Flatbush from 'flatbush';
import { clipPart, partArea, partContains, type Box, type Ring } from './clip.js';
import { Grow } from './grow.js';
import { childCell, tableCell } from '../../src/format/leaves.js';
import {
  GRID_COLS,
  GRID_ROWS,
  NO_SUBDIVISION16,
  QUANT_MAX,
  TABLE_GRID,
  TABLE_WORDS,
  TAG_BLOCK,
  TAG_RECORD,
  TAG_SHIFT,
  TAG_TABLE,
  type IndexParams,
} from '../../src/format/layout.js';

export interface Part {
  layer: 'country' | 'subdivision';
  /** A territorial-sea part: ranked after all land, answers only where no land is. */
  sea?: boolean;
  country: number;
  /** Subdivision index; -1 for a subdivision-layer area with no valid code. */
  subdivision: number;
  /** Tested before parts of higher rank: smaller areas first, so enclaves win. */
  rank: number;
  rings: Ring[];
  bbox: Box;
  area: number;
}

interface Piece {
  part: Part;
  /** Rings clipped to the current window; empty when the part covers the window. */
  rings: Ring[];
  full: boolean;
}

export interface IndexOptions extends IndexParams {
  /** Split a leaf holding more vertices than this, while depth allows. */
  maxLeafVertices: number;
  /** Depth to which cells that need the coastal fallback are split, for its precision. */
  fallbackDepth: number;
  /** Coastal fallback: nearest subdivision of the same country within this distance. */
  gapKm: number;
}

export interface BuiltIndex {
  grid: Uint32Array;
  /** Per level-0 cell: its single country + 2 (1 = none), or 0 when mixed. */
  gridCountry: Uint16Array;
  blocks: Uint32Array;
  /** Per block entry: the child's single country + 2 (1 = none), 0 when it holds several. */
  blockCountry: Uint16Array;
  records: Uint32Array;
  regions: Uint16Array;
  stats: Record<string, number>;
  gapDistancesKm: number[];
  /** Country overlaps the ranking resolved: area hidden under the winner, km² (whole-cell resolution). */
  overlaps: { winner: number; loser: number; km2: number }[];
  /** Subdivisions some cell of the index can answer. */
  usedSubdivisions: number[];
  /** Boxes (subdivision, cell union per level-0 cell) where a subdivision answers as a leaf's default. */
  defaultBoxes: (Box & { subdivision: number })[];
}

const KM_PER_DEG = 111.195;
const AREA_EPS = 1e-11;
/** Clip-window margin, as a fraction of the cell side. */
export const MARGIN = 1 / 64;

/**
 * The antimeridian is no boundary. Sources split polygons there (GeoJSON cannot cross it), so
 * a ring of Fiji or Chukotka has an edge on x = ±180 exactly, and a point on that line (every
 * longitude 180 or -180 inside them) sat on a polygon edge: quantisation put it outside, and
 * it answered no country. Vertices on ±180 move this far outward, past every valid longitude
 * and past any leaf's rounding (half a unit is under 1e-6°), so points on the line fall inside.
 * The canonical features (geobuf) keep the source coordinates.
 */
const ANTIMERIDIAN_PUSH = 1e-5;

function openAntimeridian(r: Ring): Ring {
  let out: Ring | null = null;
  for (let i = 0; i < r.length; i += 2) {
    const x = r[i];
    if (x !== 180 && x !== -180) continue;
    out ??= Float64Array.from(r);
    out[i] = x + Math.sign(x) * ANTIMERIDIAN_PUSH;
  }
  return out ?? r;
}

function countVertices(pieces: Piece[]): number {
  let n = 0;
  for (const p of pieces) for (const r of p.rings) n += r.length >> 1;
  return n;
}

function expand(cell: Box, margin: number): Box {
  const mx = (cell.x1 - cell.x0) * margin;
  const my = (cell.y1 - cell.y0) * margin;
  return { x0: cell.x0 - mx, y0: cell.y0 - my, x1: cell.x1 + mx, y1: cell.y1 + my };
}

/** Clips pieces to a window and drops those that leave nothing. */
function clipPieces(pieces: Piece[], window: Box): Piece[] {
  const out: Piece[] = [];
  const area = (window.x1 - window.x0) * (window.y1 - window.y0);
  for (const p of pieces) {
    if (p.full) {
      out.push(p);
      continue;
    }
    const rings = clipPart(p.rings, window);
    if (!rings) continue;
    const a = partArea(rings);
    if (a <= area * AREA_EPS) continue;
    if (a >= area * (1 - AREA_EPS)) out.push({ part: p.part, rings: [], full: true });
    else out.push({ part: p.part, rings, full: false });
  }
  return out;
}

/**
 * Splits pieces over an nx × ny grid of child cells by recursive halving, so a
 * long ring is clipped O(log n) times instead of once per child. Each child
 * gets its pieces clipped to its window (cell plus margin) and classified.
 */
function partition(pieces: Piece[], cell: Box, nx: number, ny: number, margin: number): Piece[][] {
  const out: Piece[][] = Array.from({ length: nx * ny }, () => []);
  const mx = ((cell.x1 - cell.x0) / nx) * margin;
  const my = ((cell.y1 - cell.y0) / ny) * margin;
  const rangeWindow = (i0: number, i1: number, j0: number, j1: number): Box => {
    const a = childCell(cell, nx, ny, i0, j0);
    const b = childCell(cell, nx, ny, i1, j1);
    return { x0: a.x0 - mx, y0: a.y0 - my, x1: b.x1 + mx, y1: b.y1 + my };
  };
  const rec = (pcs: Piece[], i0: number, i1: number, j0: number, j1: number): void => {
    if (pcs.length === 0) return;
    if (i0 === i1 && j0 === j1) {
      out[j0 * nx + i0] = clipPieces(pcs, rangeWindow(i0, i0, j0, j0));
      return;
    }
    const alongX = i1 - i0 >= j1 - j0;
    const mid = alongX ? (i0 + i1) >> 1 : (j0 + j1) >> 1;
    const halves = alongX
      ? [
          [i0, mid, j0, j1],
          [mid + 1, i1, j0, j1],
        ]
      : [
          [i0, i1, j0, mid],
          [i0, i1, mid + 1, j1],
        ];
    for (const [a0, a1, b0, b1] of halves) {
      const win = rangeWindow(a0, a1, b0, b1);
      const sub: Piece[] = [];
      for (const p of pcs) {
        if (p.full) sub.push(p);
        else {
          const rings = clipPart(p.rings, win);
          if (rings) sub.push({ part: p.part, rings, full: false });
        }
      }
      rec(sub, a0, a1, b0, b1);
    }
  };
  rec(pieces, 0, nx - 1, 0, ny - 1);
  return out;
}

export function buildIndex(
  countryParts: Part[],
  subdivisionParts: Part[],
  countryCount: number,
  subdivisionCount: number,
  opts: IndexOptions,
): BuiltIndex {
  const blocks = new Grow(Uint32Array);
  const blockCountry = new Grow(Uint16Array);
  const records = new Grow(Uint32Array);
  let coordVertices = 0;
  const stats = {
    tables: 0,
    seaDropped: 0,
    blocks: 0,
    records: 0,
    leafCells: 0,
    fullCells: 0,
    fallbackCells: 0,
    fallbackMisses: 0,
    maxLeafVertices: 0,
  };
  const gapDistancesKm: number[] = [];

  // Region ids: 0 = no country; then (country, none) and (country, subdivision) in code order.
  const regionIds = new Map<number, number>();
  const regionList: number[] = [NO_SUBDIVISION16, NO_SUBDIVISION16];
  const subsOfCountry: number[][] = Array.from({ length: countryCount }, () => []);
  for (const p of subdivisionParts)
    if (p.subdivision >= 0 && !subsOfCountry[p.country].includes(p.subdivision))
      subsOfCountry[p.country].push(p.subdivision);
  for (let c = 0; c < countryCount; c++) {
    regionIds.set(c * 65536 + NO_SUBDIVISION16, regionList.length >> 1);
    regionList.push(c, NO_SUBDIVISION16);
    for (const s of subsOfCountry[c].sort((a, b) => a - b)) {
      regionIds.set(c * 65536 + s, regionList.length >> 1);
      regionList.push(c, s);
    }
  }
  const used = new Set<number>();
  const region = (c: number, s: number): number => {
    const id = c < 0 ? 0 : regionIds.get(c * 65536 + (s < 0 ? NO_SUBDIVISION16 : s))!;
    used.add(id);
    return id;
  };

  // Nearest-subdivision search over subdivision-layer segments, for coastal gaps.
  const segs: number[] = [];
  const segOwner: number[] = [];
  for (let i = 0; i < subdivisionParts.length; i++) {
    for (const r of subdivisionParts[i].rings) {
      const n = r.length >> 1;
      for (let k = 0; k < n; k++) {
        const j = (k + 1) % n;
        segs.push(r[2 * k], r[2 * k + 1], r[2 * j], r[2 * j + 1]);
        segOwner.push(i);
      }
    }
  }
  const segIndex = new Flatbush(Math.max(1, segOwner.length));
  for (let i = 0; i < segOwner.length; i++) {
    const [ax, ay, bx, by] = [segs[4 * i], segs[4 * i + 1], segs[4 * i + 2], segs[4 * i + 3]];
    segIndex.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
  }
  if (segOwner.length === 0) segIndex.add(0, 0, 0, 0);
  segIndex.finish();
  const hasSubdivisions = subsOfCountry.map((s) => s.length > 0);

  /** Distance (km, local equirectangular frame) from (x, y) to segment `id`. */
  function segmentKm(id: number, x: number, y: number, cos: number): number {
    const ax = (segs[4 * id] - x) * cos,
      ay = segs[4 * id + 1] - y;
    const bx = (segs[4 * id + 2] - x) * cos,
      by = segs[4 * id + 3] - y;
    const dx = bx - ax,
      dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
    const px = ax + t * dx,
      py = ay + t * dy;
    return Math.sqrt(px * px + py * py) * KM_PER_DEG;
  }

  const cosOf = (y: number) => Math.max(Math.cos((y * Math.PI) / 180), 0.01);

  /** The nearest of segments `ids` to (x, y): [part index, km]; ties go to the lower part, so the build is deterministic. */
  function nearestOf(ids: ArrayLike<number>, x: number, y: number): [number, number] {
    const cos = cosOf(y);
    let best = Infinity;
    let bestPart = -1;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const d = segmentKm(id, x, y, cos);
      if (d < best || (d === best && segOwner[id] < bestPart)) {
        best = d;
        bestPart = segOwner[id];
      }
    }
    return [bestPart, best];
  }

  /** Nearest subdivision part of country c to (x, y) within gapKm: [part index or -1, km]. */
  function nearestPart(c: number, x: number, y: number): [number, number] {
    if (!hasSubdivisions[c]) return [-1, Infinity];
    const maxDeg = opts.gapKm / KM_PER_DEG / cosOf(y);
    const ids = segIndex.neighbors(
      x,
      y,
      64,
      maxDeg,
      (id: number) => segOwner.length > 0 && subdivisionParts[segOwner[id]].country === c,
    );
    const [part, km] = nearestOf(ids, x, y);
    return part < 0 || km > opts.gapKm ? [-1, Infinity] : [part, km];
  }

  function nearestSubdivision(c: number, x: number, y: number): number {
    if (!hasSubdivisions[c]) return -1;
    const [part, km] = nearestPart(c, x, y);
    if (part < 0) {
      stats.fallbackMisses++;
      return -1;
    }
    gapDistancesKm.push(km);
    return subdivisionParts[part].subdivision;
  }

  /**
   * The leaf's default per table cell (TABLE_GRID² of them, row-major from the south-west), or
   * null when one default serves the whole leaf. Where country c's subdivision polygons leave
   * part of the window uncovered (shores, river banks: the country layer is OSM at 10 m, the
   * subdivisions Natural Earth at ~1 km), a point there answers the subdivision nearest to its
   * table cell's centre (the one holding the centre, else the nearest within gapKm), not to the
   * leaf's: Yonkers lies 70 m outside Natural Earth's New York and answered New Jersey, the
   * subdivision nearest the centre of its 1/8° leaf.
   */
  function gapTable(c: number, items: Piece[], cell: Box, win: Box): Int32Array | null {
    const winArea = (win.x1 - win.x0) * (win.y1 - win.y0);
    let covered = 0;
    for (const p of items) covered += partArea(p.rings);
    if (covered >= winArea * (1 - 1e-9)) return null; // no gap: the default answers nothing
    // Every table cell's nearest segment lies within d0 + the leaf's diagonal of the leaf's
    // centre (d0: the centre's own nearest distance), so those segments are all it needs.
    const cx = (cell.x0 + cell.x1) / 2;
    const cy = (cell.y0 + cell.y1) / 2;
    const cos = cosOf(cy);
    const diagKm = Math.hypot((cell.x1 - cell.x0) * cos, cell.y1 - cell.y0) * KM_PER_DEG;
    const [, d0] = nearestPart(c, cx, cy);
    const reachKm = Math.min(d0, opts.gapKm) + diagKm;
    const ry = reachKm / KM_PER_DEG;
    const rx = ry / cosOf(Math.abs(cy) + ry);
    const ids = segIndex.search(
      cx - rx,
      cy - ry,
      cx + rx,
      cy + ry,
      (id: number) => segOwner.length > 0 && subdivisionParts[segOwner[id]].country === c,
    );
    const subs = new Set<number>();
    for (const p of items) subs.add(p.part.subdivision);
    for (const id of ids) subs.add(subdivisionParts[segOwner[id]].subdivision);
    if (subs.size <= 1) return null;
    const table = new Int32Array(TABLE_GRID * TABLE_GRID);
    for (let k = 0; k < table.length; k++) {
      const t = tableCell(cell, k);
      const x = (t.x0 + t.x1) / 2;
      const y = (t.y0 + t.y1) / 2;
      const inside = items.find((p) => partContains(p.rings, x, y));
      if (inside) table[k] = inside.part.subdivision;
      else {
        const [part, km] = nearestOf(ids, x, y);
        table[k] = part < 0 || km > opts.gapKm ? -1 : subdivisionParts[part].subdivision;
      }
    }
    return table.every((v) => v === table[0]) ? null : table;
  }

  // Overlaps resolved, measured where a winning part covers a whole cell: every
  // lower-ranked piece of another country in that cell is hidden by it.
  const overlaps = new Map<string, { winner: number; loser: number; km2: number }>();
  function recordHidden(winner: Piece, hidden: Piece, cell: Box, key: (p: Piece) => number): void {
    // Sea under land is the layering itself, not an overlap between countries.
    if (key(hidden) === key(winner) || hidden.part.sea !== winner.part.sea) return;
    const deg2 = hidden.full ? (cell.x1 - cell.x0) * (cell.y1 - cell.y0) : partArea(hidden.rings);
    const km2 = deg2 * KM_PER_DEG * KM_PER_DEG * Math.cos((((cell.y0 + cell.y1) / 2) * Math.PI) / 180);
    const k = `${key(winner)}>${key(hidden)}`;
    const e = overlaps.get(k) ?? { winner: key(winner), loser: key(hidden), km2: 0 };
    e.km2 += km2;
    overlaps.set(k, e);
  }

  /** Pieces in rank order up to the first that covers the whole window. */
  function layer(pieces: Piece[], cell?: Box): { items: Piece[]; full: Piece | null } {
    const items: Piece[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      if (p.full) {
        if (cell) for (let j = i + 1; j < pieces.length; j++) recordHidden(p, pieces[j], cell, (q) => q.part.country);
        return { items, full: p };
      }
      items.push(p);
    }
    return { items, full: null };
  }

  function quantiseRing(r: Ring, win: Box): number[] | null {
    const sx = QUANT_MAX / (win.x1 - win.x0);
    const sy = QUANT_MAX / (win.y1 - win.y0);
    const out: number[] = [];
    const n = r.length >> 1;
    for (let i = 0; i < n; i++) {
      const qx = Math.min(QUANT_MAX, Math.max(0, Math.round((r[2 * i] - win.x0) * sx)));
      const qy = Math.min(QUANT_MAX, Math.max(0, Math.round((r[2 * i + 1] - win.y0) * sy)));
      const m = out.length;
      if (m >= 2 && out[m - 2] === qx && out[m - 1] === qy) continue;
      out.push(qx, qy);
    }
    while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
    return out.length >= 6 ? out : null;
  }

  /** Writes a record at `at`; `items` are [entry, quantised rings]; `country` is set for a country's subdivision record. */
  function writeRecord(defaultEntry: number, items: [number, number[][]][], at: number, country: number): void {
    const data = records.data;
    data[at] = items.length;
    data[at + 1] = defaultEntry;
    data[at + 2] = country + 1;
    let p = at + 3;
    // Vertices follow the item list in the same array (one word per vertex, x in the low
    // half), so the ring test reads memory the header read has just brought in.
    let v = at + headerSize(items);
    for (const [entry, rings] of items) {
      data[p] = entry;
      data[p + 1] = rings.length;
      p += 2;
      for (const ring of rings) {
        data[p] = v;
        data[p + 1] = ring.length >> 1;
        p += 2;
        for (let i = 0; i < ring.length; i += 2) data[v++] = (ring[i] | (ring[i + 1] << 16)) >>> 0;
      }
    }
    coordVertices += v - p;
  }

  function headerSize(items: [number, number[][]][]): number {
    let n = 3;
    for (const [, rings] of items) n += 2 + 2 * rings.length;
    return n;
  }

  function recordSize(items: [number, number[][]][]): number {
    let n = headerSize(items);
    for (const [, rings] of items) for (const r of rings) n += r.length >> 1;
    return n;
  }

  function quantiseItems(pieces: Piece[], entryOf: (p: Piece) => number, win: Box): [number, number[][]][] {
    const items: [number, number[][]][] = [];
    for (const p of pieces) {
      const rings = p.rings.map((r) => quantiseRing(r, win)).filter((r): r is number[] => r !== null);
      if (rings.length) items.push([entryOf(p), rings]);
    }
    return items;
  }

  /**
   * Sea parts answer only where no land part does. Along inland borders the land
   * parts of the neighbours cover the cell together, and the maritime polygons
   * (which repeat those borders) can never answer there: drop them before they
   * cost vertices. Covered means the land areas add up to exactly the window (no
   * gap, no overlap) and a grid of sample points all fall on land.
   */
  function dropSeaUnderLand(pieces: Piece[], win: Box): Piece[] {
    if (!pieces.some((p) => p.part.sea) || !pieces.some((p) => !p.part.sea)) return pieces;
    const winArea = (win.x1 - win.x0) * (win.y1 - win.y0);
    let land = 0;
    for (const p of pieces) if (!p.part.sea) land += p.full ? winArea : partArea(p.rings);
    // Equal, not merely at least: a surplus means land parts overlap, and an overlap
    // could hide a gap of the same size that only the sea layer answers.
    if (Math.abs(land - winArea) > winArea * 1e-9) return pieces;
    const n = 12;
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const x = win.x0 + ((win.x1 - win.x0) * (i + 0.5)) / n;
        const y = win.y0 + ((win.y1 - win.y0) * (j + 0.5)) / n;
        if (!pieces.some((p) => !p.part.sea && (p.full || partContains(p.rings, x, y)))) return pieces;
      }
    }
    stats.seaDropped++;
    return pieces.filter((p) => !p.part.sea);
  }

  /** Per (subdivision, level-0 cell): the union of leaf cells answered by default there. */
  const defaultBoxes = new Map<number, Box & { subdivision: number }>();
  function growDefaultBox(subdivision: number, cell: Box): void {
    const key = subdivision * GRID_COLS * GRID_ROWS + Math.floor(cell.y0 + 90) * GRID_COLS + Math.floor(cell.x0 + 180);
    const b = defaultBoxes.get(key);
    if (!b) defaultBoxes.set(key, { ...cell, subdivision });
    else {
      b.x0 = Math.min(b.x0, cell.x0);
      b.y0 = Math.min(b.y0, cell.y0);
      b.x1 = Math.max(b.x1, cell.x1);
      b.y1 = Math.max(b.y1, cell.y1);
    }
  }

  function trimTrailing(pieces: Piece[], answer: (p: Piece) => number, fallback: number): Piece[] {
    let n = pieces.length;
    while (n > 0 && answer(pieces[n - 1]) === fallback) n--;
    return n === pieces.length ? pieces : pieces.slice(0, n);
  }

  /** Set by resolve(): 0 when the cell holds several countries, else country index + 2 (1 = no country). */
  let uniform = 0;

  function resolve(cell: Box, cPieces: Piece[], sPieces: Piece[], depth: number): number {
    const win = expand(cell, opts.margin);
    cPieces = dropSeaUnderLand(cPieces, win);
    const stage1 = layer(cPieces, cell);
    const defaultCountry = stage1.full ? stage1.full.part.country : -1;
    // What the leaf record lists: pieces at the end that give the default's answer
    // change nothing (a point they hold would get that answer anyway), so they go.
    // Children still receive every piece: the overlap report counts what hides what.
    const cItems1 = trimTrailing(stage1.items, (p) => p.part.country, defaultCountry);
    const countries = new Set<number>();
    for (const p of cItems1) countries.add(p.part.country);
    if (stage1.full) countries.add(defaultCountry);

    const stage2 = new Map<number, { items: Piece[]; full: Piece | null; kept: Piece[] }>();
    let needsFallback = false;
    for (const c of countries) {
      const s = layer(sPieces.filter((p) => p.part.country === c));
      const kept = s.full ? trimTrailing(s.items, (p) => p.part.subdivision, s.full.part.subdivision) : s.items;
      stage2.set(c, { ...s, kept });
      if (!s.full && hasSubdivisions[c]) needsFallback = true;
    }

    const cellUniform = cItems1.length === 0 ? defaultCountry + 2 : 0;
    uniform = cellUniform;
    if (cItems1.length === 0) {
      const s = defaultCountry < 0 ? null : stage2.get(defaultCountry)!;
      if (!s || (s.kept.length === 0 && (s.full || !hasSubdivisions[defaultCountry]))) {
        stats.fullCells++;
        return region(defaultCountry, s?.full ? s.full.part.subdivision : -1);
      }
    }

    let vertices = countVertices(cItems1);
    for (const s of stage2.values()) vertices += countVertices(s.kept);
    const split =
      depth < opts.fanouts.length &&
      (depth === 0 || vertices > opts.maxLeafVertices || (needsFallback && depth < opts.fallbackDepth));
    if (split) {
      const f = opts.fanouts[depth];
      const at = blocks.reserve(f * f);
      blockCountry.reserve(f * f);
      stats.blocks++;
      // Only pieces that can still matter go down: partial ones and the first full one per layer.
      const cKeep = stage1.full ? [...stage1.items, stage1.full] : stage1.items;
      const sKeep: Piece[] = [];
      for (const s of stage2.values()) sKeep.push(...s.items, ...(s.full ? [s.full] : []));
      const childC = partition(cKeep, cell, f, f, opts.margin);
      const childS = partition(sKeep, cell, f, f, opts.margin);
      for (let k = 0; k < f * f; k++) {
        // Resolve first, then store: the child's own blocks can outgrow blocks.data and replace
        // it, and `blocks.data[at + k] = resolve(…)` would write into the array left behind.
        const entry = resolve(childCell(cell, f, f, k % f, (k / f) | 0), childC[k], childS[k], depth + 1);
        blocks.data[at + k] = entry;
        // Country lookups read this beside the entry and stop when the child holds one country.
        blockCountry.data[at + k] = uniform;
      }
      uniform = cellUniform;
      return ((TAG_BLOCK << TAG_SHIFT) | at) >>> 0;
    }

    // Leaf: stage-2 records per country, then the stage-1 record pointing at them.
    stats.leafCells++;
    stats.maxLeafVertices = Math.max(stats.maxLeafVertices, vertices);
    const cx = (cell.x0 + cell.x1) / 2;
    const cy = (cell.y0 + cell.y1) / 2;
    const countryEntry = new Map<number, number>();
    const pending: [number, [number, number[][]][], number, number[] | null][] = []; // [default, items, country, table regions]
    for (const c of [...countries].sort((a, b) => a - b)) {
      const s = stage2.get(c)!;
      let sDefault: number;
      let table: Int32Array | null = null;
      if (s.full) sDefault = s.full.part.subdivision;
      else {
        const inside = s.items.find((p) => partContains(p.rings, cx, cy));
        if (inside) sDefault = inside.part.subdivision;
        else {
          stats.fallbackCells++;
          sDefault = nearestSubdivision(c, cx, cy);
        }
        if (hasSubdivisions[c]) table = gapTable(c, s.items, cell, win);
        // The default answers the rest of the cell, which can reach past the subdivision's
        // own polygons (coast, fallback): its box must cover that for bounding-box queries.
        if (table) {
          stats.tables++;
          table.forEach((v, k) => v >= 0 && growDefaultBox(v, tableCell(cell, k)));
        } else if (sDefault >= 0) growDefaultBox(sDefault, cell);
      }
      // With a table every polygon stays: the trimmed ones would answer a table cell's default.
      const kept = s.full ? s.kept : table ? s.items : trimTrailing(s.items, (p) => p.part.subdivision, sDefault);
      const items = quantiseItems(kept, (p) => region(c, p.part.subdivision), win);
      const regions = table ? Array.from(table, (v) => region(c, v)) : null;
      if (items.length === 0 && !regions) countryEntry.set(c, region(c, sDefault));
      else pending.push([region(c, sDefault), items, c, regions]);
    }
    const cItems = quantiseItems(cItems1, (p) => p.part.country, win);
    // Stage-1 record first, so nested records always sit at higher offsets.
    const stage1At = cItems.length ? records.reserve(recordSize(cItems)) : -1;
    for (const [def, items, c, table] of pending) {
      const size = recordSize(items);
      const at = records.reserve(size + (table ? TABLE_WORDS : 0));
      writeRecord(table ? ((TAG_TABLE << TAG_SHIFT) | (at + size)) >>> 0 : def, items, at, c);
      if (table)
        for (let k = 0; k < TABLE_WORDS; k++)
          records.data[at + size + k] = (table[2 * k] | (table[2 * k + 1] << 16)) >>> 0;
      stats.records++;
      countryEntry.set(c, ((TAG_RECORD << TAG_SHIFT) | at) >>> 0);
    }
    const defaultEntry = defaultCountry < 0 ? 0 : countryEntry.get(defaultCountry)!;
    if (stage1At < 0) {
      // Every other country's piece vanished in quantisation (a sliver): one country answers.
      uniform = defaultCountry + 2;
      return defaultEntry;
    }
    writeRecord(
      defaultEntry,
      cItems.map(([c, rings]) => [countryEntry.get(c)!, rings]),
      stage1At,
      -1,
    );
    stats.records++;
    return ((TAG_RECORD << TAG_SHIFT) | stage1At) >>> 0;
  }

  // Level 0: every part goes to the 1° cells it touches.
  const world: Box = { x0: -180, y0: -90, x1: 180, y1: 90 };
  const whole = (p: Part): Piece => ({ part: p, rings: p.rings.map(openAntimeridian), full: false });
  const cellCountry = partition(countryParts.map(whole), world, GRID_COLS, GRID_ROWS, opts.margin);
  const cellSub = partition(subdivisionParts.map(whole), world, GRID_COLS, GRID_ROWS, opts.margin);
  const grid = new Uint32Array(GRID_COLS * GRID_ROWS);
  const gridCountry = new Uint16Array(GRID_COLS * GRID_ROWS);
  const byRank = (a: Piece, b: Piece) => a.part.rank - b.part.rank;
  for (let i = 0; i < GRID_COLS * GRID_ROWS; i++) {
    const cell = childCell(world, GRID_COLS, GRID_ROWS, i % GRID_COLS, (i / GRID_COLS) | 0);
    grid[i] = resolve(cell, cellCountry[i].sort(byRank), cellSub[i].sort(byRank), 0);
    gridCountry[i] = uniform;
    cellCountry[i] = [];
    cellSub[i] = [];
  }

  // Pad so a block pointer near the end still has a whole block after it (the reader checks that).
  const pad = Math.max(...opts.fanouts.map((f) => f * f));
  blocks.reserve(pad);
  blockCountry.reserve(pad);
  return {
    grid,
    gridCountry,
    blocks: blocks.result(),
    blockCountry: blockCountry.result(),
    records: records.result(),
    regions: Uint16Array.from(regionList),
    stats: {
      ...stats,
      regions: regionList.length >> 1,
      blockEntries: blocks.length,
      recordWords: records.length,
      coordVertices,
    },
    gapDistancesKm,
    overlaps: [...overlaps.values()].sort((a, b) => b.km2 - a.km2),
    defaultBoxes: [...defaultBoxes.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b),
    usedSubdivisions: [...used].map((r) => regionList[2 * r + 1]).filter((s) => s !== NO_SUBDIVISION16),
  };
}
