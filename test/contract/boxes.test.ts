// Bounding-box queries over the dataset's Flatbush index, checked against the lookups themselves.
import { describe, expect, it } from 'vitest';
import * as geo from '../../src/index.js';
import { ValidationError } from '../../src/index.js';
import { spherePoints, cityPoints, prng } from '../support/sample-points.js';

const inside = (b: number[] | null, lon: number, lat: number) =>
  b !== null && lon >= b[0] && lon <= b[2] && lat >= b[1] && lat <= b[3];

describe('boundingBox', () => {
  it('holds every point the lookups place in a country, a subdivision and its ancestors', () => {
    const byCode = new Map(geo.subdivisions().map((s) => [s.code, s]));
    let checked = 0;
    for (const p of [spherePoints(20_000, 7), cityPoints(20_000, 8)]) {
      for (let i = 0; i < p.lat.length; i++) {
        const lat = p.lat[i];
        const lon = p.lon[i] === 180 ? -180 : p.lon[i];
        const c = geo.tryCountryFromGps(lat, lon);
        if (c === null) continue;
        expect(inside(geo.boundingBox(c), lon, lat), `${c} at ${lat},${lon}`).toBe(true);
        for (let s = geo.trySubdivisionFromGps(lat, lon); s && byCode.has(s); s = byCode.get(s)!.parent) {
          expect(inside(geo.boundingBox(s), lon, lat), `${s} at ${lat},${lon}`).toBe(true);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('is tight enough to be useful: a small country is small, a big one big', () => {
    const vat = geo.boundingBox('VAT')!;
    expect(vat[2] - vat[0]).toBeLessThan(0.1);
    const bra = geo.boundingBox('BRA')!;
    expect(bra[2] - bra[0]).toBeGreaterThan(30);
    expect(bra[2] - bra[0]).toBeLessThan(60);
  });

  it("takes lower case, covers a territory alias's country, and answers null for codes it holds nothing of", () => {
    expect(geo.boundingBox('fra')).toEqual(geo.boundingBox('FRA'));
    const [a, b] = [geo.boundingBox('US-PR')!, geo.boundingBox('PRI')!];
    expect(a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3]).toBe(true);
    expect(geo.boundingBox('ATA')).toBeNull(); // dropped by policy
    expect(geo.boundingBox('ZZZ')).toBeNull();
    expect(() => geo.boundingBox(42 as unknown as string)).toThrow(ValidationError);
  });

  it('returns a copy the caller may change', () => {
    const a = geo.boundingBox('DEU')!;
    a[0] = 999;
    expect(geo.boundingBox('DEU')![0]).not.toBe(999);
  });
});

describe('regionsInBox', () => {
  it('includes what the lookups answer inside the box', () => {
    const p = cityPoints(3_000, 9);
    for (let i = 0; i < p.lat.length; i++) {
      const lat = p.lat[i];
      const lon = p.lon[i];
      const c = geo.tryCountryFromGps(lat, lon);
      const s = geo.trySubdivisionFromGps(lat, lon);
      const d = 0.001;
      const r = geo.regionsInBox(
        Math.max(-180, lon - d),
        Math.max(-90, lat - d),
        Math.min(180, lon + d),
        Math.min(90, lat + d),
      );
      if (c) expect(r.countries).toContain(c);
      if (s) expect(r.subdivisions).toContain(s);
    }
  });

  it('answers sorted, unique codes, and nothing in the open ocean', () => {
    const r = geo.regionsInBox(5, 45, 10, 50);
    expect(r.countries).toEqual([...new Set(r.countries)].sort());
    expect(r.countries).toEqual(expect.arrayContaining(['CHE', 'DEU', 'FRA']));
    expect(geo.regionsInBox(-140, -40, -139, -39)).toEqual({ countries: [], subdivisions: [] });
  });

  it('rejects boxes that are not boxes with per-field errors', () => {
    for (const args of [
      [NaN, 0, 1, 1],
      [0, 0, 181, 1],
      [10, 0, 5, 1],
      [0, 5, 1, 0],
      ['0', 0, 1, 1],
    ] as unknown as [number, number, number, number][]) {
      try {
        geo.regionsInBox(...args);
        expect.unreachable(`accepted ${args}`);
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        expect(Object.keys((e as ValidationError).errors).length).toBeGreaterThan(0);
      }
    }
  });
});

// isInSubdivision tests a code asked about again and again against its box first (src/lookup/engine.ts):
// a box that missed a point the lookup places in the region would turn its answer false. Points
// along every edge of each box, just inside and just outside (the build moves vertices by up to
// 1.4e-6°), and across the box, each code over all its points in a row; isInCountry's
// repeated-code path (no box) the same way.
describe('isIn* with a repeated code', () => {
  const parentOf = new Map(geo.subdivisions().map((s) => [s.code, s.parent]));
  const inSub = (code: string, lat: number, lon: number) => {
    for (let s = geo.trySubdivisionFromGps(lat, lon); s; s = parentOf.get(s) ?? null) if (s === code) return true;
    return false;
  };
  const r = prng(31);
  const pick = <T>(list: T[], n: number) => Array.from({ length: n }, () => list[Math.floor(r() * list.length)]);
  const OFFSETS = [-2e-4, -5e-5, -2e-6, -1e-6, 0, 1e-6, 2e-6, 5e-5, 2e-4];

  function pointsAround(b: number[]): [number, number][] {
    const pts: [number, number][] = [];
    const clampLat = (y: number) => Math.max(-90, Math.min(90, y));
    const clampLon = (x: number) => Math.max(-180, Math.min(180, x));
    for (let k = 0; k < 40; k++) {
      const x = b[0] + r() * (b[2] - b[0]);
      const y = b[1] + r() * (b[3] - b[1]);
      for (const d of OFFSETS) {
        pts.push(
          [clampLat(b[1] + d), clampLon(x)],
          [clampLat(b[3] + d), clampLon(x)],
          [clampLat(y), clampLon(b[0] + d)],
          [clampLat(y), clampLon(b[2] + d)],
        );
      }
    }
    const w = (b[2] - b[0]) * 0.1 + 0.01;
    const h = (b[3] - b[1]) * 0.1 + 0.01;
    for (let k = 0; k < 200; k++)
      pts.push([clampLat(b[1] - h + r() * (b[3] - b[1] + 2 * h)), clampLon(b[0] - w + r() * (b[2] - b[0] + 2 * w))]);
    return pts;
  }

  it('isInSubdivision answers as the lookup does, up to the region box and just past it', () => {
    const codes = pick(
      geo
        .subdivisions()
        .filter((s) => s.covered)
        .map((s) => s.code),
      400,
    );
    let inside = 0;
    for (const code of codes) {
      for (const [lat, lon] of pointsAround(geo.boundingBox(code)!)) {
        const want = inSub(code, lat, lon);
        expect(geo.isInSubdivision(code, lat, lon), `${code} at ${lat},${lon}`).toBe(want);
        if (want) inside++;
      }
    }
    expect(inside).toBeGreaterThan(10_000);
  });

  it('isInCountry answers as the lookup does, up to the region box and just past it', () => {
    const codes = pick(
      geo
        .countries()
        .map((c) => c.code)
        .filter((c) => geo.boundingBox(c) !== null),
      120,
    );
    let inside = 0;
    for (const code of codes) {
      for (const [lat, lon] of pointsAround(geo.boundingBox(code)!)) {
        const want = geo.tryCountryFromGps(lat, lon) === code;
        expect(geo.isInCountry(code, lat, lon), `${code} at ${lat},${lon}`).toBe(want);
        if (want) inside++;
      }
    }
    expect(inside).toBeGreaterThan(5_000);
  });
});
