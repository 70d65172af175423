// Loads the boundary sources and the ISO reference, applies the reviewed
// policy and remap tables, and returns polygon parts ranked for overlap order.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso31661, iso31662 } from 'iso-3166';
import { partArea, partContains, type Box, type Ring } from '../index/clip.js';
import type { Part } from '../index/build-index.js';
import type { CountryInfo, SourceInfo, SubdivisionInfo } from '../../src/format/dataset.js';
import { readReplacement, sourceName, type Replacement } from './replacements.js';

export interface BuildConfig {
  name: string;
  codes: 'iso' | 'custom';
  countries: { path: string; codeProperty: string };
  sea: { path: string; codeProperty: string } | null;
  /** replacements: countries whose subdivisions come from another source (admin1-replacements.ts). */
  subdivisions: { path: string; codeProperty: string; replacements?: Replacement[] } | null;
  sources: SourceInfo[];
}

interface Policy {
  fillCountryHoles: boolean;
  /** Reassign a sovereign's sea part to the territory whose land it surrounds (see seaFollowsLand). */
  seaFollowsLand?: boolean;
  /** Sovereign → territories beyond those the alias table implies. */
  seaFollowsLandExtra?: Record<string, string[]>;
  noCountry: Record<string, string>;
  /** Natural Earth admin-1 features (by adm1_code) whose outline is land of this country: land no OSM country polygon holds. */
  landFromAdmin1?: Record<string, { country: string; name: string }>;
  userAssigned: Record<string, { alpha2: string; name: string; reason: string }>;
  aliases: Record<string, string>;
  disputes: { area: string; at: [number, number]; winner: string; over: string; reason: string }[];
}

interface RemapEntry {
  match: { iso_3166_2?: string; adm1_code?: string };
  to: string | null;
  reason: string;
  /**
   * 'nearest': leave the feature out, so its land is a gap in its country's subdivisions and
   * the build's nearest-subdivision rule answers there (within 25 km). For a thin uncoded strip
   * between coded units (the UNDOF zone), where "no subdivision" is a worse answer than the unit next door.
   */
  fill?: 'nearest';
}

export interface Sources {
  countries: CountryInfo[];
  subdivisions: SubdivisionInfo[];
  aliases: Record<string, string>;
  countryParts: Part[];
  subdivisionParts: Part[];
  policy: Policy;
  remapApplied: { from: string; to: string | null; reason: string; features: number }[];
  droppedCountries: { code: string; reason: string; parts: number }[];
  sourceVertices: { country: number; subdivision: number };
  filledHoles: { count: number; vertices: number };
  duplicates: { kept: string; dropped: string; parts: number }[];
  seaParts: number;
  /** Land taken from admin-1 outlines (policy landFromAdmin1). */
  landFromAdmin1: { adm1: string; name: string; country: string; parts: number }[];
  /** Sea parts given to the country whose land they hold (policy seaFollowsLand). */
  seaReassigned: { from: string; to: string; parts: number; landDeg2: number }[];
  /** Countries whose subdivision features came from another source (admin1-replacements.ts). */
  replacedSubdivisions: { country: string; source: string; dropped: number; added: number }[];
}

type Position = number[];
export type Geometry =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };
export interface Feature {
  properties: Record<string, unknown> | null;
  geometry: Geometry | null;
}

function readGeoJSON(path: string): Feature[] {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  if (json?.type !== 'FeatureCollection' || !Array.isArray(json.features))
    throw new Error(`${path}: not a GeoJSON FeatureCollection`);
  return json.features;
}

function polygonsOf(g: Geometry | null): Position[][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}

/** Flat ring without the closing vertex; consecutive duplicates removed. */
function flatRing(ring: Position[], where: string): Ring {
  const out: number[] = [];
  for (const p of ring) {
    const x = p[0],
      y = p[1];
    if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90) {
      throw new Error(`${where}: coordinate [${x}, ${y}] outside the globe (split polygons at the antimeridian)`);
    }
    const n = out.length;
    if (n >= 2 && out[n - 2] === x && out[n - 1] === y) continue;
    out.push(x, y);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return Float64Array.from(out);
}

function bboxOf(rings: Ring[]): Box {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const r of rings) {
    for (let i = 0; i < r.length; i += 2) {
      if (r[i] < x0) x0 = r[i];
      if (r[i] > x1) x1 = r[i];
      if (r[i + 1] < y0) y0 = r[i + 1];
      if (r[i + 1] > y1) y1 = r[i + 1];
    }
  }
  return { x0, y0, x1, y1 };
}

function toParts(
  feature: Feature,
  layer: Part['layer'],
  country: number,
  subdivision: number,
  where: string,
  fillHoles: boolean,
  holes?: { count: number; vertices: number },
): Part[] {
  const parts: Part[] = [];
  for (const poly of polygonsOf(feature.geometry)) {
    if (fillHoles && holes) {
      holes.count += poly.length - 1;
      for (let i = 1; i < poly.length; i++) holes.vertices += poly[i].length;
    }
    const rings = (fillHoles ? poly.slice(0, 1) : poly).map((r) => flatRing(r, where)).filter((r) => r.length >= 6);
    if (rings.length === 0) continue;
    const area = partArea(rings);
    if (!(area > 0)) continue;
    parts.push({ layer, country, subdivision, rank: 0, rings, bbox: bboxOf(rings), area });
  }
  return parts;
}

/** Smaller areas first (enclaves win); ties broken by codes so the order is total. */
function rank(parts: Part[], key: (p: Part) => string): void {
  assignRanks(parts, (a, b) => a.area - b.area || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Numbers parts offset, offset + 1, … in `cmp` order; ties keep input order, so ranks are total. */
function assignRanks(parts: Part[], cmp: (a: Part, b: Part) => number, offset = 0): void {
  const order = parts.map((p, i) => i).sort((a, b) => cmp(parts[a], parts[b]) || a - b);
  order.forEach((idx, r) => (parts[idx].rank = offset + r));
}

/**
 * The OSM source repeats a territory's polygons inside its sovereign's feature
 * (French Polynesia inside FRA, Åland inside FIN, Taiwan inside CHN, Crimea in
 * both RUS and UKR). Of identical parts, the country with the least land keeps
 * it: the territory with its own ISO 3166-1 code over the sovereign.
 */
function dropDuplicateParts(
  parts: Part[],
  countries: CountryInfo[],
): { kept: string; dropped: string; parts: number }[] {
  const total = new Map<number, number>();
  for (const p of parts) total.set(p.country, (total.get(p.country) ?? 0) + p.area);
  const key = (p: Part) => [p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1, p.area].map((v) => v.toPrecision(12)).join(',');
  const groups = new Map<string, Part[]>();
  for (const p of parts) groups.set(key(p), [...(groups.get(key(p)) ?? []), p]);
  const drop = new Set<Part>();
  const log = new Map<string, { kept: string; dropped: string; parts: number }>();
  for (const g of groups.values()) {
    if (new Set(g.map((p) => p.country)).size < 2) continue;
    const keeper = g.reduce((a, b) => (total.get(b.country)! < total.get(a.country)! ? b : a));
    for (const p of g) {
      if (p.country === keeper.country) continue;
      drop.add(p);
      const k = `${countries[keeper.country].code}<${countries[p.country].code}`;
      const e = log.get(k) ?? { kept: countries[keeper.country].code, dropped: countries[p.country].code, parts: 0 };
      e.parts++;
      log.set(k, e);
    }
  }
  const keep = parts.filter((p) => !drop.has(p));
  parts.length = 0;
  parts.push(...keep);
  return [...log.values()].sort((a, b) => (a.kept + a.dropped < b.kept + b.dropped ? -1 : 1));
}

/**
 * Where two countries' polygons overlap in a disputed area, the policy names the
 * winner: the loser's part holding the policy point is ranked just after the
 * winner's part holding it, so the winner answers throughout the overlap.
 */
function applyDisputes(layers: Part[][], policy: Policy, countryIndex: Map<string, number>): void {
  for (const d of policy.disputes ?? []) {
    const [x, y] = d.at;
    layers.forEach((parts, layer) => {
      const holding = (code: string) =>
        parts.find((q) => q.country === countryIndex.get(code) && partContains(q.rings, x, y));
      const winner = holding(d.winner);
      const loser = holding(d.over);
      if (layer === 0 && (!winner || !loser))
        throw new Error(
          `policy.json dispute "${d.area}": no land part of ${winner ? d.over : d.winner} holds [${x}, ${y}]`,
        );
      if (winner && loser && loser.rank < winner.rank) loser.rank = winner.rank + 0.5;
    });
  }
  assignRanks(layers.flat(), (a, b) => a.rank - b.rank);
}

export function loadSources(config: BuildConfig, here: string): Sources {
  const policy: Policy = JSON.parse(readFileSync(join(here, 'policy', 'policy.json'), 'utf8'));
  const iso = config.codes === 'iso';
  const countryFeatures = readGeoJSON(config.countries.path);

  // Code tables: the whole reference, so validation knows every ISO code.
  const countries: CountryInfo[] = [];
  if (iso) {
    for (const c of iso31661) countries.push({ code: c.alpha3, alpha2: c.alpha2, name: c.name, covered: false });
    for (const [code, u] of Object.entries(policy.userAssigned))
      countries.push({ code, alpha2: u.alpha2, name: u.name, covered: false });
  } else {
    const codes = new Set<string>();
    for (const f of countryFeatures)
      codes.add(String(f.properties?.[config.countries.codeProperty] ?? '').toUpperCase());
    for (const code of [...codes].sort()) {
      if (!/^[A-Z0-9][A-Z0-9_.-]{0,62}$/.test(code))
        throw new Error(`${config.countries.path}: zone code "${code}" must be 1-63 letters, digits, '_', '.' or '-'`);
      countries.push({ code, alpha2: '', name: code, covered: false });
    }
  }
  countries.sort((a, b) => (a.code < b.code ? -1 : 1));
  const countryIndex = new Map(countries.map((c, i) => [c.code, i]));
  const alpha2Index = new Map(countries.filter((c) => c.alpha2).map((c) => [c.alpha2, countryIndex.get(c.code)!]));

  const subdivisions: SubdivisionInfo[] = iso
    ? iso31662
        .map((s) => ({ code: s.code, name: s.name, parent: s.parent, country: s.code.slice(0, 2), covered: false }))
        .sort((a, b) => (a.code < b.code ? -1 : 1))
    : [];
  const subdivisionIndex = new Map(subdivisions.map((s, i) => [s.code, i]));

  // Countries: land first (10 m borders, enclaves by area), then the sea layer,
  // ranked after all land so it only answers where no land is.
  const droppedCountries: Sources['droppedCountries'] = [];
  const filledHoles = { count: 0, vertices: 0 };
  let countryVertices = 0;
  const loadLayer = (path: string, codeProperty: string, features: Feature[], fill: boolean): Part[] => {
    const out: Part[] = [];
    for (const f of features) {
      const raw = String(f.properties?.[codeProperty] ?? '');
      const code = raw.toUpperCase();
      const idx = countryIndex.get(code);
      if (idx === undefined)
        throw new Error(`${path}: country code "${raw}" is neither ISO 3166-1 alpha-3 nor in policy.json userAssigned`);
      // Holes in the land polygons are inland water (lakes, reservoirs, rivers); enclaves
      // are separate, smaller parts. Filling holes keeps a lake inside one country in
      // that country, and enclaves still win by the smaller-area rule.
      const parts = toParts(f, 'country', idx, -1, `${path} ${code}`, fill, filledHoles);
      for (const p of parts) for (const r of p.rings) countryVertices += r.length >> 1;
      if (policy.noCountry[code] && iso) {
        droppedCountries.push({ code, reason: policy.noCountry[code], parts: parts.length });
        continue;
      }
      countries[idx].covered = true;
      out.push(...parts);
    }
    return out;
  };
  const landParts = loadLayer(
    config.countries.path,
    config.countries.codeProperty,
    countryFeatures,
    iso && policy.fillCountryHoles,
  );
  const subdivisionFeatures = config.subdivisions ? readGeoJSON(config.subdivisions.path) : [];
  const landFromAdmin1: Sources['landFromAdmin1'] = [];
  if (iso && config.subdivisions && policy.landFromAdmin1) {
    for (const [adm1, { country, name }] of Object.entries(policy.landFromAdmin1)) {
      const idx = countryIndex.get(country);
      if (idx === undefined) throw new Error(`policy.json landFromAdmin1 ${adm1} → ${country}: unknown country`);
      const f = subdivisionFeatures.find((g) => g.properties?.adm1_code === adm1);
      // A new source release may drop or recode the feature: fail loudly rather than lose the land.
      if (!f)
        throw new Error(`policy.json landFromAdmin1: no feature ${adm1} (${name}) in ${config.subdivisions.path}`);
      const parts = toParts(f, 'country', idx, -1, `${config.subdivisions.path} ${adm1}`, true);
      for (const p of parts) countryVertices += p.rings.reduce((n, r) => n + (r.length >> 1), 0);
      countries[idx].covered = true;
      landParts.push(...parts);
      landFromAdmin1.push({ adm1, name, country, parts: parts.length });
    }
  }
  const duplicates = dropDuplicateParts(landParts, countries);
  rank(landParts, (p) => countries[p.country].code);
  let seaParts: Part[] = [];
  const seaReassigned: Sources['seaReassigned'] = [];
  if (config.sea) {
    seaParts = loadLayer(config.sea.path, config.sea.codeProperty, readGeoJSON(config.sea.path), false);
    duplicates.push(...dropDuplicateParts(seaParts, countries));
    if (iso && policy.seaFollowsLand) {
      // Only a sovereign's sea may go to its own territories: the alias table names them
      // (FR-971 → GLP makes GLP a territory of FR), plus the policy's extra pairs.
      const pairs = new Set<string>(
        Object.entries(policy.seaFollowsLandExtra ?? {}).flatMap(([sov, ts]) => ts.map((t) => `${sov}>${t}`)),
      );
      for (const [code, territory] of Object.entries(policy.aliases)) {
        const sov = countries[alpha2Index.get(code.slice(0, 2)) ?? -1]?.code;
        if (sov) pairs.add(`${sov}>${territory}`);
      }
      seaReassigned.push(...seaFollowsLand(seaParts, landParts, countries, pairs));
    }
    // At sea, overlaps are a territory's waters inside its sovereign's (Svalbard in
    // Norway's, Wallis and Futuna in France's) or disputed waters: the country with
    // less land wins, which is the territory, and matches the land policy for Crimea
    // and Western Sahara.
    const landArea = new Map<number, number>();
    for (const p of landParts) landArea.set(p.country, (landArea.get(p.country) ?? 0) + p.area);
    const land = (p: Part) => landArea.get(p.country) ?? 0;
    // Ranked after every land part, so sea answers only where no land does.
    assignRanks(seaParts, (a, b) => land(a) - land(b) || a.area - b.area || a.country - b.country, landParts.length);
    for (const p of seaParts) p.sea = true;
  }
  const countryParts = [...landParts, ...seaParts];
  if (iso) applyDisputes([landParts, seaParts], policy, countryIndex);
  const seaPartCount = seaParts.length;

  // Subdivisions, with NE codes brought to the current reference.
  const subdivisionParts: Part[] = [];
  const remapApplied = new Map<string, { from: string; to: string | null; reason: string; features: number }>();
  let subdivisionVertices = 0;
  const replacedSubdivisions: Sources['replacedSubdivisions'] = [];
  if (config.subdivisions) {
    const remapPath = join(here, 'policy', 'subdivision-remap.json');
    const remap: RemapEntry[] = existsSync(remapPath) ? JSON.parse(readFileSync(remapPath, 'utf8')).entries : [];
    const byCode = new Map(remap.filter((e) => e.match.iso_3166_2).map((e) => [e.match.iso_3166_2!, e]));
    const byFeature = new Map(remap.filter((e) => e.match.adm1_code).map((e) => [e.match.adm1_code!, e]));
    // A replacing source's features carry current codes: no remap, and none of the main file's features of that country.
    const features = subdivisionFeatures.map((f) => ({ f, from: config.subdivisions!.path, replacing: false }));
    const replaced = new Map<string, Sources['replacedSubdivisions'][number]>();
    for (const r of config.subdivisions.replacements ?? []) {
      for (const f of readReplacement(r)) features.push({ f, from: r.path, replacing: true });
      replaced.set(r.country, { country: r.country, source: sourceName(r.country), dropped: 0, added: 0 });
    }
    for (const { f, from, replacing } of features) {
      const props = f.properties ?? {};
      const raw = String(props[replacing ? 'iso_3166_2' : config.subdivisions.codeProperty] ?? '');
      const entry = replacing ? undefined : (byFeature.get(String(props.adm1_code ?? '')) ?? byCode.get(raw));
      let code: string | null = raw;
      if (entry) {
        code = entry.to;
        const key = `${raw}→${entry.fill ?? entry.to ?? 'none'}`;
        const log = remapApplied.get(key) ?? {
          from: raw,
          to: entry.fill === 'nearest' ? '(nearest subdivision)' : entry.to,
          reason: entry.reason,
          features: 0,
        };
        log.features++;
        remapApplied.set(key, log);
        if (entry.fill === 'nearest') continue;
      } else if (!subdivisionIndex.has(raw)) {
        code = null;
        const key = `${raw}→unmapped`;
        const log = remapApplied.get(key) ?? {
          from: raw,
          to: null,
          reason: 'not a current ISO 3166-2 code and not in the remap table',
          features: 0,
        };
        log.features++;
        remapApplied.set(key, log);
      }
      const s = code === null ? -1 : subdivisionIndex.get(code);
      if (s === undefined)
        throw new Error(`subdivision-remap.json maps "${raw}" to "${code}", which is not in the reference`);
      // The country a subdivision belongs to comes from its code; uncoded areas keep their source country.
      const a2 = code
        ? code.slice(0, 2)
        : raw.slice(0, 2).match(/^[A-Z]{2}$/)
          ? raw.slice(0, 2)
          : String(props.iso_a2 ?? '');
      const log = replaced.get(a2);
      if (log) {
        if (!replacing) {
          log.dropped++;
          continue;
        }
        log.added++;
      }
      const c = alpha2Index.get(a2);
      if (c === undefined) continue; // no country to attach it to (e.g. Antarctica placeholders)
      const parts = toParts(f, 'subdivision', c, s, `${from} ${raw}`, false);
      for (const p of parts) for (const r of p.rings) subdivisionVertices += r.length >> 1;
      subdivisionParts.push(...parts);
    }
    replacedSubdivisions.push(...replaced.values());
    rank(subdivisionParts, (p) => (p.subdivision >= 0 ? subdivisions[p.subdivision].code : countries[p.country].code));
  }

  const aliases: Record<string, string> = {};
  if (iso) {
    for (const [code, country] of Object.entries(policy.aliases)) {
      if (!countryIndex.has(country)) throw new Error(`policy.json alias ${code} → ${country}: unknown country`);
      if (subdivisionIndex.has(code)) aliases[code] = country;
    }
  }

  return {
    countries,
    subdivisions,
    aliases,
    countryParts,
    subdivisionParts,
    policy,
    remapApplied: [...remapApplied.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0)),
    droppedCountries,
    landFromAdmin1,
    sourceVertices: { country: countryVertices, subdivision: subdivisionVertices },
    filledHoles,
    duplicates,
    seaReassigned,
    seaParts: seaPartCount,
    replacedSubdivisions,
  };
}

/**
 * OSM's maritime polygons include the land they surround, and some sovereigns' polygons
 * hold a territory's island group whole (France's around Guadeloupe, Réunion, Martinique;
 * the USA's around Puerto Rico) while the territory's own sea polygon covers less. The
 * land layer gives that land to the territory, so its waters answering the sovereign would
 * split one island group between two codes. A sea part goes to the country with the most
 * land inside it when that is one of its own country's territories (never to a neighbour:
 * the maritime layer's small parts along land borders stay as they are). Land inside is tested by one vertex of
 * each land part's outer ring (coastlines lie inside these polygons, which include land).
 */
function seaFollowsLand(
  seaParts: Part[],
  landParts: Part[],
  countries: { code: string }[],
  pairs: Set<string>,
): Sources['seaReassigned'] {
  const moved = new Map<string, { from: string; to: string; parts: number; landDeg2: number }>();
  for (const sea of seaParts) {
    const landIn = new Map<number, number>();
    for (const l of landParts) {
      const b = l.bbox;
      if (b.x0 < sea.bbox.x0 || b.x1 > sea.bbox.x1 || b.y0 < sea.bbox.y0 || b.y1 > sea.bbox.y1) continue;
      if (partContains(sea.rings, l.rings[0][0], l.rings[0][1]))
        landIn.set(l.country, (landIn.get(l.country) ?? 0) + l.area);
    }
    // Ties keep the part's own country (strictly more land is needed to move it).
    let best = sea.country;
    let bestArea = landIn.get(best) ?? 0;
    for (const [c, a] of landIn) if (a > bestArea) [best, bestArea] = [c, a];
    if (best === sea.country || !pairs.has(`${countries[sea.country].code}>${countries[best].code}`)) continue;
    const key = `${sea.country}>${best}`;
    const m = moved.get(key) ?? { from: countries[sea.country].code, to: countries[best].code, parts: 0, landDeg2: 0 };
    m.parts++;
    m.landDeg2 += landIn.get(best)!;
    moved.set(key, m);
    sea.country = best;
  }
  return [...moved.values()].sort((a, b) => (a.from + a.to).localeCompare(b.from + b.to));
}
