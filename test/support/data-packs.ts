// Tests of data that comes from an optional data pack (build-data/sources/data-packs.ts).

import { it } from 'vitest';
import { datasetInfo, type SourceInfo } from '../../src/index.js';

export type PackSource = SourceInfo & { sha256?: string };

/** The dataset source whose name starts with `prefix`, when the build read that pack. */
export function packSource(prefix: string): PackSource | undefined {
  return datasetInfo().sources.find((s) => s.name.startsWith(prefix) && s.version !== 'not found');
}

/**
 * True (skip) when the dataset was built without the pack: a warning, or under
 * GEOLOOKUP_REQUIRE_DATA_PACKS (as CI runs beside ../shared) one failing test that says why.
 */
export function skipWithoutPack(source: PackSource | undefined, file: string, what: string): boolean {
  if (source) return false;
  const missing = `the dataset was built without the data pack ${file} (see its data report)`;
  if (process.env.GEOLOOKUP_REQUIRE_DATA_PACKS) {
    it(`the dataset holds the data pack ${file} (GEOLOOKUP_REQUIRE_DATA_PACKS is set)`, () => {
      throw new Error(missing);
    });
  } else console.warn(`${what} tests skipped: ${missing}`);
  return true;
}
