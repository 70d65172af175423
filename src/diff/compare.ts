// Where two datasets answer differently: both datasets' resolved cells are overlaid leaf by leaf,
// and each overlap is cut into trapezoids that no ring of either crosses (src/export/geometry.ts),
// so both answers are constant in each and read at its centre. The area of every (old → new) code
// pair per layer is then exact up to the datasets' own quantisation, with no sampling.

import Flatbush from 'flatbush';
import type { Dataset } from '../format/dataset.js';
import { type Cell, forEachLeaf, type LeafEntry } from '../format/leaves.js';
import { GRID_COLS, GRID_ROWS } from '../format/layout.js';
import { trapezoids } from '../export/geometry.js';
import { layerReader, type LayerReader } from '../export/rows.js';

export type DiffLayer = 'country' | 'subdivision';

/** One (old → new) code pair of a layer; null: no code there. */
export interface PairChange {
  layer: DiffLayer;
  from: string | null;
  to: string | null;
  /** Area where A answers `from` and B answers `to`, km² on a sphere of the authalic radius. */
  km2: number;
  /** Up to three points ([lat, lon]) where it holds, from the largest pieces in distinct 1° cells. */
  samples: [number, number][];
}

/** Area-weighted comparison of two datasets' answers. */
export interface AreaDiff {
  /** Country and subdivision pairs, largest area first. */
  pairs: PairChange[];
  /** Land and sea compared (km²): every 1° cell where `only` lets it, whether or not it changed. */
  comparedKm2: number;
  /** 1° cells visited. */
  cells: number;
}

/** Authalic Earth radius (km): the sphere with the WGS84 ellipsoid's area. */
const R_KM = 6371.0072;
const RAD = Math.PI / 180;
const SAMPLES = 3;

/** Area (km²) of a trapezoid with horizontal bottom yb and top yt and those widths (degrees). */
function trapezoidKm2(yb: number, yt: number, widthBottom: number, widthTop: number): number {
  return R_KM * R_KM * ((widthBottom + widthTop) / 2) * RAD * (Math.sin(yt * RAD) - Math.sin(yb * RAD));
}

interface Leaf {
  cell: Cell;
  /** The region that answers the whole leaf, or -1 when its record decides. */
  region: number;
  record: number;
}

function leavesOf(ds: Dataset, col: number, row: number): Leaf[] {
  const out: Leaf[] = [];
  forEachLeaf(ds, col, row, false, (cell: Cell, e: LeafEntry) => {
    if (e.kind === 'region') out.push({ cell, region: e.region, record: -1 });
    else if (e.kind === 'record') out.push({ cell, region: -1, record: e.record });
  });
  return out;
}

interface Side {
  ds: Dataset;
  reader: LayerReader;
  /** Region → [country code, subdivision code], null where none. */
  codes: [string | null, string | null][];
}

function side(ds: Dataset): Side {
  const codes: [string | null, string | null][] = [];
  for (let r = 0; r < ds.regionCountry.length; r++) {
    const c = ds.regionCountry[r];
    const s = ds.regionSubdivision[r];
    codes.push([c >= 0 ? ds.countryCodes[c] : null, s >= 0 ? ds.subdivisionCodes[s] : null]);
  }
  return { ds, reader: layerReader(ds, 'region'), codes };
}

interface Piece {
  km2: number;
  lat: number;
  lon: number;
  cell: number;
}

/** Per layer pair key: area and its largest pieces. */
class Tally {
  readonly km2 = new Map<string, number>();
  readonly pieces = new Map<string, Piece[]>();

  add(key: string, p: Piece): void {
    this.km2.set(key, (this.km2.get(key) ?? 0) + p.km2);
    const list = this.pieces.get(key) ?? [];
    if (!this.pieces.has(key)) this.pieces.set(key, list);
    // Keep the largest piece per 1° cell, and the SAMPLES largest cells.
    const same = list.findIndex((q) => q.cell === p.cell);
    if (same >= 0) {
      if (list[same].km2 < p.km2) list[same] = p;
    } else list.push(p);
    list.sort((a, b) => b.km2 - a.km2);
    if (list.length > SAMPLES) list.length = SAMPLES;
  }
}

const keyOf = (layer: DiffLayer, from: string | null, to: string | null) => `${layer}\t${from ?? ''}\t${to ?? ''}`;

/**
 * Compares what datasets `a` and `b` answer, over every 1° cell (`only(col, row)`, columns from
 * -180°, rows from -90°, restricts it). Byte-identical datasets are not walked: they answer alike.
 */
export function compareAreas(
  a: Dataset,
  b: Dataset,
  only?: (col: number, row: number) => boolean,
  identical = false,
): AreaDiff {
  const A = side(a);
  const B = side(b);
  const tally = new Tally();
  let comparedKm2 = 0;
  let cells = 0;
  const regionPair = (ra: number, rb: number, p: Piece) => {
    const [ca, sa] = A.codes[ra];
    const [cb, sb] = B.codes[rb];
    if (ca !== cb) tally.add(keyOf('country', ca, cb), p);
    if (sa !== sb) tally.add(keyOf('subdivision', sa, sb), p);
  };
  for (let row = 0; row < GRID_ROWS; row++) {
    for (let col = 0; col < GRID_COLS; col++) {
      if (only && !only(col, row)) continue;
      cells++;
      comparedKm2 += trapezoidKm2(row - 90, row - 89, 1, 1);
      if (identical) continue;
      compareCell(A, B, col, row, regionPair);
    }
  }
  const pairs: PairChange[] = [...tally.km2].map(([key, km2]) => {
    const [layer, from, to] = key.split('\t');
    return {
      layer: layer as DiffLayer,
      from: from || null,
      to: to || null,
      km2,
      samples: tally.pieces.get(key)!.map((p) => [round6(p.lat), round6(p.lon)] as [number, number]),
    };
  });
  pairs.sort((p, q) => q.km2 - p.km2 || (keyOf(p.layer, p.from, p.to) < keyOf(q.layer, q.from, q.to) ? -1 : 1));
  return { pairs, comparedKm2, cells };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Overlays the leaves of one 1° cell of both datasets; hands each differing piece to `emit`. */
function compareCell(
  A: Side,
  B: Side,
  col: number,
  row: number,
  emit: (ra: number, rb: number, p: Piece) => void,
): void {
  const la = leavesOf(A.ds, col, row);
  const lb = leavesOf(B.ds, col, row);
  const cellId = row * GRID_COLS + col;
  // Leaves of B by box: a leaf of A meets few of them (fanouts up to 8 per side and depth).
  let index: Flatbush | null = null;
  if (lb.length > 8) {
    index = new Flatbush(lb.length);
    for (const l of lb) index.add(l.cell.x0, l.cell.y0, l.cell.x1, l.cell.y1);
    index.finish();
  }
  const ha = A.reader;
  const hb = B.reader;
  for (const a of la) {
    const near = index ? index.search(a.cell.x0, a.cell.y0, a.cell.x1, a.cell.y1).map((i) => lb[i]) : lb;
    for (const b of near) {
      const x0 = Math.max(a.cell.x0, b.cell.x0);
      const y0 = Math.max(a.cell.y0, b.cell.y0);
      const x1 = Math.min(a.cell.x1, b.cell.x1);
      const y1 = Math.min(a.cell.y1, b.cell.y1);
      if (!(x1 > x0 && y1 > y0)) continue;
      if (a.region >= 0 && b.region >= 0) {
        if (differ(A, B, a.region, b.region))
          emit(a.region, b.region, {
            km2: trapezoidKm2(y0, y1, x1 - x0, x1 - x0),
            lat: (y0 + y1) / 2,
            lon: (x0 + x1) / 2,
            cell: cellId,
          });
        continue;
      }
      const lines: Float64Array[] = [];
      if (a.record >= 0) ha.linesOf(a.record, a.cell, lines);
      if (b.record >= 0) hb.linesOf(b.record, b.cell, lines);
      const nb = B.codes.length;
      const ra = (x: number, y: number) => (a.region >= 0 ? a.region : ha.classify(x, y));
      const rb = (x: number, y: number) => (b.region >= 0 ? b.region : hb.classify(x, y));
      trapezoids(
        lines,
        x0,
        y0,
        x1,
        y1,
        (x, y) => ra(x, y) * nb + rb(x, y),
        (k, yb, yt, xl0, xr0, xl1, xr1) => {
          const ka = Math.floor(k / nb);
          const kb = k - ka * nb;
          if (!differ(A, B, ka, kb)) return;
          emit(ka, kb, {
            km2: trapezoidKm2(yb, yt, xr0 - xl0, xr1 - xl1),
            lat: (yb + yt) / 2,
            lon: (xl0 + xr0 + xl1 + xr1) / 4,
            cell: cellId,
          });
        },
      );
    }
  }
}

function differ(A: Side, B: Side, ra: number, rb: number): boolean {
  const [ca, sa] = A.codes[ra];
  const [cb, sb] = B.codes[rb];
  return ca !== cb || sa !== sb;
}
