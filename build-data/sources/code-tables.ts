// Code tables, sorted by code: the whole ISO 3166 reference (iso-3166) so validation knows every
// code, with the parent links of policy/parent-links.json (Debian iso-codes' links, frozen, and
// the ground's), or a custom build's zone codes as its country file names them.

import { iso31661, iso31662 } from 'iso-3166';
import type { CountryInfo, SubdivisionInfo } from '../../src/format/dataset.js';
import { type Hierarchy, policyHierarchy } from '../policy/hierarchy.js';
import { readParentLinks } from '../policy/parent-links.js';
import type { Feature } from './geojson.js';

export interface CodeTables {
  countries: CountryInfo[];
  subdivisions: SubdivisionInfo[];
  countryIndex: Map<string, number>;
  /** ISO 3166-1 alpha-2 → country index; custom zones have none. */
  alpha2Index: Map<string, number>;
  subdivisionIndex: Map<string, number>;
}

const byCode = (a: { code: string }, b: { code: string }) => (a.code < b.code ? -1 : 1);

function tables(countries: CountryInfo[], subdivisions: SubdivisionInfo[]): CodeTables {
  countries.sort(byCode);
  const countryIndex = new Map(countries.map((c, i) => [c.code, i]));
  const alpha2Index = new Map(countries.filter((c) => c.alpha2).map((c) => [c.alpha2, countryIndex.get(c.code)!]));
  subdivisions.sort(byCode);
  const subdivisionIndex = new Map(subdivisions.map((s, i) => [s.code, i]));
  return { countries, subdivisions, countryIndex, alpha2Index, subdivisionIndex };
}

let hierarchy: Hierarchy | null = null;

/** The reconciled parent links, computed once per process (the code tables and the report both read them). */
export function isoHierarchy(): Hierarchy {
  hierarchy ??= policyHierarchy(iso31662, readParentLinks());
  return hierarchy;
}

/**
 * The ISO reference plus the policy's user-assigned codes (Kosovo's XKX), less the codes ISO no
 * longer lists (policy/deleted-codes.json: the pinned list still has PK-TA, GH-BA, LU-D …).
 */
export function isoCodeTables(
  userAssigned: Record<string, { alpha2: string; name: string }>,
  deleted: ReadonlySet<string> = new Set(),
): CodeTables {
  const countries: CountryInfo[] = iso31661.map((c) => ({
    code: c.alpha3,
    alpha2: c.alpha2,
    name: c.name,
    covered: false,
  }));
  for (const [code, u] of Object.entries(userAssigned))
    countries.push({ code, alpha2: u.alpha2, name: u.name, covered: false });
  const { parents } = isoHierarchy();
  const subdivisions = iso31662
    .filter((s) => !deleted.has(s.code))
    .map((s) => ({
      code: s.code,
      name: s.name,
      // A parent ISO deleted (none today) would leave the code hanging: it then hangs from its country.
      parent: deleted.has(parents.get(s.code)!) ? s.code.slice(0, 2) : parents.get(s.code)!,
      country: s.code.slice(0, 2),
      covered: false,
    }));
  return tables(countries, subdivisions);
}

/**
 * Every code the zone file uses, upper-cased; a code outside the allowed alphabet fails the build.
 * Names come from `nameProperty` when given (one name per code, else the build fails), else the code.
 */
export function zoneCodeTables(
  features: Feature[],
  path: string,
  codeProperty: string,
  nameProperty?: string,
): CodeTables {
  const names = new Map<string, string>();
  for (const f of features) {
    const code = String(f.properties?.[codeProperty] ?? '').toUpperCase();
    const name = nameProperty === undefined ? code : String(f.properties?.[nameProperty] ?? '');
    const seen = names.get(code);
    if (seen !== undefined && seen !== name)
      throw new Error(`${path}: zone code "${code}" is named both "${seen}" and "${name}"`);
    names.set(code, name);
  }
  const countries: CountryInfo[] = [];
  for (const [code, name] of [...names].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!/^[A-Z0-9][A-Z0-9_.-]{0,62}$/.test(code))
      throw new Error(`${path}: zone code "${code}" must be 1-63 letters, digits, '_', '.' or '-'`);
    countries.push({ code, alpha2: '', name, covered: false });
  }
  return tables(countries, []);
}
