// The four operations on the ISO fixture (test/fixtures/README.md): each country and subdivision
// at an interior point, enclaves over what surrounds them, the policy's dispute, a subdivision's
// hole, the antimeridian, parent and alias codes, and the errors. Points are [latitude, longitude].
import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../src/index.js';
import { loadFixture } from '../fixtures/datasets.js';
import { thrown } from '../support/thrown.js';

const geo = loadFixture('iso');

// [what, latitude, longitude, country, subdivision or null]
const PLACES: [string, number, number, string, string | null][] = [
  ['UA-43, at the dispute point', 45, 34.1, 'UKR', 'UA-43'],
  ['UA-43, west of the overlap', 45, 31, 'UKR', 'UA-43'],
  ['UA-32', 48.2, 30.5, 'UKR', 'UA-32'],
  ['UA-30, the enclave inside UA-32', 47.95, 32.55, 'UKR', 'UA-30'],
  ['the hole in UA-32', 47, 31.5, 'UKR', null],
  ['UKR land more than 25 km from its subdivisions', 47.5, 35, 'UKR', null],
  ['UKR land within 25 km of UA-32: the nearest subdivision', 46.5, 33.1, 'UKR', 'UA-32'],
  ['the UKR-RUS overlap north of UA-43', 46.6, 35, 'UKR', null],
  ['RU-KDA', 45, 38, 'RUS', 'RU-KDA'],
  ['RU-KDA by its diagonal edge', 46.9, 40.3, 'RUS', 'RU-KDA'],
  ['RUS land without a subdivision', 45.5, 36.5, 'RUS', null],
  ['IT-45', 45, 11, 'ITA', 'IT-45'],
  ['IT-62', 42.5, 11, 'ITA', 'IT-62'],
  ['SMR, the enclave inside ITA and IT-45', 43.95, 12.45, 'SMR', null],
  ['MCO, the many-vertex circle', 43.6875, 7.4375, 'MCO', null],
  ['FJ-W', -17.5, 177.8, 'FJI', 'FJ-W'],
  ['FJ-05 west of the antimeridian', -17.5, 179.5, 'FJI', 'FJ-05'],
  ['FJ-05 east of the antimeridian', -17.5, -179, 'FJI', 'FJ-05'],
  ['FJ-05 on longitude 180', -17.5, 180, 'FJI', 'FJ-05'],
  ['FJ-05 on longitude -180', -17.5, -180, 'FJI', 'FJ-05'],
  ['FIN', 65, 25, 'FIN', null],
  ['ALA', 60.1, 20, 'ALA', null],
  ['CYP land from the ESB-5132 outline', 35.02, 33.8, 'CYP', null],
  ['CYP land from the WSB-5133 outline', 34.62, 32.97, 'CYP', null],
];

describe('each place of the fixture', () => {
  it.each(PLACES)('%s', (_what, lat, lon, country, subdivision) => {
    expect(geo.countryFromGps(lat, lon)).toBe(country);
    expect(geo.tryCountryFromGps(lat, lon)).toBe(country);
    expect(geo.countryFromGps(String(lat), String(lon))).toBe(country);
    expect(geo.isInCountry(country, lat, lon)).toBe(true);
    expect(geo.isInCountry(country.toLowerCase(), lat, lon)).toBe(true);
    expect(geo.trySubdivisionFromGps(lat, lon)).toBe(subdivision);
    if (subdivision === null) {
      expect(thrown(() => geo.subdivisionFromGps(lat, lon))).toBeInstanceOf(NotFoundError);
    } else {
      expect(geo.subdivisionFromGps(lat, lon)).toBe(subdivision);
      expect(geo.isInSubdivision(subdivision, lat, lon)).toBe(true);
      expect(geo.isInSubdivision(subdivision.toLowerCase(), lat, lon)).toBe(true);
    }
  });
  it('no other country holds any of them', () => {
    const codes = [...new Set(PLACES.map((p) => p[3]))];
    for (const [what, lat, lon, country] of PLACES) {
      for (const other of codes) if (other !== country) expect(geo.isInCountry(other, lat, lon), what).toBe(false);
    }
  });
});

describe('overlaps', () => {
  it('an enclave answers over the country around it', () => {
    expect(geo.isInCountry('ITA', 43.95, 12.45)).toBe(false);
    expect(geo.isInSubdivision('IT-45', 43.95, 12.45)).toBe(false);
    expect(geo.countryFromGps(43.8, 12.45)).toBe('ITA');
    expect(geo.isInSubdivision('UA-32', 47.95, 32.55)).toBe(false);
    expect(geo.subdivisionFromGps(47.7, 32.55)).toBe('UA-32');
  });
  it("policy.json's dispute gives the whole overlap to UKR, though RUS's part is smaller", () => {
    for (const [lat, lon] of [
      [44.6, 33.1],
      [45, 34.1],
      [46, 35.9],
      [47.1, 33.5],
    ]) {
      expect(geo.countryFromGps(lat, lon)).toBe('UKR');
      expect(geo.isInCountry('RUS', lat, lon)).toBe(false);
    }
    expect(geo.countryFromGps(45, 36.1)).toBe('RUS');
  });
});

describe('no country', () => {
  it.each([
    ['open sea', 0, 0],
    ['between RUS and its neighbours', 50, 38],
    ['the north pole', 90, 0],
    ['the south pole', -90, 180],
    ['beside FJI', -15, 179],
    ['north of RUS, east of UKR', 47.8, 36.5],
  ])('%s → NotFoundError from the throwing forms, null from the others', (_what, lat, lon) => {
    expect(geo.tryCountryFromGps(lat, lon)).toBeNull();
    expect(geo.trySubdivisionFromGps(lat, lon)).toBeNull();
    const e = thrown(() => geo.countryFromGps(lat, lon));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toBe(`No country at ${lat},${lon}.`);
    expect(e.toProblem()).toMatchObject({ status: 404, detail: `No country at ${lat},${lon}.` });
    expect(thrown(() => geo.subdivisionFromGps(lat, lon)).message).toBe(`No subdivision at ${lat},${lon}.`);
    expect(geo.isInCountry('UKR', lat, lon)).toBe(false);
    expect(geo.isInSubdivision('UA-43', lat, lon)).toBe(false);
  });
  it('names the point as numbers, whatever decimal form the strings had', () => {
    expect(thrown(() => geo.countryFromGps('5.', '5.')).message).toBe('No country at 5,5.');
    expect(thrown(() => geo.subdivisionFromGps('-0.50', '.5')).message).toBe('No subdivision at -0.5,0.5.');
    expect(thrown(() => geo.countryFromGps('-0', '0.0')).toProblem().detail).toBe('No country at 0,0.');
  });
});

describe('subdivision codes', () => {
  it("a parent code holds its children's land: FJ-05's parent is FJ-E", () => {
    expect(geo.isInSubdivision('FJ-E', -17.5, 179.5)).toBe(true);
    expect(geo.isInSubdivision('FJ-E', -17.5, -179)).toBe(true);
    expect(geo.isInSubdivision('FJ-E', -17.5, 177.8)).toBe(false);
    expect(geo.subdivisions().find((s) => s.code === 'FJ-E')).toMatchObject({ parent: 'FJ', covered: true });
  });
  it('a sibling is not a parent: UA-30 is not in UA-32', () => {
    expect(geo.subdivisions().find((s) => s.code === 'UA-30')?.parent).toBe('UA');
  });
  it('an alias stands for its country: FI-01 is ALA', () => {
    expect(geo.isInSubdivision('FI-01', 60.1, 20)).toBe(true);
    expect(geo.isInSubdivision('fi-01', 60.1, 20)).toBe(true);
    expect(geo.isInSubdivision('FI-01', 65, 25)).toBe(false);
    expectBoxAround(geo.boundingBox('FI-01'), [19.5, 59.8, 20.8, 60.5]);
  });
  it('a reference code without a boundary here, an unknown code, a malformed code', () => {
    expect(thrown(() => geo.isInSubdivision('UA-12', 45, 31)).message).toBe(
      'Subdivision "UA-12" is an ISO 3166-2 code, but this dataset holds no boundary for it.',
    );
    expect(thrown(() => geo.isInSubdivision('UA-99', 45, 31)).message).toBe(
      'Unknown subdivision code "UA-99": not an ISO 3166-2 code known to this dataset.',
    );
    const e = thrown(() => geo.isInSubdivision('UA', 45, 31)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(Object.keys(e.errors)).toEqual(['subdivisionCode']);
  });
});

describe('country codes', () => {
  it('a known code elsewhere is false; an unknown one is NotFoundError; alpha-2 names the alpha-3', () => {
    expect(geo.isInCountry('DEU', 45, 31)).toBe(false);
    expect(thrown(() => geo.isInCountry('QQQ', 45, 31))).toBeInstanceOf(NotFoundError);
    const e = thrown(() => geo.isInCountry('ua', 45, 31)) as ValidationError;
    expect(e.errors.countryCode).toEqual([
      'countryCode must be ISO 3166-1 alpha-3 (three letters); "ua" is alpha-2, use "UKR"',
    ]);
  });
  it('code and coordinate problems come in one error', () => {
    const e = thrown(() => geo.isInCountry('UA', 95, 31)) as ValidationError;
    expect(Object.keys(e.errors).sort()).toEqual(['countryCode', 'latitude']);
  });
});

describe('the answers do not depend on the questions before', () => {
  it('isIn* over mixed codes and points, asked twice in different orders', () => {
    const codes = ['UKR', 'RUS', 'ukr', 'UA-43', 'UA-32', 'FJ-E', 'FI-01', 'fj-05', 'IT-45'];
    const ask = (code: string, lat: number, lon: number) =>
      /-/.test(code) ? geo.isInSubdivision(code, lat, lon) : geo.isInCountry(code, lat, lon);
    const first = new Map<string, boolean>();
    for (const code of codes)
      for (const [, lat, lon] of PLACES) first.set(`${code} ${lat} ${lon}`, ask(code, lat, lon));
    // Long runs of one code take the bounding-box path (STREAK in src/lookup/engine.ts).
    for (const [, lat, lon] of [...PLACES].reverse()) {
      for (const code of [...codes].reverse()) expect(ask(code, lat, lon)).toBe(first.get(`${code} ${lat} ${lon}`));
    }
    for (const code of codes) {
      for (let k = 0; k < 3; k++)
        for (const [, lat, lon] of PLACES) expect(ask(code, lat, lon)).toBe(first.get(`${code} ${lat} ${lon}`));
    }
  });
});

describe('code tables and metadata', () => {
  it('know every ISO code, and mark what the fixture covers', () => {
    expect(geo.meta).toMatchObject({ name: 'iso', codes: 'iso', subdivisionGapKm: 25 });
    expect(
      geo
        .countries()
        .filter((c) => c.covered)
        .map((c) => c.code),
    ).toEqual(['ALA', 'CYP', 'FIN', 'FJI', 'ITA', 'MCO', 'RUS', 'SMR', 'UKR']);
    expect(
      geo
        .subdivisions()
        .filter((s) => s.covered)
        .map((s) => s.code),
    ).toEqual(['FJ-05', 'FJ-E', 'FJ-W', 'IT-45', 'IT-62', 'RU-KDA', 'UA-30', 'UA-32', 'UA-43']);
    expect(geo.countries().find((c) => c.code === 'DEU')).toMatchObject({ alpha2: 'DE', covered: false });
    expect(geo.countryCodes()).toEqual(geo.countries().map((c) => c.code));
    expect(geo.subdivisionCodes()).toEqual(geo.subdivisions().map((s) => s.code));
  });
});

describe('batch forms and boxes', () => {
  it('the typed-array forms answer as the scalar ones', () => {
    const lats = Float64Array.from(PLACES, (p) => p[1]);
    const lons = Float64Array.from(PLACES, (p) => p[2]);
    expect(geo.countriesFromGps(lats, lons)).toEqual(PLACES.map((p) => p[3]));
    expect(geo.subdivisionsFromGps(lats, lons)).toEqual(PLACES.map((p) => p[4]));
    const idx = geo.countryIndexes(lats, lons);
    expect([...idx].map((i) => geo.countryCodes()[i])).toEqual(PLACES.map((p) => p[3]));
  });
  it('regionsInBox names the parts whose boxes meet the box, on both sides of the antimeridian', () => {
    expect(geo.regionsInBox(12.4, 43.9, 12.5, 44)).toEqual({ countries: ['ITA', 'SMR'], subdivisions: ['IT-45'] });
    expect(geo.regionsInBox(-180, -18, -179, -17)).toEqual({ countries: ['FJI'], subdivisions: ['FJ-05'] });
    expect(geo.regionsInBox(0, -1, 1, 1)).toEqual({ countries: [], subdivisions: [] });
  });
  it('boundingBox holds the shape, and spans the globe for a part on each side of 180°', () => {
    expectBoxAround(geo.boundingBox('SMR'), [12.35, 43.85, 12.55, 44.05]);
    expectBoxAround(geo.boundingBox('ukr'), [30, 44, 36, 48.5]);
    const [x0, y0, x1, y1] = geo.boundingBox('UA-32')!;
    expect(x0 <= 30 && y0 <= 46 && x1 >= 33 && y1 >= 48.5).toBe(true);
    expect(geo.boundingBox('FJI')).toEqual([-180, -19, 180, -16]);
    expect(geo.boundingBox('DEU')).toBeNull();
    expect(geo.boundingBox('XXX')).toBeNull();
  });
  it.each([
    ['UKR ', 'isInCountry'],
    [' UKR', 'isInCountry'],
    ['UA', 'isInCountry'],
    ['U-K', 'isInCountry'],
    ['', 'isInCountry'],
    ['UA-32 ', 'isInSubdivision'],
    ['UA-3200', 'isInSubdivision'],
  ] as const)('boundingBox(%j) is the ValidationError %s gives for that code', (code, membership) => {
    const e = thrown(() => geo.boundingBox(code)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    const same = thrown(() => geo[membership](code, 45, 31)) as ValidationError;
    expect(e.toProblem()).toEqual(same.toProblem());
  });
});

/** The source box, widened by at most the float32 rounding the index stores boxes with (docs/FORMAT.md). */
function expectBoxAround(box: number[] | null, [x0, y0, x1, y1]: number[]): void {
  expect(box).not.toBeNull();
  const [a, b, c, d] = box!;
  expect(a <= x0 && b <= y0 && c >= x1 && d >= y1, `${box} holds ${[x0, y0, x1, y1]}`).toBe(true);
  expect(Math.max(x0 - a, y0 - b, c - x1, d - y1)).toBeLessThan(1e-5);
}
