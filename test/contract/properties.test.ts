// Invariants over random points and random inputs (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countries,
  countryFromGps,
  GeoLookupError,
  isInCountry,
  isInSubdivision,
  subdivisionFromGps,
  subdivisions,
  tryCountryFromGps,
  trySubdivisionFromGps,
  ValidationError,
} from '../../src/index.js';
import { parsePair, quickCoordinate } from '../../src/lookup/validate.js';

const lat = fc.double({ min: -90, max: 90, noNaN: true });
const lon = fc.double({ min: -180, max: 180, noNaN: true });
const alpha2Of = new Map(countries().map((c) => [c.code, c.alpha2]));
const parentOf = new Map(subdivisions().map((s) => [s.code, s.parent]));
const coveredCountries = countries()
  .filter((c) => c.covered)
  .map((c) => c.code);
const runs = Number(process.env.PROPERTY_RUNS ?? 200_000);

describe('invariants over random points', () => {
  it('subdivision ⇒ country, and the code belongs to that country', () => {
    fc.assert(
      fc.property(lat, lon, (a, b) => {
        const c = tryCountryFromGps(a, b);
        const s = trySubdivisionFromGps(a, b);
        if (s !== null) {
          expect(c).not.toBeNull();
          expect(s.slice(0, 2)).toBe(alpha2Of.get(c!));
        }
      }),
      { numRuns: runs },
    );
  });

  it('isInCountry(c, p) === (countryFromGps(p) === c)', () => {
    fc.assert(
      fc.property(lat, lon, fc.constantFrom(...coveredCountries, 'ATA'), (a, b, code) => {
        expect(isInCountry(code, a, b)).toBe(tryCountryFromGps(a, b) === code);
        const own = tryCountryFromGps(a, b);
        if (own) expect(isInCountry(own, a, b)).toBe(true);
      }),
      { numRuns: runs / 4 },
    );
  });

  it('isInSubdivision holds for the point’s subdivision and each ancestor', () => {
    fc.assert(
      fc.property(lat, lon, (a, b) => {
        const s = trySubdivisionFromGps(a, b);
        for (let code: string | undefined = s ?? undefined; code && parentOf.has(code); code = parentOf.get(code)) {
          expect(isInSubdivision(code, a, b)).toBe(true);
        }
      }),
      { numRuns: runs / 4 },
    );
  });

  it('the throwing and the null-returning forms agree', () => {
    fc.assert(
      fc.property(lat, lon, (a, b) => {
        const c = tryCountryFromGps(a, b);
        if (c === null) expect(() => countryFromGps(a, b)).toThrow(GeoLookupError);
        else expect(countryFromGps(a, b)).toBe(c);
        const s = trySubdivisionFromGps(a, b);
        if (s === null) expect(() => subdivisionFromGps(a, b)).toThrow(GeoLookupError);
        else expect(subdivisionFromGps(a, b)).toBe(s);
      }),
      { numRuns: runs / 10 },
    );
  });

  it('numbers and their decimal strings give the same answer', () => {
    fc.assert(
      fc.property(lat, lon, (a, b) => {
        const sa = a.toFixed(6),
          sb = b.toFixed(6);
        expect(tryCountryFromGps(sa, sb)).toBe(tryCountryFromGps(Number(sa), Number(sb)));
      }),
      { numRuns: runs / 10 },
    );
  });
});

describe('any input, any position', () => {
  const anything = fc.oneof(
    fc.anything(),
    fc.string(),
    fc.double(),
    fc.bigInt(),
    fc.constantFrom(
      '-0',
      '1e2',
      '.5',
      '5.',
      ' 1',
      '1 ',
      '\u20281',
      '9'.repeat(1000),
      '__proto__',
      'constructor',
      'toString',
      Symbol('x'),
      { valueOf: () => 1 },
      { toString: () => '1' },
    ),
  );
  it('returns a well-formed answer or throws a typed error with a problem record', () => {
    fc.assert(
      fc.property(anything, anything, anything, (x, y, z) => {
        const calls: (() => unknown)[] = [
          () => countryFromGps(x as number, y as number),
          () => subdivisionFromGps(x as number, y as number),
          () => isInCountry(x as string, y as number, z as number),
          () => isInSubdivision(x as string, y as number, z as number),
        ];
        for (const call of calls) {
          try {
            const r = call();
            expect(typeof r === 'string' || typeof r === 'boolean').toBe(true);
          } catch (e) {
            expect(e).toBeInstanceOf(GeoLookupError);
            const p = (e as GeoLookupError).toProblem();
            expect([400, 404]).toContain(p.status);
            expect(typeof p.detail).toBe('string');
            if (p.status === 400) expect(Object.keys((e as ValidationError).errors).length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('the quick coordinate check accepts exactly what the full validator accepts', () => {
  // quickCoordinate lets valid strings and numbers skip the validator on the hot path; if it
  // accepted anything the validator refuses, bad input would get an answer instead of a 400.
  const decimalish = fc.stringMatching(/^[-+ .0-9eE\t\nx]{0,12}$/);
  const value = fc.oneof(
    decimalish,
    fc.string({ maxLength: 80 }),
    fc.double().map(String),
    fc.double(),
    fc.constantFrom(
      NaN,
      Infinity,
      -Infinity,
      -0,
      90,
      -90,
      180,
      -180,
      90.0000001,
      '90',
      '-180',
      '180.',
      '.5',
      '-.5',
      '5.',
      '-0',
      '00012.5',
      '1'.repeat(70),
      ' 1',
      '1 ',
      '',
      null,
      undefined,
    ),
  );
  it('on random strings and numbers, for both limits', () => {
    fc.assert(
      fc.property(value, (v) => {
        for (const [limit, pair] of [
          [90, () => parsePair(v, 0)[0]],
          [180, () => parsePair(0, v)[1]],
        ] as const) {
          const quick = quickCoordinate(v, limit);
          let full: number | undefined;
          try {
            full = pair();
          } catch (e) {
            expect(e).toBeInstanceOf(ValidationError);
          }
          if (full === undefined) expect(quick).toBeNaN();
          else expect(quick === full, `${String(v)}: ${quick} vs ${full}`).toBe(true); // === : the validator folds -0 to 0
        }
      }),
      { numRuns: Math.min(runs, 100_000) },
    );
  });
});
