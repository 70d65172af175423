// policy fillCountryHoles: holes in the land polygons are inland water (lakes, reservoirs, rivers),
// so a lake inside one country answers that country; enclaves are separate, smaller parts and
// still win by the smaller-area rule.

import type { Position } from '../sources/geojson.js';
import type { PolygonFilter } from '../sources/parts.js';

export interface FilledHoles {
  count: number;
  vertices: number;
}

/** A filter keeping each polygon's outer ring; the holes it drops are added to `tally` when given. */
export function fillHoles(tally?: FilledHoles): PolygonFilter {
  return (poly: Position[][]) => {
    if (tally) {
      tally.count += poly.length - 1;
      for (let i = 1; i < poly.length; i++) tally.vertices += poly[i].length;
    }
    return poly.slice(0, 1);
  };
}
