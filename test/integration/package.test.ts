// The built package: both module formats through the exports map, and the CLI binary.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checksum32, HEADER_BYTES, sealOf } from '../../src/format/container.js';
import { datasetInfo } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });

beforeAll(() => {
  execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'pipe' });
});

describe('module formats', () => {
  it('require() resolves the CommonJS build', () => {
    const r = node([
      '-e',
      "const g = require('geolookup'); console.log(g.countryFromGps(48.8566, 2.3522), g.isInSubdivision('FR-IDF', 48.8566, 2.3522), typeof g.ValidationError)",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('FRA true function');
  });
  it('import resolves the ES module build', () => {
    const r = node([
      '--input-type=module',
      '-e',
      "import { countryFromGps, NotFoundError } from 'geolookup'; try { countryFromGps(0, -30) } catch (e) { console.log(countryFromGps('52.52', '13.405'), e instanceof NotFoundError, e.status) }",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('DEU true 404');
  });
  it('the lite dataset loads by name', () => {
    const r = node([
      '-e',
      "const g = require('geolookup').createGeoLookup('lite'); console.log(g.countryFromGps(48.8566, 2.3522), g.subdivisionFromGps(48.8566, 2.3522), g.meta.name)",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('FRA FR-75C world-lite');
  });
  it('the browser entry has no Node built-ins and takes bytes', () => {
    const r = node([
      '--input-type=module',
      '-e',
      "import { readFileSync } from 'node:fs'; import { createGeoLookup } from 'geolookup/browser'; const g = createGeoLookup(readFileSync('dist-data/world.geolookup').buffer.slice(0)); console.log(g.countryFromGps(35.6895, 139.6917))",
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('JPN');
    const src = execFileSync('cat', ['dist/browser.js'], { cwd: root, encoding: 'utf8' });
    expect(src).not.toMatch(/from ['"]node:|require\(['"]node:/);
  });
});

describe('what the package ships', () => {
  it('only what the runtime reads and the docs: the datasets (world, lite) and their reports, no .geobuf, no source maps, no dependency', () => {
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
    ) as { files: { path: string }[] }[];
    const files = pack.files.map((f) => f.path);
    expect(files).toContain('dist-data/world.geolookup');
    expect(files).toContain('dist-data/world.REPORT.md');
    expect(files).toContain('dist-data/world-lite.geolookup');
    expect(files).toContain('dist-data/world-lite.REPORT.md');
    expect(files.filter((f) => f.startsWith('dist-data/'))).toHaveLength(4);
    // The data's licences and the attribution ODbL and GeoNutzV ask for travel with the data.
    expect(files).toContain('DATA-LICENSE.md');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // No runtime dependency: what dist/ imports is bundled (tsup.config.ts).
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    const dist = files
      .filter((f) => /^dist\/.*\.(c?js)$/.test(f))
      .map((f) => readFileSync(join(root, f), 'utf8'))
      .join('\n');
    const bare = [...dist.matchAll(/(?:from |import\(|require\()\s*['"]([^'"./][^'"]*)['"]/g)].map((m) => m[1]);
    expect([...new Set(bare.filter((b) => !b.startsWith('node:') && !builtinModules.includes(b)))]).toEqual([]);
  });

  it("every relative link in each package's shipped Markdown resolves to a file the package ships", () => {
    for (const dir of ['.', 'packages/server', 'packages/client', 'packages/timezones', 'packages/borders']) {
      const [pack] = JSON.parse(
        execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
          cwd: join(root, dir),
          encoding: 'utf8',
        }),
      ) as { files: { path: string }[] }[];
      const shipped = new Set(pack.files.map((f) => f.path));
      const broken: string[] = [];
      for (const md of [...shipped].filter((f) => f.endsWith('.md'))) {
        const text = readFileSync(join(root, dir, md), 'utf8');
        for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
          if (/^[a-z]+:/i.test(m[1])) continue;
          const target = posix.normalize(posix.join(posix.dirname(md), m[1]));
          if (!shipped.has(target) && ![...shipped].some((f) => f.startsWith(`${target}/`)))
            broken.push(`${dir}/${md}: ${m[1]}`);
        }
      }
      expect(broken, dir).toEqual([]);
    }
  });
});

describe('client package', () => {
  it('bundles for browsers in at most 15 kB gzip, with no Node built-in and no dataset', async () => {
    const { build } = await import('esbuild');
    const entry = join(root, 'packages', 'client', 'dist', 'index.js');
    const out = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      // As an app installs it: geolookup/extend by its package exports' browser condition, not
      // by this repository's tsconfig paths (which name the Node sources for the typecheck).
      tsconfigRaw: '{}',
    });
    const js = out.outputFiles[0].text;
    const gzip = gzipSync(js, { level: 9 }).byteLength;
    console.log(`client bundle: ${js.length} bytes, ${gzip} gzip`);
    expect(gzip).toBeLessThanOrEqual(15_000);
    expect(js).not.toMatch(/node:|geolookup\.geolookup/);
  });
});

describe('borders package', () => {
  it('its browser entry bundles with no Node built-in, the core taken from geolookup/browser', async () => {
    const { build } = await import('esbuild');
    const out = await build({
      entryPoints: [join(root, 'packages', 'borders', 'dist', 'browser.js')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      tsconfigRaw: '{}', // resolved as installed: package exports, browser condition
    });
    // The core's browser entry, as installed (its dist).
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((f) => /^(src|dist)\/browser\.[jt]s$/.test(f))).toHaveLength(1);
    expect(inputs.filter((f) => /^(src|dist)\/index\.[jt]s$|^src\/node\//.test(f))).toEqual([]);
    expect(out.outputFiles[0].text).not.toMatch(/node:/);
  });
});

describe('server package', () => {
  it('@geolookup/server, linked in the workspace, serves the embedded dataset over a real socket', () => {
    const script =
      "import { createServer } from '@geolookup/server'; const s = createServer({ allowAnonymous: true }); s.listen(0, '127.0.0.1', async () => { const r = await fetch('http://127.0.0.1:' + s.address().port + '/geo/country/fromGps/48.8566,2.3522'); console.log(r.status, await r.text()); s.close(); process.exit(0); });";
    const r = node(['--input-type=module', '-e', script]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('200 FRA');
  });
});

describe('CLI', () => {
  const cli = (...args: string[]) => node(['dist/cli.js', ...args]);
  it('answers the four operations', () => {
    expect(cli('country', '48.8566', '2.3522').stdout.trim()).toBe('FRA');
    expect(cli('subdivision', '40.7128', '-74.006').stdout.trim()).toBe('US-NY');
    expect(cli('in-country', 'FRA', '48.8566', '2.3522').stdout.trim()).toBe('true');
    expect(cli('in-subdivision', 'US-CA', '40.7128', '-74.006').stdout.trim()).toBe('false');
  });
  it('takes negative coordinates as values, not options', () => {
    const r = cli('country', '-33.8688', '151.2093');
    expect(r.stdout.trim()).toBe('AUS');
    expect(r.status).toBe(0);
  });
  it('--json prints data or a problem record', () => {
    expect(JSON.parse(cli('country', '--json', '52.52', '13.405').stdout)).toEqual({ data: 'DEU' });
    const r = cli('--json', 'country', '0', '-30');
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({ status: 404, title: 'Not Found' });
    expect(r.stderr).toMatch(/No country at 0,-30/);
  });
  it('distinguishes not found (3) from bad input (2), errors on stderr', () => {
    const nf = cli('country', '0', '-30');
    expect(nf.status).toBe(3);
    expect(nf.stdout).toBe('');
    expect(nf.stderr).toMatch(/No country/);
    const bad = cli('country', '120', '45');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/swapped/);
    expect(cli('in-country', 'FR', '1', '1').status).toBe(2);
    expect(cli('country', '1').status).toBe(2);
    expect(cli('frobnicate').status).toBe(2);
  });
  it('--version prints the package and the dataset with its sources', () => {
    const r = cli('--version');
    expect(r.status).toBe(0);
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(r.stdout.split('\n')[0]).toBe(`geolookup ${version}`);
    expect(r.stdout).toMatch(/^dataset world \(format \d+\): .*world\.geolookup$/m);
    for (const s of datasetInfo().sources) expect(r.stdout).toContain(`  ${s.name} ${s.version}`);
  });
  it('--help prints usage', () => {
    const r = cli('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/in-subdivision/);
  });
  it('a missing or corrupt --data file is a clear error, exit 1', () => {
    const r = cli('country', '1', '1', '--data', 'package.json');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/package\.json.*(magic|short)/);
  });
});

// src/node/seal.ts: the built code carries the seals of the datasets built beside it and skips the
// pointer checks only for those files where the package keeps them.
describe("the embedded dataset's seal", () => {
  const tmp = mkdtempSync(join(tmpdir(), 'geolookup-seal-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const dataset = readFileSync(join(root, 'dist-data', 'world.geolookup'));
  // A copy of the package: the ES build and its dataset, nothing else.
  mkdirSync(join(tmp, 'dist'));
  mkdirSync(join(tmp, 'dist-data'));
  writeFileSync(join(tmp, 'package.json'), '{"type":"module"}');
  const paris = (env: NodeJS.ProcessEnv = {}) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { countryFromGps } from ${JSON.stringify(join(tmp, 'dist', 'index.js'))}; console.log(countryFromGps(48.8566, 2.3522))`,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, GEOLOOKUP_DATA: '', ...env },
      },
    );

  it('is built into the Node entries, for each dataset the package ships', () => {
    for (const file of ['world.geolookup', 'world-lite.geolookup']) {
      const seal = sealOf(readFileSync(join(root, 'dist-data', file)));
      expect(seal).toMatch(/^\d+:\d+:\d+$/);
      for (const f of ['index.js', 'index.cjs', 'cli.js'])
        expect(readFileSync(join(root, 'dist', f), 'utf8')).toContain(
          `${JSON.stringify(file)}: ${JSON.stringify(seal)}`,
        );
    }
  });

  it('a build that cannot tell where it lives still loads the sealed file by path', () => {
    // A module loaded from a data: URL has no file location (as in some bundles): the seal check
    // must not fail on that, only decline to trust.
    const script = `import { readFileSync } from 'node:fs'; const m = await import('data:text/javascript;base64,' + readFileSync('dist/index.js').toString('base64')); console.log(m.createGeoLookup(${JSON.stringify(join(root, 'dist-data', 'world.geolookup'))}).countryFromGps(48.8566, 2.3522))`;
    const r = node(['--input-type=module', '-e', script]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('FRA');
  });

  it("reads the sealed file's records on demand: a file changed after load fails, never answers", () => {
    // src/node/lazy-records.ts: had the file been read whole at load, the lookups would answer.
    copyFileSync(join(root, 'dist', 'index.js'), join(tmp, 'dist', 'index.js'));
    const file = join(tmp, 'dist-data', 'world.geolookup');
    writeFileSync(file, dataset);
    const script = `import { openSync, writeSync } from 'node:fs';
      import * as geo from ${JSON.stringify(join(tmp, 'dist', 'index.js'))};
      console.log(geo.countryFromGps(48.8566, 2.3522));
      const fd = openSync(${JSON.stringify(file)}, 'r+');
      for (let at = 7; at < ${dataset.byteLength}; at += 4096) writeSync(fd, Uint8Array.of(0xa5), 0, 1, at);
      try {
        for (let lat = 40; lat < 55; lat += 0.01) for (let lon = 0; lon < 20; lon += 0.01) geo.trySubdivisionFromGps(lat, lon);
        console.log('answered');
      } catch (e) { console.log(e.name + ': ' + e.message); }`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, GEOLOOKUP_DATA: '' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^FRA\nDataError: .*world\.geolookup: the file changed after it was loaded/);
    writeFileSync(file, dataset);
  });

  it('one lookup per sealed file and version of it: every name of it, the module functions too', () => {
    // src/index.ts sealedLookup: a second lookup over one file doubles the memory and slows both.
    copyFileSync(join(root, 'dist', 'index.js'), join(tmp, 'dist', 'index.js'));
    const file = join(tmp, 'dist-data', 'world.geolookup');
    writeFileSync(file, dataset);
    const script = `import { copyFileSync, renameSync } from 'node:fs';
      import * as geo from ${JSON.stringify(join(tmp, 'dist', 'index.js'))};
      const file = ${JSON.stringify(file)};
      const a = geo.createGeoLookup('world');
      const one = [geo.preload(), geo.createGeoLookup({ data: 'world' }), geo.createGeoLookup(file)].every((x) => x === a);
      copyFileSync(file, file + '.new');
      renameSync(file + '.new', file); // as a package upgrade replaces it
      const b = geo.createGeoLookup('world');
      console.log(one, b !== a, b === geo.createGeoLookup('world'), a.countryFromGps(48.8566, 2.3522), b.countryFromGps(48.8566, 2.3522));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, GEOLOOKUP_DATA: '' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('true true true FRA FRA');
  });

  it('a damaged copy re-sealed with a fresh checksum still gets every check', () => {
    copyFileSync(join(root, 'dist', 'index.js'), join(tmp, 'dist', 'index.js'));
    writeFileSync(join(tmp, 'dist-data', 'world.geolookup'), dataset);
    const intact = paris();
    expect(intact.stderr).toBe('');
    expect(intact.stdout.trim()).toBe('FRA');
    // Paris's level-0 cell now names a depth-1 block far past the last one.
    const bad = Buffer.from(dataset);
    const payload = bad.subarray(HEADER_BYTES);
    const table = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    const grid = table.getUint32(8 + 1 * 8, true); // section 1 (layout.ts SECTIONS)
    table.setUint32(
      grid + 4 * (Math.floor(48.8566 + 90) * 360 + Math.floor(2.3522 + 180)),
      (1 << 30) | 0x3ffffff0,
      true,
    );
    bad.writeUInt32LE(checksum32(payload), 20);
    writeFileSync(join(tmp, 'dist-data', 'world.geolookup'), bad);
    const damaged = paris();
    expect(damaged.status).not.toBe(0);
    expect(damaged.stderr).toMatch(/DataError.*depth-1 block \d+ out of range/);
    // The same file through $GEOLOOKUP_DATA: never trusted, so the same error.
    writeFileSync(join(tmp, 'dist-data', 'world.geolookup'), dataset);
    const viaEnv = join(tmp, 'other.geolookup');
    writeFileSync(viaEnv, bad);
    expect(paris({ GEOLOOKUP_DATA: viaEnv }).stderr).toMatch(/depth-1 block \d+ out of range/);
  });
});
