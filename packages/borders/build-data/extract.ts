// The borders of a dataset as it answers them: every line where the region (country and
// subdivision) answered changes, once, with the region on each side. They come from the export's
// geometry (src/export/): each 1° cell's trapezoids of one region dissolve into rings whose edges
// are that region's boundary in the cell. An edge is cut wherever another ring's vertex lies on
// it (a border meeting it from the other side), and each piece is labelled with the region the
// lookup answers just right of it. Edges on a cell's sides first cancel against the same region's
// edges in the neighbouring cell; what is left is a border along a whole-degree line (49°N).
// A piece between regions a and b is kept from the side of the smaller id (the sea, region 0, has
// no rings: its pieces are kept from the land side).

import type { Dataset } from 'geolookup/extend';
import { GRID_COLS, GRID_ROWS } from 'geolookup/extend';
import { cancelOnLine, dissolve, EdgeSet } from 'geolookup/extend';
import { cellTrapezoids, type LayerReader, layerReader } from 'geolookup/extend';

export interface BorderLine {
  /** Region ids left and right of the line (0: no country); left < right unless right is 0. */
  left: number;
  right: number;
  /** Flat [lon0, lat0, lon1, lat1, …], at least two points, open. */
  coords: Float64Array;
}

/** How far right of a piece its right region is read: 1e-9° (0.1 mm), far below the 1 m rounding. */
const PROBE_DEG = 1e-9;
/** A vertex this close to an edge (degrees) lies on it; pieces shorter than twice it are dropped. */
const ON_EDGE_DEG = 1e-9;

/**
 * One region id per (country, subdivision) pair, so that a line between two ids of one answer is
 * no border. Returns the id each region id stands for.
 */
function canonicalRegions(ds: Dataset): Int32Array {
  const first = new Map<string, number>();
  return Int32Array.from(ds.regionCountry, (c, r) => {
    const key = `${c}:${ds.regionSubdivision[r]}`;
    if (!first.has(key)) first.set(key, r);
    return first.get(key)!;
  });
}

/** Edges along whole-degree lines, per line piece and region, and the ring vertices on each line. */
export interface SideEdges {
  /** Keys: vertical `V<lon>:<row>`, horizontal `H<lat>:<col>`; longitude 180 is -180. */
  edges: Map<string, Map<number, number[]>>;
  cuts: Map<string, number[]>;
}

/** The region answered at a point, one id per answer (canonicalRegions), -1 off the map. */
function regionProbe(reader: LayerReader, canon: Int32Array): (x: number, y: number) => number {
  return (x, y) => {
    const lon = x < -180 ? x + 360 : x >= 180 ? x - 360 : x;
    if (y < -90 || y > 90) return -1;
    return canon[reader.classify(lon, y)];
  };
}

const keyOf = (vertical: boolean, at: number, cell: number) =>
  `${vertical ? 'V' : 'H'}${at === 180 && vertical ? -180 : at}:${cell}`;

/**
 * The border lines inside the level-0 cells `only` keeps (all by default), and the edges on the
 * cells' sides, which sideBorders resolves once every cell is done. Cells may be split among
 * workers: each returns its sides, and sideBorders merges them.
 */
export function cellBorders(
  ds: Dataset,
  only?: (col: number, row: number) => boolean,
): { lines: BorderLine[]; sides: SideEdges } {
  const reader = layerReader(ds, 'region');
  const canon = canonicalRegions(ds);
  const regionAt = regionProbe(reader, canon);
  const sides: SideEdges = { edges: new Map(), cuts: new Map() };
  const lines: BorderLine[] = [];
  for (let r = 0; r < GRID_ROWS; r++)
    for (let c = 0; c < GRID_COLS; c++) {
      if (only && !only(c, r)) continue;
      const x0 = c - 180;
      const y0 = r - 90;
      const sets = new Map<number, EdgeSet>();
      cellTrapezoids(ds, reader, c, r, (k, yb, yt, xl0, xr0, xl1, xr1) => {
        const region = canon[k];
        if (region === 0) return;
        let set = sets.get(region);
        if (!set) sets.set(region, (set = new EdgeSet()));
        set.addTrapezoid(yb, yt, xl0, xr0, xl1, xr1);
      });
      const rings: { region: number; ring: Float64Array }[] = [];
      for (const region of [...sets.keys()].sort((a, b) => a - b))
        for (const polygon of dissolve(sets.get(region)!)) for (const ring of polygon) rings.push({ region, ring });
      const vertices = new VertexGrid(x0, y0);
      for (const { ring } of rings)
        for (let i = 0; i < ring.length; i += 2) {
          const x = ring[i];
          const y = ring[i + 1];
          vertices.add(x, y);
          if (x === x0 || x === x0 + 1) pushAll(sides.cuts, keyOf(true, x, r), [y]);
          if (y === y0 || y === y0 + 1) pushAll(sides.cuts, keyOf(false, y, c), [x]);
        }
      for (const { region, ring } of rings) {
        const n = ring.length >> 1;
        const pieces = new PieceChain(region);
        for (let i = 0; i < n; i++) {
          const j = (i + 1) % n;
          const ax = ring[2 * i];
          const ay = ring[2 * i + 1];
          const bx = ring[2 * j];
          const by = ring[2 * j + 1];
          // A side of the cell goes to its line, to cancel against the neighbour's.
          if (ax === bx && (ax === x0 || ax === x0 + 1)) {
            push2(sides.edges, keyOf(true, ax, r), region, [ay, by]);
            pieces.breakRun();
            continue;
          }
          if (ay === by && (ay === y0 || ay === y0 + 1)) {
            push2(sides.edges, keyOf(false, ay, c), region, [ax, bx]);
            pieces.breakRun();
            continue;
          }
          let px = ax;
          let py = ay;
          for (const t of vertices.onSegment(ax, ay, bx, by)) {
            const qx = ax + t * (bx - ax);
            const qy = ay + t * (by - ay);
            pieces.add(px, py, qx, qy, rightOf(regionAt, px, py, qx, qy));
            px = qx;
            py = qy;
          }
          pieces.add(px, py, bx, by, rightOf(regionAt, px, py, bx, by));
        }
        lines.push(...pieces.finish());
      }
    }
  return { lines, sides };
}

/** The border lines along whole-degree lines, from the sides of every cell (one SideEdges per worker). */
export function sideBorders(ds: Dataset, parts: SideEdges[]): BorderLine[] {
  const regionAt = regionProbe(layerReader(ds, 'region'), canonicalRegions(ds));
  const edges = new Map<string, Map<number, number[]>>();
  const cuts = new Map<string, number[]>();
  for (const part of parts) {
    for (const [key, byRegion] of part.edges) for (const [region, list] of byRegion) push2(edges, key, region, list);
    for (const [key, list] of part.cuts) pushAll(cuts, key, list);
  }
  const out: BorderLine[] = [];
  for (const [key, byRegion] of edges) {
    const vertical = key[0] === 'V';
    const at = Number(key.slice(1, key.indexOf(':')));
    // The poles bound the map, not a region.
    if (!vertical && Math.abs(at) === 90) continue;
    for (const [region, list] of byRegion) {
      let last: BorderLine | null = null;
      cancelOnLine(list, cuts.get(key), (a, b) => {
        // Pieces of the antimeridian lie on its east side (-180, going south) or west side (180).
        const x = vertical && at === -180 && b > a ? 180 : at;
        const [ax, ay, bx, by] = vertical ? [x, a, x, b] : [a, at, b, at];
        const right = rightOf(regionAt, ax, ay, bx, by);
        if (!keeps(region, right)) {
          last = null;
          return;
        }
        const prev = last as BorderLine | null;
        const c = prev?.coords;
        // Pieces come in line order: one going up or east continues the last, one going down or west precedes it.
        if (prev && c && prev.right === right && c[2] === ax && c[3] === ay) {
          prev.coords = Float64Array.of(c[0], c[1], bx, by);
          return;
        }
        if (prev && c && prev.right === right && c[0] === bx && c[1] === by) {
          prev.coords = Float64Array.of(ax, ay, c[2], c[3]);
          return;
        }
        last = { left: region, right, coords: Float64Array.of(ax, ay, bx, by) };
        out.push(last);
      });
    }
  }
  return out;
}

/** Whether the piece between `left` and `right` is kept on this side (see the header). */
const keeps = (left: number, right: number): boolean => right >= 0 && right !== left && (right === 0 || left < right);

/** The region just right of the piece's middle, -1 off the map or for a piece too short to read. */
function rightOf(regionAt: (x: number, y: number) => number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len = Math.hypot(dx, dy);
  if (len < 2 * ON_EDGE_DEG) return -1;
  return regionAt((ax + bx) / 2 + (dy / len) * PROBE_DEG, (ay + by) / 2 - (dx / len) * PROBE_DEG);
}

/** Consecutive kept pieces of one ring with the same right region, chained into lines. */
class PieceChain {
  private readonly lines: BorderLine[] = [];
  private run: number[] | null = null;
  private right = -1;
  private started = false;
  /** Whether an edge before the first run was not kept: then that run does not start the ring. */
  private brokeFirst = false;

  constructor(private readonly left: number) {}

  add(ax: number, ay: number, bx: number, by: number, right: number): void {
    if (!keeps(this.left, right)) {
      this.breakRun();
      return;
    }
    const run = this.run;
    if (run && right === this.right && run[run.length - 2] === ax && run[run.length - 1] === ay) {
      run.push(bx, by);
      return;
    }
    this.flush();
    this.run = [ax, ay, bx, by];
    this.right = right;
    this.started = true;
  }

  /** An edge not kept here (a cell side, or a piece kept from the other side). */
  breakRun(): void {
    if (!this.started) this.brokeFirst = true;
    this.flush();
  }

  private flush(): void {
    if (this.run) this.lines.push({ left: this.left, right: this.right, coords: Float64Array.from(this.run) });
    this.run = null;
  }

  /** The lines; the ring's last run joins its first when the first starts the ring with the same label. */
  finish(): BorderLine[] {
    const run = this.run;
    const first = this.lines[0];
    if (run && first && !this.brokeFirst && first.right === this.right) {
      const f = first.coords;
      if (f[0] === run[run.length - 2] && f[1] === run[run.length - 1]) {
        const joined = new Float64Array(run.length + f.length - 2);
        joined.set(run);
        joined.set(f.subarray(2), run.length);
        first.coords = joined;
        this.run = null;
      }
    }
    this.flush();
    return this.lines;
  }
}

/** Ring vertices of one 1° cell in buckets of 1/256°, to find those lying on an edge. */
class VertexGrid {
  private readonly buckets = new Map<number, number[]>();
  private static readonly N = 256;

  constructor(
    private readonly x0: number,
    private readonly y0: number,
  ) {}

  private bucket(x: number, y: number): number {
    const N = VertexGrid.N;
    const i = Math.min(N - 1, Math.max(0, Math.floor((x - this.x0) * N)));
    const j = Math.min(N - 1, Math.max(0, Math.floor((y - this.y0) * N)));
    return j * N + i;
  }

  add(x: number, y: number): void {
    pushAll(this.buckets, this.bucket(x, y), [x, y]);
  }

  /** Parameters t in (0, 1), ascending, of the vertices lying on segment a-b strictly between its ends. */
  onSegment(ax: number, ay: number, bx: number, by: number): number[] {
    const N = VertexGrid.N;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const len = Math.sqrt(len2);
    const out: number[] = [];
    // The buckets along the segment and their neighbours: a vertex within ON_EDGE_DEG of it is in one.
    const seen = new Set<number>();
    const steps = Math.ceil(Math.max(Math.abs(dx), Math.abs(dy)) * N) + 1;
    for (let s = 0; s <= steps; s++) {
      const ci = Math.floor((ax + (dx * s) / steps - this.x0) * N);
      const cj = Math.floor((ay + (dy * s) / steps - this.y0) * N);
      for (let j = Math.max(0, cj - 1); j <= Math.min(N - 1, cj + 1); j++)
        for (let i = Math.max(0, ci - 1); i <= Math.min(N - 1, ci + 1); i++) {
          const id = j * N + i;
          if (seen.has(id)) continue;
          seen.add(id);
          const list = this.buckets.get(id);
          if (!list) continue;
          for (let k = 0; k < list.length; k += 2) {
            const px = list[k] - ax;
            const py = list[k + 1] - ay;
            const t = (px * dx + py * dy) / len2;
            if (t * len <= ON_EDGE_DEG || (1 - t) * len <= ON_EDGE_DEG) continue;
            if (Math.abs(px * dy - py * dx) / len > ON_EDGE_DEG) continue;
            out.push(t);
          }
        }
    }
    return [...new Set(out)].sort((a, b) => a - b);
  }
}

function pushAll<K>(map: Map<K, number[]>, key: K, values: number[]): void {
  const list = map.get(key);
  if (!list) map.set(key, values.slice());
  else for (const v of values) list.push(v);
}

function push2(map: Map<string, Map<number, number[]>>, key: string, region: number, values: number[]): void {
  let byRegion = map.get(key);
  if (!byRegion) map.set(key, (byRegion = new Map()));
  pushAll(byRegion, region, values);
}
