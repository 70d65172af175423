// The subdivision layer: Natural Earth (with TIGER and VG250 in place of it for the US and Germany),
// and OpenStreetMap's 2020 outlines for the countries policy/subdivision-source.ts chooses them for,
// when the data pack is there. Ranked: smaller areas first; then the policy's OSM fills.

import type { BuildConfig } from '../config.js';
import { type Box, clipPart, partArea } from '../index/clip.js';
import type { Policy } from '../policy/policy.js';
import { areaOrder, assignRanks, subdivisionDepth } from '../policy/ranking.js';
import { type Remap, type RemapLog, readRemap, remapApplied } from '../policy/remap.js';
import { chooseSubdivisionSources, type SourceChoice } from '../policy/subdivision-source.js';
import { type ReplacedSubdivisions, readSubdivisionLayer } from './admin1.js';
import type { CodeTables } from './code-tables.js';
import type { Feature } from './geojson.js';
import { dropCoveredParents, osmParts, readOsmAdmin } from './osm-admin.js';
import { bboxOf, type Part, toParts, vertexCount } from './parts.js';

export interface SubdivisionLayer {
  parts: Part[];
  vertices: number;
  replaced: ReplacedSubdivisions[];
  remap: Remap;
  /** Per country with OSM outlines: the scores and the source taken (empty without the pack). */
  choices: SourceChoice[];
  osmRemap: RemapLog[];
  /** Natural Earth features filling a unit OSM lacks (policy osmFill), by the code they answer. */
  fills: { code: string; from: string; parts: number; within?: [number, number, number, number] }[];
}

/** Natural Earth features of these countries that answer where OSM does not (policy osmFill). */
function fillParts(policy: Policy, features: Feature[], tables: CodeTables, countries: Set<number>, path: string) {
  const parts: Part[] = [];
  const fills: SubdivisionLayer['fills'] = [];
  for (const [a2, table] of Object.entries(policy.osmFill ?? {})) {
    const c = tables.alpha2Index.get(a2);
    if (c === undefined || !countries.has(c)) continue;
    for (const [from, rules] of Object.entries(table)) {
      const f = features.find((x) => x.properties?.iso_3166_2 === from);
      if (!f) throw new Error(`policy.json osmFill ${a2} ${from}: no such feature`);
      const whole = toParts(f, 'subdivision', c, -1, `${path} ${from} (fill)`);
      for (const rule of Array.isArray(rules) ? rules : [rules]) {
        const { code, within } = typeof rule === 'string' ? { code: rule, within: undefined } : rule;
        const s = tables.subdivisionIndex.get(code);
        if (s === undefined) throw new Error(`policy.json osmFill ${a2} ${from} → ${code}: no such code`);
        const box = within && { x0: within[0], y0: within[1], x1: within[2], y1: within[3] };
        const own = (box ? clipParts(whole, box) : whole).map((p) => ({ ...p, subdivision: s }));
        if (own.length === 0) throw new Error(`policy.json osmFill ${a2} ${from} → ${code}: nothing within its box`);
        fills.push({ code, from, parts: own.length, within });
        parts.push(...own);
      }
    }
  }
  return { parts, fills };
}

/** The parts' area inside the box, as parts. */
function clipParts(parts: Part[], box: Box): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    const rings = clipPart(p.rings, box);
    const area = rings ? partArea(rings) : 0;
    if (rings && area > 0) out.push({ ...p, rings, bbox: bboxOf(rings), area });
  }
  return out;
}

/**
 * An --osm build's layer: the extract's ISO3166-2 outlines, codes brought to the reference by
 * osm-remap.json (the code checks: a code neither current nor listed answers no subdivision, and
 * the report lists it), a code whose children cover it dropped as for the data pack, ranked smaller first.
 */
function osmExtractLayer(
  config: BuildConfig,
  features: Feature[],
  tables: CodeTables,
  policy: Policy,
  policyDir: string,
): SubdivisionLayer {
  const remap = readRemap(policyDir, 'osm-remap.json');
  const { parts: all, uncoded } = osmParts(
    features,
    config.osm!.path,
    tables,
    remap,
    new Set(Object.keys(policy.aliases)),
  );
  const countries = new Set(all.map((p) => p.country));
  const parts = [...countries].flatMap((c) =>
    dropCoveredParents(
      all.filter((p) => p.country === c),
      tables.subdivisions,
      tables.subdivisionIndex,
    ),
  );
  const key = (p: Part) =>
    p.subdivision >= 0 ? tables.subdivisions[p.subdivision].code : tables.countries[p.country].code;
  const byArea = areaOrder(key, subdivisionDepth(tables.subdivisions, tables.subdivisionIndex));
  assignRanks(parts, byArea);
  assignRanks(uncoded, byArea, parts.length);
  parts.push(...uncoded);
  return {
    parts,
    vertices: vertexCount(parts),
    replaced: [],
    remap,
    choices: [],
    osmRemap: remapApplied(remap),
    fills: [],
  };
}

export function loadSubdivisionLayer(
  config: BuildConfig,
  features: Feature[],
  tables: CodeTables,
  policy: Policy,
  policyDir: string,
): SubdivisionLayer {
  if (config.osm) return osmExtractLayer(config, features, tables, policy, policyDir);
  const subs = config.subdivisions!;
  const remap = readRemap(policyDir);
  const ne = readSubdivisionLayer(subs, features, tables, remap);
  const key = (p: Part) =>
    p.subdivision >= 0 ? tables.subdivisions[p.subdivision].code : tables.countries[p.country].code;
  const depth = subdivisionDepth(tables.subdivisions, tables.subdivisionIndex);
  const byArea = areaOrder(key, depth);
  const pack = config.codes === 'iso' ? config.packs?.found.osmAdmin.path : null;
  if (!pack) {
    assignRanks(ne.parts, byArea);
    return { ...ne, remap, choices: [], osmRemap: [], fills: [] };
  }
  const osmRemap = readRemap(policyDir, 'osm-remap.json');
  const { parts: all, uncoded } = osmParts(
    readOsmAdmin(pack),
    pack,
    tables,
    osmRemap,
    new Set(Object.keys(policy.aliases)),
  );
  const replaced = new Set(ne.replaced.map((r) => r.country));
  const candidates = new Map<string, number>();
  for (const p of all) {
    const a2 = tables.countries[p.country].alpha2;
    if (!replaced.has(a2)) candidates.set(a2, p.country);
  }
  const kept = [...candidates.values()].flatMap((c) =>
    dropCoveredParents(
      all.filter((p) => p.country === c),
      tables.subdivisions,
      tables.subdivisionIndex,
    ),
  );
  const fill = fillParts(policy, features, tables, new Set(candidates.values()), subs.path);
  const choices = chooseSubdivisionSources(
    ne.parts,
    kept,
    fill.parts,
    tables.subdivisions,
    tables.subdivisionIndex,
    candidates,
    { conflicts: policy.osmConflictsReviewed ?? {}, sources: policy.osmSourceReviewed ?? {} },
    byArea,
  );
  const osmCountries = new Set(choices.filter((c) => c.source === 'osm').map((c) => candidates.get(c.country)!));
  const parts = [
    ...ne.parts.filter((p) => !osmCountries.has(p.country)),
    ...kept.filter((p) => osmCountries.has(p.country)),
  ];
  assignRanks(parts, byArea);
  const fills = fill.parts.filter((p) => osmCountries.has(p.country));
  assignRanks(fills, byArea, parts.length);
  parts.push(...fills);
  // Land whose 2020 code is no current one: no subdivision, where no coded outline answers.
  const blank = uncoded.filter((p) => osmCountries.has(p.country));
  assignRanks(blank, byArea, parts.length);
  parts.push(...blank);
  return {
    parts,
    vertices: vertexCount(parts),
    replaced: ne.replaced,
    remap,
    choices,
    osmRemap: remapApplied(osmRemap),
    fills: fill.fills.filter((f) => osmCountries.has(tables.alpha2Index.get(f.code.slice(0, 2))!)),
  };
}
