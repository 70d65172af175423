// Bounding-box queries over the dataset's Flatbush index of polygon parts (built
// by build-data, read in place: Flatbush.from over the file's bytes, no copy).
// Boxes, not shapes: these answer "which regions could touch this area" and
// "where does this region lie", the prefilter a map view or a tiler needs.

import type { Dataset } from '../format/dataset.js';
import { ValidationError, type FieldErrors } from './errors.js';
import { deletedCodeError } from './deleted-codes.js';
import { regionCodeError } from './validate.js';

/** [minLongitude, minLatitude, maxLongitude, maxLatitude] in degrees (WGS 84). */
export type BBox = [number, number, number, number];

export interface BoxQueries {
  /**
   * Countries and subdivisions with a polygon part whose bounding box meets the box
   * (edges included): a superset of the regions the box touches, each code once, sorted.
   */
  regionsInBox(
    minLongitude: number,
    minLatitude: number,
    maxLongitude: number,
    maxLatitude: number,
  ): { countries: string[]; subdivisions: string[] };
  /**
   * Bounding box of a country (alpha-3, land and territorial sea) or subdivision (ISO 3166-2,
   * covering its descendants), as stored in the index; null for a code the data holds no part of.
   * A region across the antimeridian spans the whole longitude range.
   */
  boundingBox(code: string): BBox | null;
}

function checkBox(minX: unknown, minY: unknown, maxX: unknown, maxY: unknown): void {
  const errors: FieldErrors = {};
  const num = (v: unknown, field: string, lo: number, hi: number) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi)
      errors[field] = [`${field} must be a finite number between ${lo} and ${hi}`];
  };
  num(minX, 'minLongitude', -180, 180);
  num(minY, 'minLatitude', -90, 90);
  num(maxX, 'maxLongitude', -180, 180);
  num(maxY, 'maxLatitude', -90, 90);
  if (!errors.minLongitude && !errors.maxLongitude && (minX as number) > (maxX as number))
    errors.maxLongitude = [
      'maxLongitude must not be less than minLongitude (split a box across the antimeridian in two)',
    ];
  if (!errors.minLatitude && !errors.maxLatitude && (minY as number) > (maxY as number))
    errors.maxLatitude = ['maxLatitude must not be less than minLatitude'];
  if (Object.keys(errors).length) throw new ValidationError('Invalid bounding box.', errors);
}

const tables = new WeakMap<Dataset, Float64Array>();

/**
 * Every region's box, in one pass over the index, once per dataset:
 * [minX, minY, maxX, maxY] for country c at 4c, for subdivision s (covering its descendants) at
 * 4 × (countryCount + s); Infinity, Infinity, -Infinity, -Infinity where the data holds no part.
 */
export function regionBoxes(ds: Dataset): Float64Array {
  let t = tables.get(ds);
  if (t !== undefined) return t;
  const countries = ds.countryCodes.length;
  const { subdivisionParent, partCodes } = ds;
  t = new Float64Array(4 * (countries + subdivisionParent.length));
  for (let i = 0; i < t.length; i++) t[i] = (i & 3) < 2 ? Infinity : -Infinity;
  const grow = (at: number, x0: number, y0: number, x1: number, y1: number) => {
    if (x0 < t![at]) t![at] = x0;
    if (y0 < t![at + 1]) t![at + 1] = y0;
    if (x1 > t![at + 2]) t![at + 2] = x1;
    if (y1 > t![at + 3]) t![at + 3] = y1;
  };
  // The filter sees every item's box and keeps none.
  ds.parts.search(-180, -90, 180, 90, (i, x0, y0, x1, y1) => {
    const c = partCodes[i];
    if (c >= 0) grow(4 * c, x0, y0, x1, y1);
    else for (let s = -1 - c; s >= 0; s = subdivisionParent[s]) grow(4 * (countries + s), x0, y0, x1, y1);
    return false;
  });
  tables.set(ds, t);
  return t;
}

/**
 * Writes into `out` the union of country c's and subdivision s's boxes (either -1 for none),
 * widened by `pad` on every side; Infinity, Infinity, -Infinity, -Infinity when both are empty.
 */
export function unionBox(ds: Dataset, c: number, s: number, out: Float64Array | number[], pad = 0): void {
  const t = regionBoxes(ds);
  const c0 = c >= 0 ? 4 * c : -1;
  const s0 = s >= 0 ? 4 * (ds.countryCodes.length + s) : -1;
  for (let k = 0; k < 4; k++) {
    const low = k < 2;
    let v = low ? Infinity : -Infinity;
    if (c0 >= 0) v = low ? Math.min(v, t[c0 + k]) : Math.max(v, t[c0 + k]);
    if (s0 >= 0) v = low ? Math.min(v, t[s0 + k]) : Math.max(v, t[s0 + k]);
    out[k] = low ? v - pad : v + pad;
  }
}

export function boxQueries(ds: Dataset): BoxQueries {
  const index = ds.parts;
  const codes = ds.partCodes;
  const { countryCodes, subdivisionCodes } = ds;

  return {
    regionsInBox(minX, minY, maxX, maxY) {
      checkBox(minX, minY, maxX, maxY);
      const countries = new Set<string>();
      const subdivisions = new Set<string>();
      for (const i of index.search(minX, minY, maxX, maxY)) {
        const c = codes[i];
        if (c >= 0) countries.add(countryCodes[c]);
        else subdivisions.add(subdivisionCodes[-1 - c]);
      }
      return { countries: [...countries].sort(), subdivisions: [...subdivisions].sort() };
    },
    boundingBox(code) {
      // A malformed code ('FRA ', 'FR') is bad input, as for isInCountry / isInSubdivision; only a
      // well-formed code the data holds nothing of is null.
      const invalid = regionCodeError(code, ds.meta.codes, (a2) => ds.alpha2ToAlpha3.get(a2));
      if (invalid !== null) throw invalid;
      const upper = code.toUpperCase();
      // A territory's code in its sovereign's list (US-PR) stands for the territory (PRI).
      const country = ds.aliasCountry.get(upper) ?? ds.countryByCode.get(upper);
      // An alias is also a subdivision code that can be answered on its own (its sovereign's
      // sea, for instance): its box covers both.
      const sub = ds.subdivisionByCode.get(upper);
      if (country === undefined && sub === undefined) {
        // A code ISO deleted is bad input here too, naming its successor (deleted-codes.ts).
        const gone = deletedCodeError(ds.meta, upper, 0, 0);
        if (gone) throw gone;
        return null;
      }
      const box: BBox = [0, 0, 0, 0];
      unionBox(ds, country ?? -1, sub ?? -1, box);
      return box[0] === Infinity ? null : box;
    },
  };
}
