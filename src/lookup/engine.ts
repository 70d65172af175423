// The four operations of the lookup service over one loaded dataset.

import {
  readDataset,
  type Check,
  type CountryInfo,
  type Dataset,
  type DatasetMeta,
  type SubdivisionInfo,
} from '../format/dataset.js';
import { DataError, NotFoundError, type ValidationError, type FieldErrors } from './errors.js';
import { locator } from './locate.js';
import { coordinateError, countryCodeProblem, parsePair, quickCoordinate, subdivisionCodeProblem } from './validate.js';
import type { BinaryInput } from '../format/container.js';
import { batchMethods, type BatchLookup } from './typed-arrays.js';
import { boxQueries, unionBox, type BoxQueries } from './boxes.js';

/** The four operations, plus the typed-array batch forms (src/batch.ts). */
export interface GeoLookup extends BatchLookup, BoxQueries {
  /** ISO 3166-1 alpha-3 code of the country at the point; NotFoundError at sea, in Antarctica or on unclaimed land. */
  countryFromGps(latitude: number | string, longitude: number | string): string;
  /** Most specific ISO 3166-2 code held at the point; NotFoundError where there is none. */
  subdivisionFromGps(latitude: number | string, longitude: number | string): string;
  /** Whether the point lies in the country (alpha-3, case-insensitive). */
  isInCountry(countryCode: string, latitude: number | string, longitude: number | string): boolean;
  /** Whether the point lies in the subdivision or one of its descendants. */
  isInSubdivision(subdivisionCode: string, latitude: number | string, longitude: number | string): boolean;
  /** As countryFromGps, but null instead of NotFoundError: for hot loops where "no result" is common. */
  tryCountryFromGps(latitude: number | string, longitude: number | string): string | null;
  /** As subdivisionFromGps, but null instead of NotFoundError. */
  trySubdivisionFromGps(latitude: number | string, longitude: number | string): string | null;
  /** Countries the dataset knows, with names. */
  countries(): readonly CountryInfo[];
  /** Subdivisions the dataset knows, with names and parents. */
  subdivisions(): readonly SubdivisionInfo[];
  /** Sources, licences, parameters and build statistics of the dataset. */
  readonly meta: DatasetMeta;
}

function inRange(lat: unknown, lon: unknown): boolean {
  return typeof lat === 'number' && typeof lon === 'number' && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180;
}

/** Degrees added on every side of a region's box before points are tested against it (see subdivisionHolds). */
const BOX_PAD = 1e-4;
/** Calls with one subdivision code (since it was cached) before isInSubdivision tests its box first. */
const STREAK = 64;

/** The initial "last code asked about": equal to nothing a caller can pass. */
const NO_CODE = Symbol('no code yet');

function codeError(field: string, problem: string, lat: unknown, lon: unknown): ValidationError {
  const extra: FieldErrors = { [field]: [problem] };
  return coordinateError(lat, lon, extra);
}

/**
 * "Nothing here" is an expected outcome (a third of random points are at sea), so its error
 * is made cheap: no stack trace (capturing one costs most of an exception), and the message,
 * whose two numbers take as long to format as the rest of the throw, is written when first read.
 */
const Base = NotFoundError;
// Named NotFoundError so that logs and util.inspect show the class users catch.
const NothingHere = class NotFoundError extends Base {
  readonly #layer: string;
  readonly #lat: number | string;
  readonly #lon: number | string;
  constructor(layer: string, lat: number | string, lon: number | string) {
    super(undefined as unknown as string);
    this.#layer = layer;
    this.#lat = lat;
    this.#lon = lon;
  }
  describe(): string {
    return `No ${this.#layer} at ${this.#lat},${this.#lon}.`;
  }
};
Object.defineProperty(NothingHere.prototype, 'message', {
  get(this: InstanceType<typeof NothingHere>) {
    return this.describe();
  },
});

function notFound(layer: string, lat: number | string, lon: number | string): NotFoundError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new NothingHere(layer, lat, lon);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function createEngine(ds: Dataset): GeoLookup {
  const { regionCountry, regionSubdivision, countryCodes, subdivisionCodes, subdivisionParent } = ds;
  const style = ds.meta.codes;
  const a2to3 = (a2: string) => ds.alpha2ToAlpha3.get(a2);
  const countries = Object.freeze(ds.meta.countries.map((c) => Object.freeze({ ...c })));
  const subdivisions = Object.freeze(ds.meta.subdivisions.map((s) => Object.freeze({ ...s })));
  const covered = Uint8Array.from(ds.meta.subdivisions, (s) => (s.covered ? 1 : 0));
  // isInSubdivision's fast path: one map from an exact code to its answer (a covered
  // subdivision's index, or -2 - country for an alias such as US-PR, which wins).
  // Null-prototype dictionaries rather than Maps: V8's keyed property load on a code string
  // takes ~10 ns where Map.get takes ~30 (measured over the bench's city codes).
  const exactSubdivision: Record<string, number> = Object.create(null);
  ds.subdivisionByCode.forEach((i, code) => {
    if (covered[i]) exactSubdivision[code] = i;
  });
  ds.aliasCountry.forEach((c, code) => (exactSubdivision[code] = -2 - c));
  const exactCountry: Record<string, number> = Object.create(null);
  ds.countryByCode.forEach((i, code) => (exactCountry[code] = i));
  // An alias code is also an ISO 3166-2 code the subdivision layer may answer on its own
  // (FR-971 in the sovereign's sea off Guadeloupe): isInSubdivision accepts both.
  const aliasSubdivision = new Int32Array(ds.countryCodes.length).fill(-1);
  ds.aliasCountry.forEach((c, code) => {
    const i = ds.subdivisionByCode.get(code);
    if (i !== undefined) aliasSubdivision[c] = i;
  });

  const { locate, locateCountry, here: point, locateHere, locateCountryHere } = locator(ds);
  // Region id → subdivision code (null where none): one read instead of two. The strings are the
  // metadata's own, which JSON.parse internalizes, like code literals in callers' source: two
  // different internalized strings compare by pointer, where a fresh copy against a literal of
  // the same length compared their characters (15-20 ns per isInSubdivision('US-CA', …) near cities).
  const regionCode: (string | null)[] = Array.from(regionSubdivision, (s) => (s < 0 ? null : subdivisionCodes[s]));

  // Each entry point tests plain numbers in range first and hands them to the locator as they
  // are. Through quickCoordinate's `in range ? value : NaN` the optimised code kept the double
  // boxed: two 16-byte heap numbers of garbage per lookup (a scavenge every ~500k lookups).
  // Strings (URLs, CSV) and everything invalid take the longer path.
  function region(lat: unknown, lon: unknown): number {
    if (inRange(lat, lon)) return locate(lat as number, lon as number);
    const a = quickCoordinate(lat, 90);
    const b = quickCoordinate(lon, 180);
    if (a === a && b === b) return locate(a, b); // neither is NaN
    const [x, y] = parsePair(lat, lon); // throws the per-field errors
    return locate(x, y);
  }

  function countryAt(lat: unknown, lon: unknown): number {
    if (inRange(lat, lon)) return locateCountry(lat as number, lon as number);
    const a = quickCoordinate(lat, 90);
    const b = quickCoordinate(lon, 180);
    if (a === a && b === b) return locateCountry(a, b);
    const [x, y] = parsePair(lat, lon); // throws the per-field errors
    return locateCountry(x, y);
  }

  function countryIndex(code: unknown, lat: unknown, lon: unknown): number {
    if (typeof code === 'string') {
      const hit = exactCountry[code];
      if (hit !== undefined) {
        if (!inRange(lat, lon)) parsePair(lat, lon);
        return hit;
      }
    }
    const problem = countryCodeProblem(code, style, a2to3);
    if (problem) throw codeError('countryCode', problem, lat, lon);
    if (!inRange(lat, lon)) parsePair(lat, lon);
    const hit = ds.countryByCode.get((code as string).toUpperCase());
    if (hit === undefined)
      throw new NotFoundError(`Unknown country code "${code}": not an ISO 3166-1 alpha-3 code known to this dataset.`);
    return hit;
  }

  /** Subdivision index (>= 0), or -2 - countryIndex for an alias that stands for a whole country. */
  function subdivisionIndex(code: unknown, lat: unknown, lon: unknown): number {
    // Fast path: an upper-case code already in the tables needs no parsing.
    if (typeof code === 'string' && inRange(lat, lon)) {
      const hit = exactSubdivision[code];
      if (hit !== undefined) return hit;
    }
    const problem = subdivisionCodeProblem(code, style);
    if (problem) throw codeError('subdivisionCode', problem, lat, lon);
    if (!inRange(lat, lon)) parsePair(lat, lon);
    const upper = (code as string).toUpperCase();
    // A territory's code in its sovereign's list (US-PR) stands for the territory's own country.
    const alias = ds.aliasCountry.get(upper);
    if (alias !== undefined) return -2 - alias;
    const hit = ds.subdivisionByCode.get(upper);
    if (hit !== undefined) {
      if (!covered[hit]) {
        throw new NotFoundError(
          `Subdivision "${upper}" is an ISO 3166-2 code, but this dataset holds no boundary for it.`,
        );
      }
      return hit;
    }
    throw new NotFoundError(`Unknown subdivision code "${code}": not an ISO 3166-2 code known to this dataset.`);
  }

  /** Whether region r lies in the subdivision `target` (subdivisionIndex's result: an index, or -2 - country for an alias). */
  function regionIn(r: number, target: number): boolean {
    let want = target;
    if (target < -1) {
      if (regionCountry[r] === -2 - target) return true;
      want = aliasSubdivision[-2 - target];
      if (want < 0) return false;
    }
    for (let s = regionSubdivision[r]; s >= 0; s = subdivisionParent[s]) if (s === want) return true;
    return false;
  }

  // isIn*'s core for valid coordinates (small, so it is inlined into both of their branches).
  // Two questions are common: "is this point in X?" over many points (geofencing: the last code
  // asked about keeps its index, strings being immutable, so a repeated code costs one pointer
  // compare) and "is this point in the region it is in?" (the point's own code: a table string,
  // so valid and known, and no code lookup is needed). The own code goes first: a compare that
  // fails on two different internalized strings reads both strings' headers, and with the
  // repeated code first every own-code question paid that failed compare (7-10 ns a call near
  // cities, measured in a tight loop; with the own code first isInSubdivision costs what
  // `trySubdivisionFromGps(lat, lon) === code` costs). A run of one code past STREAK calls takes
  // the box path below and never gets here. Only other codes go through the validating lookup,
  // which is not inlined: the doubles it takes are boxed.
  // Both start as a value no caller can pass (null would match a null code and skip its ValidationError).
  //
  // A repeated subdivision code is also tested against its region's bounding box before any
  // lookup: most points asked about are far from the region, and four compares answer them. The
  // box is the index's (src/boxes.ts: every part and every cell where the region answers by
  // default), so it holds every point the lookup can place in the region; BOX_PAD covers what
  // the build moves vertices by (quantisation, 1.4e-6°; off the antimeridian, 1e-5°). It is set
  // when a code is cached (the table of all boxes is built at the first, once, ~10 ms). Countries
  // are big and their lookups cheap: a country box bought nothing and cost the repeated-code
  // isInCountry ~8 ns, so countries have none.
  let lastCountryCode: unknown = NO_CODE;
  let lastCountry = 0;
  let lastSubdivisionCode: unknown = NO_CODE;
  let lastSubdivision = 0;
  const box = Float64Array.of(-Infinity, -Infinity, Infinity, Infinity); // of lastSubdivision, padded
  // Calls with the last code since it was cached. Comparing the code first, before the lookup, cost the
  // own-code question ~6 ns near cities (the lookup's reads no longer overlapped the compare's),
  // so the box goes first only once the same code has come STREAK times. A short streak let
  // mixed questions (own codes among runs of one fallback code) flip between the two orders and
  // cost ~2 ns a call in mispredicted branches; 64 calls is nothing to a geofencing loop.
  let streak = 0;
  // The point (lat, lon) reaches countryHolds / subdivisionHolds and the locator through `point`, never
  // as double arguments: whether V8 inlines a call depends on the caller's code too, and a double
  // passed to a call it does not inline is boxed. Called through a generic caller (one loop
  // calling many closures, as a harness or a router does), the one-code isInSubdivision's
  // `locate(lat, lon)` after the box test was not inlined: 32 bytes of garbage for every point
  // inside the box (test/allocation.test.ts, "through a generic caller"). The array is the
  // locator's own, which its descents read: copying the point from an array of ours into it
  // cost isInCountry 2-3 ns and isInSubdivision ~1 ns a call (bench harness, near cities).
  function countryHolds(code: unknown): boolean {
    const c = locateCountryHere();
    if (code === lastCountryCode) return lastCountry === c;
    if (c >= 0 && countryCodes[c] === code) return true;
    lastCountry = countryIndex(code, point[0], point[1]);
    lastCountryCode = code;
    return lastCountry === c;
  }

  function subdivisionHolds(code: unknown): boolean {
    if (streak >= STREAK) {
      if (code === lastSubdivisionCode) {
        if (outsideBox()) return false;
        return regionIn(locateHere(), lastSubdivision);
      }
      streak = 0;
    }
    const r = locateHere();
    const own = regionCode[r];
    if (own !== null && own === code) return true;
    if (code === lastSubdivisionCode) {
      streak++;
      return regionIn(r, lastSubdivision);
    }
    lastSubdivision = subdivisionIndex(code, point[0], point[1]);
    lastSubdivisionCode = code;
    streak = 0;
    boxOf(lastSubdivision);
    return regionIn(r, lastSubdivision);
  }

  function outsideBox(): boolean {
    const lat = point[0];
    const lon = point[1];
    const x = lon === 180 ? -180 : lon; // as the lookup folds it
    return x < box[0] || x > box[2] || lat < box[1] || lat > box[3];
  }

  /** Sets `box` to the padded box of a subdivisionIndex result (an alias: its country's and its own). */
  function boxOf(target: number): void {
    const alias = target < -1 ? -2 - target : -1;
    unionBox(ds, alias, alias >= 0 ? aliasSubdivision[alias] : target, box, BOX_PAD);
  }

  function tryCountryFromGps(lat: number | string, lon: number | string): string | null {
    const c = countryAt(lat, lon);
    return c < 0 ? null : countryCodes[c];
  }

  function trySubdivisionFromGps(lat: number | string, lon: number | string): string | null {
    return regionCode[region(lat, lon)];
  }

  // isIn*'s coordinates other than plain numbers in range (strings, bad input) take the functions
  // below, kept out of the entry points so that what V8 inlines into a caller's loop stays short.
  /** Puts coordinates other than plain numbers in range (decimal strings) in `point`; false when they are not valid. */
  function pointFrom(lat: unknown, lon: unknown): boolean {
    const a = quickCoordinate(lat, 90);
    const b = quickCoordinate(lon, 180);
    point[0] = a;
    point[1] = b;
    return a === a && b === b; // neither is NaN
  }

  function isInCountryOther(code: unknown, lat: unknown, lon: unknown): boolean {
    if (pointFrom(lat, lon)) return countryHolds(code);
    const c = countryIndex(code, lat, lon); // throws: the coordinates are bad
    return countryAt(lat, lon) === c;
  }

  function isInSubdivisionOther(code: unknown, lat: unknown, lon: unknown): boolean {
    if (pointFrom(lat, lon)) return subdivisionHolds(code);
    const target = subdivisionIndex(code, lat, lon); // throws: the coordinates are bad
    return regionIn(region(lat, lon), target);
  }

  return {
    meta: ds.meta,
    tryCountryFromGps,
    trySubdivisionFromGps,
    countryFromGps(lat, lon) {
      const code = tryCountryFromGps(lat, lon);
      if (code === null) throw notFound('country', lat, lon);
      return code;
    },
    subdivisionFromGps(lat, lon) {
      const code = trySubdivisionFromGps(lat, lon);
      if (code === null) throw notFound('subdivision', lat, lon);
      return code;
    },
    isInCountry(code, lat, lon) {
      if (!inRange(lat, lon)) return isInCountryOther(code, lat, lon);
      point[0] = lat as number;
      point[1] = lon as number;
      return countryHolds(code);
    },
    isInSubdivision(code, lat, lon) {
      if (!inRange(lat, lon)) return isInSubdivisionOther(code, lat, lon);
      point[0] = lat as number;
      point[1] = lon as number;
      return subdivisionHolds(code);
    },
    countries: () => countries,
    subdivisions: () => subdivisions,
    ...batchMethods(ds),
    ...boxQueries(ds),
  };
}

/**
 * What readDataset takes on trust from the metadata JSON, which the checksum cannot vouch for
 * in a re-sealed or hand-edited file (it checks the index parameters itself): subdivision
 * parent chains without cycles (isInSubdivision walks them; a cycle would never end).
 */
function checkMeta(ds: Dataset, name: string): void {
  const bad = (what: string): never => {
    throw new DataError(`${name}: ${what} (corrupted metadata)`);
  };
  if (!ds.countryCodes.every((c) => typeof c === 'string') || !ds.subdivisionCodes.every((c) => typeof c === 'string'))
    bad('a code is not a string');
  const parent = ds.subdivisionParent;
  const state = new Uint8Array(parent.length); // 0 unseen, 1 on the current walk, 2 known to end
  for (let i = 0; i < parent.length; i++) {
    let s = i;
    while (s >= 0 && state[s] === 0) {
      state[s] = 1;
      s = parent[s];
    }
    if (s >= 0 && state[s] === 1) bad(`subdivision ${ds.subdivisionCodes[s]} is its own ancestor`);
    for (s = i; s >= 0 && state[s] === 1; s = parent[s]) state[s] = 2;
  }
}

/** A lookup over a dataset handed over as bytes (browsers, bundlers, workers). */
export function createGeoLookupFromBytes(data: BinaryInput, name = 'dataset', check: Check = 'full'): GeoLookup {
  let ds: Dataset;
  try {
    ds = readDataset(data, name, check);
  } catch (e) {
    // Metadata of the wrong shape (a null where an object belongs) fails inside readDataset.
    if (e instanceof DataError) throw e;
    throw new DataError(`${name}: malformed dataset (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  checkMeta(ds, name);
  return createEngine(ds);
}
