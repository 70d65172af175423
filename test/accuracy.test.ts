// Agreement with an independent truth (GeoNames cities): at least 99.9% after excluding
// only the rows our written policy explains.
import { describe, expect, it } from 'vitest';
import { countries, tryCountryFromGps } from '../src/index.js';
import { accuracy } from '../bench/accuracy-lib.js';

describe('accuracy against GeoNames', () => {
  it('≥ 99.9% of cities get GeoNames’ country', () => {
    const a2to3 = new Map(countries().map((c) => [c.alpha2, c.code]));
    const r = accuracy(tryCountryFromGps, (a2) => a2to3.get(a2));
    expect(r.total).toBeGreaterThan(130_000);
    expect(r.agree / (r.total - r.explained)).toBeGreaterThanOrEqual(0.999);
    expect(r.explained).toBeLessThan(r.total * 0.001);
  });
});
