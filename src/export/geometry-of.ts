// The area a country or subdivision code holds, as the lookup answers it, as one GeoJSON
// MultiPolygon (src/export/dissolve.ts). Computed on demand; nothing is read or kept until it is called.

import type { GeoLookup } from '../lookup/engine.js';
import { dissolveCode, type MultiPolygon } from './dissolve.js';

export type { MultiPolygon } from './dissolve.js';

const SUBDIVISION = /^[A-Za-z0-9]{2}-/;

/**
 * The geometry of `code` (an alpha-3 country, an ISO 3166-2 subdivision, or a parent subdivision:
 * the union of what its descendants answer) as `lookup` answers it: a point inside is one where
 * isInCountry / isInSubdivision says true, except within the dataset's quantisation bound of an
 * edge. Bad or unknown codes throw what isInCountry / isInSubdivision throw. An empty
 * MultiPolygon when the code holds no area.
 */
export function geometryOf(lookup: GeoLookup, code: string): MultiPolygon {
  const subdivision = typeof code === 'string' && SUBDIVISION.test(code);
  return dissolveCode(lookup, subdivision ? 'subdivision' : 'country', code);
}
