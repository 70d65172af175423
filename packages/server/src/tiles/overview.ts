// The world overview's countries (zooms 0-OVERVIEW_MAX_ZOOM): computing them (geometryIn over every
// cell of the world) takes seconds, so the package's build writes them beside its bundles, in a
// file named by the dataset they came from; a dataset with other bytes never matches that name.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { GeoLookup } from 'geolookup';
import { geometryIn } from 'geolookup/extend';
import type { Areas } from './tiler.js';

/** The overview's box: the whole world. */
export const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

/** The overview's countries computed from a dataset (the slow path). */
export const overviewAreas = (lookup: GeoLookup): Areas => geometryIn(lookup, 'country', WORLD);

/**
 * Where the build writes prebuilt overviews: beside the bundle that runs (dist/); none when run
 * from the sources, whose geometry code may differ from the one the build ran.
 */
const here: string | undefined = import.meta.url;
export const PACKAGED_DIR: string | null = here?.endsWith('.js') ? fileURLToPath(new URL('.', here)) : null;

/** An overview dataset's key: the SHA-256 of its bytes and of the core's version (whose geometryIn draws it). */
export function overviewKey(dataset: string): string {
  const core = createRequire(here ?? __filename).resolve('geolookup/package.json');
  const { version } = JSON.parse(readFileSync(core, 'utf8')) as { version: string };
  return createHash('sha256').update(`geolookup ${version}\n`).update(readFileSync(dataset)).digest('hex');
}

/** The file in `dir` that holds the overview of this key. */
export const overviewFile = (dir: string, key: string): string => join(dir, `overview-${key}.json.br`);

/** The prebuilt overview file in `dir` for this overview dataset, or null when there is none for its bytes. */
export function prebuiltOverview(dir: string | null, dataset: string): string | null {
  if (dir === null) return null;
  const file = overviewFile(dir, overviewKey(dataset));
  return existsSync(file) ? file : null;
}

/** Computes the overview of `dataset` into `dir`, in place of any other there; returns the file and its size. */
export function writeOverview(dir: string, lookup: GeoLookup, dataset: string): { file: string; bytes: number } {
  for (const name of readdirSync(dir)) if (/^overview-[0-9a-f]{64}\.json\.br$/.test(name)) rmSync(join(dir, name));
  const json = Buffer.from(JSON.stringify(overviewAreas(lookup)));
  // Quality 9: 1.3 MB for the lite world's countries in about 1 s; 11 saves 0.2 MB for 15 s of every build.
  const packed = brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
  const file = overviewFile(dir, overviewKey(dataset));
  writeFileSync(file, packed);
  return { file, bytes: packed.length };
}

/** The areas of a prebuilt overview file. JSON keeps every coordinate exact, so the tiles are the same bytes. */
export function readOverview(file: string): Areas {
  return JSON.parse(brotliDecompressSync(readFileSync(file)).toString('utf8')) as Areas;
}
