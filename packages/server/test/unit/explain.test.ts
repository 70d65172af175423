// The playground's rule line (src/playground/explain.ts) on the ISO fixture (test/fixtures/README.md):
// the policy's Crimea dispute, SMR inside ITA, and country land that no subdivision reaches; and
// that no rule fires where none is shown to apply. Points are [latitude, longitude].
import { describe, expect, it } from 'vitest';
import { codeTables } from '../../src/playground/codes.js';
import { explainPoint } from '../../src/playground/explain.js';
import { loadFixture } from '../../../../test/fixtures/datasets.js';
import { cityPoints } from '../../../../test/support/sample-points.js';

const geo = loadFixture('iso');
const tables = codeTables(geo);
const rule = (lat: number, lon: number) => explainPoint(geo, tables, lat, lon)?.rule ?? null;

describe('explainPoint', () => {
  it("gives the policy's dispute, with its reason, in the subdivision that holds the dispute's point", () => {
    const d = geo.meta.disputes![0];
    expect(d).toMatchObject({ area: 'Crimea', winner: 'UKR', over: 'RUS' });
    const detail = `Crimea: answered UKR, not RUS — ${d.reason}`;
    expect(explainPoint(geo, tables, d.at[1], d.at[0])).toEqual({ rule: 'dispute', detail });
    // UA-43 west of the overlap is the same subdivision; UA-32 is another one of UKR.
    expect(explainPoint(geo, tables, 45, 31)).toEqual({ rule: 'dispute', detail });
    expect(rule(48.2, 30.5)).toBe(null);
  });

  it('names an enclave and what surrounds it, and no enclave next to it', () => {
    const [x, y] = [geo.tryCountryFromGps(43.95, 12.45), geo.tryCountryFromGps(43.95, 12.3)];
    expect([x, y]).toEqual(['SMR', 'ITA']);
    expect(explainPoint(geo, tables, 43.95, 12.45)).toEqual({
      rule: 'enclave',
      detail: `${x} territory surrounded by ${y} (as the dataset answers around it): where sources overlap, the smaller containing polygon wins (docs/POLICY.md#overlaps in the geolookup package)`,
    });
    // ITA around SMR, IT-45's own enclave-free land, a subdivision enclave within one country (UA-30).
    for (const [lat, lon] of [
      [43.95, 12.3],
      [45, 11],
      [47.95, 32.55],
    ])
      expect(rule(lat, lon), `${lat}, ${lon}`).toBe(null);
  });

  it('says when the country answers and no subdivision does, in a country that has subdivisions', () => {
    const gapKm = geo.meta.subdivisionGapKm;
    // The hole in UA-32 (land: the rule does not call it sea) and RUS land west of RU-KDA.
    for (const [lat, lon] of [
      [47, 31.5],
      [45.5, 36.5],
    ]) {
      expect([geo.tryCountryFromGps(lat, lon), geo.trySubdivisionFromGps(lat, lon)]).toEqual([
        expect.any(String),
        null,
      ]);
      expect(explainPoint(geo, tables, lat, lon)?.rule).toBe('no subdivision');
      expect(explainPoint(geo, tables, lat, lon)?.detail).toContain(`within the ${gapKm} km`);
    }
    // FIN has no subdivisions at all, and the sea has no country.
    expect([rule(65, 25), rule(0, -30)]).toEqual([null, null]);
  });

  it('fires "no subdivision" exactly where the country answers without one, never where both answer', () => {
    const { lat, lon } = cityPoints(500, 11);
    const withSubdivisions = new Set(
      geo
        .countries()
        .filter((c) => geo.subdivisions().some((s) => s.country === c.alpha2 && s.covered))
        .map((c) => c.code),
    );
    // Cities near the fixture's shapes, so that some points answer both.
    const points: [number, number][] = [];
    for (let i = 0; i < lat.length; i++) points.push([lat[i], lon[i]]);
    for (let la = 41.6; la < 48.5; la += 0.25) for (let lo = 30.1; lo < 40; lo += 0.25) points.push([la, lo]);
    let both = 0;
    for (const [la, lo] of points) {
      const country = geo.tryCountryFromGps(la, lo);
      const subdivision = geo.trySubdivisionFromGps(la, lo);
      if (country !== null && subdivision !== null) both++;
      const expected = country !== null && subdivision === null && withSubdivisions.has(country);
      expect(rule(la, lo) === 'no subdivision', `${la}, ${lo}`).toBe(expected);
    }
    expect(both).toBeGreaterThan(100);
  });

  it('costs a few milliseconds at most', () => {
    const start = performance.now();
    for (const [lat, lon] of [
      [43.95, 12.45],
      [45, 34.1],
      [47, 31.5],
      [45, 11],
    ])
      explainPoint(geo, tables, lat, lon);
    expect(performance.now() - start).toBeLessThan(200);
  });
});
