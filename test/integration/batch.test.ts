// Batch processing: the typed-array API against the single-point functions, and
// `geolookup batch` as a real process on the built package (ESM and CJS), checked
// row by row against the library with an independent RFC 4180 reader.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as geo from '../../src/index.js';
import { INVALID_COORDINATE, NOT_FOUND, ValidationError } from '../../src/index.js';
import { parseDecimal } from '../../src/batch/rows.js';
import { csvCells, processCsv } from '../../src/batch/csv.js';
import { ndjsonCells, processNdjson, scanned, scanRow } from '../../src/batch/ndjson.js';
import { readDataset } from '../../src/format/dataset.js';
import { batch } from '../../src/batch/run.js';
import { cityPoints, rng, spherePoints } from '../../bench/points.js';

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
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(
  args: string[],
  opts: { input?: string | Buffer; entry?: 'cli.js' | 'cli.cjs'; nodeArgs?: string[] } = {},
): Run {
  const r = spawnSync(
    process.execPath,
    [...(opts.nodeArgs ?? []), join(root, 'dist', opts.entry ?? 'cli.js'), 'batch', ...args],
    {
      cwd: dir,
      input: opts.input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** An RFC 4180 reader written for the test, character by character, sharing nothing with src/. */
function readCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') continue;
    else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** What the library says for one pair of field values: the codes, or the ValidationError text. */
function expected(
  lat: string | undefined,
  lon: string | undefined,
): { country: string | null; subdivision: string | null; error: string | null } {
  try {
    return {
      country: geo.tryCountryFromGps(lat as string, lon as string),
      subdivision: geo.trySubdivisionFromGps(lat as string, lon as string),
      error: null,
    };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return { country: null, subdivision: null, error: e.message };
  }
}

interface Row {
  /** The row as written, without its terminator. */
  raw: string;
  lat: string | undefined;
  lon: string | undefined;
}

/**
 * Seeded rows: points near cities and anywhere, coordinates in many spellings (quoted,
 * '5.', '.5', '-0', 17 significant digits), and about 3% bad or odd rows.
 */
function makeRows(n: number, seed: number): Row[] {
  const r = rng(seed);
  const city = cityPoints(n, seed + 1);
  const sphere = spherePoints(n, seed + 2);
  const bad: [string | undefined, string | undefined, string?][] = [
    ['NaN', '2'],
    ['', '2'],
    [' 12', '3'],
    ['12 ', '3'],
    ['1e2', '3'],
    ['+1', '3'],
    ['0x10', '3'],
    ['48,85', '2.35'],
    ['151.2', '-33.8'],
    ['91', '0'],
    ['10', '-180.0001'],
    ['4"8', '2'],
    ['abc', 'def'],
    ['1'.repeat(70), '2'],
    ['48.85', undefined],
    [undefined, undefined],
    ['Infinity', '0'],
    ['48.85', '2.35\n'],
  ];
  const odd = ['-0', '.5', '5.', '-.5', '90', '-90', '0.123456789012345678', '00012.5'];
  const names = ['plain', 'with, comma', 'with "quotes"', 'two\nlines', 'crlf\r\ninside', 'ünïcödé', ''];
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const u = r();
    let lat: string | undefined;
    let lon: string | undefined;
    if (u < 0.03) [lat, lon] = bad[Math.floor(r() * bad.length)];
    else if (u < 0.04) [lat, lon] = [odd[Math.floor(r() * odd.length)], odd[Math.floor(r() * odd.length)]];
    else {
      const p = u < 0.5 ? city : sphere;
      const digits = Math.floor(r() * 9);
      lat = p.lat[i].toFixed(digits);
      lon = r() < 0.1 ? String(p.lon[i]) : p.lon[i].toFixed(digits);
      if (lat === '-0' || /^-0\.0*$/.test(lat)) lat = lat.slice(1);
    }
    const name = names[Math.floor(r() * names.length)];
    const needsQuote = (s: string) => /[",\r\n]/.test(s) || r() < 0.05;
    const cell = (s: string) => (needsQuote(s) ? quote(s) : s);
    const cells = [String(i), cell(name)];
    if (lat !== undefined) cells.push(cell(lat));
    if (lon !== undefined) cells.push(cell(lon));
    if (lat !== undefined && lon !== undefined && r() < 0.5) cells.push('tail');
    rows.push({ raw: cells.join(','), lat, lon });
  }
  return rows;
}

function writeCsv(
  file: string,
  rows: Row[],
  opts: { bom?: boolean; crlfEvery?: number; header?: string } = {},
): string {
  const every = opts.crlfEvery ?? 7;
  const text = `${(opts.bom ? '\uFEFF' : '') + (opts.header ?? 'id,name,latitude,longitude')}\n${rows.map((row, i) => row.raw + (i % every === 3 ? '\r\n' : '\n')).join('')}`;
  writeFileSync(file, text);
  return text;
}

/** Checks every output row against its input row and the library; returns the counts. */
function checkCsv(
  out: string,
  rows: Row[],
  fields: ('country' | 'subdivision')[] = ['country', 'subdivision'],
  header = 'id,name,latitude,longitude',
) {
  const parsed = readCsv(out.replace(/^\uFEFF/, ''));
  const width = header.split(',').length;
  expect(parsed[0]).toEqual([...header.split(','), ...fields, 'error']);
  expect(parsed.length - 1).toBe(rows.length);
  const counts = { found: 0, notFound: 0, errors: 0 };
  for (let i = 0; i < rows.length; i++) {
    const got = parsed[i + 1];
    // A short row is padded to the header's width; a long row's extra fields follow the error cell.
    const input = readCsv(`${rows[i].raw}\n`)[0];
    const padded = [...input.slice(0, width), ...Array<string>(Math.max(0, width - input.length)).fill('')];
    const want = expected(rows[i].lat, rows[i].lon);
    expect(got.slice(0, width), `row ${i}`).toEqual(padded);
    expect(got.slice(width + fields.length + 1), `row ${i}`).toEqual(input.slice(width));
    const cells = got.slice(width, width + fields.length + 1);
    const wanted = [...fields.map((f) => want[f] ?? ''), want.error ?? ''];
    if (JSON.stringify(cells) !== JSON.stringify(wanted))
      expect({ row: i, raw: rows[i].raw, cells }).toEqual({ row: i, raw: rows[i].raw, cells: wanted });
    if (want.error) counts.errors++;
    else if (want[fields[0]]) counts.found++;
    else counts.notFound++;
  }
  return counts;
}

function summary(stderr: string) {
  const m =
    /([\d,]+) rows, ([\d,]+) found, ([\d,]+) not found, ([\d,]+) errors; ([\d.]+) s, ([\d,]+) rows\/s, \d+ workers?, peak RSS (\d+) MB; ([\d,]+) rows\/s after ([\d.]+) s of start-up/.exec(
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

describe('typed-array batch API', () => {
  const a = spherePoints(200_000, 5);
  const b = cityPoints(100_000, 6);
  const edges = [
    [90, 0],
    [-90, 0],
    [0, 180],
    [0, -180],
    [-0, -0],
    [NaN, 0],
    [0, NaN],
    [Infinity, 0],
    [0, -Infinity],
    [90.000001, 0],
    [0, 180.000001],
    [151.2, -33.8],
  ];
  const lats = Float64Array.from([...a.lat, ...b.lat, ...edges.map((e) => e[0])]);
  const lons = Float64Array.from([...a.lon, ...b.lon, ...edges.map((e) => e[1])]);

  it('answers what countryFromGps / subdivisionFromGps answer, point by point, with the documented sentinels', () => {
    const countries = geo.countryIndexes(lats, lons);
    const subs = geo.subdivisionIndexes(lats, lons);
    const cCodes = geo.countryCodes();
    const sCodes = geo.subdivisionCodes();
    const cIndex = new Map(cCodes.map((c, i) => [c, i]));
    const sIndex = new Map(sCodes.map((c, i) => [c, i]));
    expect(cCodes).toEqual(geo.countries().map((c) => c.code));
    expect(sCodes).toEqual(geo.subdivisions().map((s) => s.code));
    let invalid = 0;
    for (let i = 0; i < lats.length; i++) {
      let c: string | null;
      let s: string | null;
      try {
        c = geo.tryCountryFromGps(lats[i], lons[i]);
        s = geo.trySubdivisionFromGps(lats[i], lons[i]);
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        invalid++;
        expect([countries[i], subs[i]], `point ${i}`).toEqual([INVALID_COORDINATE, INVALID_COORDINATE]);
        continue;
      }
      if (countries[i] !== (c === null ? NOT_FOUND : cIndex.get(c)))
        expect({ i, lat: lats[i], lon: lons[i], got: cCodes[countries[i]] ?? countries[i] }).toEqual({
          i,
          lat: lats[i],
          lon: lons[i],
          got: c ?? NOT_FOUND,
        });
      if (subs[i] !== (s === null ? NOT_FOUND : sIndex.get(s)))
        expect({ i, got: sCodes[subs[i]] ?? subs[i] }).toEqual({ i, got: s ?? NOT_FOUND });
    }
    expect(invalid).toBe(7);
  });

  it('writes into a caller buffer (Int16Array or Int32Array) and rejects bad arguments with ValidationError', () => {
    const n = 1000;
    const la = lats.subarray(0, n);
    const lo = lons.subarray(0, n);
    const own = geo.subdivisionIndexes(la, lo);
    const out32 = new Int32Array(n + 5).fill(7);
    expect(geo.subdivisionIndexes(la, lo, out32)).toBe(out32);
    expect(Array.from(out32.subarray(0, n))).toEqual(Array.from(own));
    expect(out32[n]).toBe(7);
    const bad = (f: () => unknown) => expect(f).toThrow(ValidationError);
    bad(() => geo.countryIndexes([1, 2] as unknown as Float64Array, new Float64Array(2)));
    bad(() => geo.countryIndexes(new Float64Array(3), new Float64Array(2)));
    bad(() => geo.countryIndexes(new Float64Array(3), new Float64Array(3), new Int16Array(2)));
    bad(() => geo.countryIndexes(new Float64Array(3), new Float64Array(3), new Uint8Array(3) as unknown as Int16Array));
  });

  it('code forms: null for not found, ValidationError naming the first invalid point', () => {
    const n = 5000;
    const codes = geo.countriesFromGps(lats.subarray(0, n), lons.subarray(0, n));
    const subs = geo.subdivisionsFromGps(lats.subarray(0, n), lons.subarray(0, n));
    for (let i = 0; i < n; i++) {
      expect(codes[i]).toBe(geo.tryCountryFromGps(lats[i], lons[i]));
      expect(subs[i]).toBe(geo.trySubdivisionFromGps(lats[i], lons[i]));
    }
    expect(() => geo.countriesFromGps(Float64Array.of(48.85, 151.2), Float64Array.of(2.35, -33.8))).toThrow(
      /^Point 1: Latitude must be between -90 and 90.*swapped/,
    );
  });
});

describe('decimal fast path', () => {
  const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;
  it('gives exactly Number(text) for what it accepts, and accepts nothing the validator rejects', () => {
    const r = rng(42);
    const alphabet = '0123456789.-+eE x,';
    const enc = new TextEncoder();
    let accepted = 0;
    for (let i = 0; i < 200_000; i++) {
      let s: string;
      if (i % 2) {
        const int = Math.floor(r() * 10 ** Math.floor(r() * 10)).toString();
        const frac = Math.floor(r() * 10 ** Math.floor(r() * 20)).toString();
        s = (r() < 0.3 ? '-' : '') + (r() < 0.1 ? '' : int) + (r() < 0.9 ? `.${r() < 0.1 ? '' : frac}` : '');
      } else {
        const len = 1 + Math.floor(r() * 12);
        s = Array.from({ length: len }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
      }
      const v = parseDecimal(enc.encode(s), 0, s.length);
      if (Number.isNaN(v)) continue;
      accepted++;
      expect(DECIMAL.test(s) && s.length <= 64, s).toBe(true);
      const want = Number(s);
      expect(v, s).toBe(want === 0 ? 0 : want);
    }
    expect(accepted).toBeGreaterThan(60_000);
  });
  // The worker parses coordinate fields inline while it scans them; whatever it accepts or
  // declines must come out as the library answers the same text (or its ValidationError).
  it('the CSV row loop answers every spelling as the library does (120k fuzzed fields, LF and CRLF)', () => {
    const r = rng(43);
    const alphabet = '0123456789.-+eE x';
    const spell = (): string => {
      const u = r();
      if (u < 0.5) {
        const digits = Math.floor(r() * 19);
        const v = (r() - 0.5) * 200;
        const s = r() < 0.2 ? String(v) : v.toFixed(digits);
        return r() < 0.05 ? quote(s) : s;
      }
      if (u < 0.6)
        return '9'.repeat(1 + Math.floor(r() * 20)) + (r() < 0.5 ? '' : `.${'1'.repeat(Math.floor(r() * 30))}`);
      const len = Math.floor(r() * 10);
      return Array.from({ length: len }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    };
    const ds = readDataset(readFileSync(geo.defaultDataPath()));
    const settings = {
      format: 'csv' as const,
      delimiter: 44,
      headerFields: 3,
      latColumn: 1,
      lonColumn: 2,
      latKey: '',
      lonKey: '',
      country: true,
      subdivision: true,
      eol: '\n',
      latPath: null,
      lonPath: null,
    };
    const cells = csvCells(ds, settings);
    const rows: Row[] = [];
    for (let i = 0; i < 60_000; i++) {
      const lat = spell();
      const lon = r() < 0.5 ? spell() : String((r() - 0.5) * 360);
      rows.push({ raw: `${i},${lat},${lon}`, lat: readCsv(`${lat}\n`)[0][0], lon: readCsv(`${lon}\n`)[0][0] });
    }
    for (const eol of ['\n', '\r\n']) {
      const text = rows.map((row) => row.raw + eol).join('');
      const res = processCsv(ds, settings, cells, new TextEncoder().encode(text));
      const out = `id,lat,lon,country,subdivision,error\n${new TextDecoder().decode(res.out.subarray(0, res.length))}`;
      const counts = checkCsv(out, rows, ['country', 'subdivision'], 'id,lat,lon');
      expect(counts.errors).toBeGreaterThan(10_000);
      expect(counts.found).toBeGreaterThan(5_000);
      expect(res).toMatchObject({ rows: rows.length, ...counts });
    }
  });
});

describe('CSV delimiters that can sit inside a number', () => {
  it("'.', '-' and digits still split the fields before they are parsed", () => {
    const ds = readDataset(readFileSync(geo.defaultDataPath()));
    const cases: [string, [string, string][]][] = [
      [
        '.',
        [
          ['48', '2'],
          ['-33', '151'],
          ['', '2'],
        ],
      ],
      [
        '-',
        [
          ['48.85', '2.35'],
          ['35.68', '139.69'],
          ['48.85', ''],
        ],
      ],
      [
        '5',
        [
          ['48.2', '2.3'],
          ['-33.9', '18.4'],
          ['91', '0'],
        ],
      ],
      [
        '0',
        [
          ['48.8', '2.3'],
          ['-33.9', '151.2'],
          ['-33.9', '1e1'],
        ],
      ],
    ];
    for (const [d, pairs] of cases) {
      const settings = {
        format: 'csv' as const,
        delimiter: d.charCodeAt(0),
        headerFields: 3,
        latColumn: 1,
        lonColumn: 2,
        latKey: '',
        lonKey: '',
        country: true,
        subdivision: false,
        eol: '\n',
        latPath: null,
        lonPath: null,
      };
      const text = pairs.map(([lat, lon], i) => `${i + 1}${d}${lat}${d}${lon}\n`).join('');
      const res = processCsv(ds, settings, csvCells(ds, settings), new TextEncoder().encode(text));
      const lines = new TextDecoder().decode(res.out.subarray(0, res.length)).trimEnd().split('\n');
      pairs.forEach(([lat, lon], i) => {
        const want = expected(lat, lon);
        const cells = lines[i].split(d).slice(3);
        expect(
          [cells[0], cells.slice(1).join(d).replace(/^"|"$/g, '').replace(/""/g, '"')],
          `${d} ${lat} ${lon}`,
        ).toEqual([want.country ?? '', want.error ?? '']);
      });
    }
  });
});

describe('NDJSON scanner', () => {
  // Whatever the byte scanner accepts, JSON.parse must accept as an object with the same
  // coordinate members; whatever it declines goes to JSON.parse, so declining is always safe,
  // but ordinary rows must not be declined (or the fast path is dead code).
  const enc = new TextEncoder();
  const lat = enc.encode('lat');
  const lon = enc.encode('lng');
  function check(line: string): boolean {
    const b = enc.encode(line);
    const got = scanRow(b, 0, b.length, lat, lon);
    if (got < 0) return false;
    const obj = JSON.parse(line);
    expect(obj !== null && typeof obj === 'object' && !Array.isArray(obj), line).toBe(true);
    const pick = (bit: number, v: unknown, slot: number) => {
      if (got & bit)
        expect(Object.is(scanned[slot], v === 0 ? 0 : v), `${line}: ${scanned[slot]} vs ${v}`).toBe(true); // -0 folds to 0
      else expect(v, line).toBeUndefined();
    };
    pick(1, obj.lat, 0);
    pick(2, obj.lng, 1);
    return true;
  }

  it('accepts only what JSON.parse accepts, with the same coordinate values', () => {
    const hand = [
      '{"lat":48.85,"lng":2.35}',
      ' { "lat" : -0 , "lng" : 0.0 } ',
      '{}',
      ' {} ',
      '{"lat":1}',
      '{"lng":1}',
      '{"a":{"lat":1},"lat":2,"lng":3}',
      '{"lat":01,"lng":1}',
      '{"lat":1.,"lng":1}',
      '{"lat":-,"lng":1}',
      '{"lat":.5,"lng":1}',
      '{"lat":1e5,"lng":1}',
      '{"lat":"1","lng":1}',
      '{"l\\u0061t":1,"lng":1}',
      '{"lat":1,"lat":2,"lng":3}',
      '{"lat":1,"lat":"2","lng":3}',
      '{"lat":1}x',
      '{"lat":1}}',
      '{"lat":1,}',
      '{,}',
      '{"a":tru}',
      '{"a":[1,2,]}',
      '{"a":"\\x"}',
      '{"a":"\\u12"}',
      '{"a":"\\u12G4"}',
      '{"a":"tab\there"}',
      '{"a":"\u00e9\ud83d"}',
      '[1,2]',
      '1',
      '"x"',
      'null',
      '{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}',
      '{"lat":12345678901234567890,"lng":1}',
      '{"lat":0.12345678901234567890123,"lng":1}',
      '{"a":-01}',
      '{"a":1.5e}',
      '{"a":1.5e+}',
      '{"a":1.5E-3}',
      '{"a" 1}',
      '{"a":}',
      '{"a":1 "b":2}',
      '{"a":null,"b":true,"c":false,"d":[],"e":{}}',
      '{"lat":48.85,"lng":2.35}\r',
      '{"lat":1\u00a0}',
    ];
    for (const line of hand) check(line.replace(/\\r$/, '\r'));
    expect(check('{"lat":48.85,"lng":2.35}')).toBe(true);
    expect(check(' { "lat" : -0 , "lng" : 0.0 } ')).toBe(true);
    expect(check('{"a":{"lat":1},"lat":2,"lng":3}')).toBe(true);

    const r = rng(44);
    const pickOne = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    const value = (depth: number): unknown => {
      const u = r();
      if (u < 0.3) return (r() - 0.5) * 10 ** Math.floor(r() * 6 - 2);
      if (u < 0.45)
        return pickOne(['plain', 'qu"ote', 'back\\slash', 'tab\t', 'é', '\u2028', '\ud83d\ude00', '', 'lat']);
      if (u < 0.55) return pickOne([true, false, null, 0, -0, 1e21, 5e-324]);
      if (depth > 3) return 1;
      if (u < 0.75) return Array.from({ length: Math.floor(r() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(r() * 4) }, () => [pickOne(['a', 'lat', 'lng', 'x y', 'é']), value(depth + 1)]),
      );
    };
    const noise = '{}[]",:\\ 0123456789eE.-+tfnul\t\r';
    let accepted = 0;
    let plain = 0;
    for (let n = 0; n < 40_000; n++) {
      const obj: Record<string, unknown> = {};
      for (let k = Math.floor(r() * 4); k > 0; k--)
        obj[pickOne(['id', 'name', 'tags', 'lat', 'lng', 'nested'])] = value(0);
      if (r() < 0.7) obj.lat = Number(((r() - 0.5) * 180).toFixed(Math.floor(r() * 9)));
      if (r() < 0.7) obj.lng = Number(((r() - 0.5) * 360).toFixed(Math.floor(r() * 9)));
      let line = JSON.stringify(obj, null, r() < 0.2 ? 1 : undefined).replace(/\n/g, r() < 0.5 ? ' ' : '\t');
      if (r() < 0.1) line = line.replace('"lat":', '"lat":"').replace(/("lat":"[-\d.]+)/, '$1"');
      if (r() < 0.3) {
        // Damage: delete, insert or replace one character.
        const at = Math.floor(r() * line.length);
        const c = noise[Math.floor(r() * noise.length)];
        const u = r();
        line =
          u < 0.33
            ? line.slice(0, at) + line.slice(at + 1)
            : u < 0.66
              ? line.slice(0, at) + c + line.slice(at)
              : line.slice(0, at) + c + line.slice(at + 1);
      } else plain++;
      if (check(line)) accepted++;
    }
    // Every undamaged line whose coordinates are plain numbers is taken by the scanner.
    expect(accepted).toBeGreaterThan(plain * 0.8);
  });

  it('leaves to JSON.parse the member names bytes cannot decide (inherited names, U+FFFD)', () => {
    const ds = readDataset(readFileSync(geo.defaultDataPath()));
    const row = (latKey: string, line: Uint8Array) => {
      const settings = {
        format: 'ndjson' as const,
        delimiter: 44,
        headerFields: 0,
        latColumn: -1,
        lonColumn: -1,
        latKey,
        lonKey: 'lon',
        country: true,
        subdivision: false,
        eol: '\n',
        latPath: null,
        lonPath: null,
      };
      const r = processNdjson(ds, settings, ndjsonCells(ds, settings), line);
      return JSON.parse(new TextDecoder().decode(r.out.subarray(0, r.length)));
    };
    // A key that is not valid UTF-8 decodes to U+FFFD, and so is the member "\uFFFD".
    const invalid = Uint8Array.from([...enc.encode('{"'), 0xff, ...enc.encode('":48.85,"lon":2.35}\n')]);
    expect(row('\uFFFD', invalid).country).toBe('FRA');
    // "constructor" is inherited: JSON.parse's object has it (a function, not a number).
    expect(row('constructor', enc.encode('{"lon":2.35}\n')).error).toMatch(/^Latitude/);
    expect(row('constructor', enc.encode('{"constructor":48.85,"lon":2.35}\n')).country).toBe('FRA');
  });
});

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

  it('CJS build, one worker, -o file: the same bytes as the ESM build with two', () => {
    const rows = makeRows(20_000, 2);
    const file = join(dir, 'small.csv');
    writeCsv(file, rows, { bom: true });
    const a = cli([file, '--workers', '2']);
    const b = cli([file, '--workers', '1', '-o', join(dir, 'small.out.csv')], { entry: 'cli.cjs' });
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
    const r = rng(14);
    const city = cityPoints(1500, 15);
    const points: { lat: number; lon: number }[] = [];
    for (let i = 0; i < 1500; i++)
      points.push(i % 3 ? { lat: city.lat[i], lon: city.lon[i] } : { lat: r() * 180 - 90, lon: r() * 360 - 180 });
    points.push({ lat: 100, lon: 0 }); // out of range: an error row
    const answers = points.map((p) => {
      try {
        return {
          country: geo.tryCountryFromGps(p.lat, p.lon),
          subdivision: geo.trySubdivisionFromGps(p.lat, p.lon),
          error: false,
        };
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        return { country: null, subdivision: null, error: true };
      }
    });
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
        expect('error' in o, `row ${i}`).toBe(answers[i].error);
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
        await expect(batch({ input: file, stdout: new PassThrough(), workers: 1 })).rejects.toThrow(ValidationError);
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
    const r = rng(5);
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
      const r = rng(n);
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
    // 500k rows reach the steady state (every isolate warm, every job slot used); 8× more adds only GC slack
    // (measured 10-50 MB), while reading ahead without the in-flight limit adds 140 MB here.
    const small = await run(write(500_000), 500_000);
    const large = await run(write(4_000_000), 4_000_000);
    expect(large - small, `peak RSS ${small} MB for 500k rows, ${large} MB for 4M`).toBeLessThan(80);
    expect(large, 'dataset once (shared) plus three V8 isolates and a few jobs').toBeLessThan(400);
  });
});
