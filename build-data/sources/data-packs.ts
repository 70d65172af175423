// Data packs: boundary files beside the project (../shared/data/, whose README gives provenance
// and checksums), read by the build and never committed. Each is optional: without it the build
// goes on, and its report and `datasetInfo().sources` say what was not found.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Overrides the folder the data packs are read from (default: ../shared/data/ beside the repository). */
export const DATA_PACKS_ENV = 'GEOLOOKUP_DATA_PACKS';

/** The packs the world build reads, with the sha256 their README gives. */
export const PACKS = {
  hansIsland: {
    file: 'hans-island-2023.geojson',
    sha256: 'e2a8f5e4e17fdbe5b1b6d16533fe5a51f6bc4003d0072b77b451cb3a0ab37688',
    without: 'Hans Island answers no country',
  },
  osmAdmin: {
    file: 'osm-admin-2020/iso2-high.ndjson.gz',
    sha256: '4cc86eec4fcb18b65c55b8d0bb62a691b8f71c4a4ad2c061d5b0f4c5b4e09359',
    without: 'subdivisions from Natural Earth, TIGER and VG250 only',
  },
  nepalProvinces: {
    file: 'nepal-provinces-2022/nepal-provinces-2022.geojson',
    sha256: '1fce4706d962c066ce5debb5abe9f6b33083f83762fbb063a6a448c234f486a8',
    without: "Nepal's subdivisions from Natural Earth's zones: Madhesh and Lumbini answer no code",
  },
} as const;

export type PackName = keyof typeof PACKS;

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
  found: Record<PackName, DataPack>;
}

/** The data packs folder: GEOLOOKUP_DATA_PACKS, else ../shared/data/ relative to the repository root. */
export function dataPacksDir(): string {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return resolve(process.env[DATA_PACKS_ENV] || join(root, '..', 'shared', 'data'));
}

/** A pack with another hash than its README's is not the data the report describes: the build stops. */
function findPack(dir: string, name: PackName): DataPack {
  const { file, sha256: want } = PACKS[name];
  const path = join(dir, file);
  if (!existsSync(path)) return { file, path: null, sha256: null };
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (sha256 !== want)
    throw new Error(
      `${path}: sha256 ${sha256}, not the ${want} its README gives; ` +
        `move it away (or set ${DATA_PACKS_ENV}) to build without it`,
    );
  return { file, path, sha256 };
}

export function findDataPacks(dir = dataPacksDir()): DataPacks {
  const shown = dir === dataPacksDir() ? process.env[DATA_PACKS_ENV] || '../shared/data' : dir;
  const found = {
    hansIsland: findPack(dir, 'hansIsland'),
    osmAdmin: findPack(dir, 'osmAdmin'),
    nepalProvinces: findPack(dir, 'nepalProvinces'),
  };
  return { dir, shown, found };
}

/** Which packs the build read and which it did not find: the console line and the report's. */
export function packsSummary(packs: DataPacks | null): string {
  if (!packs) return 'data packs: none read (a custom or land-only build)';
  const all = Object.entries(packs.found) as [PackName, DataPack][];
  const used = all.filter(([, p]) => p.sha256).map(([, p]) => `${p.file} (sha256 ${p.sha256!.slice(0, 12)}…)`);
  const missing = all.filter(([, p]) => !p.sha256).map(([n, p]) => `${p.file} (${PACKS[n].without})`);
  return (
    `data packs used: ${used.join(', ') || 'none'} from ${packs.shown}; ` + `not found: ${missing.join(', ') || 'none'}`
  );
}
