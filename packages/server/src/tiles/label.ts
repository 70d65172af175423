// Where a part's code is written: the point inside it farthest from its outline (polylabel),
// with the part's size, so the map writes larger parts' codes first when labels collide.

import polylabel from 'polylabel';

/** A label point of one polygon ([outer, ...holes], lon/lat) and its area in square degrees. */
export function labelPoint(polygon: number[][][]): { at: [number, number]; area: number } {
  const outer = polygon[0];
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const [x, y] of outer) {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  let area = 0;
  for (let r = 0; r < polygon.length; r++) {
    const ring = polygon[r];
    let s = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
      s += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
    area += r === 0 ? Math.abs(s / 2) : -Math.abs(s / 2);
  }
  // A hundredth of the part's size: placement, not survey.
  const p = polylabel(polygon, Math.max(x1 - x0, y1 - y0) / 100 || 1e-9);
  return { at: [p[0], p[1]], area: Math.max(0, area) };
}
