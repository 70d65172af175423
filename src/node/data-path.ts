// Where the embedded dataset lives, and how much of it to check when it is read (seal.ts).

import { closeSync, existsSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataError } from '../lookup/errors.js';
import type { Check } from '../format/dataset.js';
import { HEADER_BYTES, MAGIC, sealOf } from '../format/container.js';
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
    if (err instanceof DataError) throw err;
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

/** The largest file the format allows: the header and a payload whose length is a u32 (docs/FORMAT.md). */
const MAX_DATA_FILE_BYTES = HEADER_BYTES + 0xffff_ffff;

/** What a non-regular file is, for the DataError refusing it. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isCharacterDevice()) return 'a character device';
  return stat.isBlockDevice() ? 'a block device' : 'a special file';
}

/**
 * The whole file at `path`, in memory `alloc(size)` gives (the loader's WebAssembly memory, the
 * batch's shared buffer). A regular file is read straight into it, up to the size it had when
 * opened; a pipe (`--data <(zcat world.geolookup.gz)`) has no size to allocate for, so it is read
 * first, no further than its header says the file runs, then copied. Devices, directories and other
 * special files are a DataError: /dev/zero would otherwise be read without end. Fewer bytes than
 * allocated when the file shrank while being read.
 */
export function readWhole(path: string, alloc: (size: number) => Uint8Array): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO()) return gather(readPipe(fd), alloc);
    if (!stat.isFile())
      throw new DataError(`${path}: not a regular file (${kindOf(stat)}); give a dataset file built by build-data`);
    if (stat.size > MAX_DATA_FILE_BYTES)
      throw new DataError(`${path}: ${stat.size} bytes, larger than any geolookup dataset can be`);
    const into = alloc(stat.size);
    let done = 0;
    for (let n = 1; n > 0 && done < into.length; done += n) n = readSync(fd, into, done, into.length - done, done);
    return into.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

const PIPE_CHUNK = 1 << 20;

/**
 * A pipe's bytes up to what its header announces, plus one byte so the loader can tell an
 * overlong file ("extended file"); only the header when it is not a geolookup header, which the
 * loader then refuses. Never more than MAX_DATA_FILE_BYTES + 1, whatever keeps coming.
 */
function readPipe(fd: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  readUpTo(fd, chunks, HEADER_BYTES);
  const head = Buffer.concat(chunks);
  if (head.byteLength < HEADER_BYTES || MAGIC.some((b, i) => head[i] !== b)) return [head];
  const declared = head.readUInt32LE(16);
  readUpTo(fd, chunks, HEADER_BYTES + declared + 1);
  return chunks;
}

/** Reads from `fd` into new chunks after `chunks` until they hold `limit` bytes or the pipe ends. */
function readUpTo(fd: number, chunks: Uint8Array[], limit: number): void {
  let total = chunks.reduce((n, c) => n + c.byteLength, 0);
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(limit - total, PIPE_CHUNK));
    const n = readSync(fd, chunk, 0, chunk.byteLength, null);
    if (n === 0) return;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
}

/** The chunks copied, in order, into memory `alloc` gives. */
function gather(chunks: Uint8Array[], alloc: (size: number) => Uint8Array): Uint8Array {
  const into = alloc(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    into.set(c, at);
    at += c.byteLength;
  }
  return into;
}
