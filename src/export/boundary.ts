// The boundary of a set of codes inside one leaf cell, straight from the leaf's lines: the
// lines cut the cell into faces of one answer each, so a piece of line bounds the set exactly
// when the answers on its two sides differ in membership. Each chain of pieces between
// junctions is classified once, by the lookup itself at two points beside it, so the boundary
// agrees with the lookup by construction, at a fraction of the trapezoids' cost (geometry.ts).

import type { EdgeSet } from './geometry.js';

/** Offsets of the points classified beside a line: at most 1 cm, and inside the piece's free disc. */
const MAX_OFFSET = 1e-7;
/**
 * A free disc narrower than this (0.1 mm) is a sliver between two nearly coincident lines, where a
 * point beside one line could round onto the other: the leaf is left to the trapezoids.
 */
const MIN_RADIUS = 1e-9;

/**
 * Adds to `set` the directed edges (the set on the left) bounding, inside the cell
 * [x0, x1] × [y0, y1], the points whose code `classify` gives and `holds` accepts: line pieces with
 * the set on one side only, and the pieces of the cell's sides with the set inside. False, adding
 * nothing, for a leaf with a sliver too thin to classify beside (then use trapezoids).
 */
export function leafBoundary(
  lines: Float64Array[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  classify: (x: number, y: number) => number,
  holds: (code: number) => boolean,
  target: EdgeSet,
): boolean {
  const out: number[] = [];
  const set = { add: (ax: number, ay: number, bx: number, by: number) => out.push(ax, ay, bx, by) };
  let thin = false;
  const seg = clippedSegments(lines, x0, y0, x1, y1);
  const { pieces, id } = uniquePieces(splitSegments(seg));
  const n = pieces.length >> 2;
  const inward = (sx: number, sy: number, nx: number, ny: number): boolean => {
    const r = freeRadius(pieces, -1, sx, sy, x0, y0, x1, y1, true);
    if (r < MIN_RADIUS) thin = true;
    const d = Math.min(r / 2, MAX_OFFSET);
    return holds(classify(sx + d * nx, sy + d * ny));
  };
  // Endpoint 2p is piece p's start, 2p + 1 its end; `at` lists the endpoints at each point.
  const points = id.length ? Math.max(...id) + 1 : 0;
  const first = new Int32Array(points + 1);
  for (let e = 0; e < id.length; e++) first[id[e] + 1]++;
  for (let v = 0; v < points; v++) first[v + 1] += first[v];
  const at = new Int32Array(id.length);
  const fill = first.slice(0, points);
  for (let e = 0; e < id.length; e++) at[fill[id[e]]++] = e;
  // Chains: pieces joined at points where exactly two pieces meet have the same faces beside them.
  const used = new Uint8Array(n);
  const chain: number[] = [];
  const before: number[] = [];
  for (let p = 0; p < n; p++) {
    if (used[p]) continue;
    used[p] = 1;
    // Signed entries: piece q walked forward (a → b) as q + 1, backward as -(q + 1).
    chain.length = 0;
    before.length = 0;
    chain.push(p + 1);
    let head = 2 * p + 1;
    for (;;) {
      const v = id[head];
      if (first[v + 1] - first[v] !== 2) break;
      const other = at[first[v]] === head ? at[first[v] + 1] : at[first[v]];
      const q = other >> 1;
      if (used[q]) break;
      used[q] = 1;
      const forward = (other & 1) === 0;
      chain.push(forward ? q + 1 : -(q + 1));
      head = forward ? 2 * q + 1 : 2 * q;
    }
    let tail = 2 * p;
    for (;;) {
      const v = id[tail];
      if (first[v + 1] - first[v] !== 2) break;
      const other = at[first[v]] === tail ? at[first[v] + 1] : at[first[v]];
      const q = other >> 1;
      if (used[q]) break;
      used[q] = 1;
      const forward = (other & 1) === 1;
      before.push(forward ? q + 1 : -(q + 1));
      tail = forward ? 2 * q : 2 * q + 1;
    }
    for (const c of before) chain.push(c);
    // Classify beside the chain's longest piece (the widest free disc is the safest), or any
    // other of it whose disc is wide enough.
    let longest = 0;
    for (let i = 1; i < chain.length; i++)
      if (length(pieces, Math.abs(chain[i]) - 1) > length(pieces, Math.abs(chain[longest]) - 1)) longest = i;
    let best = 0;
    let bestR = -1;
    for (let j = 0; j < chain.length; j++) {
      const i = j === 0 ? longest : j === longest ? 0 : j;
      const q = Math.abs(chain[i]) - 1;
      const mx = (pieces[4 * q] + pieces[4 * q + 2]) / 2;
      const my = (pieces[4 * q + 1] + pieces[4 * q + 3]) / 2;
      const r = freeRadius(pieces, q, mx, my, x0, y0, x1, y1, false);
      if (r > bestR) {
        bestR = r;
        best = chain[i];
      }
      if (r >= MIN_RADIUS) break;
    }
    if (bestR < MIN_RADIUS) return false;
    const q = Math.abs(best) - 1;
    const ax = pieces[4 * q],
      ay = pieces[4 * q + 1],
      bx = pieces[4 * q + 2],
      by = pieces[4 * q + 3];
    const d = Math.min(bestR / 2, MAX_OFFSET) / Math.hypot(bx - ax, by - ay);
    const mx = (ax + bx) / 2;
    const my = (ay + by) / 2;
    // Left of a → b is (-(by - ay), bx - ax).
    const left = holds(classify(mx - d * (by - ay), my + d * (bx - ax)));
    const right = holds(classify(mx + d * (by - ay), my - d * (bx - ax)));
    if (left === right) continue;
    // The set lies left of the chain's direction when it lies left of `best` walked its way.
    const alongChain = left === best > 0;
    for (const c of chain) {
      const k = Math.abs(c) - 1;
      if (c > 0 === alongChain) set.add(pieces[4 * k], pieces[4 * k + 1], pieces[4 * k + 2], pieces[4 * k + 3]);
      else set.add(pieces[4 * k + 2], pieces[4 * k + 3], pieces[4 * k], pieces[4 * k + 1]);
    }
  }
  // The cell's sides, cut where pieces end on them, counter-clockwise.
  sideEdges(pieces, x0, y0, x1, y1, inward, set);
  if (thin) return false;
  for (let i = 0; i < out.length; i += 4) target.add(out[i], out[i + 1], out[i + 2], out[i + 3]);
  return true;
}

type Sink = Pick<EdgeSet, 'add'>;

function length(pieces: number[], p: number): number {
  return Math.hypot(pieces[4 * p + 2] - pieces[4 * p], pieces[4 * p + 3] - pieces[4 * p + 1]);
}

/** The pieces once each (a piece and its reverse are one), with their endpoints' ids (pointIds). */
function uniquePieces(all: number[]): { pieces: number[]; id: Int32Array } {
  const ids = pointIds(all);
  const n = all.length >> 2;
  const points = ids.length;
  // Sorted keys (point pair · 2^20 + piece): equal pairs side by side; exact below 2^53, as a
  // record (at most 1,024 words) has far fewer than 2^16 points.
  const keys = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const a = ids[2 * p];
    const b = ids[2 * p + 1];
    keys[p] = (a < b ? a * points + b : b * points + a) * 1048576 + p;
  }
  keys.sort();
  const drop = new Uint8Array(n);
  let dropped = false;
  for (let i = 1; i < n; i++)
    if (Math.floor(keys[i] / 1048576) === Math.floor(keys[i - 1] / 1048576)) {
      drop[keys[i] % 1048576] = 1;
      dropped = true;
    }
  if (!dropped) return { pieces: all, id: ids };
  const pieces: number[] = [];
  const keep: number[] = [];
  for (let p = 0; p < n; p++) {
    if (drop[p]) continue;
    pieces.push(all[4 * p], all[4 * p + 1], all[4 * p + 2], all[4 * p + 3]);
    keep.push(ids[2 * p], ids[2 * p + 1]);
  }
  return { pieces, id: Int32Array.from(keep) };
}

/**
 * An id per endpoint (2p: piece p's start, 2p + 1: its end), equal for equal points: sorted by x,
 * then y.
 */
function pointIds(pieces: number[]): Int32Array {
  const m = pieces.length >> 1;
  const order = new Int32Array(m);
  for (let e = 0; e < m; e++) order[e] = e;
  order.sort((a, b) => pieces[2 * a] - pieces[2 * b] || pieces[2 * a + 1] - pieces[2 * b + 1]);
  const id = new Int32Array(m);
  let next = -1;
  for (let i = 0; i < m; i++) {
    const e = order[i];
    const f = i > 0 ? order[i - 1] : -1;
    if (f < 0 || pieces[2 * e] !== pieces[2 * f] || pieces[2 * e + 1] !== pieces[2 * f + 1]) next++;
    id[e] = next;
  }
  return id;
}

/** The cell's four sides, cut at the pieces' ends on them; the parts with the set inside, counter-clockwise. */
function sideEdges(
  pieces: number[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  inward: (sx: number, sy: number, nx: number, ny: number) => boolean,
  set: Sink,
): void {
  const bottom = [x0, x1];
  const top = [x0, x1];
  const left = [y0, y1];
  const right = [y0, y1];
  for (let i = 0; i < pieces.length; i += 2) {
    const x = pieces[i];
    const y = pieces[i + 1];
    if (y === y0) bottom.push(x);
    if (y === y1) top.push(x);
    if (x === x0) left.push(y);
    if (x === x1) right.push(y);
  }
  const run = (cuts: number[], at: (u: number, v: number) => boolean, add: (u: number, v: number) => void) => {
    const c = Float64Array.from(cuts).sort();
    let start = NaN;
    for (let i = 0; i + 1 < c.length; i++) {
      if (c[i] === c[i + 1]) continue;
      const inside = at(c[i], c[i + 1]);
      if (inside && start !== start) start = c[i];
      if (!inside && start === start) {
        add(start, c[i]);
        start = NaN;
      }
    }
    if (start === start) add(start, c[c.length - 1]);
  };
  run(
    bottom,
    (u, v) => inward((u + v) / 2, y0, 0, 1),
    (u, v) => set.add(u, y0, v, y0),
  );
  run(
    right,
    (u, v) => inward(x1, (u + v) / 2, -1, 0),
    (u, v) => set.add(x1, u, x1, v),
  );
  run(
    top,
    (u, v) => inward((u + v) / 2, y1, 0, -1),
    (u, v) => set.add(v, y1, u, y1),
  );
  run(
    left,
    (u, v) => inward(x0, (u + v) / 2, 1, 0),
    (u, v) => set.add(x0, v, x0, u),
  );
}

/**
 * Distance from (mx, my) to the nearest piece other than `self`, and to the cell's sides (but the
 * one the point lies on, when `onSide`), capped at twice the largest offset: no line comes closer,
 * so the points beside it within that distance lie in the faces next to it.
 */
function freeRadius(
  pieces: number[],
  self: number,
  mx: number,
  my: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  onSide: boolean,
): number {
  // Only distances under twice the largest offset matter: farther pieces are rejected by their box.
  let r = 2 * MAX_OFFSET;
  if (mx - x0 < r && (!onSide || mx > x0)) r = mx - x0;
  if (x1 - mx < r && (!onSide || mx < x1)) r = x1 - mx;
  if (my - y0 < r && (!onSide || my > y0)) r = my - y0;
  if (y1 - my < r && (!onSide || my < y1)) r = y1 - my;
  const n = pieces.length >> 2;
  for (let p = 0; p < n; p++) {
    if (p === self) continue;
    const ax = pieces[4 * p],
      ay = pieces[4 * p + 1];
    const dx = pieces[4 * p + 2] - ax,
      dy = pieces[4 * p + 3] - ay;
    // Quick reject by the box.
    const bx0 = Math.min(ax, ax + dx),
      bx1 = Math.max(ax, ax + dx);
    const by0 = Math.min(ay, ay + dy),
      by1 = Math.max(ay, ay + dy);
    if (mx < bx0 - r || mx > bx1 + r || my < by0 - r || my > by1 + r) continue;
    const t = Math.max(0, Math.min(1, ((mx - ax) * dx + (my - ay) * dy) / (dx * dx + dy * dy)));
    const d = Math.hypot(ax + t * dx - mx, ay + t * dy - my);
    if (d < r) r = d;
  }
  return r;
}

/** The lines' segments clipped to the closed cell, those lying on a side left out (the sides are handled apart). */
function clippedSegments(lines: Float64Array[], x0: number, y0: number, x1: number, y1: number): number[] {
  const out: number[] = [];
  for (const l of lines)
    for (let i = 2; i < l.length; i += 2) {
      let ax = l[i - 2],
        ay = l[i - 1],
        bx = l[i],
        by = l[i + 1];
      if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
      if (ax === bx && ay === by) continue;
      // Liang-Barsky on the closed cell; clipped ends are set exactly on the side they meet.
      let t0 = 0;
      let t1 = 1;
      const dx = bx - ax;
      const dy = by - ay;
      let ok = true;
      const clip = (p: number, q: number) => {
        if (p === 0) {
          if (q < 0) ok = false;
          return;
        }
        const r = q / p;
        if (p < 0) {
          if (r > t1) ok = false;
          else if (r > t0) t0 = r;
        } else if (r < t0) ok = false;
        else if (r < t1) t1 = r;
      };
      clip(-dx, ax - x0);
      clip(dx, x1 - ax);
      clip(-dy, ay - y0);
      clip(dy, y1 - ay);
      if (!ok || t0 >= t1) continue;
      const cx0 = t0 > 0 ? snap(ax + t0 * dx, x0, x1) : ax;
      const cy0 = t0 > 0 ? snap(ay + t0 * dy, y0, y1) : ay;
      const cx1 = t1 < 1 ? snap(ax + t1 * dx, x0, x1) : bx;
      const cy1 = t1 < 1 ? snap(ay + t1 * dy, y0, y1) : by;
      ax = cx0;
      ay = cy0;
      bx = cx1;
      by = cy1;
      if (ax === bx && ay === by) continue;
      if ((ax === bx && (ax === x0 || ax === x1)) || (ay === by && (ay === y0 || ay === y1))) continue;
      out.push(ax, ay, bx, by);
    }
  return out;
}

/** A clipped coordinate, onto the cell's side when a rounding away from it. */
function snap(v: number, lo: number, hi: number): number {
  const eps = 1e-12 * Math.max(1, Math.abs(lo), Math.abs(hi));
  if (Math.abs(v - lo) <= eps || v < lo) return lo;
  if (Math.abs(v - hi) <= eps || v > hi) return hi;
  return v;
}

/**
 * Segments cut at every crossing and at every end of one lying on another, so each piece has one
 * face on each side; duplicates (either direction) once.
 */
function splitSegments(seg: number[]): number[] {
  const n = seg.length >> 2;
  const cuts: (number[] | undefined)[] = new Array(n);
  for (let s = 0; s < n; s++) {
    const sax = seg[4 * s],
      say = seg[4 * s + 1],
      sbx = seg[4 * s + 2],
      sby = seg[4 * s + 3];
    const sx0 = Math.min(sax, sbx),
      sx1 = Math.max(sax, sbx),
      sy0 = Math.min(say, sby),
      sy1 = Math.max(say, sby);
    for (let t = s + 1; t < n; t++) {
      const tax = seg[4 * t],
        tay = seg[4 * t + 1],
        tbx = seg[4 * t + 2],
        tby = seg[4 * t + 3];
      if (Math.max(tax, tbx) < sx0 || Math.min(tax, tbx) > sx1) continue;
      if (Math.max(tay, tby) < sy0 || Math.min(tay, tby) > sy1) continue;
      const d1 = (sbx - sax) * (tay - say) - (sby - say) * (tax - sax);
      const d2 = (sbx - sax) * (tby - say) - (sby - say) * (tbx - sax);
      const d3 = (tbx - tax) * (say - tay) - (tby - tay) * (sax - tax);
      const d4 = (tbx - tax) * (sby - tay) - (tby - tay) * (sbx - tax);
      if (d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) {
        if (d1 > 0 === d2 > 0 || d3 > 0 === d4 > 0) continue;
        // A proper crossing: one point, shared exactly by both.
        const f = d1 / (d1 - d2);
        const px = tax + (tbx - tax) * f;
        const py = tay + (tby - tay) * f;
        (cuts[s] ??= []).push(px, py);
        (cuts[t] ??= []).push(px, py);
        continue;
      }
      // Touches: an end of one on the other (collinear overlaps give both ends).
      if (d1 === 0 && strictlyWithin(sax, say, sbx, sby, tax, tay)) (cuts[s] ??= []).push(tax, tay);
      if (d2 === 0 && strictlyWithin(sax, say, sbx, sby, tbx, tby)) (cuts[s] ??= []).push(tbx, tby);
      if (d3 === 0 && strictlyWithin(tax, tay, tbx, tby, sax, say)) (cuts[t] ??= []).push(sax, say);
      if (d4 === 0 && strictlyWithin(tax, tay, tbx, tby, sbx, sby)) (cuts[t] ??= []).push(sbx, sby);
    }
  }
  const out: number[] = [];
  const put = (ax: number, ay: number, bx: number, by: number) => {
    if (ax !== bx || ay !== by) out.push(ax, ay, bx, by);
  };
  for (let s = 0; s < n; s++) {
    const ax = seg[4 * s],
      ay = seg[4 * s + 1],
      bx = seg[4 * s + 2],
      by = seg[4 * s + 3];
    const c = cuts[s];
    if (c === undefined) {
      put(ax, ay, bx, by);
      continue;
    }
    // Order the cut points along the segment.
    const dx = bx - ax;
    const dy = by - ay;
    const ts: [number, number, number][] = [];
    for (let i = 0; i < c.length; i += 2)
      ts.push([((c[i] - ax) * dx + (c[i + 1] - ay) * dy) / (dx * dx + dy * dy), c[i], c[i + 1]]);
    ts.sort((p, q) => p[0] - q[0]);
    let px = ax;
    let py = ay;
    for (const [, x, y] of ts) {
      put(px, py, x, y);
      px = x;
      py = y;
    }
    put(px, py, bx, by);
  }
  return out;
}

/** Whether (px, py), on the line through a and b, lies strictly between them. */
function strictlyWithin(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  if ((px === ax && py === ay) || (px === bx && py === by)) return false;
  return ax !== bx ? (px - ax) * (px - bx) < 0 : (py - ay) * (py - by) < 0;
}
