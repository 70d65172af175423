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
try {
  if (args.length > force.length) await run('build.ts', args);
  else {
    await run('build.ts', force);
    await run('build.ts', ['--lite', ...force]);
    await run('borders/build.ts', force);
    await run('timezones/build.ts', [...force, '--dataset']);
    await run('timezones/build.ts', ['--countries']);
  }
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
