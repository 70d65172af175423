// npm's `prepare` (npm ci, npm install in a checkout): the datasets (build-data/all.ts skips each one
// whose inputs' hash matches its stamp), then the code (`npm run build`) unless the hash of its inputs
// matches dist/.inputs-sha256. npm runs prepare twice in a checkout, for the root and for the
// workspaces' `file:../..` link to it; the second run finds both up to date.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = readdirSync(join(root, 'packages')).map((p) => join('packages', p));
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

function run(what, args) {
  console.log(`prepare: ${what}`);
  const r = spawnSync('npm', ['run', ...args], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`prepare: ${what} failed (${r.signal ?? `exit ${r.status}`}) after ${elapsed()}`);
    process.exit(r.status || 1);
  }
}

/** Every file below `dir` (relative to the root), sorted; none where it does not exist. */
function files(dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath ?? d.path, d.name)))
    .sort();
}

// What the built code depends on: its sources and configs, and the datasets' stamps (the seals
// tsup.config.ts embeds are those datasets').
function codeInputs() {
  const hash = createHash('sha256');
  const names = [
    'package.json',
    'package-lock.json',
    'tsup.config.ts',
    ...files('src'),
    ...files('dist-data').filter((f) => f.endsWith('.inputs-sha256')),
    ...packages.flatMap((p) => [
      `${p}/package.json`,
      `${p}/tsup.config.ts`,
      ...files(`${p}/src`),
      ...files(`${p}/dist-data`).filter((f) => f.endsWith('.inputs-sha256')),
    ]),
  ];
  for (const name of names.filter((n) => existsSync(join(root, n))))
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(join(root, name)));
  return hash.digest('hex');
}

// `npx geolookup` in a checkout links the checkout into npm's npx cache, which runs prepare again:
// a built checkout needs nothing then (README's first command answers at once).
if (process.env.npm_command === 'exec' && existsSync(join(root, 'dist', 'cli.js'))) process.exit(0);

run('datasets (npm run build-data)', ['build-data']);

const stamp = join(root, 'dist', '.inputs-sha256');
const hash = codeInputs();
const built = ['.', ...packages].every((p) => existsSync(join(root, p, 'dist', 'index.js')));
if (built && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
  console.log('prepare: dist/ is up to date (inputs unchanged)');
} else {
  run('code (npm run build)', ['build']);
  writeFileSync(stamp, hash);
}

console.log(`prepare: done in ${elapsed()}`);
