// Subdivisions from OpenStreetMap's 2020 outlines (data pack osm-admin-2020), chosen per country by
// build-data/policy/subdivision-source.ts: today's structures in Kenya, Morocco, DR Congo and
// Cyprus, and towns the ~1 km Natural Earth outlines put in the neighbour. Places are named, and
// expected codes are looked up by their ISO name, so a renumbered code cannot pass by accident.

import { describe, expect, it } from 'vitest';
import { PACKS } from '../../build-data/sources/data-packs.js';
import { OSM_ADMIN_SOURCE } from '../../build-data/sources/osm-admin.js';
import { isInSubdivision, subdivisionFromGps, subdivisions } from '../../src/index.js';
import { packSource, skipWithoutPack } from '../support/data-packs.js';

const source = packSource(OSM_ADMIN_SOURCE);
const all = subdivisions();
const nameOf = (code: string) => all.find((s) => s.code === code)?.name;
const inCountry = (a2: string) => all.filter((s) => s.country === a2);

/** The answer at a place, with its ISO name, so a failure says what was answered. */
const at = (lat: number, lon: number) => {
  const code = subdivisionFromGps(lat, lon);
  return `${code} ${nameOf(code)}`;
};

describe.skipIf(skipWithoutPack(source, PACKS.osmAdmin.file, 'OSM subdivision'))('OSM subdivisions (data pack)', () => {
  it('is a dataset source with its date, licence, attribution and the checked sha256', () => {
    expect(source).toMatchObject({
      licence: 'ODbL-1.0',
      attribution: '© OpenStreetMap contributors',
      sha256: PACKS.osmAdmin.sha256,
    });
  });

  it('Kenya answers its 47 counties (2013), not the former provinces', () => {
    const counties = inCountry('KE').filter((s) => /^KE-\d\d$/.test(s.code));
    expect(counties).toHaveLength(47);
    expect(counties.every((s) => s.covered)).toBe(true);
    expect(at(-1.2864, 36.8172)).toMatch(/^KE-\d\d Nairobi/);
    expect(at(-4.0435, 39.6682)).toMatch(/^KE-\d\d Mombasa/);
    expect(at(-0.0917, 34.768)).toMatch(/^KE-\d\d Kisumu/);
    expect(at(0.5143, 35.2698)).toMatch(/^KE-\d\d Uasin Gishu/);
  });

  it('Morocco answers its 2015 regions, and prefectures where OSM draws them', () => {
    const regions = inCountry('MA').filter((s) => /^MA-\d\d$/.test(s.code));
    expect(regions).toHaveLength(12);
    expect(regions.every((s) => s.covered)).toBe(true);
    const region = (name: RegExp) => regions.find((s) => name.test(s.name))!.code;
    expect(isInSubdivision(region(/^Rabat-Salé-Kénitra/), 34.0209, -6.8416)).toBe(true);
    expect(isInSubdivision(region(/^Casablanca-Settat/), 33.5731, -7.5898)).toBe(true);
    expect(isInSubdivision(region(/^Marrakech-Safi/), 31.6295, -7.9811)).toBe(true);
    expect(isInSubdivision(region(/^Fès-Meknès/), 34.0331, -5.0003)).toBe(true);
    expect(isInSubdivision(region(/^Tanger-Tétouan/), 35.7595, -5.834)).toBe(true);
  });

  it('DR Congo answers its 26 provinces (2015), Équateur and Mai-Ndombe from what Natural Earth leaves', () => {
    const provinces = inCountry('CD');
    expect(provinces.filter((s) => s.covered)).toHaveLength(26);
    expect(at(0.0487, 18.2603)).toBe('CD-EQ Équateur'); // Mbandaka
    expect(at(-1.95, 18.27)).toMatch(/^CD-MN Ma/); // Inongo
    expect(at(-4.3217, 15.3125)).toMatch(/^CD-KN Kinshasa/);
    expect(at(-11.6609, 27.4794)).toMatch(/^CD-HK Haut-Katanga/); // Lubumbashi
    expect(at(-5.0389, 18.8162)).toMatch(/^CD-KL Kwilu/); // Kikwit
    expect(at(0.5167, 25.1911)).toMatch(/^CD-TO Tshopo/); // Kisangani
  });

  it('Cyprus answers all six districts, Keryneia (CY-06) included', () => {
    expect(inCountry('CY').every((s) => s.covered)).toBe(true);
    expect(at(35.3364, 33.3182)).toBe('CY-06 Keryneia'); // Kyrenia
    expect(at(35.1856, 33.3823)).toBe('CY-01 Lefkosia'); // Nicosia
    expect(at(34.6786, 33.0413)).toBe('CY-02 Lemesos'); // Limassol
  });

  it('towns near admin-1 lines answer their own subdivision', () => {
    expect(at(-25.3468, -57.6065)).toBe('PY-11 Central'); // Lambaré, beside Asunción
    expect(at(55.931, 37.545)).toMatch(/^RU-MOW /); // Severny district, Moscow's northern edge
    expect(at(55.9, 37.44)).toMatch(/^RU-MOS /); // Khimki, over Moscow's line
  });
});
