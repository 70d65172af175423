// Node apps that do not run from our package folder: (1) examples/node-service bundled by esbuild
// and run from a temporary directory away from any node_modules, (2) the package as npm packs
// it, installed into another project, in both module formats and through every entry point.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import * as tz from '../../packages/timezones/src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataset = lib.defaultDataPath();
const work = mkdtempSync(join(tmpdir(), 'geolookup-bundle-node-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Hard link when the temp folder shares the file system (no copy of the dataset), else copy. */
function place(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Child env without GEOLOOKUP_DATA, plus the given variables. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('GEOLOOKUP_DATA' in extra)) delete e.GEOLOOKUP_DATA;
  return e;
}

/** What the example service answers for a point (it gets the query's text), derived from the library. */
function expected(latitude: number | string, longitude: number | string): { status: number; body: unknown } {
  const [lat, lon] = [String(latitude), String(longitude)];
  try {
    return {
      status: 200,
      body: { country: lib.countryFromGps(lat, lon), subdivision: lib.trySubdivisionFromGps(lat, lon) },
    };
  } catch (e) {
    if (!(e instanceof lib.GeoLookupError)) throw e;
    return { status: e.status, body: e.toProblem() };
  }
}

const POINTS: [number | string, number | string][] = [
  [48.8566, 2.3522],
  [47.6969, 8.6908],
  [41.9029, 12.4534],
  [-33.8688, 151.2093],
  [40.7128, -74.006],
  [0, -30],
  [-80, 0],
  [-16.8, 180],
  ['52.52', '13.405'],
  [120, 45],
  ['1e2', '2'],
  ['', '2'],
];

interface Running {
  url: string;
  child: ChildProcess;
}

/** Starts a service bundle on an ephemeral port; resolves when it prints its address. */
function startService(file: string, args: string[], childEnv: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, [file, '--port', '0', ...args], {
    cwd: dirname(file),
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\S+)/.exec(out);
      if (m) ok({ url: m[1], child });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => fail(new Error(`service exited ${code}: ${err}`)));
  });
}

async function stop(r: Running): Promise<void> {
  const exited = new Promise((ok) => r.child.once('exit', ok));
  r.child.kill('SIGTERM');
  await exited;
}

async function ask(r: Running, lat: number | string, lon: number | string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${r.url}/lookup?lat=${encodeURIComponent(lat)}&lon=${encodeURIComponent(lon)}`);
  return { status: res.status, body: await res.json() };
}

describe.each(['esm', 'cjs'] as const)(
  'examples/node-service bundled by esbuild (%s), run away from node_modules',
  (format) => {
    const dir = join(work, `service-${format}`, 'app');
    const bundle = join(dir, format === 'esm' ? 'service.mjs' : 'service.cjs');

    beforeAll(async () => {
      const esbuild = await import('esbuild');
      await esbuild.build({
        entryPoints: [join(root, 'examples/node-service/service.ts')],
        bundle: true,
        platform: 'node',
        target: 'node20',
        format,
        outfile: bundle,
        // Against src/, so the test does not race with other tests rebuilding dist/.
        alias: { geolookup: join(root, 'src/index.ts') },
        logLevel: 'silent',
      });
      for (let d = dir; d !== dirname(d); d = dirname(d))
        expect(existsSync(join(d, 'node_modules')), `node_modules above ${d}`).toBe(false);
    });

    it('answers as the library does when given the dataset bytes (--data)', async () => {
      const r = await startService(bundle, ['--data', dataset], env());
      try {
        for (const [lat, lon] of POINTS) expect(await ask(r, lat, lon)).toEqual(expected(lat, lon));
      } finally {
        await stop(r);
      }
    });

    it('the default loader honours GEOLOOKUP_DATA', async () => {
      const r = await startService(bundle, [], env({ GEOLOOKUP_DATA: dataset }));
      try {
        expect(await ask(r, 47.6969, 8.6908)).toEqual(expected(47.6969, 8.6908));
      } finally {
        await stop(r);
      }
    });

    it('the default loader finds dist-data/ shipped beside the bundle', async () => {
      const shipped = join(work, `service-${format}`, 'shipped');
      const file = join(shipped, bundle.slice(dir.length + 1));
      place(bundle, file);
      place(dataset, join(shipped, 'dist-data', 'world.geolookup'));
      const r = await startService(file, [], env());
      try {
        expect(await ask(r, -33.8688, 151.2093)).toEqual(expected(-33.8688, 151.2093));
      } finally {
        await stop(r);
      }
    });

    it('without a dataset: a DataError naming the paths and the fix, no crash', () => {
      const r = spawnSync(process.execPath, [bundle, '--port', '0'], {
        cwd: dir,
        env: env(),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^DataError: /);
      expect(r.stderr).toContain(join(dir, 'dist-data', 'world.geolookup'));
      expect(r.stderr).toContain('ENOENT');
      expect(r.stderr).toContain('GEOLOOKUP_DATA');
      expect(r.stderr).toContain('createGeoLookup(readFileSync(path))');
    });
  },
);

describe('the packed packages installed into other projects', () => {
  const pkg = join(work, 'pkg');
  const app = join(work, 'app');
  const tarballs: Record<string, string> = {};
  let installedBy = '';

  const npm = (args: string[], cwd: string) =>
    execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // --ignore-scripts: packing would otherwise run `prepare` (the data build) in the staged copy.
  const pack = (dir: string) =>
    join(
      work,
      npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', work], dir).trim().split('\n').pop()!,
    );

  /** A new project with `names` installed from their tarballs; returns its folder. */
  function install(folder: string, names: string[]): string {
    const dir = join(work, folder);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: folder, version: '1.0.0', private: true }));
    const files = names.map((n) => tarballs[n]);
    const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...files];
    try {
      try {
        npm(['--offline', ...args], dir);
        installedBy = 'npm install --offline';
      } catch {
        // A dependency's metadata not in npm's cache (npm ci caches tarballs, not metadata): the
        // registry, where it is reachable, as CI's own install uses it.
        npm(['--prefer-offline', ...args], dir);
        installedBy = 'npm install --prefer-offline';
      }
    } catch (err) {
      // No npm cache for the dependencies (a fresh machine without network): unpack the same
      // tarballs and link their dependencies from this checkout instead.
      for (const [name, file] of names.map((n) => [n, tarballs[n]])) {
        const target = join(dir, 'node_modules', name);
        mkdirSync(target, { recursive: true });
        execFileSync('tar', ['-xzf', file, '-C', target, '--strip-components=1']);
        const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
        for (const dep of Object.keys(manifest.dependencies ?? {})) {
          mkdirSync(dirname(join(dir, 'node_modules', dep)), { recursive: true });
          symlinkSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
        }
        // Its commands, as npm links them (the tests run node_modules/.bin/geolookup).
        const bins: Record<string, string> =
          typeof manifest.bin === 'string' ? { [name]: manifest.bin } : (manifest.bin ?? {});
        for (const [command, file] of Object.entries(bins)) {
          mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
          symlinkSync(join(target, file), join(dir, 'node_modules', '.bin', command));
        }
      }
      installedBy = `unpacked tarballs with linked dependencies (npm install failed: ${String(err).split('\n')[0]})`;
    }
    return dir;
  }

  /** The packages npm installed into a project (from its lock file), by name. */
  function installed(dir: string): string[] {
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    return Object.keys(lock.packages)
      .filter((p) => p !== '')
      .map((p) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
  }

  /** `name`'s dependencies and theirs, as the project's lock file resolved them. */
  function closure(dir: string, name: string): Set<string> {
    type Entry = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, Entry>;
    };
    const seen = new Set<string>();
    const queue = [name];
    while (queue.length) {
      const next = queue.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      // Every copy of it, nested ones too (vt-pbf's own pbf 3 needs ieee754).
      for (const [path, entry] of Object.entries(lock.packages))
        if (path.endsWith(`node_modules/${next}`))
          queue.push(...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }));
    }
    return seen;
  }

  beforeAll(async () => {
    // dist/ as `npm run build` makes it, into a private folder (test/integration/package.test.ts rebuilds
    // the shared dist/ at the same time); no declarations, which this test does not need.
    const { build } = await import('tsup');
    const { default: configs } = await import('../../tsup.config.js');
    for (const config of configs as object[])
      await build({ ...config, config: false, outDir: join(pkg, 'dist'), dts: false, sourcemap: false, silent: true });
    copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
    place(dataset, join(pkg, 'dist-data', 'world.geolookup'));
    // As the package ships it (package.json "files"): the playground's overview is drawn from it.
    place(lib.resolveDataPath('lite'), join(pkg, 'dist-data', 'world-lite.geolookup'));
    tarballs.geolookup = pack(pkg);
    // The products as `npm run build` built them (no test rebuilds packages/*/dist).
    tarballs['@geolookup/server'] = pack(join(root, 'packages', 'server'));
    tarballs['@geolookup/client'] = pack(join(root, 'packages', 'client'));
    tarballs['@geolookup/timezones'] = pack(join(root, 'packages', 'timezones'));
    install('app', ['geolookup', '@geolookup/server', '@geolookup/client']);
    console.log(`bundle-node: packages installed by ${installedBy}`);
  });

  /** Every entry point, each given the dataset its own way; prints JSON. */
  const script = (load: string) => `${load}
const P = [47.6969, 8.6908];
(async () => {
  const bytes = fs.readFileSync(g.defaultDataPath());
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const server = createServer({ data: bytes, allowAnonymous: true });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const res = await fetch('http://127.0.0.1:' + server.address().port + '/geo/subdivision/fromGps/' + P.join(','));
  const out = {
    dataPath: g.defaultDataPath(),
    node: g.countryFromGps(...P),
    nodeBuffer: g.createGeoLookup(bytes).subdivisionFromGps(...P),
    nodeArrayBuffer: g.createGeoLookup({ data: arrayBuffer }).countryFromGps(...P),
    browser: browser.createGeoLookup(arrayBuffer).subdivisionFromGps(...P),
    clientEmbedded: (await createClient({ offline: true }).countryFromGps(...P)).data,
    clientBytes: (await createClient({ offline: true, engine: browser.createGeoLookup(new Uint8Array(bytes)) }).subdivisionFromGps(...P)).data,
    server: res.status + ' ' + (await res.text()),
  };
  server.close();
  console.log(JSON.stringify(out));
})();
`;

  const want = () => {
    const [country, sub] = [lib.countryFromGps(47.6969, 8.6908), lib.subdivisionFromGps(47.6969, 8.6908)];
    return {
      dataPath: join(app, 'node_modules', 'geolookup', 'dist-data', 'world.geolookup'),
      node: country,
      nodeBuffer: sub,
      nodeArrayBuffer: country,
      browser: sub,
      clientEmbedded: country,
      clientBytes: sub,
      server: `200 ${sub}`,
    };
  };

  it('CommonJS: require() finds dist-data in the installed package; every entry point takes bytes', () => {
    writeFileSync(
      join(app, 'check.cjs'),
      script(`const fs = require('node:fs'); const g = require('geolookup'); const browser = require('geolookup/browser');
const { createClient } = require('@geolookup/client'); const { createServer } = require('@geolookup/server');`),
    );
    const r = spawnSync(process.execPath, ['check.cjs'], { cwd: app, env: env(), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(want());
  });

  it('ES modules: import finds dist-data in the installed package; every entry point takes bytes', () => {
    writeFileSync(
      join(app, 'check.mjs'),
      script(`import fs from 'node:fs'; import * as g from 'geolookup'; import * as browser from 'geolookup/browser';
import { createClient } from '@geolookup/client'; import { createServer } from '@geolookup/server';`),
    );
    const r = spawnSync(process.execPath, ['check.mjs'], { cwd: app, env: env(), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(want());
  });

  it('the playground opens on the prebuilt world overview of the installed dataset', async () => {
    const bin = join(app, 'node_modules', '.bin', 'geolookup');
    const child = spawn(bin, ['playground', '--port', '0'], {
      cwd: app,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((ok) => child.once('exit', ok));
    try {
      const line = await new Promise<string>((ok, fail) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('\n')) ok(out);
        });
        child.on('exit', (code) => fail(new Error(`playground exited ${code}: ${out}`)));
      });
      expect(line).toMatch(/zooms 0-7 from \S*node_modules\/geolookup\/dist-data\/world-lite\.geolookup, prebuilt\)/);
      const port = /127\.0\.0\.1:(\d+)/.exec(line)![1];
      const res = await fetch(`http://127.0.0.1:${port}/tiles/0/0/0.mvt`);
      expect(res.status).toBe(200);
      // The layer's name and a country's code, as MVT strings.
      const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
      expect(text).toContain('country');
      expect(text).toContain(lib.countryFromGps(48.8566, 2.3522));
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('from `node -e` in another folder (a global __dirname of ".") the client still finds the dataset', () => {
    const elsewhere = join(app, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const code = `require('${join(app, 'node_modules', '@geolookup', 'client', 'dist', 'index.cjs')}').createClient({ offline: true }).countryFromGps(48.8566, 2.3522).then((r) => console.log(r.data))`;
    const r = spawnSync(process.execPath, ['-e', code], { cwd: elsewhere, env: env(), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(lib.countryFromGps(48.8566, 2.3522));
  });

  it('the tarball ships the dataset and no sources', () => {
    const files = readdirSync(join(app, 'node_modules', 'geolookup'), { recursive: true })
      .map(String)
      .sort();
    expect(files).toContain(join('dist-data', 'world.geolookup'));
    expect(files.filter((f) => f.startsWith('src') || f.startsWith('test') || f.startsWith('build-data'))).toEqual([]);
  });

  // What each package adds to a project: the core and the client nothing but themselves; the server
  // its own dependencies (npm's lock file; skipped where npm could not install offline).
  // Runs before the time-zone test, which asks this project's CLI for a command it lacks.
  it('the core adds one package and answers from its CLI; serve names the package it needs', (ctx) => {
    const dir = install('core-only', ['geolookup']);
    if (!existsSync(join(dir, 'package-lock.json'))) ctx.skip();
    expect(installed(dir)).toEqual(['geolookup']);
    const bin = join(dir, 'node_modules', '.bin', 'geolookup');
    expect(spawnSync(bin, ['country', '48.8566', '2.3522'], { cwd: dir, env: env(), encoding: 'utf8' }).stdout).toBe(
      `${lib.countryFromGps(48.8566, 2.3522)}\n`,
    );
    const serve = spawnSync(bin, ['serve', '--keys', 'k.json'], { cwd: dir, env: env(), encoding: 'utf8' });
    expect(serve.status).toBe(1);
    expect(serve.stderr).toMatch(/install @geolookup\/server/);
  });

  it('time zones install beside the core alone and answer from import, require and the CLI', (ctx) => {
    const dir = install('timezones', ['geolookup', '@geolookup/timezones']);
    if (!existsSync(join(dir, 'package-lock.json'))) ctx.skip();
    expect(installed(dir)).toEqual(['@geolookup/timezones', 'geolookup']);
    const P = '47.6969, 8.6908';
    const want = tz.timeZoneFromGps(47.6969, 8.6908);
    const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: dir, env: env(), encoding: 'utf8' });
    const esm = run([
      '--input-type=module',
      '-e',
      `import { timeZoneFromGps } from '@geolookup/timezones'; console.log(timeZoneFromGps(${P}));`,
    ]);
    const cjs = run(['-e', `console.log(require('@geolookup/timezones').timeZonesFromGps(${P}).join())`]);
    expect([esm.stdout, cjs.stdout]).toEqual([`${want}\n`, `${tz.timeZonesFromGps(47.6969, 8.6908).join()}\n`]);
    const bin = join(dir, 'node_modules', '.bin', 'geolookup');
    expect(spawnSync(bin, ['timezone', '47.6969', '8.6908'], { cwd: dir, env: env(), encoding: 'utf8' }).stdout).toBe(
      `${want}\n`,
    );
    // Without the package there is no such command: extensions add their own (docs/EXTENDING.md).
    const bare = spawnSync(join(work, 'core-only', 'node_modules', '.bin', 'geolookup'), ['timezone', '1', '2'], {
      cwd: join(work, 'core-only'),
      env: env(),
      encoding: 'utf8',
    });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/unknown command "timezone"[\s\S]*Extensions installed beside geolookup add commands/);
  });

  it('the client adds itself and its peer, the core, and holds no dataset of its own', (ctx) => {
    // geolookup is its peer (its errors and operations: geolookup/extend): npm installs it with the
    // client; here its tarball, as the registry's geolookup would be.
    const dir = install('client-only', ['@geolookup/client', 'geolookup']);
    if (!existsSync(join(dir, 'package-lock.json'))) ctx.skip();
    expect(installed(dir)).toEqual(['@geolookup/client', 'geolookup']);
    const files = readdirSync(join(dir, 'node_modules', '@geolookup', 'client'), { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith('.geolookup'))).toEqual([]);
  });

  it('the server adds the core and its own dependencies only, Redis not among them', (ctx) => {
    if (!existsSync(join(app, 'package-lock.json'))) ctx.skip();
    const server = closure(app, '@geolookup/server');
    const ours = ['geolookup', '@geolookup/server', '@geolookup/client'];
    expect(installed(app).filter((p) => !ours.includes(p) && !server.has(p))).toEqual([]);
    const own = Object.keys(
      JSON.parse(readFileSync(join(root, 'packages', 'server', 'package.json'), 'utf8')).dependencies,
    );
    for (const dep of own) expect(server.has(dep), dep).toBe(true);
    expect(installed(app)).not.toContain('redis');
    console.log(`bundle-node: core + server + client install ${installed(app).length} packages`);
  });

  it('--redis without the redis package (an optional peer) stops the server with what to install', () => {
    writeFileSync(join(app, 'keys.json'), JSON.stringify({ version: 1, keys: [] }));
    const bin = join(app, 'node_modules', '.bin', 'geolookup');
    const r = spawnSync(bin, ['serve', '--port', '0', '--keys', 'keys.json', '--redis', 'redis://127.0.0.1:1'], {
      cwd: app,
      env: env(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/needs the redis package .*npm install redis/);
  });
});
