// @geolookup/borders on the world: named places where an answer flips within metres or where the
// nearest country is offshore (facts of geography, each with the margin our 10 m outlines allow),
// the contract's typed errors for bad input, a far point allocating nothing, and the files it
// refuses. The PostGIS oracle is packages/borders/test/borders-oracle.test.ts.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bordersDataPath,
  createBorderLookup,
  distanceToBorder,
  nearestCountry,
  nearestSubdivision,
  regionsWithin,
} from '../src/index.js';
import { createGeoLookup, DataError, NotFoundError, preload, tryCountryFromGps, ValidationError } from 'geolookup';
import { embeddedDataPath } from '../../../src/node/data-path.js';
import { allocationOf } from '../../../test/support/allocation.js';
import { prng } from '../../../test/support/sample-points.js';

const codes = (list: { code: string }[]) => list.map((r) => r.code);

describe('named places', () => {
  it('Baarle-Hertog: a Belgian enclave in the Netherlands, the border within 100 m', () => {
    const [lat, lon] = [51.4463, 4.9247];
    expect(nearestCountry(lat, lon)).toEqual({ code: 'BEL', distanceM: 0 });
    const within = regionsWithin(lat, lon, 100);
    expect(codes(within.countries)).toEqual(['BEL', 'NLD']);
    expect(distanceToBorder(lat, lon)).toBeCloseTo(within.countries[1].distanceM, 6);
    // Every enclave's answer sits inside the circle: Belgian and Dutch provinces too.
    expect(codes(within.subdivisions)).toEqual(['BE-VAN', 'NL-NB']);
  });

  it('Baarle: the nested enclaves (Dutch inside Belgian inside Dutch) all lie within 600 m of one point', () => {
    const within = regionsWithin(51.4416, 4.9306, 600);
    expect(new Set(codes(within.countries))).toEqual(new Set(['BEL', 'NLD']));
    // The point's own answer comes first, at 0.
    expect(within.countries[0]).toEqual({ code: tryCountryFromGps(51.4416, 4.9306), distanceM: 0 });
  });

  it('Büsingen am Hochrhein: German, Switzerland within 2 km on every side', () => {
    expect(nearestCountry(47.6969, 8.6903).code).toBe('DEU');
    expect(distanceToBorder(47.6969, 8.6903)).toBeLessThan(2_000);
    expect(codes(regionsWithin(47.6969, 8.6903, 2_000).countries)).toEqual(['DEU', 'CHE']);
  });

  it('Point Roberts: American, Canada across the 49th parallel within 2.5 km', () => {
    expect(nearestCountry(48.985, -123.07).code).toBe('USA');
    expect(codes(regionsWithin(48.985, -123.07, 2_500).countries)).toEqual(['USA', 'CAN']);
  });

  it('Llívia: Spanish, France within 2 km', () => {
    expect(nearestCountry(42.4636, 1.9786).code).toBe('ESP');
    expect(codes(regionsWithin(42.4636, 1.9786, 2_000).countries)).toEqual(['ESP', 'FRA']);
  });

  it('the Strait of Gibraltar: Spain, Morocco and Gibraltar within 15 km of mid-strait, nearest first', () => {
    const within = regionsWithin(36.0, -5.45, 15_000);
    expect(new Set(codes(within.countries))).toEqual(new Set(['ESP', 'MAR', 'GIB']));
    const d = within.countries.map((c) => c.distanceM);
    expect(d).toEqual([...d].sort((a, b) => a - b));
  });

  it('the Bosphorus: Turkish on both shores, the nearest change of country 20 km away or more', () => {
    for (const [lat, lon] of [
      [41.1, 29.05],
      [41.02, 28.99],
    ]) {
      expect(nearestCountry(lat, lon)).toEqual({ code: 'TUR', distanceM: 0 });
      expect(distanceToBorder(lat, lon)).toBeGreaterThan(20_000);
      expect(codes(regionsWithin(lat, lon, 5_000).countries)).toEqual(['TUR']);
    }
  });

  it('a ship in the open Atlantic: no country within 50 km', () => {
    expect(distanceToBorder(35, -40)).toBeNull();
    expect(() => nearestCountry(35, -40)).toThrow(NotFoundError);
    expect(() => nearestSubdivision(35, -40, { maxKm: 500 })).toThrow(NotFoundError);
    expect(regionsWithin(35, -40, 50_000)).toEqual({ countries: [], subdivisions: [] });
  });

  it('offshore: a ship 30 km off the Dutch coast, the Netherlands nearest', () => {
    expect(() => tryCountryFromGps(52.6, 4.0)).not.toThrow();
    const near = nearestCountry(52.6, 4.0);
    expect(near.code).toBe('NLD');
    expect(near.distanceM).toBeGreaterThan(5_000);
    expect(near.distanceM).toBe(distanceToBorder(52.6, 4.0));
  });

  it('the Diomede islands: Russia and the United States within 5 km across the Bering Strait', () => {
    expect(codes(regionsWithin(65.78, -168.95, 5_000).countries).sort()).toEqual(['RUS', 'USA']);
  });

  it('the antimeridian: Fiji and Chukotka answer alike a hair either side of 180°', () => {
    for (const [lat, east, west] of [
      [-16.6, 179.9999, -179.9999],
      [65.5, 179.9999, -179.9999],
      [-16.2, 179.999, -179.999],
    ]) {
      for (const layer of ['country', 'subdivision'] as const) {
        const a = distanceToBorder(lat, east, { layer, maxKm: 200 });
        const b = distanceToBorder(lat, west, { layer, maxKm: 200 });
        expect(a === null, `${lat} ${layer}`).toBe(b === null);
        // The two points are 0.0002° (or 0.002°) apart: their distances differ by no more.
        if (a !== null && b !== null) expect(Math.abs(a - b)).toBeLessThan(250);
      }
      expect(regionsWithin(lat, east, 1_000)).toEqual(regionsWithin(lat, west, 1_000));
    }
    expect(nearestCountry(65.5, 180).code).toBe('RUS');
    expect(nearestCountry(65.5, -180).code).toBe('RUS');
  });
});

describe('bad input gets the contract errors', () => {
  it.each([
    ['a negative radius', () => regionsWithin(50, 5, -1), 'radiusM'],
    ['a NaN radius', () => regionsWithin(50, 5, Number.NaN), 'radiusM'],
    ['a radius over 500 km', () => regionsWithin(50, 5, 500_001), 'radiusM'],
    ['a string radius', () => regionsWithin(50, 5, '50' as unknown as number), 'radiusM'],
    ['maxKm negative', () => distanceToBorder(50, 5, { maxKm: -3 }), 'maxKm'],
    ['maxKm NaN', () => nearestCountry(50, 5, { maxKm: Number.NaN }), 'maxKm'],
    ['maxKm over 500', () => nearestSubdivision(50, 5, { maxKm: 501 }), 'maxKm'],
    ['an unknown layer', () => distanceToBorder(50, 5, { layer: 'city' as 'country' }), 'layer'],
  ])('%s: ValidationError naming the field', (_name, call, field) => {
    try {
      call();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect(Object.keys((e as ValidationError).errors)).toEqual([field]);
      expect((e as ValidationError).status).toBe(400);
    }
  });

  it('bad coordinates: the same ValidationError as countryFromGps, with the radius error beside them', () => {
    for (const [lat, lon] of [
      [91, 0],
      [0, 'x'],
      [Number.NaN, 0],
      ['', ''],
    ] as [number, number][]) {
      let contract: ValidationError | undefined;
      try {
        preload().countryFromGps(lat, lon);
      } catch (e) {
        contract = e as ValidationError;
      }
      expect(() => distanceToBorder(lat, lon)).toThrow(ValidationError);
      try {
        regionsWithin(lat, lon, 50);
      } catch (e) {
        expect((e as ValidationError).errors).toEqual(contract!.errors);
      }
      try {
        regionsWithin(lat, lon, -5);
      } catch (e) {
        expect((e as ValidationError).errors).toEqual({ ...contract!.errors, radiusM: expect.any(Array) });
      }
    }
  });

  it('strings as the service takes them', () => {
    expect(distanceToBorder('51.4463', '4.9247')).toBe(distanceToBorder(51.4463, 4.9247));
  });
});

describe('files it refuses', () => {
  it('the lite dataset: DataError, its outlines are simplified', () => {
    expect(() =>
      createBorderLookup({ geo: createGeoLookup(embeddedDataPath('lite')), data: bordersDataPath() }),
    ).toThrow(/simplified|drawn from the dataset/);
  });

  it('a damaged or truncated borders file: DataError naming it', () => {
    const bytes = readFileSync(bordersDataPath());
    const flipped = bytes.slice();
    flipped[flipped.length >> 1] ^= 1;
    expect(() => createBorderLookup({ geo: preload(), data: flipped })).toThrow(DataError);
    expect(() => createBorderLookup({ geo: preload(), data: bytes.subarray(0, bytes.length - 8) })).toThrow(
      /truncated/,
    );
  });
});

describe('cost', () => {
  it('a point farther than maxKm from every border allocates nothing: a million calls, no scavenge', async () => {
    // Deep oceans and the middle of large countries, far-table cells all.
    const rnd = prng(4545);
    const lats: number[] = [];
    const lons: number[] = [];
    const options = { maxKm: 50 };
    while (lats.length < 2_000) {
      const lat = rnd() * 120 - 60;
      const lon = rnd() * 360 - 180;
      if (distanceToBorder(lat, lon, { maxKm: 100 }) === null) {
        lats.push(lat);
        lons.push(lon);
      }
    }
    const la = Float64Array.from(lats);
    const lo = Float64Array.from(lons);
    const { growth, scavenges, found } = await allocationOf(() => {
      let n = 0;
      for (let i = 0; i < 1_000_000; i++) if (distanceToBorder(la[i % 2_000], lo[i % 2_000], options) === null) n++;
      return n;
    });
    expect(found).toBe(1_000_000);
    expect(growth).toBeLessThan(1e5);
    expect(scavenges).toEqual([]);
  });
});
