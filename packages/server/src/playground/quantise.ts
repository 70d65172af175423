// Display precision for the map: coordinates rounded to a few decimals, repeated vertices dropped.
// A country from the full dataset has tens of thousands of vertices; a map at world scale needs a
// fraction of them, and the browser parses and projects every one.

import type { MultiPolygon } from 'geolookup';

/** `g` with coordinates rounded to `digits` decimals; rings that collapse are dropped (with their holes for an outer ring). */
export function quantise(g: MultiPolygon, digits: number): MultiPolygon {
  const f = 10 ** digits;
  const coordinates: number[][][][] = [];
  for (const polygon of g.coordinates) {
    const rings: number[][][] = [];
    for (const ring of polygon) {
      const out: number[][] = [];
      for (const [x, y] of ring) {
        const p = [Math.round(x * f) / f, Math.round(y * f) / f];
        const last = out[out.length - 1];
        if (last === undefined || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
      }
      // The closing vertex repeats the first one: a ring needs three others.
      if (out.length >= 4) rings.push(out);
      else if (rings.length === 0) break;
    }
    if (rings.length > 0) coordinates.push(rings);
  }
  return { type: 'MultiPolygon', coordinates };
}
