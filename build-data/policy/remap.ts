// subdivision-remap.json: brings Natural Earth's admin-1 codes to the pinned ISO 3166-2 reference
// (check-remap.mjs reviews the table against both). Every decision is logged for the report.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface RemapEntry {
  match: { iso_3166_2?: string; adm1_code?: string };
  to: string | null;
  reason: string;
  /**
   * 'nearest': leave the feature out, so the nearest-subdivision rule answers on its land. For a
   * thin uncoded strip between coded units (the UNDOF zone), where the unit next door is the better answer.
   */
  fill?: 'nearest';
}

export interface RemapLog {
  from: string;
  to: string | null;
  reason: string;
  features: number;
}

export interface Remap {
  byCode: Map<string, RemapEntry>;
  /** Entries by adm1_code: they win over entries by code. */
  byFeature: Map<string, RemapEntry>;
  applied: Map<string, RemapLog>;
}

export function readRemap(policyDir: string, file = 'subdivision-remap.json'): Remap {
  const path = join(policyDir, file);
  const entries: RemapEntry[] = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')).entries : [];
  return {
    byCode: new Map(entries.filter((e) => e.match.iso_3166_2).map((e) => [e.match.iso_3166_2!, e])),
    byFeature: new Map(entries.filter((e) => e.match.adm1_code).map((e) => [e.match.adm1_code!, e])),
    applied: new Map(),
  };
}

function logApplied(remap: Remap, key: string, first: Omit<RemapLog, 'features'>): void {
  const log = remap.applied.get(key) ?? { ...first, features: 0 };
  log.features++;
  remap.applied.set(key, log);
}

/**
 * The current code of a feature whose source code is `raw`: its entry's target, `raw` itself when
 * current, null (no subdivision) when neither; undefined when the feature is left out (fill
 * 'nearest'). `adm1` null: a source with current codes, which no entry applies to.
 */
export function currentCode(
  remap: Remap,
  raw: string,
  adm1: string | null,
  reference: Map<string, number>,
): string | null | undefined {
  const entry = adm1 === null ? undefined : (remap.byFeature.get(adm1) ?? remap.byCode.get(raw));
  if (entry) {
    const nearest = entry.fill === 'nearest';
    logApplied(remap, `${raw}→${entry.fill ?? entry.to ?? 'none'}`, {
      from: raw,
      to: nearest ? '(nearest subdivision)' : entry.to,
      reason: entry.reason,
    });
    return nearest ? undefined : entry.to;
  }
  if (reference.has(raw)) return raw;
  logApplied(remap, `${raw}→unmapped`, {
    from: raw,
    to: null,
    reason: 'not a current ISO 3166-2 code and not in the remap table',
  });
  return null;
}

/** The decisions taken, by source code. */
export function remapApplied(remap: Remap): RemapLog[] {
  return [...remap.applied.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}
