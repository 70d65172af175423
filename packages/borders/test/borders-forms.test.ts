// @geolookup/borders' other forms against its per-point Node entry, on seeded points near borders
// and coasts and anywhere: the browser entry over the files' bytes, and the typed-array forms
// (Infinity past maxKm, NaN / INVALID_COORDINATE for bad input). A file of its own: a second
// lookup over the dataset in one process changes what V8 compiles for the allocation tests of
// borders.test.ts (docs/PERFORMANCE.md, "One dataset per process").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as borders from '../src/index.js';
import { INVALID_COORDINATE, NOT_FOUND, ValidationError } from 'geolookup';
import { cityPoints, joinPoints, prng, spherePoints } from '../../../test/support/sample-points.js';

/** Cities, anywhere, and points within a few km of Baarle, Gibraltar, Point Roberts and Fiji's antimeridian. */
function points(n: number, seed: number) {
  const r = prng(seed);
  const boxes = [
    [51.43, 4.91, 51.46, 4.95],
    [35.9, -5.8, 36.2, -5.2],
    [48.9, -123.2, 49.05, -122.9],
    [-17.2, 179.5, -16.0, 180],
  ];
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [s, w, no, e] = boxes[i % boxes.length];
    lat[i] = s + r() * (no - s);
    lon[i] = w + r() * (e - w);
  }
  return joinPoints([{ lat, lon }, cityPoints(n, seed + 1), spherePoints(n, seed + 2)]);
}

const nearest = (f: typeof borders.nearestCountry, lat: number, lon: number, maxKm: number) => {
  try {
    return f(lat, lon, { maxKm });
  } catch (e) {
    if ((e as Error).name === 'NotFoundError') return null;
    throw e;
  }
};

describe('@geolookup/borders/browser', () => {
  it('answers from the files’ bytes as the Node entry does', async () => {
    const browser = await import('../src/browser.js');
    const { dataPath } = await import('../../../src/node/data-path.js').then((m) => ({
      dataPath: m.resolveDataPath(),
    }));
    const lookup = browser.createBorderLookup({
      geo: new Uint8Array(readFileSync(dataPath)),
      data: new Uint8Array(readFileSync(borders.bordersDataPath())),
    });
    const pts = points(300, 71);
    for (let i = 0; i < pts.lat.length; i++) {
      const [lat, lon] = [pts.lat[i], pts.lon[i]];
      expect(lookup.distanceToBorder(lat, lon, { layer: 'subdivision' })).toBe(
        borders.distanceToBorder(lat, lon, { layer: 'subdivision' }),
      );
      expect(lookup.regionsWithin(lat, lon, 500)).toEqual(borders.regionsWithin(lat, lon, 500));
    }
  });
});

describe('typed arrays', () => {
  const pts = points(500, 72);
  const n = pts.lat.length;
  // Bad input at a few places: NaN, out of range, ±Infinity.
  const lat = Float64Array.from(pts.lat);
  const lon = Float64Array.from(pts.lon);
  for (const [i, a, b] of [
    [3, Number.NaN, 0],
    [10, 91, 0],
    [20, 0, -180.5],
    [30, Number.POSITIVE_INFINITY, 0],
  ] as const) {
    lat[i] = a;
    lon[i] = b;
  }
  const bad = (i: number) => !(lat[i] >= -90 && lat[i] <= 90 && lon[i] >= -180 && lon[i] <= 180);

  it('distancesToBorder: distanceToBorder per point, Infinity past maxKm, NaN for bad input', () => {
    for (const layer of ['country', 'subdivision'] as const) {
      const out = borders.distancesToBorder(lat, lon, { maxKm: 30, layer });
      let far = 0;
      for (let i = 0; i < n; i++) {
        const want = bad(i) ? Number.NaN : (borders.distanceToBorder(lat[i], lon[i], { maxKm: 30, layer }) ?? Infinity);
        expect(out[i], `point ${i}`).toBe(want);
        if (want === Infinity) far++;
      }
      expect(far).toBeGreaterThan(50);
    }
  });

  it('nearest…Indexes: the code tables’ index of nearestCountry / nearestSubdivision, and its distance', () => {
    const forms = [
      [borders.nearestCountryIndexes, borders.nearestCountry, borders.preloadBorders().countryCodes()],
      [borders.nearestSubdivisionIndexes, borders.nearestSubdivision, borders.preloadBorders().subdivisionCodes()],
    ] as const;
    for (const [indexes, one, codes] of forms) {
      const distances = new Float64Array(n);
      const out = indexes(lat, lon, { maxKm: 20 }, new Int32Array(n), distances);
      let offshore = 0;
      for (let i = 0; i < n; i++) {
        if (bad(i)) {
          expect([out[i], distances[i]]).toEqual([INVALID_COORDINATE, Number.NaN]);
          continue;
        }
        const want = nearest(one, lat[i], lon[i], 20);
        expect([out[i] === NOT_FOUND ? null : codes[out[i]], distances[i]], `point ${i}`).toEqual(
          want ? [want.code, want.distanceM] : [null, Number.NaN],
        );
        if (want && want.distanceM > 0) offshore++;
      }
      expect(offshore).toBeGreaterThan(20);
    }
  });

  it('bad arrays and options: a ValidationError naming each', () => {
    const short = new Float64Array(1);
    const errorOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return Object.keys((e as ValidationError).errors);
      }
      throw new Error('no error');
    };
    expect(errorOf(() => borders.distancesToBorder(lat, short))).toEqual(['longitudes']);
    expect(errorOf(() => borders.distancesToBorder([1] as never, lon))).toEqual(['latitudes']);
    expect(errorOf(() => borders.distancesToBorder(lat, lon, {}, short))).toEqual(['out']);
    expect(errorOf(() => borders.distancesToBorder(lat, lon, { maxKm: -1 }))).toEqual(['maxKm']);
    expect(errorOf(() => borders.nearestCountryIndexes(lat, lon, { maxKm: 501 }))).toEqual(['maxKm']);
    expect(errorOf(() => borders.nearestSubdivisionIndexes(lat, lon, {}, new Int16Array(n) as never))).toEqual(['out']);
  });
});
