// npm run build-data [-- options]: with no options (or --force alone), every dataset the packages
// ship: the world, then the lite one, while @geolookup/timezones' builds beside them (each build is
// one thread; two run at once), then the time-zone build's country check, which reads the world.
// With options, the one build they describe (build.ts: --lite, your own zones, --help …).

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
    await Promise.all([
      run('build.ts', force).then(() => run('build.ts', ['--lite', ...force])),
      run('timezones/build.ts', [...force, '--dataset']),
    ]);
    await run('timezones/build.ts', ['--countries']);
  }
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
