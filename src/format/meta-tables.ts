// The meta's code tables as stored: one array per field (docs/FORMAT.md, the meta section), which
// JSON.parse reads a few times faster, into a few times less memory, than one object per code.
// The lists of objects the API returns are made from the columns when first read.

import { DataError } from '../lookup/errors.js';
import type { CountryInfo, SubdivisionInfo } from './dataset.js';

export interface CountryColumns {
  code: string[];
  alpha2: string[];
  name: string[];
  /** '1' or '0' per country. */
  covered: string;
}

export interface SubdivisionColumns {
  code: string[];
  name: string[];
  /** The parent's subdivision index, or the alpha-2 code of the country at the top of the chain. */
  parent: (number | string)[];
  covered: string;
}

const flags = (list: readonly { covered: boolean }[]) => list.map((x) => (x.covered ? '1' : '0')).join('');

export function countryColumns(list: readonly CountryInfo[]): CountryColumns {
  return {
    code: list.map((c) => c.code),
    alpha2: list.map((c) => c.alpha2),
    name: list.map((c) => c.name),
    covered: flags(list),
  };
}

/** Throws when a subdivision's country is not the code its parent chain ends at (the reader derives it). */
export function subdivisionColumns(list: readonly SubdivisionInfo[]): SubdivisionColumns {
  const index = new Map(list.map((s, i) => [s.code, i]));
  const parent = list.map((s) => index.get(s.parent) ?? s.parent);
  const columns = { code: list.map((s) => s.code), name: list.map((s) => s.name), parent, covered: flags(list) };
  list.forEach((s, i) => {
    if (countryOf(columns.parent, i) !== s.country)
      throw new Error(`subdivision ${s.code}: country ${s.country} is not where its parents lead`);
  });
  return columns;
}

export function countryList(c: CountryColumns): CountryInfo[] {
  return c.code.map((code, i) => ({ code, alpha2: c.alpha2[i], name: c.name[i], covered: c.covered[i] === '1' }));
}

/** Needs parent chains that end (checkColumns). */
export function subdivisionList(s: SubdivisionColumns): SubdivisionInfo[] {
  return s.code.map((code, i) => {
    const p = s.parent[i];
    const parent = typeof p === 'number' ? s.code[p] : p;
    return { code, name: s.name[i], parent, country: countryOf(s.parent, i), covered: s.covered[i] === '1' };
  });
}

function countryOf(parent: readonly (number | string)[], i: number): string {
  let p = parent[i];
  while (typeof p === 'number') p = parent[p];
  return p;
}

/**
 * Refuses columns a reader cannot trust (a re-sealed or hand-edited file): missing or ragged
 * columns, codes and names that are not strings, flags other than 0 and 1, parents out of range,
 * and parent chains that never end (isInSubdivision walks them).
 */
export function checkColumns(countries: unknown, subdivisions: unknown, name: string): void {
  const bad = (what: string): never => {
    throw new DataError(`${name}: ${what} (corrupted metadata)`);
  };
  const c = table<CountryColumns>(countries, ['code', 'alpha2', 'name'], 'country', bad);
  const s = table<SubdivisionColumns>(subdivisions, ['code', 'name', 'parent'], 'subdivision', bad);
  if (!c || !s) throw new DataError(`${name}: metadata lacks code tables or index parameters`);
  const n = s.code.length;
  const state = new Uint8Array(n); // 0 unseen, 1 on the current walk, 2 known to end
  for (let i = 0; i < n; i++) {
    const p = s.parent[i];
    if (typeof p === 'string' ? p === '' : !(Number.isInteger(p) && p >= 0 && p < n))
      bad(`subdivision ${s.code[i]} has a parent out of range`);
  }
  for (let i = 0; i < n; i++) {
    let k: number | string = i;
    while (typeof k === 'number' && state[k] === 0) {
      state[k] = 1;
      k = s.parent[k];
    }
    if (typeof k === 'number' && state[k] === 1) bad(`subdivision ${s.code[k]} is its own ancestor`);
    for (k = i; typeof k === 'number' && state[k] === 1; k = s.parent[k]) state[k] = 2;
  }
}

/** The columns as arrays of one length with string entries (`parent` checked by the caller), or null when absent. */
function table<T>(value: unknown, fields: string[], what: string, bad: (what: string) => never): T | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const t = value as Record<string, unknown>;
  if (!fields.every((f) => Array.isArray(t[f]))) return null;
  const n = (t.code as unknown[]).length;
  if (!fields.every((f) => (t[f] as unknown[]).length === n) || typeof t.covered !== 'string' || t.covered.length !== n)
    bad(`${what} table columns of different lengths`);
  for (const f of fields)
    if (f !== 'parent' && !(t[f] as unknown[]).every((x) => typeof x === 'string'))
      bad(`a ${what} ${f} is not a string`);
  if (!/^[01]*$/.test(t.covered as string)) bad(`a ${what} covered flag is not 0 or 1`);
  return t as T;
}
