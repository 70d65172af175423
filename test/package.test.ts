// The built package: both module formats through the exports map, and the CLI binary.
import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });

beforeAll(() => {
  execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'pipe' });
});

describe('module formats', () => {
  it('require() resolves the CommonJS build', () => {
    const r = node(['-e', "const g = require('geolookup'); console.log(g.countryFromGps(48.8566, 2.3522), g.isInSubdivision('FR-IDF', 48.8566, 2.3522), typeof g.ValidationError)"]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('FRA true function');
  });
  it('import resolves the ES module build', () => {
    const r = node(['--input-type=module', '-e', "import { countryFromGps, NotFoundError } from 'geolookup'; try { countryFromGps(0, -30) } catch (e) { console.log(countryFromGps('52.52', '13.405'), e instanceof NotFoundError, e.status) }"]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('DEU true 404');
  });
  it('the browser entry has no Node built-ins and takes bytes', () => {
    const r = node(['--input-type=module', '-e', "import { readFileSync } from 'node:fs'; import { createGeoLookup } from 'geolookup/browser'; const g = createGeoLookup(readFileSync('dist-data/world.geolookup').buffer.slice(0)); console.log(g.countryFromGps(35.6895, 139.6917))"]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('JPN');
    const src = execFileSync('cat', ['dist/browser.js'], { cwd: root, encoding: 'utf8' });
    expect(src).not.toMatch(/from ['"]node:|require\(['"]node:/);
  });
});

describe('server entry', () => {
  it('geolookup/server serves the embedded dataset over a real socket', () => {
    const script = "import { createServer } from 'geolookup/server'; const s = createServer({ allowAnonymous: true }); s.listen(0, '127.0.0.1', async () => { const r = await fetch('http://127.0.0.1:' + s.address().port + '/geo/country/fromGps/48.8566,2.3522'); console.log(r.status, await r.text()); s.close(); process.exit(0); });";
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
    expect(JSON.parse(r.stderr).error).toMatchObject({ status: 404, title: 'Not Found' });
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
