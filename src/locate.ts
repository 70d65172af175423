// The hot path: coordinates → region id. Reads typed arrays only; allocates nothing.

import type { Dataset } from './dataset.js';

/**
 * Region id at (lat, lon), 0 when no country holds the point. Inputs must be
 * validated finite numbers within range. Longitude 180 is folded onto -180 and
 * latitude 90 lands in the top row, so both edges of the map answer.
 */
export function locate(ds: Dataset, lat: number, lon: number): number {
  let x = lon + 180;
  if (x >= 360) x -= 360;
  const y = lat + 90;
  const col = x | 0;
  let row = y | 0;
  if (row === 180) row = 179;
  let fx = x - col;
  let fy = y - row;
  let e = ds.grid[row * 360 + col];
  let tag = e >>> 30;
  if (tag === 0) return e;

  const blocks = ds.blocks;
  const fanouts = ds.fanouts;
  const maxDepth = fanouts.length;
  let depth = 0;
  while (tag === 1) {
    if (depth === maxDepth) return 0; // only a damaged file gets here; checkEntries rules it out
    const f = fanouts[depth++];
    const sx = fx * f;
    const sy = fy * f;
    let cx = sx | 0;
    let cy = sy | 0;
    if (cx === f) cx--;
    if (cy === f) cy--;
    fx = sx - cx;
    fy = sy - cy;
    e = blocks[(e & 0x3fffffff) + cy * f + cx];
    tag = e >>> 30;
  }
  if (tag === 0) return e;

  const px = (fx + ds.margin) * ds.qscale;
  const py = (fy + ds.margin) * ds.qscale;
  do {
    e = evalRecord(ds.records, ds.coords, e & 0x3fffffff, px, py);
  } while (e >>> 30 === 2);
  return e;
}

/** First item whose rings hold (px, py) under the even-odd rule, else the record's default. */
function evalRecord(rec: Uint32Array, coords: Uint16Array, r: number, px: number, py: number): number {
  const n = rec[r];
  let p = r + 2;
  for (let i = 0; i < n; i++) {
    const entry = rec[p];
    const rings = rec[p + 1];
    p += 2;
    let inside = false;
    for (let k = 0; k < rings; k++, p += 2) {
      const start = rec[p] << 1;
      const end = start + (rec[p + 1] << 1);
      let j = end - 2;
      for (let q = start; q < end; q += 2) {
        const yq = coords[q + 1];
        const yj = coords[j + 1];
        if (yq > py !== yj > py) {
          const xq = coords[q];
          if (px < ((coords[j] - xq) * (py - yq)) / (yj - yq) + xq) inside = !inside;
        }
        j = q;
      }
    }
    if (inside) return entry;
  }
  return rec[r + 1];
}
