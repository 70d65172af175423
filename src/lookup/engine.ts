// The four operations of the lookup service over one loaded dataset: per-call closures over the
// dataset's locator and code tables (code-tables.ts), which allocate nothing per lookup.

import { type BinaryInput, FORMAT_VERSION } from '../format/container.js';
import {
  type Check,
  type CountryInfo,
  type Dataset,
  type DatasetMeta,
  readDataset,
  type SubdivisionInfo,
} from '../format/dataset.js';
import type { RecordPages } from '../format/record-pages.js';
import { boxQueries, type BoxQueries, unionBox } from './boxes.js';
import { codeTables } from './code-tables.js';
import { deletedCodeError } from './deleted-codes.js';
import { DataError } from './errors.js';
import { locator } from './locate.js';
import { nothingHere, uncoveredSubdivision, unknownCountry, unknownSubdivision } from './not-found.js';
import { type BatchLookup, batchMethods } from './typed-arrays.js';
import {
  codeError,
  countryCodeProblem,
  inRange,
  parsePair,
  quickCoordinate,
  subdivisionCodeProblem,
} from './validate.js';

/** The four operations, plus the typed-array batch forms (typed-arrays.ts). */
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

/** Plain numbers in range: the entry points hand them to the locator as they are. */
function plainInRange(lat: unknown, lon: unknown): boolean {
  return typeof lat === 'number' && typeof lon === 'number' && inRange(lat, lon);
}

/** Degrees added on every side of a region's box, more than the build moves vertices: test/contract/boxes.test.ts. */
const BOX_PAD = 1e-4;
/** Calls with one subdivision code (since it was cached) before isInSubdivision tests its box first. */
const STREAK = 64;

/** The initial "last code asked about": equal to nothing a caller can pass (null must still be refused). */
const NO_CODE = Symbol('no code yet');

export function createEngine(ds: Dataset): GeoLookup {
  const { regionCountry, regionSubdivision, countryCodes, subdivisionParent } = ds;
  const style = ds.meta.codes;
  const a2to3 = (a2: string) => ds.alpha2ToAlpha3.get(a2);
  const { countries, subdivisions, covered, exactCountry, exactSubdivision, aliasSubdivision, regionCode } =
    codeTables(ds);
  const { locate, locateCountry, here: point, locateHere, locateCountryHere } = locator(ds);

  // Plain numbers in range reach the locator untouched: through quickCoordinate's `in range ? value
  // : NaN` the optimised code keeps the double boxed (test/contract/allocation.test.ts).
  function region(lat: unknown, lon: unknown): number {
    if (plainInRange(lat, lon)) return locate(lat as number, lon as number);
    const a = quickCoordinate(lat, 90);
    const b = quickCoordinate(lon, 180);
    if (a === a && b === b) return locate(a, b); // neither is NaN
    const [x, y] = parsePair(lat, lon); // throws the per-field errors
    return locate(x, y);
  }

  function countryAt(lat: unknown, lon: unknown): number {
    if (plainInRange(lat, lon)) return locateCountry(lat as number, lon as number);
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
        if (!plainInRange(lat, lon)) parsePair(lat, lon);
        return hit;
      }
    }
    const problem = countryCodeProblem(code, style, a2to3);
    if (problem) throw codeError('countryCode', problem, lat, lon);
    if (!plainInRange(lat, lon)) parsePair(lat, lon);
    const hit = ds.countryByCode.get((code as string).toUpperCase());
    if (hit === undefined) throw unknownCountry(code);
    return hit;
  }

  /** Subdivision index (>= 0), or -2 - countryIndex for an alias that stands for a whole country. */
  function subdivisionIndex(code: unknown, lat: unknown, lon: unknown): number {
    // Fast path: an upper-case code already in the tables needs no parsing.
    if (typeof code === 'string' && plainInRange(lat, lon)) {
      const hit = exactSubdivision[code];
      if (hit !== undefined) return hit;
    }
    const problem = subdivisionCodeProblem(code, style);
    if (problem) throw codeError('subdivisionCode', problem, lat, lon);
    const upper = (code as string).toUpperCase();
    // A code ISO deleted is bad input, listed with any bad coordinate, as a malformed code is.
    const hit = ds.subdivisionByCode.get(upper);
    const alias = ds.aliasCountry.get(upper);
    if (hit === undefined && alias === undefined) {
      const gone = deletedCodeError(ds.meta, upper, lat, lon);
      if (gone) throw gone;
    }
    if (!plainInRange(lat, lon)) parsePair(lat, lon);
    // A territory's code in its sovereign's list (US-PR) stands for the territory's own country.
    if (alias !== undefined) return -2 - alias;
    if (hit === undefined) throw unknownSubdivision(code);
    if (!covered[hit]) throw uncoveredSubdivision(upper);
    return hit;
  }

  /** Whether region r lies in subdivision `target`: subdivisionIndex's result (-2 - country for an alias). */
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

  // isIn*'s core for valid coordinates, small enough to inline into both of their branches: the
  // point's own code first, then the last code asked about (its index kept), and only other codes
  // through the validating lookup (speed: npm run bench, isInSubdivision near cities).
  let lastCountryCode: unknown = NO_CODE;
  let lastCountry = 0;
  let lastSubdivisionCode: unknown = NO_CODE;
  let lastSubdivision = 0;
  // From STREAK calls with one subdivision code, its region's padded box answers first: it holds every
  // point the lookup places in the region (test/contract/boxes.test.ts). Country lookups are cheap: no box.
  const box = Float64Array.of(-Infinity, -Infinity, Infinity, Infinity); // of lastSubdivision, padded
  let streak = 0; // calls with the last code since it was cached
  // The point reaches countryHolds, subdivisionHolds and the descents in `point`, the locator's own
  // array, never as double arguments: a double passed to a call V8 does not inline is boxed, and
  // whether it inlines depends on the caller (test/contract/allocation.test.ts, "through a generic caller").
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

  const engine: GeoLookup = {
    meta: ds.meta,
    tryCountryFromGps,
    trySubdivisionFromGps,
    countryFromGps(lat, lon) {
      const code = tryCountryFromGps(lat, lon);
      if (code === null) throw nothingHere('country', lat, lon);
      return code;
    },
    subdivisionFromGps(lat, lon) {
      const code = trySubdivisionFromGps(lat, lon);
      if (code === null) throw nothingHere('subdivision', lat, lon);
      return code;
    },
    isInCountry(code, lat, lon) {
      if (!plainInRange(lat, lon)) return isInCountryOther(code, lat, lon);
      point[0] = lat as number;
      point[1] = lon as number;
      return countryHolds(code);
    },
    isInSubdivision(code, lat, lon) {
      if (!plainInRange(lat, lon)) return isInSubdivisionOther(code, lat, lon);
      point[0] = lat as number;
      point[1] = lon as number;
      return subdivisionHolds(code);
    },
    countries,
    subdivisions,
    ...batchMethods(ds),
    ...boxQueries(ds),
  };
  Object.defineProperty(engine, DATASET, { value: { format: FORMAT_VERSION, ds } });
  return engine;
}

// A lookup carries its dataset under a Symbol.for key, not in a WeakMap: every copy of this module
// (the ESM and CommonJS builds, geolookup/extend's bundle) reads it, as a product holding a lookup
// from one entry and geometryIn from another does (packages/server/test/playground.test.ts, tiles).
const DATASET = Symbol.for('geolookup.dataset');

/** The dataset a lookup answers from (for readers outside the lookup layer, such as src/export). */
export function datasetOf(lookup: GeoLookup): Dataset {
  const held = (lookup as unknown as Record<symbol, { format: number; ds: Dataset } | undefined>)?.[DATASET];
  if (held?.format !== FORMAT_VERSION) throw new TypeError('not a GeoLookup made by this version of geolookup');
  return held.ds;
}

/** A lookup over a dataset handed over as bytes (browsers, bundlers, workers). */
export function createGeoLookupFromBytes(data: BinaryInput, name = 'dataset', check: Check = 'full'): GeoLookup {
  return lookupOf(data, name, check);
}

/** As createGeoLookupFromBytes; `pages` for a file whose records are read on demand (src/node/lazy-records.ts). */
export function lookupOf(data: BinaryInput, name: string, check: Check, pages?: RecordPages): GeoLookup {
  let ds: Dataset;
  try {
    ds = readDataset(data, name, check, pages);
  } catch (e) {
    // Metadata of the wrong shape (a null where an object belongs) fails inside readDataset.
    if (e instanceof DataError) throw e;
    throw new DataError(`${name}: malformed dataset (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  return createEngine(ds);
}
