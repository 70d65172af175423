// The batch machinery in process: the typed-array API against the single-point functions, the
// decimal fast path, and the CSV and NDJSON row loops the workers run, checked against the library.
// The built CLI as a real process: test/integration/batch.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as geo from '../../src/index.js';
import { INVALID_COORDINATE, NOT_FOUND, ValidationError } from '../../src/index.js';
import { oversizeRow, parseDecimal, type RowSettings } from '../../src/batch/rows.js';
import { csvCells, processCsv } from '../../src/batch/csv.js';
import { ndjsonCells, processNdjson, scanned, scanRow } from '../../src/batch/ndjson.js';
import { readDataset } from '../../src/format/dataset.js';
import * as tz from '../../packages/timezones/src/index.js';
import { checkCsv, expected, expectedZone, quote, readCsv, type Row } from '../support/batch-rows.js';
import { cityPoints, prng, spherePoints } from '../support/sample-points.js';

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

describe('time-zone cells (--timezone)', () => {
  const ds = readDataset(readFileSync(geo.defaultDataPath()));
  // What @geolookup/timezones' batch columns give a worker (its descriptor's rows()).
  const ZONE = [{ name: '@geolookup/timezones', columns: ['timezone'], values: { timezone: true } }];
  const zoneRow = (lat: number, lon: number) => [tz.timeZoneFromGps(lat, lon)];
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  it('CSV rows: the zone after the answers, quoted when it holds the delimiter; bad rows empty; widths agree', () => {
    const p = cityPoints(600, 51);
    const q = spherePoints(600, 52);
    const pairs: [string, string][] = [];
    for (let i = 0; i < 600; i++)
      pairs.push([p.lat[i].toFixed(4), p.lon[i].toFixed(4)], [String(q.lat[i]), String(q.lon[i])]);
    pairs.push(['91', '0'], ['', '2'], ['0', '180'], ['90', '0'], ['x', 'y']);
    for (const [d, fields] of [
      [',', { country: true, subdivision: true }],
      ['/', { country: false, subdivision: true }],
      ['_', { country: true, subdivision: false }],
      // Subdivision codes hold the delimiter (FR-75C), and so do negative coordinates: both quoted.
      ['-', { country: true, subdivision: true }],
    ] as const) {
      const settings = rowSettings({ delimiter: d.charCodeAt(0), extensions: ZONE, ...fields });
      const field = (v: string | number) => (String(v).includes(d) ? `"${v}"` : String(v));
      const rows: Row[] = pairs.map(([lat, lon], i) => ({ raw: [i, lat, lon].map(field).join(d), lat, lon }));
      const text = rows.map((row) => `${row.raw}\n`).join('');
      const res = processCsv(ds, settings, csvCells(ds, settings, zoneRow), enc.encode(text));
      const names = [...(fields.country ? ['country'] : []), ...(fields.subdivision ? ['subdivision'] : [])] as (
        | 'country'
        | 'subdivision'
      )[];
      const out = `${['id', 'lat', 'lon', ...names, 'timezone', 'error'].join(d)}\n${dec.decode(res.out.subarray(0, res.length))}`;
      const counts = checkCsv(out, rows, names, 'id,lat,lon', { timezone: true, delimiter: d });
      expect(res).toMatchObject({ rows: rows.length, ...counts });
      if (d !== ',') expect(out, d).toMatch(new RegExp(`\\${d}"[A-Z][a-z]+/[^"]*\\${d}[^"]*"\\${d}`)); // a quoted zone
      // The over-long record's row has as many cells as every other row.
      const width = readCsv(out, d)[1].length;
      expect(readCsv(`${oversizeRow({ ...settings, headerFields: 3 })}\n`, d)[0].length).toBe(width);
    }
    // Without their row the cells refuse to be made rather than write rows without zones.
    expect(() => csvCells(ds, rowSettings({ extensions: ZONE }))).toThrow(/settings.extensions needs their row/);
  });

  it('NDJSON rows: "timezone" after the answers, every copy of a member so named replaced, null on bad rows', () => {
    const settings = rowSettings({ format: 'ndjson', headerFields: 0, latColumn: -1, lonColumn: -1, extensions: ZONE });
    const cells = ndjsonCells(ds, settings, zoneRow);
    const lines = [
      '{"lat":48.8566,"lon":2.3522}',
      '{"timezone":"old","lat":35.6762,"lon":139.6503,"timezone":1}',
      '{"time\\u007aone":null,"lat":"-33.8688","lon":"151.2093"}',
      '{"lat":0,"lon":-30}',
      '{"lat":91,"lon":0,"timezone":"kept?"}',
      '{"deep":{"timezone":"stays"},"lat":40.7,"lon":-74}',
      'not json',
    ];
    const r = processNdjson(ds, settings, cells, enc.encode(`${lines.join('\n')}\n`));
    const out = dec
      .decode(r.out.subarray(0, r.length))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const zone = (lat: number, lon: number) => ({
      country: expected(lat, lon).country,
      timezone: tz.timeZoneFromGps(lat, lon),
    });
    expect(out).toEqual([
      { lat: 48.8566, lon: 2.3522, ...zone(48.8566, 2.3522) },
      { lat: 35.6762, lon: 139.6503, ...zone(35.6762, 139.6503) },
      { lat: '-33.8688', lon: '151.2093', ...zone(-33.8688, 151.2093) },
      { lat: 0, lon: -30, country: null, timezone: 'Etc/GMT+2' },
      { lat: 91, lon: 0, country: null, timezone: null, error: expected(91, 0).error },
      { deep: { timezone: 'stays' }, lat: 40.7, lon: -74, ...zone(40.7, -74) },
      { line: 'not json', country: null, timezone: null, error: expect.stringMatching(/^Row is not valid JSON/) },
    ]);
    expect(r).toMatchObject({ rows: 7, errors: 2 });
    expect(expectedZone(91, 0)).toBeNull();
    expect(JSON.parse(oversizeRow(settings))).toMatchObject({ country: null, timezone: null });
  });
});

/** What the workers are given for `id,lat,lon` CSV answering the country, with `changes` made. */
function rowSettings(changes: Partial<RowSettings>): RowSettings {
  return {
    format: 'csv',
    delimiter: 44,
    headerFields: 3,
    latColumn: 1,
    lonColumn: 2,
    latKey: '',
    lonKey: '',
    country: true,
    subdivision: false,
    extensions: [],
    eol: '\n',
    latPath: null,
    lonPath: null,
    ...changes,
  };
}

describe('decimal fast path', () => {
  const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;
  it('gives exactly Number(text) for what it accepts, and accepts nothing the validator rejects', () => {
    const r = prng(42);
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
    const r = prng(43);
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
    const settings = rowSettings({ subdivision: true });
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
      const settings = rowSettings({ delimiter: d.charCodeAt(0) });
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

    const r = prng(44);
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
      const settings = rowSettings({
        format: 'ndjson',
        headerFields: 0,
        latColumn: -1,
        lonColumn: -1,
        latKey,
        lonKey: 'lon',
      });
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
