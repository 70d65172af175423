// The csv-wkt exports the PostGIS tests load, made once per dataset through the
// real CLI (`geolookup export … -o FILE`) and shared between test files: the
// first to ask writes it under a lock, the others wait for it.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { hashFolders } from '../../src/node/hash-folders.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const DATASET = join(ROOT, 'dist-data', 'world.geolookup');

/** Runs the CLI from source, as `npx geolookup` would from dist. */
export function cli(args: string[], options: { timeout?: number } = {}): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: options.timeout ?? 600_000,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Path of the csv-wkt export of `layer` for the current dataset, with how long making it took (0 when cached). */
export async function exportFile(layer: 'country' | 'subdivision'): Promise<{ path: string; seconds: number }> {
  // The dataset and the code that shapes an export: a changed module cannot leave a stale cache.
  const hash = hashFolders(createHash('sha256').update(readFileSync(DATASET)), ROOT, [
    'src/export',
    'src/format',
    'src/lookup',
    'src/cli',
  ]);
  const tag = hash.digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'geolookup-export-cache');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${tag}-${layer}.csv`);
  const lock = `${path}.lock`;
  for (let waited = 0; ; waited += 1000) {
    if (existsSync(path)) return { path, seconds: 0 };
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is writing it; a lock older than 15 minutes is a crashed run's.
      if (waited > 900_000 || Date.now() - statSync(lock).mtimeMs > 900_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(1000);
    }
  }
  try {
    // Exports of an older dataset or export code are of no further use once an hour old (a
    // younger one may be in use by a concurrent run of another checkout).
    for (const f of readdirSync(dir)) {
      const old = join(dir, f);
      if (
        !f.startsWith(tag) &&
        !f.endsWith('.lock') &&
        Date.now() - (statSync(old, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 3_600_000
      )
        rmSync(old, { force: true });
    }
    const t0 = performance.now();
    const tmp = `${path}.${process.pid}.tmp`;
    cli(['export', '--layer', layer, '--format', 'csv-wkt', '-o', tmp]);
    renameSync(tmp, path);
    return { path, seconds: (performance.now() - t0) / 1000 };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface CsvRow {
  layer: string;
  code: string;
  name: string;
  country: string;
  wkt: string;
}

/** Splits one csv-wkt line (RFC 4180 quoting). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote in ${line.slice(0, 80)}`);
        s += line.slice(i, q);
        if (line[q + 1] === '"') {
          s += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(s);
      if (i < line.length && line[i] !== ',') throw new Error(`junk after quoted field in ${line.slice(0, 80)}`);
      i++;
    } else {
      const c = line.indexOf(',', i);
      const end = c < 0 ? line.length : c;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

export async function* csvRows(path: string): AsyncGenerator<CsvRow> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let header = true;
  for await (const line of rl) {
    if (header) {
      if (line !== 'layer,code,name,country,wkt') throw new Error(`unexpected csv-wkt header: ${line}`);
      header = false;
      continue;
    }
    const [layer, code, name, country, wkt] = parseCsvLine(line);
    yield { layer, code, name, country, wkt };
  }
}
