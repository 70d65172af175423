// The hot path: coordinates → region id (or country index). Reads typed arrays
// only and allocates nothing; the cell position found by the descent is kept
// in module scratch variables rather than returned in an object.

import type { Dataset } from './dataset.js';
import { NO_REGION16 } from './layout.js';

let fx = 0;
let fy = 0;

/**
 * Descends the grid and child blocks to the leaf entry holding (lat, lon) and
 * leaves the point's position inside that leaf cell in (fx, fy). Inputs must be
 * validated finite numbers in range. Longitude 180 folds onto -180 and latitude
 * 90 lands in the top row, so both edges of the map answer. With `countryOnly`,
 * stops early in a cell that holds a single country and returns -(country + 2)
 * (-1 for no country).
 */
function descend(ds: Dataset, lat: number, lon: number, countryOnly: boolean): number {
  let x = lon + 180;
  if (x >= 360) x -= 360;
  const y = lat + 90;
  const col = x | 0;
  let row = y | 0;
  if (row === 180) row = 179;
  const cell = row * 360 + col;
  if (countryOnly) {
    const u = ds.gridCountry[cell];
    if (u !== 0) return -u;
  }
  let e = ds.grid[cell];
  if (e >>> 30 !== 1) {
    fx = x - col;
    fy = y - row;
    return e;
  }
  let px = x - col;
  let py = y - row;
  const blocks = ds.blocks;
  const blockCountry = ds.blockCountry;
  const blockRegion = ds.blockRegion;
  const fanouts = ds.fanouts;
  const maxDepth = fanouts.length;
  let depth = 0;
  do {
    if (depth === maxDepth) return 0; // only a damaged file gets here; checkEntries rules it out
    const f = fanouts[depth++];
    const sx = px * f;
    const sy = py * f;
    let cx = sx | 0;
    let cy = sy | 0;
    if (cx === f) cx--;
    if (cy === f) cy--;
    px = sx - cx;
    py = sy - cy;
    const at = (e & 0x3fffffff) + cy * f + cx;
    if (countryOnly) {
      const u = blockCountry[at];
      if (u !== 0) return -u;
    } else {
      // Full children are most children: their region sits in the half-size Uint16 mirror.
      const r = blockRegion[at];
      if (r !== NO_REGION16) return r;
    }
    e = blocks[at];
  } while (e >>> 30 === 1);
  fx = px;
  fy = py;
  return e;
}

/** Region id at (lat, lon), 0 when no country holds the point. */
export function locate(ds: Dataset, lat: number, lon: number): number {
  let e = descend(ds, lat, lon, false);
  if (e >>> 30 === 0) return e;
  const px = (fx + ds.margin) * ds.qscale;
  const py = (fy + ds.margin) * ds.qscale;
  do e = evalRecord(ds.records, ds.coords, e & 0x3fffffff, px, py);
  while (e >>> 30 === 2);
  return e;
}

/**
 * Country index at (lat, lon), -1 when none. Stops at a record that lists one
 * country's subdivisions (its header names the country), so country lookups
 * never test subdivision borders.
 */
export function locateCountry(ds: Dataset, lat: number, lon: number): number {
  let e = descend(ds, lat, lon, true);
  if (e < 0) return -e - 2;
  if (e >>> 30 === 0) return ds.regionCountry[e];
  const records = ds.records;
  let px = -1;
  let py = -1;
  do {
    const r = e & 0x3fffffff;
    const country = records[r + 2];
    if (country !== 0) return country - 1;
    if (px < 0) {
      px = (fx + ds.margin) * ds.qscale;
      py = (fy + ds.margin) * ds.qscale;
    }
    e = evalRecord(records, ds.coords, r, px, py);
  } while (e >>> 30 === 2);
  return ds.regionCountry[e];
}

/** First item whose rings hold (px, py) under the even-odd rule, else the record's default. */
function evalRecord(rec: Uint32Array, coords: Uint16Array, r: number, px: number, py: number): number {
  const n = rec[r];
  let p = r + 3;
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
