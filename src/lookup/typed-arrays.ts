// Batch lookups over typed arrays: one tight loop per call, straight into the
// hot path (the dataset's locator), with no per-point validation objects,
// strings or exceptions. Answers are indexes into the dataset's code tables.

import type { Dataset } from '../format/dataset.js';
import { ValidationError } from './errors.js';
import { type Locator, locator } from './locate.js';
import { coordinateError, inRange } from './validate.js';

/** Index written where no country / subdivision holds a valid point. */
export const NOT_FOUND = -1;
/** Index written for NaN, ±Infinity or an out-of-range latitude / longitude. */
export const INVALID_COORDINATE = -2;

export type IndexArray = Int16Array | Int32Array;

export interface BatchLookup {
  /** The country code table that `countryIndexes` points into (alpha-3, same order as `countries()`). */
  countryCodes(): readonly string[];
  /** The subdivision code table that `subdivisionIndexes` points into (same order as `subdivisions()`). */
  subdivisionCodes(): readonly string[];
  /**
   * Country of every point, as an index into `countryCodes()`; NOT_FOUND (-1) where there is
   * none, INVALID_COORDINATE (-2) for NaN / ±Infinity / out-of-range input. Writes into `out`
   * when given (at least as long as the input), else into a new Int16Array.
   */
  countryIndexes(latitudes: Float64Array, longitudes: Float64Array, out?: IndexArray): IndexArray;
  /** As countryIndexes, for the most specific subdivision (index into `subdivisionCodes()`). */
  subdivisionIndexes(latitudes: Float64Array, longitudes: Float64Array, out?: IndexArray): IndexArray;
  /** Country codes, null where none; a ValidationError for the first invalid point (the index form marks them all). */
  countriesFromGps(latitudes: Float64Array, longitudes: Float64Array): (string | null)[];
  /** Subdivision codes, null where none; a ValidationError for the first invalid point. */
  subdivisionsFromGps(latitudes: Float64Array, longitudes: Float64Array): (string | null)[];
}

/**
 * The number of points; a ValidationError naming every problem. The valid case allocates nothing,
 * so a one-point call (an extension's lookups over its own dataset) stays free of garbage.
 */
function checkInput(latitudes: unknown, longitudes: unknown, out: unknown, tableSize: number): number {
  if (
    latitudes instanceof Float64Array &&
    longitudes instanceof Float64Array &&
    latitudes.length === longitudes.length &&
    (out === undefined ||
      ((out instanceof Int32Array || (out instanceof Int16Array && tableSize <= 0x7fff)) &&
        out.length >= latitudes.length))
  )
    return latitudes.length;
  return inputProblem(latitudes, longitudes, out, tableSize);
}

function inputProblem(latitudes: unknown, longitudes: unknown, out: unknown, tableSize: number): never {
  const errors: Record<string, string[]> = {};
  if (!(latitudes instanceof Float64Array)) errors.latitudes = ['latitudes must be a Float64Array'];
  if (!(longitudes instanceof Float64Array)) errors.longitudes = ['longitudes must be a Float64Array'];
  if (
    latitudes instanceof Float64Array &&
    longitudes instanceof Float64Array &&
    latitudes.length !== longitudes.length
  ) {
    errors.longitudes = [
      `longitudes has ${longitudes.length} values, latitudes ${latitudes.length}; they must be the same length`,
    ];
  }
  const n = latitudes instanceof Float64Array ? latitudes.length : 0;
  if (out !== undefined) {
    if (!(out instanceof Int16Array || out instanceof Int32Array))
      errors.out = ['out must be an Int16Array or an Int32Array'];
    else if (out.length < n) errors.out = [`out holds ${out.length} values, fewer than the ${n} points`];
    else if (out instanceof Int16Array && tableSize > 0x7fff)
      errors.out = [`out must be an Int32Array: the code table has ${tableSize} entries`];
  }
  const messages = Object.values(errors).flat();
  throw new ValidationError(messages.map((m) => `${m[0].toUpperCase() + m.slice(1)}.`).join(' '), errors);
}

function newOut(n: number, tableSize: number): IndexArray {
  return tableSize > 0x7fff ? new Int32Array(n) : new Int16Array(n);
}

/** inRange rejects NaN, infinities and out-of-range values: NaN fails every comparison. */
function fillCountries(loc: Locator, lats: Float64Array, lons: Float64Array, out: IndexArray, n: number): void {
  const { locateCountry } = loc;
  for (let i = 0; i < n; i++) {
    const lat = lats[i];
    const lon = lons[i];
    out[i] = inRange(lat, lon) ? locateCountry(lat, lon) : INVALID_COORDINATE;
  }
}

function fillSubdivisions(
  ds: Dataset,
  loc: Locator,
  lats: Float64Array,
  lons: Float64Array,
  out: IndexArray,
  n: number,
): void {
  const regionSubdivision = ds.regionSubdivision;
  const { locate } = loc;
  for (let i = 0; i < n; i++) {
    const lat = lats[i];
    const lon = lons[i];
    out[i] = inRange(lat, lon) ? regionSubdivision[locate(lat, lon)] : INVALID_COORDINATE;
  }
}

function toCodes(idx: IndexArray, table: readonly string[], lats: Float64Array, lons: Float64Array): (string | null)[] {
  const codes: (string | null)[] = new Array(idx.length);
  for (let i = 0; i < idx.length; i++) {
    const k = idx[i];
    if (k === INVALID_COORDINATE) {
      const e = coordinateError(lats[i], lons[i]);
      throw new ValidationError(`Point ${i}: ${e.message}`, e.errors);
    }
    codes[i] = k < 0 ? null : table[k];
  }
  return codes;
}

export function batchMethods(ds: Dataset): BatchLookup {
  const countryCodes = Object.freeze(ds.countryCodes.slice());
  const subdivisionCodes = Object.freeze(ds.subdivisionCodes.slice());
  const loc = locator(ds);
  const countryIndexes = (lats: Float64Array, lons: Float64Array, out?: IndexArray): IndexArray => {
    const n = checkInput(lats, lons, out, countryCodes.length);
    const target = out ?? newOut(n, countryCodes.length);
    fillCountries(loc, lats, lons, target, n);
    return target;
  };
  const subdivisionIndexes = (lats: Float64Array, lons: Float64Array, out?: IndexArray): IndexArray => {
    const n = checkInput(lats, lons, out, subdivisionCodes.length);
    const target = out ?? newOut(n, subdivisionCodes.length);
    fillSubdivisions(ds, loc, lats, lons, target, n);
    return target;
  };
  return {
    countryCodes: () => countryCodes,
    subdivisionCodes: () => subdivisionCodes,
    countryIndexes,
    subdivisionIndexes,
    countriesFromGps: (lats, lons) => toCodes(countryIndexes(lats, lons), countryCodes, lats, lons),
    subdivisionsFromGps: (lats, lons) => toCodes(subdivisionIndexes(lats, lons), subdivisionCodes, lats, lons),
  };
}
