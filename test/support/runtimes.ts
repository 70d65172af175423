// The package as users get it, on runtimes other than the one running the tests: the repository
// packed and installed into an empty project, and runtime binaries from the npm registry kept in
// a cache outside the repository (in its node_modules/.bin, a `node` would shadow the system one).

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The runtimes taken from the npm registry, pinned: `package@version` carries the `bin` binary. */
export const RUNTIMES = {
  node24: { label: 'Node 24', package: 'node', version: '24.21.0', bin: 'node' },
  bun: { label: 'Bun', package: 'bun', version: '1.4.5', bin: 'bun' },
  deno: { label: 'Deno', package: 'deno', version: '2.9.6', bin: 'deno' },
} as const;
export type RuntimeName = keyof typeof RUNTIMES;

/** Where installed runtimes stay between runs: reinstalling them each time costs 10 s of downloads. */
export const RUNTIME_CACHE = join(tmpdir(), 'geolookup-runtimes');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Why the program did not run or did not exit 0, with the end of its stderr; null when it did. */
  failure: string | null;
}

/** Runs `cmd` to its end (asynchronously, so installs overlap); never rejects. */
export function run(
  cmd: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 240_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const e = error;
        const status = e === null ? 0 : typeof e.code === 'number' ? e.code : null;
        const how =
          e === null
            ? ''
            : e.signal
              ? `was killed by ${e.signal}${e.killed ? ' (timed out)' : ''}`
              : typeof e.code === 'number'
                ? `exited with status ${e.code}`
                : `failed: ${e.message.split('\n')[0]}`;
        const tail = stderr.trim().split('\n').slice(-20).join('\n');
        const failure = e === null ? null : `\`${[cmd, ...args].join(' ')}\` ${how}${tail ? `\n${tail}` : ''}`;
        resolve({ status, stdout, stderr, failure });
      },
    );
  });
}

/**
 * The environment the runtimes run in: no colours in their messages, no update checks or prompts
 * (Deno), and neither $GEOLOOKUP_DATA nor NODE_OPTIONS, so the package's own dataset is what loads.
 */
export function runtimeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' };
  for (const name of ['GEOLOOKUP_DATA', 'NODE_OPTIONS', 'FORCE_COLOR']) delete env[name];
  return { ...env, ...extra };
}

export type Runtime = { bin: string; dir: string; missing: null } | { bin: null; dir: string; missing: string };
const runtimes = new Map<RuntimeName, Promise<Runtime>>();

/**
 * The runtime's binary, installed into RUNTIME_CACHE/<package>-<version> on first use and checked
 * with `--version`; `missing` holds the actual error when it cannot be installed or run here.
 */
export function runtime(name: RuntimeName): Promise<Runtime> {
  let r = runtimes.get(name);
  if (!r) runtimes.set(name, (r = installRuntime(name)));
  return r;
}

async function installRuntime(name: RuntimeName): Promise<Runtime> {
  const { package: pkg, version, bin: binName } = RUNTIMES[name];
  const dir = join(RUNTIME_CACHE, `${pkg}-${version}`);
  const bin = join(dir, 'node_modules', '.bin', binName);
  if (!existsSync(bin)) {
    mkdirSync(RUNTIME_CACHE, { recursive: true });
    // Installed beside the cache entry, then renamed into place: a run interrupted mid-install, or
    // two runs at once, never leave a half-installed runtime behind for the next run to trust.
    const staging = mkdtempSync(join(RUNTIME_CACHE, `.${pkg}-${version}-`));
    // All three packages fetch their binary in an install script; allowing it by name and version
    // keeps that working once npm blocks unreviewed install scripts.
    const manifest = { private: true, allowScripts: { [`${pkg}@${version}`]: true } };
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const install = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--save-exact', '--prefix', staging, `${pkg}@${version}`],
      { cwd: staging },
    );
    if (install.failure !== null) {
      rmSync(staging, { recursive: true, force: true });
      return { bin: null, dir, missing: install.failure };
    }
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another run put it there first
    }
  }
  const check = await run(bin, ['--version'], { cwd: dir, env: runtimeEnv(), timeoutMs: 30_000 });
  if (check.failure !== null) return { bin: null, dir, missing: check.failure };
  if (!check.stdout.includes(version)) {
    return {
      bin: null,
      dir,
      missing: `${bin} --version printed ${JSON.stringify(check.stdout.trim())}, not ${version}`,
    };
  }
  return { bin, dir, missing: null };
}

export interface InstalledProject {
  /** The project folder: package.json and node_modules/geolookup, as `npm install` left them. */
  dir: string;
  /** The tarball `npm pack` made of the repository. */
  tarball: string;
  remove(): void;
}
let project: Promise<InstalledProject> | undefined;

/**
 * The repository packed with `npm pack` and installed into an empty project, once per test run.
 * It packs dist/ and dist-data/ as they are (built by `npm ci`'s prepare): rebuilding here would
 * race the other test files that read dist/.
 */
export function installedProject(): Promise<InstalledProject> {
  project ??= packAndInstall();
  return project;
}

async function packAndInstall(): Promise<InstalledProject> {
  for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/browser.js', 'dist-data/world.geolookup']) {
    if (!existsSync(join(root, file)))
      throw new Error(`${file} is missing: run \`npm run build\` (or \`npm ci\`) first`);
  }
  const base = mkdtempSync(join(tmpdir(), 'geolookup-installed-'));
  const remove = () => rmSync(base, { recursive: true, force: true });
  try {
    // --ignore-scripts: `prepare` rebuilds the datasets (minutes); the tree is packed as built.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', base], { cwd: root });
    if (pack.failure !== null) throw new Error(pack.failure);
    const [{ filename }] = JSON.parse(pack.stdout) as { filename: string }[];
    const tarball = join(base, filename);
    const dir = join(base, 'app');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'geolookup-smoke', private: true }, null, 2)}\n`,
    );
    // --ignore-scripts: npm never runs a registry package's `prepare`, and no dependency has an install script.
    const install = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, tarball],
      { cwd: dir },
    );
    if (install.failure !== null) throw new Error(install.failure);
    return { dir, tarball, remove };
  } catch (e) {
    remove();
    throw e;
  }
}

/**
 * A runtime that cannot run here: a failure with its actual error when
 * GEOLOOKUP_REQUIRE_SYSTEM_DEPS=1 (CI), else a skipped test and a warning, as skipWithout does.
 */
export function unavailable(ctx: TestContext, what: string, error: string): never {
  if (process.env.GEOLOOKUP_REQUIRE_SYSTEM_DEPS === '1') {
    throw new Error(`${what} cannot run here (GEOLOOKUP_REQUIRE_SYSTEM_DEPS=1): ${error}`);
  }
  console.warn(`${what} skipped: ${error}`);
  return ctx.skip(`${what} cannot run here: ${error.split('\n')[0]}`);
}
