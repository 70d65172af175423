// The area a country or subdivision code holds, as the lookup answers it, as one GeoJSON
// MultiPolygon: the export's exact trapezoids of every 1° cell the code can answer in, dissolved
// across cells. Computed on demand; nothing is read or kept until it is called.

import type { Dataset } from '../format/dataset.js';
import { datasetOf, type GeoLookup } from '../lookup/engine.js';
import { EdgeSet, dissolve } from './geometry.js';
import { cellTrapezoids, layerReader, roundPolygons } from './rows.js';

/** A GeoJSON MultiPolygon (RFC 7946): outer rings counter-clockwise, holes clockwise, rings closed. */
export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: number[][][][];
}

const SUBDIVISION = /^[A-Za-z0-9]{2}-/;

/**
 * The geometry of `code` (an alpha-3 country, an ISO 3166-2 subdivision, or a parent subdivision:
 * the union of what its descendants answer) as `lookup` answers it: a point inside is one where
 * isInCountry / isInSubdivision says true, except within the dataset's quantisation bound of an
 * edge. Bad or unknown codes throw what isInCountry / isInSubdivision throw. An empty
 * MultiPolygon when the code holds no area.
 */
export function geometryOf(lookup: GeoLookup, code: string): MultiPolygon {
  // The same checks and errors as the membership tests (a valid point, so only the code can fail).
  const subdivision = typeof code === 'string' && SUBDIVISION.test(code);
  if (subdivision) lookup.isInSubdivision(code, 0, 0);
  else lookup.isInCountry(code, 0, 0);
  const ds = datasetOf(lookup);
  const upper = code.toUpperCase();
  // A territory's code in its sovereign's list (US-PR) stands for the territory (PRI), and is also a
  // subdivision code the subdivision layer may answer on its own: both count, as for isInSubdivision.
  const country = ds.aliasCountry.get(upper) ?? (subdivision ? -1 : (ds.countryByCode.get(upper) ?? -1));
  const sub = subdivision ? (ds.subdivisionByCode.get(upper) ?? -1) : -1;
  const inside = within(ds, country, sub);
  const reader = layerReader(ds, sub < 0 ? 'country' : 'region');
  const holds = sub < 0 ? (c: number) => c === country : inside.region;
  const set = new EdgeSet();
  for (const cell of cellsOf(ds, inside)) {
    cellTrapezoids(ds, reader, cell % 360, Math.floor(cell / 360), (k, yb, yt, xl0, xr0, xl1, xr1) => {
      if (holds(k)) set.addTrapezoid(yb, yt, xl0, xr0, xl1, xr1);
    });
  }
  const coordinates = roundPolygons(dissolve(set)).map((poly) =>
    poly.map((ring) => {
      const pts: number[][] = [];
      for (let i = 0; i < ring.length; i += 2) pts.push([ring[i], ring[i + 1]]);
      pts.push(pts[0]);
      return pts;
    }),
  );
  return { type: 'MultiPolygon', coordinates };
}

/** Which regions and which box codes (boxcodes) the code holds: its country, or its subdivision and descendants. */
function within(ds: Dataset, country: number, sub: number) {
  const underSub = (s: number): boolean => {
    for (; s >= 0; s = ds.subdivisionParent[s]) if (s === sub) return true;
    return false;
  };
  return {
    region: (r: number) =>
      r > 0 && ((country >= 0 && ds.regionCountry[r] === country) || (sub >= 0 && underSub(ds.regionSubdivision[r]))),
    boxCode: (c: number) => (c >= 0 ? c === country : sub >= 0 && underSub(-1 - c)),
  };
}

/** Level-0 cells (row · 360 + column) that a box of the code touches: where it can answer. */
function cellsOf(ds: Dataset, inside: ReturnType<typeof within>): number[] {
  const cells = new Set<number>();
  // The filter sees every item's box and keeps none.
  ds.parts.search(-180, -90, 180, 90, (i, x0, y0, x1, y1) => {
    if (!inside.boxCode(ds.partCodes[i])) return false;
    for (let row = Math.max(0, Math.floor(y0 + 90)); row <= Math.min(179, Math.floor(y1 + 90)); row++)
      for (let col = Math.max(0, Math.floor(x0 + 180)); col <= Math.min(359, Math.floor(x1 + 180)); col++)
        cells.add(row * 360 + col);
    return false;
  });
  return [...cells].sort((a, b) => a - b);
}
