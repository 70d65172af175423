// npm run build-data [-- options]: with no options (or --force alone), every dataset the packages
// ship, one after another: the world, the lite one, @geolookup/borders' lines of the world (two
// threads of its own), @geolookup/timezones', then the time-zone build's country check, which
// reads the world. Not side by side: on a 2-vCPU machine the world build then took 6 minutes
// instead of 2. With options, the one build they describe (build.ts:
// --lite, your own zones, --help …).

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const NODE = [...process.execArgv, '--max-old-space-size=12000'];

function run(script: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE, join(here, script), ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`build-data: ${script} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

const args = process.argv.slice(2);
const force = args.length === 1 && args[0] === '--force' ? ['--force'] : [];
const STEPS: [string, string, string[]][] = [
  ['the world dataset', 'build.ts', force],
  ['the lite dataset', 'build.ts', ['--lite', ...force]],
  // A package's data build lives in the package (docs/EXTENDING.md).
  ["@geolookup/borders' lines", '../packages/borders/build-data/build.ts', force],
  ["@geolookup/timezones' dataset", 'timezones/build.ts', [...force, '--dataset']],
  ["the time zones' country check", 'timezones/build.ts', ['--countries']],
];
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
try {
  if (args.length > force.length) await run('build.ts', args);
  else
    for (const [i, [what, script, stepArgs]] of STEPS.entries()) {
      console.log(`build-data: [${i + 1}/${STEPS.length}] ${what} (at ${seconds()})`);
      await run(script, stepArgs);
    }
  if (args.length === force.length) console.log(`build-data: all datasets ready in ${seconds()}`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
