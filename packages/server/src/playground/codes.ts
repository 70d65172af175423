// The names and ISO parents the page shows beside an answer, and which codes the map outlines:
// all from the answering lookup's own tables (countries(), subdivisions()).

import type { GeoLookup } from 'geolookup';

/** GET /playground/codes.json: every country and subdivision code of the dataset with its name and parent. */
export interface Codes {
  countries: Record<string, { name: string; alpha2: string }>;
  /** `parent` is another subdivision (FR-IDF) or the alpha-2 country code (FR). */
  subdivisions: Record<string, { name: string; parent: string }>;
}

/** GET /playground/dataset.json: what the map credits and names, from the dataset's own metadata. */
export interface DatasetFacts {
  name: string;
  /** Each source the map's areas come from, as the dataset credits it (DATA-LICENSE.md). */
  attribution: { text: string; url?: string }[];
}

export interface CodeTables {
  codes: Codes;
  /** `codes` as sent. */
  json: string;
  /** DatasetFacts as sent. */
  dataset: string;
  /** Alpha-3 codes of the countries the dataset holds land for. */
  covered: string[];
  /** The subdivisions a lookup can answer in a country (no covered child), by alpha-3; absent for an unknown code. */
  heldIn: Map<string, string[]>;
}

/** The subdivision's ISO ancestors, nearest first, down to (without) the alpha-2 country. */
export function parentsOf(code: string, codes: Codes): string[] {
  const chain: string[] = [];
  for (
    let p = codes.subdivisions[code]?.parent;
    p !== undefined && Object.hasOwn(codes.subdivisions, p) && !chain.includes(p);
    p = codes.subdivisions[p].parent
  )
    chain.push(p);
  return chain;
}

export function codeTables(lookup: GeoLookup): CodeTables {
  const codes: Codes = { countries: {}, subdivisions: {} };
  const heldIn = new Map<string, string[]>();
  const byAlpha2 = new Map<string, string[]>();
  for (const c of lookup.countries()) {
    codes.countries[c.code] = { name: c.name, alpha2: c.alpha2 };
    const held: string[] = [];
    heldIn.set(c.code, held);
    byAlpha2.set(c.alpha2, held);
  }
  const subdivisions = lookup.subdivisions().filter((s) => s.covered);
  const parents = new Set(subdivisions.map((s) => s.parent));
  for (const s of lookup.subdivisions()) codes.subdivisions[s.code] = { name: s.name, parent: s.parent };
  for (const s of subdivisions) if (!parents.has(s.code)) byAlpha2.get(s.country)?.push(s.code);
  const covered = lookup
    .countries()
    .filter((c) => c.covered)
    .map((c) => c.code);
  // One credit per distinct attribution (OpenStreetMap's covers four sources), in the sources' order.
  const attribution = new Map<string, { text: string; url?: string }>();
  for (const s of lookup.meta.sources)
    if (s.attribution && !attribution.has(s.attribution))
      attribution.set(s.attribution, { text: s.attribution, url: s.url });
  const dataset: DatasetFacts = { name: lookup.meta.name, attribution: [...attribution.values()] };
  return { codes, json: JSON.stringify(codes), dataset: JSON.stringify(dataset), covered, heldIn };
}
