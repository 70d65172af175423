// Sutherland–Hodgman clipping of flat rings [x0, y0, x1, y1, …] (not closed) against a window.
// A concave ring may leave zero-width bridges along the window border: they cancel in even-odd
// tests, and the runtime never tests a point on the border (windows carry a margin).

export type Ring = Float64Array;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Widens `into` to hold `b`. */
export function growBox(into: Box, b: Box): void {
  into.x0 = Math.min(into.x0, b.x0);
  into.y0 = Math.min(into.y0, b.y0);
  into.x1 = Math.max(into.x1, b.x1);
  into.y1 = Math.max(into.y1, b.y1);
}

const scratchA: number[] = [];
const scratchB: number[] = [];

function clipEdge(src: number[], n: number, out: number[], axis: 0 | 1, bound: number, keepAbove: boolean): number {
  let m = 0;
  if (n === 0) return 0;
  let px = src[2 * n - 2];
  let py = src[2 * n - 1];
  let pIn = keepAbove ? (axis === 0 ? px : py) >= bound : (axis === 0 ? px : py) <= bound;
  for (let i = 0; i < n; i++) {
    const x = src[2 * i];
    const y = src[2 * i + 1];
    const v = axis === 0 ? x : y;
    const inside = keepAbove ? v >= bound : v <= bound;
    if (inside !== pIn) {
      // The crossing point lies exactly on the bound so clipped pieces share borders bit for bit.
      if (axis === 0) {
        const t = (bound - px) / (x - px);
        out[m++] = bound;
        out[m++] = py + (y - py) * t;
      } else {
        const t = (bound - py) / (y - py);
        out[m++] = px + (x - px) * t;
        out[m++] = bound;
      }
    }
    if (inside) {
      out[m++] = x;
      out[m++] = y;
    }
    px = x;
    py = y;
    pIn = inside;
  }
  return m >> 1;
}

/** Clips a ring to the box; returns null when nothing with area is left. */
export function clipRing(ring: Ring, box: Box): Ring | null {
  const n0 = ring.length >> 1;
  // Fast accept / reject on the ring's extent.
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i],
      y = ring[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (minX >= box.x0 && maxX <= box.x1 && minY >= box.y0 && maxY <= box.y1) return ring;
  if (maxX <= box.x0 || minX >= box.x1 || maxY <= box.y0 || minY >= box.y1) return null;

  const a = scratchA;
  const b = scratchB;
  for (let i = 0; i < ring.length; i++) a[i] = ring[i];
  let n = n0;
  n = clipEdge(a, n, b, 0, box.x0, true);
  n = clipEdge(b, n, a, 0, box.x1, false);
  n = clipEdge(a, n, b, 1, box.y0, true);
  n = clipEdge(b, n, a, 1, box.y1, false);
  if (n < 3) return null;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i++) out[i] = a[i];
  if (Math.abs(ringArea(out)) === 0) return null;
  return out;
}

/** Signed shoelace area, computed relative to the first vertex for precision. */
export function ringArea(ring: Ring): number {
  const n = ring.length >> 1;
  if (n < 3) return 0;
  const ox = ring[0],
    oy = ring[1];
  let s = 0;
  let jx = ring[2 * n - 2] - ox,
    jy = ring[2 * n - 1] - oy;
  for (let i = 0; i < n; i++) {
    const ix = ring[2 * i] - ox,
      iy = ring[2 * i + 1] - oy;
    s += jx * iy - ix * jy;
    jx = ix;
    jy = iy;
  }
  return s / 2;
}

/** Area of a polygon part given as [outer, ...holes]. */
export function partArea(rings: Ring[]): number {
  if (rings.length === 0) return 0;
  let a = Math.abs(ringArea(rings[0]));
  for (let i = 1; i < rings.length; i++) a -= Math.abs(ringArea(rings[i]));
  return a;
}

/** Clips a polygon part; null when the outer ring leaves nothing in the box. */
export function clipPart(rings: Ring[], box: Box): Ring[] | null {
  const outer = clipRing(rings[0], box);
  if (!outer) return null;
  const out = [outer];
  for (let i = 1; i < rings.length; i++) {
    const h = clipRing(rings[i], box);
    if (h) out.push(h);
  }
  return out;
}

/**
 * Distance from (x, y) to segment a-b in degrees of latitude, on the local equirectangular plane
 * where a degree of longitude is `cos` of one (the caller's cosine of y).
 */
export function segmentDistance(
  x: number,
  y: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cos: number,
): number {
  const px = (ax - x) * cos,
    py = ay - y;
  const dx = (bx - x) * cos - px,
    dy = by - y - py;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, -(px * dx + py * dy) / len2)) : 0;
  const qx = px + t * dx,
    qy = py + t * dy;
  return Math.sqrt(qx * qx + qy * qy);
}

/** Calls `f` with the x of each ring edge the horizontal line at `y` crosses (half-open in y). */
function forEachCrossing(rings: Ring[], y: number, f: (x: number) => void): void {
  for (const r of rings) {
    const n = r.length;
    let j = n - 2;
    for (let i = 0; i < n; i += 2) {
      const yi = r[i + 1],
        yj = r[j + 1];
      if (yi > y !== yj > y) f(((r[j] - r[i]) * (y - yi)) / (yj - yi) + r[i]);
      j = i;
    }
  }
}

/**
 * A point inside a part under partContains' even-odd rule: the middle of the widest span the
 * horizontal line through the middle of the bounding box has inside the part.
 */
export function interiorPoint(rings: Ring[], box: Box): [number, number] {
  const y = (box.y0 + box.y1) / 2;
  const xs: number[] = [];
  forEachCrossing(rings, y, (x) => xs.push(x));
  xs.sort((a, b) => a - b);
  let best = 0;
  for (let k = 2; k < xs.length; k += 2) if (xs[k + 1] - xs[k] > xs[best + 1] - xs[best]) best = k;
  return [(xs[best] + xs[best + 1]) / 2, y];
}

/** Even-odd point-in-polygon over all rings of a part. */
export function partContains(rings: Ring[], x: number, y: number): boolean {
  let inside = false;
  forEachCrossing(rings, y, (cx) => {
    if (x < cx) inside = !inside;
  });
  return inside;
}
