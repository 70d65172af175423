// The real build (build-data/build.ts) as a subprocess, the way a user runs it: the fixture
// datasets (test/fixtures/setup.ts) and the tests that build datasets of their own.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/**
 * Builds dataset `name` into `out` with the given flags (paths relative to the repository root);
 * returns the .geolookup file's path. The build's own output is kept for the error when it fails.
 */
export async function buildDataset(out: string, name: string, flags: string[]): Promise<string> {
  const args = ['--import', 'tsx', 'build-data/build.ts', '--name', name, '--out', out, ...flags];
  try {
    await run(process.execPath, args, { cwd: root, maxBuffer: 16 << 20 });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`dataset build failed: node ${args.join(' ')}\n${stdout ?? ''}${stderr ?? String(e)}`);
  }
  return join(out, `${name}.geolookup`);
}
