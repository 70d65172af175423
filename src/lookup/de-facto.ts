// Which de facto area of the dataset's metadata (meta.deFacto, docs/POLICY.md "De facto answers")
// a point lies in. Informative: the areas change no answer. The build keeps an entry only where
// its own point passes this test, and the playground's rule line uses it.

import type { DeFactoArea } from '../format/dataset.js';
import type { GeoLookup } from './engine.js';

/** Mean Earth radius (km): "within N km" is a rule line's reach, not a measurement. */
const R_KM = 6371;
const RAD = Math.PI / 180;

/**
 * The de facto area (lookup.meta.deFacto) the point lies in, or null: the point answers the area's
 * code and lies where the entry says (everywhere that code answers, in its outline or one of its
 * subdivisions, or within its distance of its point). The same errors as tryCountryFromGps.
 */
export function deFactoAreaAt(
  lookup: GeoLookup,
  latitude: number | string,
  longitude: number | string,
): DeFactoArea | null {
  const areas = lookup.meta.deFacto;
  const country = lookup.tryCountryFromGps(latitude, longitude);
  if (!areas || country === null) return null;
  const lat = Number(latitude);
  const lon = Number(longitude);
  let subdivision: string | null | undefined;
  for (const a of areas) {
    if (a.answer !== country) continue;
    const w = a.where;
    if (w.countryWide) return a;
    if (w.withinKm !== undefined) {
      if (kmBetween(lat, lon, a.at[1], a.at[0]) <= w.withinKm) return a;
      continue;
    }
    if (w.outline?.some((polygon) => inPolygon(polygon, lon, lat))) return a;
    subdivision ??= lookup.trySubdivisionFromGps(lat, lon);
    if (subdivision !== null && w.subdivisions?.includes(subdivision)) return a;
  }
  return null;
}

/** Even-odd rule over the polygon's rings (holes included); a point on an edge may fall either way. */
export function inPolygon(rings: number[][][], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  return inside;
}

/** Great-circle distance (haversine) in km. */
function kmBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h =
    Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * R_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
