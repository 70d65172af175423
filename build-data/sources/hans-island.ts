// Hans Island (Tartupaluk), split between Canada and Greenland by the 2022 treaty, from a data pack
// beside the project (../shared/data/, its README gives provenance and checksum). The land source
// predates the treaty; the pack's polygons cover sea too, so they rank after the maritime layer
// (policy/ranking.ts rankPatchAfterSea) and answer only where no other layer does.
// The pack is optional: without it the build goes on and its report and sources say so.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceInfo } from '../../src/format/dataset.js';
import type { CodeTables } from './code-tables.js';
import { readGeoJSON } from './geojson.js';
import { type Part, toParts } from './parts.js';

/** Overrides the folder the data packs are read from (default: ../shared/data/ beside the repository). */
export const DATA_PACKS_ENV = 'GEOLOOKUP_DATA_PACKS';
export const HANS_ISLAND_FILE = 'hans-island-2023.geojson';
/** The sha256 the pack's README gives: a file with another hash is not the pack the report describes. */
export const HANS_ISLAND_SHA256 = 'e2a8f5e4e17fdbe5b1b6d16533fe5a51f6bc4003d0072b77b451cb3a0ab37688';
const SOURCE_NAME = `Hans Island 2022 treaty (data pack ${HANS_ISLAND_FILE})`;

export interface DataPack {
  file: string;
  /** Absolute path, or null when the pack is not in the folder. */
  path: string | null;
  sha256: string | null;
}

export interface DataPacks {
  dir: string;
  /** `dir` as the report shows it: the override as given, else relative to the repository. */
  shown: string;
  hansIsland: DataPack;
}

/** The data packs folder: GEOLOOKUP_DATA_PACKS, else ../shared/data/ relative to the repository root. */
export function dataPacksDir(): string {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return resolve(process.env[DATA_PACKS_ENV] || join(root, '..', 'shared', 'data'));
}

function shownDir(): string {
  return process.env[DATA_PACKS_ENV] || '../shared/data';
}

/** Finds the Hans Island pack in `dir` and checks its hash; a pack with another hash fails the build. */
export function findDataPacks(dir = dataPacksDir()): DataPacks {
  const path = join(dir, HANS_ISLAND_FILE);
  const shown = dir === dataPacksDir() ? shownDir() : dir;
  if (!existsSync(path)) return { dir, shown, hansIsland: { file: HANS_ISLAND_FILE, path: null, sha256: null } };
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (sha256 !== HANS_ISLAND_SHA256)
    throw new Error(
      `${path}: sha256 ${sha256}, not the ${HANS_ISLAND_SHA256} its README gives; ` +
        `move it away (or set ${DATA_PACKS_ENV}) to build without it`,
    );
  return { dir, shown, hansIsland: { file: HANS_ISLAND_FILE, path, sha256 } };
}

/** Which packs the build read and which it did not find: the console line and the report's. */
export function packsSummary(packs: DataPacks | null): string {
  if (!packs) return 'data packs: none read (a custom or land-only build)';
  const p = packs.hansIsland;
  return p.sha256
    ? `data packs used: ${p.file} (sha256 ${p.sha256}) from ${packs.shown}; not found: none`
    : `data packs used: none; not found: ${p.file} in ${packs.shown} (Hans Island answers no country)`;
}

/** The pack as a dataset source; without the pack, an entry saying it was not found (no sha256). */
export function hansIslandSource(pack: DataPack): SourceInfo {
  const osm = { licence: 'ODbL-1.0', attribution: '© OpenStreetMap contributors' };
  if (!pack.sha256)
    return {
      name: `data pack ${pack.file}`,
      version: 'not found',
      ...osm,
      role: 'not used: Hans Island answers no country',
    };
  return {
    name: SOURCE_NAME,
    version: '2023-10-02 osm-boundaries via zbycz/which-country',
    ...osm,
    url: 'https://www.openstreetmap.org/copyright',
    role: 'Hans Island per the 2022 treaty, where no other layer answers',
    sha256: pack.sha256,
  };
}

/** The pack's CAN and GRL polygons as unranked country parts; an unknown code fails. */
export function readHansIsland(path: string, tables: CodeTables): Part[] {
  const parts: Part[] = [];
  for (const f of readGeoJSON(path)) {
    const code = String(f.properties?.A3 ?? '');
    const idx = tables.countryIndex.get(code);
    if (idx === undefined) throw new Error(`${path}: country code "${code}" is not ISO 3166-1 alpha-3`);
    tables.countries[idx].covered = true;
    parts.push(...toParts(f, 'country', idx, -1, `${path} ${code}`));
  }
  return parts;
}
