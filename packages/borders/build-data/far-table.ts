// The far table of a layer: per 1/4° cell, the distance from its centre to the nearest place where
// the layer's answer changes, rounded down to FAR_UNIT_M and capped at FAR_CAP_M. With the
// distance from a point to its cell's centre it bounds the point's distance to every border from
// below, so a point farther than the caller's radius answers without a search
// (packages/borders/src/borders.ts).

import { FAR_CAP_M, FAR_CELLS_PER_DEGREE, FAR_COLS, FAR_UNIT_M, type Layer } from '../src/layout.js';
import type { BorderSearch, Nearest } from '../src/search.js';

/** Rows `from` to `to` (exclusive) of the layer's far table. */
export function farRows(search: BorderSearch, layer: Layer, from: number, to: number): Uint8Array {
  const far = new Uint8Array((to - from) * FAR_COLS).fill(FAR_CAP_M / FAR_UNIT_M);
  const found: Nearest = { metres: -1, code: -1 };
  for (let row = from; row < to; row++) {
    const lat = -90 + (row + 0.5) / FAR_CELLS_PER_DEGREE;
    for (let col = 0; col < FAR_COLS; col++) {
      const lon = -180 + (col + 0.5) / FAR_CELLS_PER_DEGREE;
      search.nearest(lat, lon, FAR_CAP_M, layer, found);
      if (found.metres >= 0) far[(row - from) * FAR_COLS + col] = Math.floor(found.metres / FAR_UNIT_M);
    }
  }
  return far;
}
