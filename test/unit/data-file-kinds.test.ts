// Datasets are read from regular files, and from pipes no further than their header says: a device
// (/dev/zero), a directory, or a pipe that never ends is refused at once with a DataError naming
// the path, by the library, the CLI and the batch's shared read alike. Each load runs in a child
// process under `timeout`, so a read without end fails the test instead of filling the machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createGeoLookup, DataError } from '../../src/index.js';
import { fixturePath, scratchPath } from '../fixtures/datasets.js';
import { thrown } from '../support/thrown.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Seconds a load may take before it counts as a hang; the fixtures load in milliseconds, but a child
 * starting tsx took over 20 s on CI's two vCPUs with both test tiers and a data build running.
 */
const LIMIT_S = 90;

interface Load {
  name: string;
  message: string;
  /** Bytes readShared returned. */
  bytes?: number;
  /** Peak resident memory of the loading process, in MB. */
  peakMb: number;
}

// process.argv[1]: the path; [2]: 'lookup' (createGeoLookup) or 'batch' (readShared).
const LOAD = `
  const { createGeoLookup } = await import('./src/index.ts');
  const { readShared } = await import('./src/batch/input.ts');
  const [path, how] = process.argv.slice(1);
  let result = { name: 'none', message: 'loaded' };
  try { if (how === 'batch') result.bytes = readShared(path).byteLength; else createGeoLookup(path); }
  catch (e) { result = { name: e.name, message: e.message }; }
  console.log(JSON.stringify({ ...result, peakMb: process.resourceUsage().maxRSS / 1024 }));`;

/**
 * Loads `path` in a child process; with `feed`, `path` is made a FIFO that a shell command writes
 * `feed` into (it ends once the reader closes the pipe).
 */
function load(path: string, how: 'lookup' | 'batch', feed?: string): Load {
  const script = feed
    ? `rm -f "$P"; mkfifo "$P"; (${feed}) > "$P" 2>/dev/null & w=$!; timeout -s KILL ${LIMIT_S} "$NODE" --import tsx --input-type=module -e "$LOAD" "$P" "$HOW"; s=$?; kill $w 2>/dev/null; exit $s`
    : `exec timeout -s KILL ${LIMIT_S} "$NODE" --import tsx --input-type=module -e "$LOAD" "$P" "$HOW"`;
  const r = spawnSync('bash', ['-c', script], {
    cwd: root,
    env: { ...process.env, NODE: process.execPath, LOAD, P: path, HOW: how },
    encoding: 'utf8',
  });
  expect(r.status, `${r.stderr} (exit ${r.status}: 137 is the time limit)`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('what a dataset is read from', () => {
  it('a directory is refused, naming it, as not a regular file', () => {
    const dir = scratchPath('a-directory.geolookup');
    mkdirSync(dir, { recursive: true });
    const e = thrown(() => createGeoLookup(dir));
    expect(e).toBeInstanceOf(DataError);
    expect(e.message).toBe(`${dir}: not a regular file (a directory); give a dataset file built by build-data`);
  });

  it.each(['lookup', 'batch'] as const)('/dev/zero is refused at once (%s)', (how) => {
    const r = load('/dev/zero', how);
    expect(r.name).toBe('DataError');
    expect(r.message).toMatch(/\/dev\/zero: not a regular file \(a character device\)/);
    expect(r.peakMb).toBeLessThan(400);
  });

  it('a pipe of zeros is read no further than its header, and refused as foreign', () => {
    const r = load(scratchPath('zeros.fifo'), 'lookup', 'cat /dev/zero');
    expect(r).toMatchObject({ name: 'DataError', message: expect.stringMatching(/bad magic bytes/) });
    expect(r.peakMb).toBeLessThan(400);
  });

  it('a pipe that runs on past its file is read to one byte past it, and refused as extended', () => {
    const file = fixturePath('iso');
    const size = readFileSync(file).length;
    const feed = `cat "${file}" /dev/zero`;
    // readShared leaves the format to the loader: one byte more than the header says, no more.
    expect(load(scratchPath('endless-batch.fifo'), 'batch', feed)).toMatchObject({
      message: 'loaded',
      bytes: size + 1,
    });
    const r = load(scratchPath('endless.fifo'), 'lookup', feed);
    expect(r).toMatchObject({ name: 'DataError' });
    expect(r.message).toContain(`payload is ${size - 31} bytes, header says ${size - 32} (truncated or extended file)`);
    expect(r.peakMb).toBeLessThan(400);
  });

  it('a pipe holding exactly a dataset still loads', () => {
    expect(load(scratchPath('exact.fifo'), 'lookup', `cat "${fixturePath('iso')}"`).message).toBe('loaded');
  });
});

describe('geolookup --data', () => {
  it('--data /dev/zero: exit 1 at once, the message naming the path', () => {
    const r = spawnSync(
      'timeout',
      [
        '-s',
        'KILL',
        String(LIMIT_S),
        process.execPath,
        '--import',
        'tsx',
        'src/cli/main.ts',
        'country',
        '1',
        '1',
        '--data',
        '/dev/zero',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      'geolookup: /dev/zero: not a regular file (a character device); give a dataset file built by build-data',
    );
  });
});
