// policy landFromAdmin1: land no OSM country polygon holds although it is no sea (the Sovereign
// Base Areas on Cyprus) takes its outline from a Natural Earth admin-1 feature.

import type { CodeTables } from '../sources/code-tables.js';
import type { Feature } from '../sources/geojson.js';
import { type Part, toParts } from '../sources/parts.js';
import { fillHoles } from './holes.js';
import type { Policy } from './policy.js';

export interface LandFromAdmin1Log {
  adm1: string;
  name: string;
  country: string;
  parts: number;
}

/** The policy's admin-1 outlines as land parts of their country, which they mark covered. */
export function landFromAdmin1(
  policy: Policy,
  features: Feature[],
  path: string,
  tables: CodeTables,
): { parts: Part[]; log: LandFromAdmin1Log[] } {
  const parts: Part[] = [];
  const log: LandFromAdmin1Log[] = [];
  for (const [adm1, { country, name }] of Object.entries(policy.landFromAdmin1 ?? {})) {
    const idx = tables.countryIndex.get(country);
    if (idx === undefined) throw new Error(`policy.json landFromAdmin1 ${adm1} → ${country}: unknown country`);
    const f = features.find((g) => g.properties?.adm1_code === adm1);
    // A new source release may drop or recode the feature: fail loudly rather than lose the land.
    if (!f) throw new Error(`policy.json landFromAdmin1: no feature ${adm1} (${name}) in ${path}`);
    const own = toParts(f, 'country', idx, -1, `${path} ${adm1}`, fillHoles());
    tables.countries[idx].covered = true;
    parts.push(...own);
    log.push({ adm1, name, country, parts: own.length });
  }
  return { parts, log };
}
