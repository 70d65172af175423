// Where the embedded dataset lives, and how much of it to check when it is read (seal.ts).

import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataError } from '../lookup/errors.js';
import type { Check } from '../format/dataset.js';
import { sealOf } from '../format/container.js';
import { simdBytes } from '../format/checksum-simd.js';
import { BUILT_SEALS } from './seal.js';

/** Environment variable naming the dataset file, for apps whose bundler leaves dist-data/ behind. */
export const DATA_PATH_ENV = 'GEOLOOKUP_DATA';

const FIX_HINT = `set ${DATA_PATH_ENV} to the path of world.geolookup, or pass its bytes: createGeoLookup(readFileSync(path))`;

/**
 * The folder of this module. import.meta.url first: `node -e` and the REPL define a global
 * __dirname ('.') that an ES module would otherwise pick up. CommonJS builds (tsup, esbuild)
 * turn import.meta into {}, and have a real __dirname.
 */
function moduleDir(): string {
  const url: unknown = import.meta.url;
  if (typeof url === 'string' && url.startsWith('file:')) return dirname(fileURLToPath(url));
  if (typeof __dirname === 'string') return __dirname;
  throw new DataError(`cannot locate the embedded dataset from this module (${String(url)}): ${FIX_HINT}`);
}

/** The datasets the package ships, by the names createGeoLookup, --data and $GEOLOOKUP_DATA take. */
export const EMBEDDED_DATASETS = { world: 'world.geolookup', lite: 'world-lite.geolookup' } as const;
export type EmbeddedDataset = keyof typeof EMBEDDED_DATASETS;

export function isEmbeddedName(name: string): name is EmbeddedDataset {
  return Object.hasOwn(EMBEDDED_DATASETS, name);
}

/**
 * $GEOLOOKUP_DATA when set (a path, or an embedded dataset's name); else the embedded world dataset.
 */
export function defaultDataPath(): string {
  const fromEnv = process.env[DATA_PATH_ENV];
  if (fromEnv) return isEmbeddedName(fromEnv) ? embeddedDataPath(fromEnv) : fromEnv;
  return embeddedDataPath('world');
}

/** The file a --data value or `data` option names: an embedded dataset's name, else a path; none: the default. */
export function resolveDataPath(data?: string): string {
  if (data === undefined) return defaultDataPath();
  return isEmbeddedName(data) ? embeddedDataPath(data) : data;
}

/**
 * dist-data/<file> at the package root, beside src/ and dist/ (entries built into dist/<name>/,
 * such as client and server, are one level deeper, so look up to two levels up); else a
 * dist-data/ shipped beside a bundled app's file.
 */
export function embeddedDataPath(name: EmbeddedDataset): string {
  const candidates = defaultCandidates(EMBEDDED_DATASETS[name]);
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

function defaultCandidates(file: string = EMBEDDED_DATASETS.world): string[] {
  const here = moduleDir();
  return [
    join(here, '..', 'dist-data', file),
    join(here, '..', '..', 'dist-data', file),
    join(here, 'dist-data', file),
  ];
}

/** Why an embedded dataset is missing and what to do, for the DataError that reports it. */
function defaultDataHint(path: string): string {
  let file: string | undefined;
  try {
    file = Object.values(EMBEDDED_DATASETS).find((f) => defaultCandidates(f).includes(path));
    if (path === defaultDataPath() && process.env[DATA_PATH_ENV]) return ` (from ${DATA_PATH_ENV})`;
  } catch {
    // no default location in this environment: the path came from the caller
  }
  if (file === undefined) return '';
  return (
    ` (the embedded dataset was looked for at ${defaultCandidates(file).join(', ')}; in a source checkout run \`npm run build-data\`;` +
    ` in a bundled app (esbuild, webpack, Electron) ship the file and ${FIX_HINT})`
  );
}

/** A dataset file's bytes; in WebAssembly memory where it can be, so its checksum runs in place. */
export function readFile(path: string): Uint8Array {
  try {
    return readWhole(path, (size) => simdBytes(size) ?? new Uint8Array(size));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DataError(`${path}: cannot read dataset (${code ?? String(err)})${defaultDataHint(path)}`, {
      cause: err,
    });
  }
}

/**
 * The check bytes read from `path` need: 'checksum' for one of the package's own datasets (found
 * where the package keeps it, not through $GEOLOOKUP_DATA) still carrying the seal recorded when
 * the package was built; 'full' for everything else.
 */
export function checkFor(path: string, bytes: Uint8Array): Check {
  if (process.env[DATA_PATH_ENV]) return 'full';
  const seal = sealOf(bytes);
  const file = Object.keys(BUILT_SEALS).find((f) => BUILT_SEALS[f] === seal);
  if (file === undefined) return 'full';
  try {
    return defaultCandidates(file).includes(path) ? 'checksum' : 'full';
  } catch {
    return 'full'; // no package location in this environment (a bundle without __dirname): the path is the caller's
  }
}

/**
 * The whole file at `path`, in memory `alloc(size)` gives (the loader's WebAssembly memory, the
 * batch's shared buffer). A regular file is read straight into it; a pipe or a device has no size to
 * allocate for (`--data <(zcat world.geolookup.gz)`), so it is read first, then copied. Fewer bytes
 * than allocated when the file shrank while being read.
 */
export function readWhole(path: string, alloc: (size: number) => Uint8Array): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const bytes = readFileSync(fd);
      const into = alloc(bytes.byteLength);
      into.set(bytes);
      return into;
    }
    const into = alloc(stat.size);
    let done = 0;
    for (let n = 1; n > 0 && done < into.length; done += n) n = readSync(fd, into, done, into.length - done, done);
    return into.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}
