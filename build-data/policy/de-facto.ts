// policy deFacto: areas another party administers or claims, kept in the dataset's metadata for
// deFactoAreaAt and the playground's rule line. They change no answer; an entry is kept only where
// the built dataset answers its `answer` at its `at` and places `at` in the area, so the metadata
// never names an area the data does not hold.

import mapshaper from 'mapshaper';
import type { DeFactoArea } from '../../src/format/dataset.js';
import { deFactoAreaAt } from '../../src/lookup/de-facto.js';
import type { GeoLookup } from '../../src/lookup/engine.js';
import type { Feature } from '../sources/geojson.js';
import type { DeFactoAdmin1 } from '../sources/load.js';
import type { Policy } from './policy.js';

/** Outlines are simplified to this interval (metres): they place a line of text, not an answer. */
const OUTLINE_M = 200;

/**
 * The policy's entries, outlines from Natural Earth admin-1 (features by adm0_a3); an outlined
 * entry is not applied by a build that reads no Natural Earth admin-1 (`admin1` null).
 */
export async function deFactoAreas(
  policy: Policy,
  admin1: DeFactoAdmin1 | null,
): Promise<{ areas: DeFactoArea[]; notApplied: string[] }> {
  const areas: DeFactoArea[] = [];
  const notApplied: string[] = [];
  for (const { where, ...rest } of policy.deFacto ?? []) {
    const { naturalEarth, ...other } = where;
    if (naturalEarth === undefined) areas.push({ ...rest, where: other });
    else if (admin1 === null)
      notApplied.push(`de facto area "${rest.area}": this build reads no Natural Earth admin-1`);
    else {
      const features = admin1.features.filter((f) => f.properties?.adm0_a3 === naturalEarth);
      // A new source release may drop or recode the unit: fail loudly rather than lose the entry.
      if (features.length === 0)
        throw new Error(`policy.json deFacto ${rest.area}: no feature of ${naturalEarth} in ${admin1.path}`);
      const source = `Natural Earth admin-1 (adm0_a3 ${naturalEarth}), simplified to ${OUTLINE_M} m`;
      areas.push({ ...rest, where: { ...other, outline: await dissolved(features), source } });
    }
  }
  return { areas, notApplied };
}

/** The features' union, simplified, as MultiPolygon coordinates rounded to 1e-4° (11 m). */
async function dissolved(features: Feature[]): Promise<number[][][][]> {
  const input = { type: 'FeatureCollection', features: features.map((f) => ({ ...f, properties: {} })) };
  const cmd = `-i in.json -dissolve -simplify interval=${OUTLINE_M} keep-shapes -o out.json precision=0.0001`;
  const out = await mapshaper.applyCommands(cmd, { 'in.json': input });
  // Features without properties come back as a GeometryCollection.
  const json = JSON.parse(String(out['out.json']));
  const g = json.type === 'GeometryCollection' ? json.geometries[0] : json.features[0].geometry;
  return g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
}

/**
 * The entries a dataset whose metadata holds them all (`lookup`) places as written: deFactoAreaAt
 * at the entry's own point gives the entry. The rest, in words, for the report.
 */
export function checkDeFacto(lookup: GeoLookup): { kept: DeFactoArea[]; notApplied: string[] } {
  const kept: DeFactoArea[] = [];
  const notApplied: string[] = [];
  for (const a of lookup.meta.deFacto ?? []) {
    const [lon, lat] = a.at;
    if (deFactoAreaAt(lookup, lat, lon) === a) kept.push(a);
    else {
      const answered = `${lookup.tryCountryFromGps(lat, lon) ?? 'no country'} / ${lookup.trySubdivisionFromGps(lat, lon) ?? 'no subdivision'}`;
      notApplied.push(
        `de facto area "${a.area}": at its point ${lat}, ${lon} the dataset answers ${answered}, outside the area as written`,
      );
    }
  }
  return { kept, notApplied };
}
