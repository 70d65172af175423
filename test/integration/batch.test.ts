// `geolookup batch` as a real process on the built package (ESM and CJS), checked row by row
// against the library with an independent RFC 4180 reader (test/support/batch-rows.ts). The
// same machinery in process: test/integration/batch-api.test.ts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as geo from '../../src/index.js';
import { batch } from '../../src/batch/run.js';
import { cityPoints, prng, spherePoints } from '../support/sample-points.js';
import { checkCsv, expected, expectedZone, makeRows, quote, readCsv, writeCsv } from '../support/batch-rows.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'geolookup-batch-'));

/** Rebuild dist only when a source is newer (CI's npm ci has just built it; rebuilding races other test files). */
beforeAll(() => {
  const built = join(root, 'dist', 'batch-worker.js');
  let stale = true;
  try {
    const t = statSync(join(root, 'dist', 'cli.js')).mtimeMs;
    stale =
      statSync(built).mtimeMs < 0 ||
      readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).some(
        (f) => f.endsWith('.ts') && statSync(join(root, 'src', f)).mtimeMs > t,
      );
  } catch {
    stale = true;
  }
  if (stale) execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'pipe' });
  // @geolookup/timezones (--timezone) the same way; its build records its dataset's seal, so a
  // dataset rebuilt since makes it stale too.
  const tz = join(root, 'packages', 'timezones');
  let tzStale = true;
  try {
    const t = statSync(join(tz, 'dist', 'index.cjs')).mtimeMs;
    tzStale =
      statSync(join(tz, 'dist-data', 'timezones.geolookup')).mtimeMs > t ||
      readdirSync(join(tz, 'src')).some((f) => statSync(join(tz, 'src', f)).mtimeMs > t);
  } catch {
    tzStale = true;
  }
  if (tzStale) execFileSync('npx', ['tsup', '--silent'], { cwd: tz, stdio: 'pipe' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], opts: { input?: string | Buffer; nodeArgs?: string[] } = {}): Run {
  const r = spawnSync(process.execPath, [...(opts.nodeArgs ?? []), join(root, 'dist', 'cli.js'), 'batch', ...args], {
    cwd: dir,
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function summary(stderr: string) {
  const m =
    /([\d,]+) rows?, ([\d,]+) found, ([\d,]+) not found, ([\d,]+) errors?; ([\d.]+) s, ([\d,]+) rows\/s, \d+ workers?, peak RSS (\d+) MB; ([\d,]+) rows\/s after ([\d.]+) s of start-up/.exec(
      stderr,
    );
  if (!m) throw new Error(`no summary line in: ${stderr}`);
  const n = (s: string) => Number(s.replace(/,/g, ''));
  return {
    rows: n(m[1]),
    found: n(m[2]),
    notFound: n(m[3]),
    errors: n(m[4]),
    seconds: n(m[5]),
    rowsPerSecond: n(m[6]),
    peakRssMB: n(m[7]),
    rowsPerSecondAfterStartup: n(m[8]),
    startupSeconds: n(m[9]),
  };
}

describe('geolookup batch (built CLI)', () => {
  it('keeps every row of a 200k-row CSV, in order, with 3 workers, answering as the library does', () => {
    const rows = makeRows(200_000, 1);
    const file = join(dir, 'points.csv');
    writeCsv(file, rows);
    const run = cli([file, '--workers', '3']);
    expect(run.status, run.stderr).toBe(0);
    const counts = checkCsv(run.stdout, rows);
    expect(counts.errors).toBeGreaterThan(3000);
    const sum = summary(run.stderr);
    expect(sum).toMatchObject({ rows: rows.length, ...counts });
    // Start-up is part of the run, and the rate after it counts the same rows in less time.
    expect(sum.startupSeconds).toBeGreaterThan(0);
    expect(sum.startupSeconds).toBeLessThan(sum.seconds);
    expect(sum.rowsPerSecondAfterStartup).toBeGreaterThanOrEqual(sum.rowsPerSecond);
    expect(run.stderr.trim().split('\n'), 'stderr is not a terminal: the summary only').toHaveLength(1);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'draws a progress bar (percent, rows/s, ETA) when stderr is a terminal',
    () => {
      const file = join(dir, 'tty.csv');
      writeCsv(file, makeRows(50_000, 7));
      // script(1) gives the command a pseudo-terminal; stdout goes to a file so only stderr reaches it.
      const r = spawnSync(
        'script',
        [
          '-qec',
          `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'dist', 'cli.js'))} batch tty.csv -o tty.out.csv`,
          '/dev/null',
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/100% \| 50,000 rows \| [\d,]+ rows\/s \| ETA/);
      expect(r.stdout).toMatch(/50,000 rows, [\d,]+ found/);
    },
  );

  it('--data through a pipe (bash process substitution): the same bytes as from the file', () => {
    const rows = makeRows(2000, 4);
    const file = join(dir, 'piped.csv');
    writeCsv(file, rows);
    const data = join(root, 'dist-data', 'world.geolookup');
    const a = cli([file, '--data', data]);
    const b = spawnSync('bash', ['-c', '"$NODE" "$CLI" batch "$ROWS" --data <(cat "$DATA")'], {
      env: { ...process.env, NODE: process.execPath, CLI: join(root, 'dist', 'cli.js'), ROWS: file, DATA: data },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    checkCsv(a.stdout, rows);
  });

  it('one worker, -o file: the same bytes as two workers to stdout', () => {
    const rows = makeRows(20_000, 2);
    const file = join(dir, 'small.csv');
    writeCsv(file, rows, { bom: true });
    const a = cli([file, '--workers', '2']);
    const b = cli([file, '--workers', '1', '-o', join(dir, 'small.out.csv')]);
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(readFileSync(join(dir, 'small.out.csv'), 'utf8')).toBe(a.stdout);
    expect(a.stdout.startsWith('\uFEFFid,name,latitude,longitude,country,subdivision,error\n')).toBe(true);
    checkCsv(a.stdout, rows);
  });

  it('reads stdin, writes stdout; CRLF header, any-case lat/lng, --fields, --delimiter', () => {
    const rows = makeRows(5000, 3);
    const semi = rows.map((row) => ({
      ...row,
      raw: readCsv(`${row.raw}\n`)[0]
        .map((f) => (/[";\r\n]/.test(f) ? quote(f) : f))
        .join(';'),
    }));
    const text = `id;name;LAT;Lng\r\n${semi.map((row) => `${row.raw}\r\n`).join('')}`;
    const run = cli(['-', '--fields', 'subdivision', '--delimiter', ';'], { input: text });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.startsWith('id;name;LAT;Lng;subdivision;error\r\n')).toBe(true);
    const out = readCsv(run.stdout, ';');
    expect(out.length).toBe(rows.length + 1);
    const countryOnly = cli(['-', '--fields', 'country', '--delimiter', ';', '--workers', '1'], { input: text });
    const out2 = readCsv(countryOnly.stdout, ';');
    expect(out2[0].slice(-2)).toEqual(['country', 'error']);
    for (let i = 0; i < rows.length; i++) {
      const want = expected(rows[i].lat, rows[i].lon);
      expect(out[i + 1].slice(4, 6), `row ${i}`).toEqual([want.subdivision ?? '', want.error ?? '']);
      expect(out2[i + 1].slice(4, 6), `row ${i}`).toEqual([want.country ?? '', want.error ?? '']);
    }
    // Without --delimiter the header decides: ';' here, the same output byte for byte.
    const sniffed = cli(['-', '--fields', 'subdivision'], { input: text });
    expect(sniffed.status, sniffed.stderr).toBe(0);
    expect(sniffed.stdout).toBe(run.stdout);
    // A last row without a terminator gets the header's.
    const last = cli(['--format', 'csv'], { input: 'lat,lon\r\n0,-30\r\n0,-30' });
    expect(last.stdout).toBe('lat,lon,country,subdivision,error\r\n0,-30,,,\r\n0,-30,,,\r\n');
  });

  it('GeoJSON Point features, one per line or as an RFC 8142 sequence, and nested member paths', () => {
    const r = prng(14);
    const city = cityPoints(1500, 15);
    const points: { lat: number; lon: number }[] = [];
    for (let i = 0; i < 1500; i++)
      points.push(i % 3 ? { lat: city.lat[i], lon: city.lon[i] } : { lat: r() * 180 - 90, lon: r() * 360 - 180 });
    points.push({ lat: 100, lon: 0 }); // out of range: an error row
    const answers = points.map((p) => expected(p.lat, p.lon));
    const feature = (p: { lat: number; lon: number }, i: number) =>
      JSON.stringify({
        type: 'Feature',
        properties: { id: i },
        geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
      });
    const check = (stdout: string, rs: boolean, extra = 0) => {
      const lines = stdout.split('\n').filter((l) => l !== '');
      expect(lines.length).toBe(points.length + extra);
      points.forEach((_, i) => {
        if (rs) expect(lines[i].startsWith('\x1e'), `line ${i} keeps its separator`).toBe(true);
        const o = JSON.parse(rs ? lines[i].slice(1) : lines[i]);
        expect(o.properties.id).toBe(i);
        expect(o.country, `row ${i}`).toBe(answers[i].country);
        expect(o.subdivision, `row ${i}`).toBe(answers[i].subdivision);
        expect('error' in o, `row ${i}`).toBe(answers[i].error !== null);
      });
    };
    // GeoJSONSeq by extension, each line a Feature.
    const seq = join(dir, 'points.geojsonl');
    writeFileSync(seq, points.map((p, i) => `${feature(p, i)}\n`).join(''));
    const a = cli([seq, '--workers', '2']);
    expect(a.status, a.stderr).toBe(0);
    check(a.stdout, false);
    // RFC 8142: a record separator before each record, sniffed from stdin.
    const b = cli(['-'], { input: points.map((p, i) => `\x1e${feature(p, i)}\n`).join('') });
    expect(b.status, b.stderr).toBe(0);
    check(b.stdout, true);
    // A feature without geometry keeps its place with the API's error.
    const c = cli(['--format', 'ndjson'], {
      input: `${points.map((p, i) => `${feature(p, i)}\n`).join('')}{"type":"Feature","properties":{"id":-1},"geometry":null}\n`,
    });
    expect(c.status, c.stderr).toBe(0);
    check(c.stdout, false, 1);
    expect(JSON.parse(c.stdout.trim().split('\n').pop()!).error).toMatch(/^Latitude is required/);
    // Dotted names spell member paths (digits index arrays).
    const nested = points
      .map((p, i) => `${JSON.stringify({ properties: { id: i }, pos: { at: [p.lat, p.lon] } })}\n`)
      .join('');
    const d = cli(['-', '--lat', 'pos.at.0', '--lon', 'pos.at.1'], { input: nested });
    expect(d.status, d.stderr).toBe(0);
    check(d.stdout, false);
    // One nested, one top-level.
    const mixed = cli(['-', '--lat', 'pos.lat', '--lon', 'lng'], { input: '{"pos":{"lat":48.8566},"lng":2.3522}\n' });
    expect(JSON.parse(mixed.stdout).country).toBe(geo.tryCountryFromGps(48.8566, 2.3522));
    // A top-level member literally named with a dot still wins over the path.
    const e = cli(['-', '--lat', 'a.b', '--lon', 'c'], { input: '{"a.b":48.8566,"a":{"b":0},"c":2.3522}\n' });
    expect(JSON.parse(e.stdout).country).toBe(geo.tryCountryFromGps(48.8566, 2.3522));
  });

  it('finds the delimiter in the header when none is given: tab, bar; comma wins when it finds the columns', () => {
    const rows = makeRows(2000, 12).filter((row) => !/[\t|"]/.test(row.raw));
    for (const d of ['\t', '|']) {
      const text = `${['id', 'name', 'latitude', 'longitude'].join(d)}\n${rows.map((row) => `${readCsv(`${row.raw}\n`)[0].join(d)}\n`).join('')}`;
      const file = join(dir, d === '\t' ? 'points.tsv' : 'points.txt');
      writeFileSync(file, text);
      const run = cli([file, '--workers', '1']);
      expect(run.status, run.stderr).toBe(0);
      const out = readCsv(run.stdout, d);
      expect(out[0]).toEqual(['id', 'name', 'latitude', 'longitude', 'country', 'subdivision', 'error']);
      for (let i = 0; i < rows.length; i++) {
        const want = expected(rows[i].lat, rows[i].lon);
        expect(out[i + 1].slice(4, 7), `row ${i}`).toEqual([
          want.country ?? '',
          want.subdivision ?? '',
          want.error ?? '',
        ]);
      }
    }
    // Comma is tried first: a ';' inside a comma-separated header's names does not switch it.
    const mixed = cli(['--format', 'csv'], { input: 'a;b,lat,lon\nx;y,48.8566,2.3522\n' });
    const paris = expected('48.8566', '2.3522');
    expect(mixed.stdout).toBe(
      `a;b,lat,lon,country,subdivision,error\nx;y,48.8566,2.3522,${paris.country},${paris.subdivision},\n`,
    );
    // No candidate finds the columns: the error names the comma-split header, as before.
    const none = cli(['--format', 'csv'], { input: 'lat:lon\n1:2\n' });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/No latitude column in the header \(columns: lat:lon\)/);
  });

  it('a record longer than a read job (3 MiB quoted field with line breaks) keeps its bytes and its place, file and stdin', () => {
    const rows = makeRows(30_000, 9);
    // Long names in the middle, astride the ~1 MiB job boundaries: the reader must carry them whole.
    const long = `${'x'.repeat(1 << 20)}\n"quoted"\r\n${'y'.repeat(2 << 20)}`;
    for (const at of [100, 15_000])
      rows[at] = { raw: `${at},${quote(long)},48.8566,2.3522`, lat: '48.8566', lon: '2.3522' };
    const file = join(dir, 'long.csv');
    const text = writeCsv(file, rows);
    for (const run of [cli([file, '--workers', '2']), cli(['-', '--workers', '1'], { input: text })]) {
      expect(run.status, run.stderr).toBe(0);
      checkCsv(run.stdout, rows);
    }
  });

  it.skipIf(!existsSync('/proc/self/fd'))(
    'the input file is closed when the batch fails before any row (no file descriptor left open)',
    async () => {
      const file = join(dir, 'nolat.csv');
      writeFileSync(file, 'a,b\n1,2\n');
      const open = () => readdirSync('/proc/self/fd').length;
      const before = open();
      for (let i = 0; i < 5; i++)
        await expect(batch({ input: file, stdout: new PassThrough(), workers: 1 })).rejects.toThrow(
          geo.ValidationError,
        );
      expect(open()).toBe(before);
    },
  );

  it('never destroys a file: output = input is refused, and a bad header leaves an existing output file as it was', () => {
    const input = join(dir, 'same.csv');
    writeFileSync(input, 'lat,lon\n48.85,2.35\n');
    const same = cli([input, '-o', input]);
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/is the input file/);
    expect(readFileSync(input, 'utf8')).toBe('lat,lon\n48.85,2.35\n');
    const bad = join(dir, 'nolat2.csv');
    const kept = join(dir, 'kept.csv');
    writeFileSync(bad, 'a,b\n1,2\n');
    writeFileSync(kept, 'earlier results\n');
    const run = cli([bad, '-o', kept]);
    expect(run.status).toBe(2);
    expect(readFileSync(kept, 'utf8')).toBe('earlier results\n');
  });

  it('ragged CSV rows: a short row is padded to the header, a long row keeps its extra fields after the error cell', () => {
    // Enough rows for several ~1 MiB jobs: the ragged rows sit in a middle job and at the very end.
    const n = 80_000;
    const p = cityPoints(n, 21);
    for (const d of [',', '\t']) {
      const rows = Array.from({ length: n }, (_, i) => [
        String(i),
        p.lat[i].toFixed(5),
        p.lon[i].toFixed(5),
        `city ${i}`,
      ]);
      const ragged = [
        ['short', '40.7128', '-74.006'],
        ['long', '48.8566', '2.3522', 'Paris', 'extra', ''],
        ['no lng', '40.7'],
        ['id only'],
      ];
      rows.splice(n / 2, 0, ...ragged);
      rows.push(...ragged);
      const text = `id${d}lat${d}lng${d}name\n${rows.map((r) => r.join(d)).join('\n')}`; // the last row unterminated
      const run = cli(['-', '--workers', '2'], { input: text });
      expect(run.status, run.stderr).toBe(0);
      const out = readCsv(run.stdout, d);
      expect(out[0]).toEqual(['id', 'lat', 'lng', 'name', 'country', 'subdivision', 'error']);
      expect(out.length).toBe(rows.length + 1);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const want = expected(r[1], r[2]);
        const padded = [...r.slice(0, 4), ...Array<string>(Math.max(0, 4 - r.length)).fill('')];
        const answer = [want.country ?? '', want.subdivision ?? '', want.error ?? ''];
        if (JSON.stringify(out[i + 1]) !== JSON.stringify([...padded, ...answer, ...r.slice(4)]))
          expect(out[i + 1], `row ${i}: ${r.join(d)}`).toEqual([...padded, ...answer, ...r.slice(4)]);
      }
      const short = out.filter((r) => r[0] === 'short');
      expect(short).toHaveLength(2);
      for (const r of short) expect(r).toEqual(['short', '40.7128', '-74.006', '', 'USA', 'US-NY', '']);
      const long = out.filter((r) => r[0] === 'long');
      expect(long).toHaveLength(2);
      for (const r of long) expect(r).toEqual(['long', '48.8566', '2.3522', 'Paris', 'FRA', 'FR-75C', '', 'extra', '']);
      const noLng = out.filter((r) => r[0] === 'no lng');
      expect(noLng).toHaveLength(2);
      for (const r of noLng) expect(r[6]).toMatch(/^Longitude is required/);
    }
  });

  it('--lat / --lon name other columns; a missing column is exit 2 naming what was looked for', () => {
    const text = 'y,x,lat\n48.8566,2.3522,0\n-33.8688,151.2093,0\n';
    const run = cli(['--lat', 'Y', '--lon', 'x', '--format', 'csv'], { input: text });
    expect(run.status, run.stderr).toBe(0);
    const answer = (lat: number, lon: number) => `${geo.countryFromGps(lat, lon)},${geo.subdivisionFromGps(lat, lon)}`;
    expect(run.stdout).toBe(
      `y,x,lat,country,subdivision,error\n48.8566,2.3522,0,${answer(48.8566, 2.3522)},\n-33.8688,151.2093,0,${answer(-33.8688, 151.2093)},\n`,
    );
    const missing = cli(['--format', 'csv'], { input: 'a,b\n1,2\n' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/No latitude column in the header .*latitude, lat.*--lat/);
    expect(cli(['--workers', '0'], { input: '' }).status).toBe(2);
    expect(cli(['--nope'], { input: '' }).status).toBe(2);
  });

  it('NDJSON: members kept, answers inserted, bad rows keep their data with the API error', () => {
    const pts = makeRows(3000, 4);
    const lines = pts.map((p, i) => {
      const obj: Record<string, unknown> = { id: i, note: 'x, "y"' };
      const num = (s: string | undefined) => (s !== undefined && /^-?\d+(\.\d+)?$/.test(s) && i % 3 ? Number(s) : s);
      if (p.lat !== undefined) obj.lat = num(p.lat);
      if (p.lon !== undefined) obj.lng = num(p.lon);
      return JSON.stringify(obj);
    });
    lines.splice(10, 0, 'not json', '', '[1,2]', '{}');
    const file = join(dir, 'points.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = cli([file, '--workers', '2']);
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.length).toBe(lines.length - 1); // the blank line is not a row
    const inputs = lines.filter((l) => l !== '');
    for (let i = 0; i < out.length; i++) {
      const line = inputs[i];
      let obj: Record<string, unknown> | null = null;
      try {
        const v = JSON.parse(line);
        if (v && typeof v === 'object' && !Array.isArray(v)) obj = v;
      } catch {
        /* not JSON */
      }
      if (!obj) {
        expect(out[i]).toMatchObject({ line, country: null, subdivision: null });
        expect(out[i].error).toMatch(/^Row is not/);
        continue;
      }
      let want: { country: string | null; subdivision: string | null; error?: string };
      try {
        want = {
          country: geo.tryCountryFromGps(obj.lat as string, obj.lng as string),
          subdivision: geo.trySubdivisionFromGps(obj.lat as string, obj.lng as string),
        };
      } catch (e) {
        want = { country: null, subdivision: null, error: (e as Error).message };
      }
      expect(out[i], line).toEqual({ ...obj, ...want });
    }
    expect(summary(run.stderr).rows).toBe(out.length);
    // sniffed from stdin
    const piped = cli([], { input: lines.slice(0, 50).join('\n') });
    expect(piped.stdout).toBe(`${run.stdout.split('\n').slice(0, 49).join('\n')}\n`);
  });

  it('a reader that stops early (| head) gets exit 1 and one line on stderr, no stack trace', async () => {
    const file = join(dir, 'epipe.csv');
    writeCsv(file, makeRows(300_000, 9));
    const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'batch', file, '--workers', '1'], {
      cwd: dir,
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual(['geolookup batch: the output was closed before the end (EPIPE)']);
  });

  it('a damaged dataset is exit 1 with the DataError text', () => {
    const bad = join(dir, 'bad.geolookup');
    writeFileSync(bad, 'not a dataset');
    const run = cli(['--data', bad], { input: 'lat,lon\n1,2\n' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/bad\.geolookup: file is 13 bytes, too short/);
  });

  it('a corrupted payload is exit 1 and writes no output, though the workers warmed up on it', () => {
    // The workers lay their views over the bytes unchecked and run the first rows through them
    // (their warm-up) while the main thread checks: garbage pointers may send a lookup anywhere,
    // even round a loop, and the run must still end with the check's error and no rows.
    const bytes = new Uint8Array(readFileSync(join(root, 'dist-data', 'world.geolookup')));
    const r = prng(5);
    for (let i = bytes.length >> 2, end = i + (8 << 20); i < end; i++) bytes[i] = (r() * 256) | 0;
    const bad = join(dir, 'garbled.geolookup');
    writeFileSync(bad, bytes);
    const p = cityPoints(20_000, 5);
    let input = 'lat,lon\n';
    for (let i = 0; i < p.lat.length; i++) input += `${p.lat[i].toFixed(5)},${p.lon[i].toFixed(5)}\n`;
    const out = join(dir, 'garbled-out.csv');
    const started = Date.now();
    const run = cli(['--data', bad, '-o', out, '--workers', '2'], { input });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/garbled\.geolookup: checksum mismatch/);
    expect(existsSync(out)).toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('memory stays bounded: a 4M-row file uses about what a 500k-row file does', async () => {
    // A file is read far faster than rows are looked up, so only the in-flight limit keeps jobs from piling up.
    const write = (n: number) => {
      const file = join(dir, `mem-${n}.csv`);
      const r = prng(n);
      const parts = ['id,lat,lon\n'];
      for (let i = 0; i < n; ) {
        let s = '';
        for (const end = Math.min(n, i + 10_000); i < end; i++)
          s += `${i},${(r() * 180 - 90).toFixed(5)},${(r() * 360 - 180).toFixed(5)}\n`;
        parts.push(s);
      }
      writeFileSync(file, parts.join(''));
      return file;
    };
    const run = (file: string, n: number) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'batch', file, '--workers', '2'], {
          cwd: dir,
        });
        let err = '';
        let lines = 0;
        child.stdout.on('data', (b: Buffer) => {
          for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++;
        });
        child.stderr.on('data', (b) => (err += b));
        child.on('error', reject);
        child.on('close', (code) => {
          if (code !== 0 || lines !== n + 1) reject(new Error(`exit ${code}, ${lines} lines: ${err}`));
          else resolve(summary(err).peakRssMB);
        });
      });
    // 500k rows reach the steady state (every isolate warm, every job slot used); 8× more adds only GC
    // slack, well inside the bound, while reading ahead without the in-flight limit would exceed it.
    const small = await run(write(500_000), 500_000);
    const large = await run(write(4_000_000), 4_000_000);
    expect(large - small, `peak RSS ${small} MB for 500k rows, ${large} MB for 4M`).toBeLessThan(80);
    expect(large, 'dataset once (shared) plus three V8 isolates and a few jobs').toBeLessThan(400);
  });
});

describe('geolookup batch: records as real files hold them', () => {
  /** The rows of an output, each with its own coordinates' answer: checkCsv against the input rows. */
  const rowsOf = (specs: [string, string, string][]) =>
    specs.map(([id, item, point]) => {
      const [lat, lon] = point.split(',');
      return { raw: `${id},${item},${lat},${lon}`, lat, lon };
    });

  it('an inch mark (55") inside an unquoted field stays in its row: every row gets its own answer', () => {
    const rows = rowsOf([
      ['1', 'TV 55" LG', '48.8566,2.3522'],
      ['2', 'cable 3"', '52.52,13.405'],
      ['3', 'plain', '-33.8688,151.2093'],
      ['4', 'TV 40" LG', '35.6762,139.6503'],
      ['5', '"quoted, fine"', '40.7128,-74.006'],
    ]);
    const file = join(dir, 'inches.csv');
    const text = writeCsv(file, rows, { header: 'id,item,lat,lon' });
    for (const run of [cli([file, '--workers', '2']), cli(['-', '--workers', '1'], { input: text })]) {
      expect(run.status, run.stderr).toBe(0);
      const counts = checkCsv(run.stdout, rows, ['country', 'subdivision'], 'id,item,lat,lon');
      expect(summary(run.stderr)).toMatchObject({ rows: 5, ...counts });
      expect(counts.found).toBe(5);
    }
  });

  it('a header and first row over 1.1 MB (a WKT column) lose no row, from a file and from stdin', () => {
    const wkt = `"POLYGON((${Array.from({ length: 80_000 }, (_, i) => `${i % 180}.123 ${i % 90}.456`).join(', ')}))"`;
    expect(wkt.length).toBeGreaterThan(1_100_000);
    const rows = makeRows(2_000, 31);
    rows[0] = { raw: `0,wkt,-1.2921,36.8219,${wkt}`, lat: '-1.2921', lon: '36.8219' };
    const file = join(dir, 'wkt.csv');
    const text = writeCsv(file, rows);
    for (const run of [cli([file, '--workers', '2']), cli(['-', '--workers', '2'], { input: text })]) {
      expect(run.status, run.stderr).toBe(0);
      const counts = checkCsv(run.stdout, rows);
      expect(summary(run.stderr)).toMatchObject({ rows: 2_000, ...counts });
    }
  });

  it('rows of 16 MiB work first, in the middle and last; a record over 64 MiB is one error row', () => {
    const big = (n: number) => quote(`${'a,b\n"c"'.repeat(n / 8)}`);
    const rows = makeRows(3_000, 32);
    for (const at of [0, 1_500, 2_999])
      rows[at] = { raw: `${at},big,51.5072,-0.1276,${big(16 << 20)}`, lat: '51.5072', lon: '-0.1276' };
    const file = join(dir, 'big-rows.csv');
    writeCsv(file, rows);
    const run = cli([file, '--workers', '2']);
    expect(run.status, run.stderr).toBe(0);
    const counts = checkCsv(run.stdout, rows);
    expect(summary(run.stderr)).toMatchObject({ rows: 3_000, ...counts });

    // Over the limit, in the middle and at the end (an unclosed quote runs to the end of input):
    // each becomes one row of empty cells and the error; the rows around it are answered.
    const over = join(dir, 'over.csv');
    const head = 'id,name,latitude,longitude\n1,a,48.8566,2.3522\n';
    const tail = '3,c,35.6762,139.6503\n';
    writeFileSync(over, `${head}2,${big(65 << 20)},1,2\n${tail}4,"never closed,${'x'.repeat(65 << 20)}`);
    const out = cli([over, '--workers', '2']);
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.split('\n');
    const limit = 'The record is over the 64 MiB limit (67108864 bytes); it was not read.';
    expect(lines).toEqual([
      'id,name,latitude,longitude,country,subdivision,error',
      '1,a,48.8566,2.3522,FRA,FR-75C,',
      `,,,,,,"${limit}"`,
      '3,c,35.6762,139.6503,JPN,JP-13,',
      `,,,,,,"${limit}"`,
      '',
    ]);
    expect(summary(out.stderr)).toMatchObject({ rows: 4, found: 2, errors: 2 });
    // 45 s alone; over 120 s in CI's Node-only run beside the proofs tier on two vCPUs.
  }, 300_000);

  it('a quote left open at the end of input: its row is an error row, the quote closed so cells stay cells', () => {
    const run = cli(['-'], { input: 'id,name,lat,lon\n1,"open,48.8566,2.3522\n' });
    expect(run.status, run.stderr).toBe(0);
    expect(readCsv(run.stdout)).toEqual([
      ['id', 'name', 'lat', 'lon', 'country', 'subdivision', 'error'],
      [
        '1',
        'open,48.8566,2.3522\n',
        '',
        '',
        '',
        '',
        'The row ends inside a quoted field: a quote opened and never closed.',
      ],
    ]);
    expect(summary(run.stderr)).toMatchObject({ rows: 1, errors: 1 });
    expect(run.stderr).toMatch(/ 1 row, 0 found, 0 not found, 1 error;/);
  });

  it('SIGINT: the rows read are written, in order and whole, stderr says how many, exit 130', async () => {
    const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'batch', '-', '--workers', '2'], { cwd: dir });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b) => (err += b));
    child.stdin.on('error', () => {}); // the input not yet read when it exits: EPIPE is expected
    const rows = makeRows(400_000, 33);
    // stdin stays open, so the signal comes while rows are in flight or awaited.
    child.stdin.write(`id,name,latitude,longitude\n${rows.map((row) => `${row.raw}\n`).join('')}`);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (outBytes > 1 << 20) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, err).toBe(130);
    const written = summary(err).rows;
    expect(err).toContain(`interrupted by SIGINT: ${written.toLocaleString('en-US')} rows written, in input order`);
    expect(written).toBeGreaterThan(0);
    checkCsv(Buffer.concat(out).toString(), rows.slice(0, written));
  });
});

describe('geolookup batch --timezone', () => {
  // Seeded points near cities and anywhere (sea: Etc/GMT±N), with the bad and odd spellings of makeRows.
  it('CSV: every row its timezone as @geolookup/timezones answers it, bad rows as for the countries', () => {
    const rows = makeRows(4000, 41);
    const file = join(dir, 'zones.csv');
    writeCsv(file, rows);
    const run = cli([file, '--timezone', '--workers', '2']);
    expect(run.status, run.stderr).toBe(0);
    const counts = checkCsv(run.stdout, rows, ['country', 'subdivision'], undefined, { timezone: true });
    expect(counts.errors).toBeGreaterThan(50);
    expect(summary(run.stderr)).toMatchObject({ rows: rows.length, ...counts });
    // --fields and --delimiter combine with it; a delimiter that zone names hold ('/') quotes them.
    const slash = rows.slice(0, 1500).map((row) => ({
      ...row,
      raw: readCsv(`${row.raw}\n`)[0]
        .map((f) => (/["/\r\n]/.test(f) ? quote(f) : f))
        .join('/'),
    }));
    const text = `id/name/latitude/longitude\n${slash.map((row) => `${row.raw}\n`).join('')}`;
    const sub = cli(['-', '--fields', 'subdivision', '--timezone', '--delimiter', '/', '--workers', '1'], {
      input: text,
    });
    expect(sub.status, sub.stderr).toBe(0);
    expect(sub.stdout).toContain('/"Europe/');
    checkCsv(sub.stdout, slash, ['subdivision'], undefined, { timezone: true, delimiter: '/' });
  });

  it('NDJSON: a "timezone" member per row as @geolookup/timezones answers it, null on bad rows', () => {
    const city = cityPoints(1500, 42);
    const sphere = spherePoints(1500, 43);
    const r = prng(44);
    const rows: unknown[] = [];
    for (let i = 0; i < 3000; i++) {
      const p = i % 2 ? city : sphere;
      const lat = p.lat[i >> 1];
      const lon = p.lon[i >> 1];
      // Numbers, strings (JSON.parse's path) and a member named like the answer, which is replaced.
      const u = r();
      rows.push(
        u < 0.8
          ? { id: i, lat, lon }
          : u < 0.9
            ? { id: i, lat: String(lat), lng: String(lon) }
            : { id: i, timezone: 'x', lat, lon },
      );
    }
    const bad = [
      { id: 'range', lat: 91, lon: 0 },
      { id: 'swapped', lat: 151.2, lon: -33.8 },
      { id: 'text', lat: 'x', lon: 1 },
      { id: 'no lon', lat: 10 },
      { id: 'edge', lat: 0, lon: 180 },
      { id: 'pole', lat: 90, lon: 0 },
      { id: 'antimeridian', lat: -20, lon: -180 },
    ];
    rows.splice(1000, 0, ...bad);
    const lines = rows.map((o) => JSON.stringify(o));
    lines.splice(2000, 0, 'not json', '[1,2]');
    const file = join(dir, 'zones.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = cli([file, '--timezone', '--fields', 'country', '--workers', '2']);
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.length).toBe(lines.length);
    let errors = 0;
    for (let i = 0; i < lines.length; i++) {
      let obj: Record<string, unknown> | null = null;
      try {
        const v = JSON.parse(lines[i]);
        if (v && typeof v === 'object' && !Array.isArray(v)) obj = v;
      } catch {
        /* not JSON */
      }
      if (!obj) {
        expect(out[i]).toMatchObject({ line: lines[i], country: null, timezone: null });
        errors++;
        continue;
      }
      const lat = obj.lat as string;
      const lon = (obj.lon ?? obj.lng) as string;
      const want = expected(lat, lon);
      const { timezone: _replaced, ...kept } = obj;
      const wanted = {
        ...kept,
        country: want.country,
        timezone: expectedZone(lat, lon),
        ...(want.error ? { error: want.error } : {}),
      };
      if (want.error) errors++;
      else expect(wanted.timezone).not.toBeNull();
      if (JSON.stringify(out[i]) !== JSON.stringify(wanted)) expect(out[i], lines[i]).toEqual(wanted);
    }
    expect(errors).toBe(bad.filter((b) => expected(b.lat, b.lon).error).length + 2);
    expect(summary(run.stderr)).toMatchObject({ rows: lines.length, errors });
  });

  it('without @geolookup/timezones: --timezone is no option (exit 2) before reading any input', async () => {
    // The built CLI alone, where nothing resolves the package (no node_modules above it).
    const alone = mkdtempSync(join(tmpdir(), 'geolookup-no-tz-'));
    try {
      for (const f of ['cli.js', 'batch-worker.js']) copyFileSync(join(root, 'dist', f), join(alone, f));
      expect(() => createRequire(join(alone, 'cli.js')).resolve('@geolookup/timezones')).toThrow();
      const env = { ...process.env };
      delete env.NODE_PATH;
      const out = join(alone, 'out.csv');
      // stdin stays open and empty: a run that waited for input would not end.
      const child = spawn(process.execPath, [join(alone, 'cli.js'), 'batch', '--timezone', '-o', out], {
        cwd: alone,
        env,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b) => (stdout += b));
      child.stderr.on('data', (b) => (stderr += b));
      const timer = setTimeout(() => child.kill(), 20_000);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearTimeout(timer);
      child.stdin.destroy();
      // The option is the extension's: with no extension installed the command has none of it.
      expect(code, stderr).toBe(2);
      expect(stderr.split('\n')[0]).toBe('geolookup batch: unknown option --timezone');
      expect(stdout).toBe('');
      expect(existsSync(out)).toBe(false);
      // The same copy answers without --timezone (the failure is the package's, not the copy's).
      const ok = spawnSync(
        process.execPath,
        [join(alone, 'cli.js'), 'batch', '--data', join(root, 'dist-data', 'world.geolookup')],
        { cwd: alone, env, input: 'lat,lon\n48.8566,2.3522\n', encoding: 'utf8' },
      );
      expect(ok.status, ok.stderr).toBe(0);
      expect(ok.stdout).toBe('lat,lon,country,subdivision,error\n48.8566,2.3522,FRA,FR-75C,\n');
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
