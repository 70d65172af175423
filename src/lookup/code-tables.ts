// The code tables the four operations read, built once per dataset: the public country and
// subdivision lists, which subdivisions can be answered, exact-code indexes and each region's code.

import type { CountryInfo, Dataset, SubdivisionInfo } from '../format/dataset.js';

export interface CodeTables {
  /** Frozen copies of the metadata's lists, as countries() and subdivisions() return them; made on first call. */
  countries: () => readonly CountryInfo[];
  subdivisions: () => readonly SubdivisionInfo[];
  /** 1 where the dataset can answer for the subdivision (it is held, or an ancestor of one). */
  covered: Uint8Array;
  /** Exact (upper-case) country code → country index. */
  exactCountry: Record<string, number>;
  /** Exact subdivision code → a covered subdivision's index, or -2 - country for an alias such as US-PR. */
  exactSubdivision: Record<string, number>;
  /** Per country: the subdivision index of the alias code that stands for it, -1 when none. */
  aliasSubdivision: Int32Array;
  /** Region id → its subdivision code, null where none. */
  regionCode: (string | null)[];
}

/**
 * Dictionaries with no prototype rather than Maps: a keyed load is cheaper than Map.get. regionCode holds
 * the metadata's own strings, internalized by JSON.parse as callers' code literals are by V8, so that
 * comparing two of them is a pointer compare (speed: npm run bench, isInSubdivision near cities).
 */
export function codeTables(ds: Dataset): CodeTables {
  const countries = once(() => frozenCopy(ds.meta.countries));
  const subdivisions = once(() => frozenCopy(ds.meta.subdivisions));
  const covered = ds.subdivisionCovered;
  const exactSubdivision: Record<string, number> = Object.create(null);
  ds.subdivisionByCode.forEach((i, code) => {
    if (covered[i]) exactSubdivision[code] = i;
  });
  // An alias wins over its own subdivision code.
  ds.aliasCountry.forEach((c, code) => {
    exactSubdivision[code] = -2 - c;
  });
  const exactCountry: Record<string, number> = Object.create(null);
  ds.countryByCode.forEach((i, code) => {
    exactCountry[code] = i;
  });
  // An alias code is also an ISO 3166-2 code the subdivision layer may answer on its own
  // (FR-971 in the sovereign's sea off Guadeloupe): isInSubdivision accepts both.
  const aliasSubdivision = new Int32Array(ds.countryCodes.length).fill(-1);
  ds.aliasCountry.forEach((c, code) => {
    const i = ds.subdivisionByCode.get(code);
    if (i !== undefined) aliasSubdivision[c] = i;
  });
  const { regionSubdivision, subdivisionCodes } = ds;
  const regionCode: (string | null)[] = [];
  for (let r = 0; r < regionSubdivision.length; r++) {
    const s = regionSubdivision[r];
    regionCode.push(s < 0 ? null : subdivisionCodes[s]);
  }
  return { countries, subdivisions, covered, exactCountry, exactSubdivision, aliasSubdivision, regionCode };
}

function frozenCopy<T extends object>(list: readonly T[]): readonly T[] {
  return Object.freeze(list.map((item) => Object.freeze({ ...item })));
}

/** Start-up pays only for what lookups read: lists most processes never ask for are copied when first asked. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
