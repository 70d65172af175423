// Property-based fuzzing of the library's six lookup functions: any value of any type in
// any argument position either gives a well-formed answer or throws one of our typed
// errors with a filled problem record; never another exception, never a hang, and the
// same input always gives the same outcome. Expected outcomes come from a model of the
// input rules written from the README's table (not from src/lookup/validate.ts), and answers
// for valid string input must equal the answers for the numbers they spell.
// FUZZ_RUNS sets the cases per property (default 20,000).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countries,
  countryFromGps,
  datasetInfo,
  GeoLookupError,
  isInCountry,
  isInSubdivision,
  NotFoundError,
  PROBLEM_TYPES,
  subdivisionFromGps,
  subdivisions,
  tryCountryFromGps,
  trySubdivisionFromGps,
  ValidationError,
} from '../../src/index.js';
import { cityPoints } from '../support/sample-points.js';
import { anyArgument, codes, spell, unwrap } from '../support/fuzz-values.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_510);
/** A single call slower than this counts as a hang (lookups take microseconds; room for GC on a busy machine). */
const HANG_MS = 1000;

const countryList = countries();
const subdivisionList = subdivisions();
const aliases = datasetInfo().aliases;
const countryCodes = new Set(countryList.map((c) => c.code));
const coveredCountries = new Set(countryList.filter((c) => c.covered).map((c) => c.code));
const alpha2To3 = new Map(countryList.map((c) => [c.alpha2, c.code]));
const subdivisionByCode = new Map(subdivisionList.map((s) => [s.code, s]));
const codeArb = codes([...countryCodes], [...alpha2To3.keys()], [...subdivisionByCode.keys()], Object.keys(aliases));
const arg = anyArgument(codeArb);

// ---- the model: the README's input rules, restated independently ----

const DECIMAL = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;
/** The coordinate's numeric value, or undefined when the rules refuse it. */
function coordinate(v: unknown, limit: number): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && v.length <= 64 && DECIMAL.test(v)) n = Number(v);
  else return undefined;
  return Number.isFinite(n) && n >= -limit && n <= limit ? n : undefined;
}
const countryShape = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z]{3}$/.test(v);
const subdivisionShape = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/.test(v);

type Expected = { invalid: string[] } | { lat: number; lon: number };

function expectCoordinates(lat: unknown, lon: unknown, invalid: string[]): Expected {
  const a = coordinate(lat, 90);
  const b = coordinate(lon, 180);
  if (a === undefined) invalid.push('latitude');
  if (b === undefined) invalid.push('longitude');
  return invalid.length ? { invalid } : { lat: a!, lon: b! };
}

/** A subdivision code and its ancestors (the chain isInSubdivision accepts). */
function ancestry(code: string | null): Set<string> {
  const out = new Set<string>();
  for (let c = code ?? undefined; c !== undefined && subdivisionByCode.has(c); c = subdivisionByCode.get(c)!.parent)
    out.add(c);
  return out;
}

// ---- checking one outcome ----

let slowest = 0;
function outcome(call: () => unknown): { value?: unknown; error?: unknown; ms: number } {
  const t = performance.now();
  try {
    const value = call();
    return { value, ms: performance.now() - t };
  } catch (error) {
    return { error, ms: performance.now() - t };
  } finally {
    slowest = Math.max(slowest, performance.now() - t);
  }
}

/**
 * Outcome classes seen, for the closing note (valid answers must be a good share, or the fuzz only
 * tests validation).
 */
const tally = new Map<string, number>();
function count(o: { value?: unknown; error?: unknown }): void {
  const k = o.error === undefined ? (o.value === null ? 'null' : typeof o.value) : (o.error as Error).name;
  tally.set(k, (tally.get(k) ?? 0) + 1);
}

function fingerprint(o: { value?: unknown; error?: unknown }): string {
  if (o.error === undefined) return `value:${typeof o.value}:${String(o.value)}`;
  const e = o.error as GeoLookupError;
  return e instanceof GeoLookupError ? `error:${e.name}:${JSON.stringify(e.toProblem())}` : `foreign:${String(e)}`;
}

function checkProblem(e: unknown, status: 400 | 404, fields?: string[]): void {
  expect(e, `threw ${String(e)}`).toBeInstanceOf(GeoLookupError);
  const err = e as GeoLookupError;
  expect(err.status).toBe(status);
  const p = err.toProblem();
  expect(JSON.parse(JSON.stringify(p))).toEqual(p); // plain data, serialisable as sent
  expect(typeof p.detail).toBe('string');
  expect(p.detail.length).toBeGreaterThan(0);
  expect(p.detail.length).toBeLessThan(1000); // huge inputs are not echoed back
  if (status === 400) {
    expect(err).toBeInstanceOf(ValidationError);
    expect(p).toMatchObject({ type: PROBLEM_TYPES.validation, title: 'Bad Request', status: 400 });
    expect(Object.keys(p.errors ?? {}).sort()).toEqual([...fields!].sort());
    for (const list of Object.values(p.errors!)) {
      expect(Array.isArray(list) && list.length > 0 && list.every((m) => typeof m === 'string' && m.length > 0)).toBe(
        true,
      );
    }
  } else {
    expect(err).toBeInstanceOf(NotFoundError);
    expect(p).toEqual({ type: PROBLEM_TYPES.notFound, title: 'Not Found', status: 404, detail: p.detail });
  }
}

/** Runs the call twice (determinism), then checks the first outcome against `expected`. */
function check(call: () => unknown, expected: (o: { value?: unknown; error?: unknown }) => void): void {
  const first = outcome(call);
  const second = outcome(call);
  expect(fingerprint(second)).toBe(fingerprint(first));
  expect(first.ms).toBeLessThan(HANG_MS);
  count(first);
  expected(first);
}

// Position-aware arguments: mostly valid coordinates (a third near cities, so on land) and
// code-like strings, with any value at all mixed in; plus argument lists of any length.
const cities = cityPoints(5000, 8);
const city = fc.tuple(
  fc.nat(cities.lat.length - 1),
  fc.double({ min: -0.05, max: 0.05, noNaN: true }),
  fc.double({ min: -0.05, max: 0.05, noNaN: true }),
);
const coordinateArg = (which: 'lat' | 'lon', limit: number) => {
  const num = fc.oneof(
    fc.double({ min: -limit, max: limit, noNaN: true }),
    city.map(([i, a, b]) => Math.max(-limit, Math.min(limit, which === 'lat' ? cities.lat[i] + a : cities.lon[i] + b))),
  );
  return fc.oneof({ weight: 4, arbitrary: num }, { weight: 3, arbitrary: spell(num) }, { weight: 3, arbitrary: arg });
};
/** A latitude/longitude pair that keeps city pairs together, so valid pairs often land on land. */
const pair = fc.oneof(
  fc.tuple(coordinateArg('lat', 90), coordinateArg('lon', 180)),
  fc
    .tuple(city, fc.boolean())
    .map(([[i, a, b], s]) =>
      s ? [(cities.lat[i] + a).toFixed(5), (cities.lon[i] + b).toFixed(5)] : [cities.lat[i] + a, cities.lon[i] + b],
    ),
);
const code = (own: string[]) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...own) },
    { weight: 4, arbitrary: codeArb },
    { weight: 1, arbitrary: arg },
  );
const extra = fc.array(arg, { maxLength: 2 });
const anyList = fc.array(arg, { maxLength: 4 });
const pairArgs = fc
  .oneof(
    { weight: 4, arbitrary: fc.tuple(pair, extra).map(([p, e]) => [...p, ...e]) },
    { weight: 1, arbitrary: anyList },
  )
  .map((l) => l.map(unwrap));
const codeArgs = (own: string[]) =>
  fc
    .oneof(
      { weight: 4, arbitrary: fc.tuple(code(own), pair, extra).map(([c, p, e]) => [c, ...p, ...e]) },
      { weight: 1, arbitrary: anyList },
    )
    .map((l) => l.map(unwrap));
const params = { numRuns: RUNS, seed: SEED };
/** Per-test time limit: long opt-in runs scale it, at 0.5 ms a case. */
const TIMEOUT = Math.max(120_000, RUNS * 0.5);

/** Per layer of the point lookups: the numeric answer, and what a code it answers must satisfy. */
interface Layer {
  answer(lat: number, lon: number): string | null;
  holds(code: string, lat: number, lon: number): void;
}
const LAYERS: Record<'country' | 'subdivision', Layer> = {
  country: {
    answer: tryCountryFromGps,
    holds: (code: string) => expect(coveredCountries.has(code)).toBe(true),
  },
  subdivision: {
    answer: trySubdivisionFromGps,
    holds: (code: string, lat: number, lon: number) => {
      const info = subdivisionByCode.get(code);
      expect(info?.covered).toBe(true);
      // The subdivision belongs to the country the country layer answers.
      expect(alpha2To3.get(info!.country)).toBe(tryCountryFromGps(lat, lon));
    },
  },
};

describe(`library fuzz (${RUNS} cases per property, seed ${SEED})`, () => {
  it.each([
    ['countryFromGps', countryFromGps, false, 'country'],
    ['tryCountryFromGps', tryCountryFromGps, true, 'country'],
    ['subdivisionFromGps', subdivisionFromGps, false, 'subdivision'],
    ['trySubdivisionFromGps', trySubdivisionFromGps, true, 'subdivision'],
  ] as const)(
    '%s(any, any)',
    (_name, fn, nullable, layer) => {
      const { answer, holds } = LAYERS[layer];
      fc.assert(
        fc.property(pairArgs, (a) => {
          const exp = expectCoordinates(a[0], a[1], []);
          check(
            () => (fn as (...x: unknown[]) => unknown)(...a),
            (o) => {
              if ('invalid' in exp) return checkProblem(o.error, 400, exp.invalid);
              const truth = answer(exp.lat, exp.lon); // the numeric answer for the spelled numbers
              if (truth === null) {
                if (nullable) expect(o.error === undefined && o.value === null).toBe(true);
                else checkProblem(o.error, 404);
              } else {
                expect(o.error).toBeUndefined();
                expect(o.value).toBe(truth);
                holds(truth, exp.lat, exp.lon);
              }
            },
          );
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it(
    'isInCountry(any, any, any)',
    () => {
      fc.assert(
        fc.property(codeArgs([...countryCodes]), (a) => {
          const invalid: string[] = countryShape(a[0]) ? [] : ['countryCode'];
          const exp = expectCoordinates(a[1], a[2], invalid);
          check(
            () => (isInCountry as (...x: unknown[]) => unknown)(...a),
            (o) => {
              if ('invalid' in exp) {
                checkProblem(o.error, 400, exp.invalid);
                // An alpha-2 code is refused with the alpha-3 to use instead.
                const a3 =
                  typeof a[0] === 'string' && /^[A-Za-z]{2}$/.test(a[0])
                    ? alpha2To3.get(a[0].toUpperCase())
                    : undefined;
                if (a3) expect((o.error as ValidationError).errors.countryCode!.join(' ')).toContain(a3);
                return;
              }
              const code = (a[0] as string).toUpperCase();
              if (!countryCodes.has(code)) return checkProblem(o.error, 404);
              expect(o.error).toBeUndefined();
              expect(o.value).toBe(tryCountryFromGps(exp.lat, exp.lon) === code);
            },
          );
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it(
    'isInSubdivision(any, any, any)',
    () => {
      fc.assert(
        fc.property(codeArgs([...subdivisionByCode.keys(), ...Object.keys(aliases)]), (a) => {
          const invalid: string[] = subdivisionShape(a[0]) ? [] : ['subdivisionCode'];
          const exp = expectCoordinates(a[1], a[2], invalid);
          check(
            () => (isInSubdivision as (...x: unknown[]) => unknown)(...a),
            (o) => {
              if ('invalid' in exp) return checkProblem(o.error, 400, exp.invalid);
              const code = (a[0] as string).toUpperCase();
              if (Object.hasOwn(aliases, code)) {
                expect(o.error).toBeUndefined();
                expect(o.value).toBe(tryCountryFromGps(exp.lat, exp.lon) === aliases[code]);
              } else if (subdivisionByCode.get(code)?.covered) {
                expect(o.error).toBeUndefined();
                expect(o.value).toBe(ancestry(trySubdivisionFromGps(exp.lat, exp.lon)).has(code));
              } else checkProblem(o.error, 404);
            },
          );
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it('no single call came near a hang', () => {
    expect(slowest).toBeLessThan(HANG_MS);
    const total = [...tally.values()].reduce((a, b) => a + b, 0);
    console.log(
      `library fuzz: ${total} calls (each made twice), outcomes ${JSON.stringify(Object.fromEntries(tally))}, slowest ${slowest.toFixed(2)} ms`,
    );
    // Answers (string, boolean, null) and both error kinds all occur in a sizeable share.
    for (const k of ['string', 'boolean', 'ValidationError', 'NotFoundError'])
      expect(tally.get(k) ?? 0).toBeGreaterThan(total / 50);
  });
});
