// Turns one leaf cell of the dataset into exact polygons: the leaf's ring
// segments cut the cell into horizontal slabs (at every vertex and crossing)
// and each slab into trapezoids that no segment crosses, so the answer is
// constant inside each trapezoid; the answer there is read from the lookup
// itself at the trapezoid's centre. Trapezoids of one code are then dissolved
// per 1° cell by cancelling shared edges. No general polygon clipper is needed,
// and the export agrees with the lookup by construction: only points on an edge
// can differ.

import { PointIndex } from './point-index.js';

/** Directed edges of one code, interior on the left: [ax, ay, bx, by]. */
export class EdgeSet {
  /** Horizontal edges per exact y: flat [x0, x1] pairs in edge direction. */
  readonly horizontal = new Map<number, number[]>();
  readonly vertical = new Map<number, number[]>();
  /** Other edges: flat [ax, ay, bx, by]. */
  readonly sloped: number[] = [];

  add(ax: number, ay: number, bx: number, by: number): void {
    if (ax === bx && ay === by) return;
    if (ay === by) push(this.horizontal, ay, ax, bx);
    else if (ax === bx) push(this.vertical, ax, ay, by);
    else this.sloped.push(ax, ay, bx, by);
  }

  /** A counter-clockwise quadrilateral (a trapezoid with horizontal bottom and top). */
  addTrapezoid(y0: number, y1: number, xl0: number, xr0: number, xl1: number, xr1: number): void {
    this.add(xl0, y0, xr0, y0);
    this.add(xr0, y0, xr1, y1);
    this.add(xr1, y1, xl1, y1);
    this.add(xl1, y1, xl0, y0);
  }
}

function push(map: Map<number, number[]>, key: number, a: number, b: number): void {
  const list = map.get(key);
  if (list) list.push(a, b);
  else map.set(key, [a, b]);
}

/** Net coverage along one axis line: opposite edges of neighbouring pieces cancel. */
export function cancelOnLine(list: number[], extra: number[] | undefined, emit: (a: number, b: number) => void): void {
  const cuts = [...new Set(extra ? [...list, ...extra] : list)].sort((a, b) => a - b);
  const net = new Int32Array(cuts.length);
  const at = (v: number) => {
    let lo = 0;
    let hi = cuts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cuts[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (let i = 0; i < list.length; i += 2) {
    const a = list[i];
    const b = list[i + 1];
    const d = b > a ? 1 : -1;
    const i0 = at(Math.min(a, b));
    const i1 = at(Math.max(a, b));
    for (let k = i0; k < i1; k++) net[k] += d;
  }
  // Every cut stays a vertex: another edge may end there, and a ring touching
  // this line at that point must be able to turn off it (else the ring would
  // run through its own vertex, which validators reject).
  for (let k = 0; k + 1 < cuts.length; k++) {
    const d = net[k];
    if (d > 0) emit(cuts[k], cuts[k + 1]);
    else if (d < 0) emit(cuts[k + 1], cuts[k]);
  }
}

/** Polygons [outer, ...holes] of flat closed-less rings [x0, y0, x1, y1, …]; outers counter-clockwise. */
export type FlatPolygon = Float64Array[];

function signedArea(r: Float64Array): number {
  let s = 0;
  const n = r.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) s += (r[j] - r[i]) * (r[j + 1] + r[i + 1]);
  return s / 2;
}

function ringContains(r: Float64Array, x: number, y: number): boolean {
  let inside = false;
  const n = r.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const yi = r[i + 1];
    const yj = r[j + 1];
    if (yi > y !== yj > y && x < ((r[j] - r[i]) * (y - yi)) / (yj - yi) + r[i]) inside = !inside;
  }
  return inside;
}

/**
 * Dissolves the pieces of one code into polygons: shared edges cancel, the
 * rest chain into rings (at a vertex where two rings touch, the sharpest left
 * turn keeps them apart, so rings stay simple), vertices left on a straight
 * line by the slab cuts are dropped, and holes go to the smallest outer ring
 * that holds them.
 */
export function dissolve(set: EdgeSet): FlatPolygon[] {
  const edges: number[] = [];
  const sloped = set.sloped;
  // Points where other edges meet each axis line: sloped ends, and the ends of edges along the other axis.
  const onVertical = new Map<number, number[]>();
  const onHorizontal = new Map<number, number[]>();
  const mark = (x: number, y: number) => {
    if (set.vertical.has(x)) onVertical.get(x)?.push(y) ?? onVertical.set(x, [y]);
    if (set.horizontal.has(y)) onHorizontal.get(y)?.push(x) ?? onHorizontal.set(y, [x]);
  };
  for (let i = 0; i < sloped.length; i += 2) mark(sloped[i], sloped[i + 1]);
  for (const [y, list] of set.horizontal) for (const x of list) mark(x, y);
  for (const [x, list] of set.vertical) for (const y of list) mark(x, y);
  for (const [y, list] of set.horizontal) cancelOnLine(list, onHorizontal.get(y), (a, b) => edges.push(a, y, b, y));
  for (const [x, list] of set.vertical) cancelOnLine(list, onVertical.get(x), (a, b) => edges.push(x, a, x, b));
  // Sloped edges cancel their exact reverse (pieces on either side of one segment).
  const ids = new PointIndex(sloped.length / 2 + edges.length / 2);
  const twins = new Map<number, number>();
  const N = 2 ** 26;
  const slopedIds = new Int32Array(sloped.length / 2);
  for (let i = 0; i < sloped.length; i += 2) slopedIds[i >> 1] = ids.idOf(sloped[i], sloped[i + 1]);
  for (let i = 0; i < sloped.length; i += 4) {
    const a = slopedIds[i >> 1];
    const b = slopedIds[(i >> 1) + 1];
    const twin = twins.get(b * N + a);
    if (twin !== undefined && twin >= 0) {
      twins.set(b * N + a, -1);
      continue;
    }
    twins.set(a * N + b, i);
  }
  for (const i of twins.values()) if (i >= 0) edges.push(sloped[i], sloped[i + 1], sloped[i + 2], sloped[i + 3]);

  // Edges by start point (counting sort over point ids).
  const count = edges.length / 4;
  const startId = new Int32Array(count);
  const endId = new Int32Array(count);
  for (let e = 0; e < count; e++) {
    startId[e] = ids.idOf(edges[4 * e], edges[4 * e + 1]);
    endId[e] = ids.idOf(edges[4 * e + 2], edges[4 * e + 3]);
  }
  const first = new Int32Array(ids.size + 1);
  for (let e = 0; e < count; e++) first[startId[e] + 1]++;
  for (let v = 0; v < ids.size; v++) first[v + 1] += first[v];
  const from = new Int32Array(count);
  const fill = first.slice(0, ids.size);
  for (let e = 0; e < count; e++) from[fill[startId[e]]++] = e;

  const used = new Uint8Array(count);
  const loops: { ring: Float64Array; ids: Int32Array }[] = [];
  const pts: number[] = [];
  const ptIds: number[] = [];
  for (let start = 0; start < count; start++) {
    if (used[start]) continue;
    pts.length = 0;
    ptIds.length = 0;
    let e = start;
    while (!used[e]) {
      used[e] = 1;
      pts.push(edges[4 * e], edges[4 * e + 1]);
      ptIds.push(startId[e]);
      const ex = edges[4 * e + 2];
      const ey = edges[4 * e + 3];
      const v = endId[e];
      let best = -1;
      if (first[v + 1] - first[v] === 1) {
        if (!used[from[first[v]]]) best = from[first[v]];
      } else {
        let bestTurn = Infinity;
        // Clockwise sweep from the way back: the first free edge is the sharpest left turn.
        const back = Math.atan2(edges[4 * e + 1] - ey, edges[4 * e] - ex);
        for (let k = first[v]; k < first[v + 1]; k++) {
          const c = from[k];
          if (used[c]) continue;
          let turn = back - Math.atan2(edges[4 * c + 3] - ey, edges[4 * c + 2] - ex);
          while (turn <= 0) turn += 2 * Math.PI;
          while (turn > 2 * Math.PI) turn -= 2 * Math.PI;
          if (turn < bestTurn) {
            bestTurn = turn;
            best = c;
          }
        }
      }
      if (best < 0) break;
      e = best;
    }
    const raw = Float64Array.from(pts);
    const rawIds = Int32Array.from(ptIds);
    const split = splitAtRepeatIds(raw, rawIds);
    if (split) loops.push(...split);
    else loops.push({ ring: raw, ids: rawIds });
  }
  // A vertex where rings touch stays, though it may lie on a straight line of one of them: drop
  // it there, and the rounded coordinates can put the touch a hair across that ring's edge
  // (test/data/oracle.test.ts, ST_IsValid: SI-100 at 16.03125, 46.65625).
  const uses = new Int32Array(ids.size);
  for (const loop of loops) for (const id of loop.ids) uses[id]++;
  const out: Float64Array[] = [];
  for (const loop of loops) {
    const ring = dropStraightVertices(Array.from(loop.ring), (x, y) => uses[ids.find(x, y)] > 1);
    if (ring.length >= 6) out.push(ring);
  }
  return polygonsOf(out);
}

/** Counter-clockwise rings become outers, the others holes of the smallest outer that holds them. */
export function polygonsOf(rings: Float64Array[]): FlatPolygon[] {
  const outers: { ring: Float64Array; area: number; holes: Float64Array[] }[] = [];
  const holes: Float64Array[] = [];
  for (const r of rings) {
    const a = signedArea(r);
    if (a > 0) outers.push({ ring: r, area: a, holes: [] });
    else if (a < 0) holes.push(r);
  }
  outers.sort((p, q) => p.area - q.area);
  for (const h of holes) {
    // The middle of a hole edge lies strictly inside its outer ring (edges shared with it cancelled).
    const x = (h[0] + h[2]) / 2;
    const y = (h[1] + h[3]) / 2;
    const owner = outers.find((o) => ringContains(o.ring, x, y));
    if (owner) owner.holes.push(h);
  }
  return outers.map((o) => [o.ring, ...o.holes]);
}

/**
 * A ring that passes a vertex twice (two loops touching at a point) as separate rings: validators
 * reject a ring touching itself but accept rings meeting at a point. Null when there is none.
 */
export function splitAtRepeats(ring: Float64Array): Float64Array[] | null {
  const index = new PointIndex(ring.length / 2);
  const ids = new Int32Array(ring.length / 2);
  for (let i = 0; i < ring.length; i += 2) ids[i >> 1] = index.idOf(ring[i], ring[i + 1]);
  return splitAtRepeatIds(ring, ids)?.map((l) => l.ring) ?? null;
}

/** splitAtRepeats over the points' ids (equal points, equal ids). */
function splitAtRepeatIds(ring: Float64Array, ids: Int32Array): { ring: Float64Array; ids: Int32Array }[] | null {
  // Where each id sits in the open path.
  const at = new Map<number, number>();
  const pts: number[] = [];
  const path: number[] = [];
  const loops: { ring: Float64Array; ids: Int32Array }[] = [];
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    const seen = at.get(id);
    if (seen !== undefined) {
      if (path.length - seen >= 3)
        loops.push({ ring: Float64Array.from(pts.slice(2 * seen)), ids: Int32Array.from(path.slice(seen)) });
      for (let j = seen; j < path.length; j++) at.delete(path[j]);
      pts.length = 2 * seen;
      path.length = seen;
    }
    at.set(id, path.length);
    path.push(id);
    pts.push(ring[2 * k], ring[2 * k + 1]);
  }
  if (loops.length === 0) return null;
  if (path.length >= 3) loops.push({ ring: Float64Array.from(pts), ids: Int32Array.from(path) });
  return loops;
}

/** Drops vertices where the ring goes straight on (cut points of one segment), except those to keep. */
function dropStraightVertices(pts: number[], keepVertex: (x: number, y: number) => boolean): Float64Array {
  let n = pts.length >> 1;
  let keep = pts;
  for (let pass = 0; pass < 2 && n >= 3; pass++) {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = (i + n - 1) % n;
      const q = (i + 1) % n;
      const ax = keep[2 * i] - keep[2 * p];
      const ay = keep[2 * i + 1] - keep[2 * p + 1];
      const bx = keep[2 * q] - keep[2 * i];
      const by = keep[2 * q + 1] - keep[2 * i + 1];
      const cross = ax * by - ay * bx;
      const dot = ax * bx + ay * by;
      const straight = dot > 0 && Math.abs(cross) <= 1e-12 * Math.hypot(ax, ay) * Math.hypot(bx, by);
      if (straight && !keepVertex(keep[2 * i], keep[2 * i + 1])) continue;
      out.push(keep[2 * i], keep[2 * i + 1]);
    }
    if (out.length === keep.length) break;
    keep = out;
    n = keep.length >> 1;
  }
  return Float64Array.from(keep);
}

/**
 * Cuts a cell into trapezoids that no line segment crosses and hands each to
 * `classify` (by its centre) and then to `emit` with the code it got.
 * `lines` are flat lon/lat open lines; the cell is [x0, x1] × [y0, y1].
 */
export function trapezoids(
  lines: Float64Array[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  classify: (x: number, y: number) => number,
  emit: (code: number, yb: number, yt: number, xl0: number, xr0: number, xl1: number, xr1: number) => void,
): void {
  // Segments with ay < by, clipped in y to the cell; horizontal ones only ever lie on a cut.
  const seg: number[] = [];
  // Every vertex height is a cut: a horizontal edge (skipped below) bounds an answer too.
  const cuts: number[] = [y0, y1];
  for (const r of lines) {
    if (r.length >= 2 && r[1] > y0 && r[1] < y1) cuts.push(r[1]);
    for (let i = 2; i < r.length; i += 2) {
      let ax = r[i - 2],
        ay = r[i - 1],
        bx = r[i],
        by = r[i + 1];
      if (by > y0 && by < y1) cuts.push(by);
      if (ay === by) continue;
      if (ay > by) [ax, ay, bx, by] = [bx, by, ax, ay];
      if (by <= y0 || ay >= y1) continue;
      if (Math.max(ax, bx) <= x0 || Math.min(ax, bx) >= x1) continue;
      seg.push(ax, ay, bx, by);
    }
  }
  // The cell's sides are segments too, so every cut inside the cell meets them.
  seg.push(x0, y0, x0, y1, x1, y0, x1, y1);
  const ns = seg.length >> 2;
  const left = ns - 2;
  const right = ns - 1;
  // Proper crossings: y-overlap, x-overlap, then exact sign tests.
  for (let s = 0; s < ns; s++) {
    const sax = seg[4 * s],
      say = seg[4 * s + 1],
      sbx = seg[4 * s + 2],
      sby = seg[4 * s + 3];
    const sminx = Math.min(sax, sbx),
      smaxx = Math.max(sax, sbx);
    for (let t = s + 1; t < ns; t++) {
      const tax = seg[4 * t],
        tay = seg[4 * t + 1],
        tbx = seg[4 * t + 2],
        tby = seg[4 * t + 3];
      if (tay >= sby || tby <= say) continue;
      if (Math.max(tax, tbx) <= sminx || Math.min(tax, tbx) >= smaxx) continue;
      const d1 = (sbx - sax) * (tay - say) - (sby - say) * (tax - sax);
      const d2 = (sbx - sax) * (tby - say) - (sby - say) * (tbx - sax);
      if (d1 === 0 || d2 === 0 || d1 > 0 === d2 > 0) continue;
      const d3 = (tbx - tax) * (say - tay) - (tby - tay) * (sax - tax);
      const d4 = (tbx - tax) * (sby - tay) - (tby - tay) * (sbx - tax);
      if (d3 === 0 || d4 === 0 || d3 > 0 === d4 > 0) continue;
      // d1, d2 are the sides of t's ends relative to s: the crossing is that far along t.
      const y = tay + (tby - tay) * (d1 / (d1 - d2));
      if (y > y0 && y < y1) cuts.push(y);
    }
  }
  const ys = [...new Set(cuts)].sort((a, b) => a - b);

  // x of every segment at every cut, computed once so that both slabs meeting
  // at a cut use the same numbers; values a rounding apart are made equal.
  const active: number[] = [];
  const xsAt: Map<number, number>[] = [];
  for (let k = 0; k < ys.length; k++) {
    const y = ys[k];
    const list: [number, number][] = [];
    for (let s = 0; s < ns; s++) {
      const ay = seg[4 * s + 1],
        by = seg[4 * s + 3];
      if (ay > y || by < y) continue;
      const ax = seg[4 * s],
        bx = seg[4 * s + 2];
      const x = y === ay ? ax : y === by ? bx : ax + ((bx - ax) * (y - ay)) / (by - ay);
      list.push([s, x]);
    }
    list.sort((a, b) => a[1] - b[1]);
    // Runs of values a rounding apart take one value: the cell side's when a side is among them.
    const eps = 1e-12 * Math.max(1, Math.abs(x0), Math.abs(x1));
    for (let i = 0; i < list.length; ) {
      let j = i + 1;
      while (j < list.length && list[j][1] - list[j - 1][1] <= eps) j++;
      let v = list[i][1];
      for (let k = i; k < j; k++) if (list[k][0] === left) v = x0;
      for (let k = i; k < j; k++) if (list[k][0] === right) v = x1;
      for (let k = i; k < j; k++) list[k][1] = v;
      i = j;
    }
    const m = new Map<number, number>();
    for (const [s, x] of list) m.set(s, s === left ? x0 : s === right ? x1 : Math.min(x1, Math.max(x0, x)));
    xsAt.push(m);
  }
  for (let k = 0; k + 1 < ys.length; k++) {
    const yb = ys[k];
    const yt = ys[k + 1];
    const bottom = xsAt[k];
    const top = xsAt[k + 1];
    active.length = 0;
    for (let s = 0; s < ns; s++) {
      if (seg[4 * s + 1] > yb || seg[4 * s + 3] < yt) continue;
      const xb = bottom.get(s)!;
      const xt = top.get(s)!;
      // Outside the cell in this slab (crossings with the sides are cuts): no part of the answer.
      if (s !== left && s !== right && (xb + xt) / 2 <= x0) continue;
      if (s !== left && s !== right && (xb + xt) / 2 >= x1) continue;
      active.push(s);
    }
    active.sort((a, b) => {
      const d = bottom.get(a)! + top.get(a)! - bottom.get(b)! - top.get(b)!;
      if (d !== 0) return d;
      return a === left ? -1 : b === left ? 1 : a === right ? 1 : b === right ? -1 : 0;
    });
    let runCode = NaN;
    let rl0 = 0,
      rl1 = 0,
      rr0 = 0,
      rr1 = 0;
    for (let i = 0; i + 1 < active.length; i++) {
      const xl0 = bottom.get(active[i])!,
        xl1 = top.get(active[i])!;
      const xr0 = bottom.get(active[i + 1])!,
        xr1 = top.get(active[i + 1])!;
      if (xr0 <= xl0 && xr1 <= xl1) continue;
      const code = classify((xl0 + xr0 + xl1 + xr1) / 4, (yb + yt) / 2);
      if (code === runCode && rr0 === xl0 && rr1 === xl1) {
        rr0 = xr0;
        rr1 = xr1;
        continue;
      }
      if (runCode === runCode) emit(runCode, yb, yt, rl0, rr0, rl1, rr1);
      runCode = code;
      rl0 = xl0;
      rl1 = xl1;
      rr0 = xr0;
      rr1 = xr1;
    }
    if (runCode === runCode) emit(runCode, yb, yt, rl0, rr0, rl1, rr1);
  }
}
