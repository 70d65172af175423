// The batch's NDJSON rows on the iso fixture: coordinates found in each row whatever the rows
// before used, answer members replacing the row's own members of those names, lines up to the
// record limit at any position, and runs where no row has coordinates. The same on generated
// files: batch-ndjson-differential.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/batch/columns.js';
import { type NameSet, nameSet, ndjsonCells, processNdjson, scanned, scanRow } from '../../src/batch/ndjson.js';
import { MAX_RECORD_BYTES, OVERSIZE } from '../../src/batch/rows.js';
import { batch } from '../../src/batch/run.js';
import { readDataset } from '../../src/format/dataset.js';
import { fixtureBytes, fixturePath, loadFixture, scratchPath } from '../fixtures/datasets.js';

// test/fixtures/README.md: UA-43 covers 30–36°E × 44–46°N; UA-32 has a hole at 30.8–32.2°E × 46.5–47.5°N.
const IN_UA43 = [45, 31];
const IN_HOLE = [47, 31.5]; // UKR, no subdivision
const enc = new TextEncoder();
const dec = new TextDecoder();

/** The library's answer for a point of the fixture. */
function at([lat, lon]: number[]) {
  const lookup = loadFixture('iso');
  return { country: lookup.tryCountryFromGps(lat, lon), subdivision: lookup.trySubdivisionFromGps(lat, lon) };
}

type Opts = { lat?: string; lon?: string; fields?: ('country' | 'subdivision')[] };

/** An output line without the record separators and byte order marks it keeps from its input line. */
function withoutSeparators(line: string): string {
  let i = 0;
  while (line[i] === '\x1e' || line[i] === '\ufeff') i++;
  return line.slice(i);
}

/** The rows of `text` through one worker's row code, jobs cut after each `cut` lines; the output lines parsed. */
function run(text: string | Uint8Array, opts: Opts = {}, cut = Infinity) {
  const ds = readDataset(fixtureBytes('iso'));
  const { settings } = resolveColumns(null, 'ndjson', 44, { fields: ['country', 'subdivision'], ...opts });
  const cells = ndjsonCells(ds, settings);
  const bytes = typeof text === 'string' ? enc.encode(text) : text;
  const out: string[] = [];
  const stats = { rows: 0, found: 0, notFound: 0, errors: 0 };
  for (let at = 0; at < bytes.length; ) {
    let end = at;
    for (let n = 0; n < cut && end < bytes.length; n++) {
      const lf = bytes.indexOf(10, end);
      end = lf < 0 ? bytes.length : lf + 1;
    }
    const r = processNdjson(ds, settings, cells, bytes.subarray(at, end));
    out.push(dec.decode(r.out.subarray(0, r.length)));
    for (const k of ['rows', 'found', 'notFound', 'errors'] as const) stats[k] += r[k];
    at = end;
  }
  const lines = out.join('').split('\n').slice(0, -1);
  return { lines, rows: lines.map((l) => JSON.parse(withoutSeparators(l))), stats, cells };
}

describe('NDJSON coordinates, per row', () => {
  it('a later row may use other default names, another case, or be a GeoJSON Point (the probe of issue 46)', () => {
    const [la, lo] = IN_UA43;
    const lines = [
      `{"lat":${la},"lon":${lo}}`,
      `{"latitude":${la},"longitude":${lo}}`,
      `{"lat":${la},"lng":${lo}}`,
      `{"LAT":${la},"Long":${lo}}`,
      `{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[${lo},${la}]}}`,
      `{"type":"Point","coordinates":[${lo},${la},12]}`,
      `{"lat":${la},"lon":${lo}}`,
    ];
    for (const cut of [1, 2, Infinity]) {
      const { rows, stats } = run(`${lines.join('\n')}\n`, {}, cut);
      expect(rows.map((r) => r.error)).toEqual(lines.map(() => undefined));
      for (const row of rows) expect(row).toMatchObject(at(IN_UA43));
      expect(stats).toEqual({ rows: 7, found: 7, notFound: 0, errors: 0 });
    }
  });

  it('the rule: given names exactly, else in any case, else as a path; defaults in LAT_NAMES order; Points only without names', () => {
    const [la, lo] = IN_HOLE;
    // Default names: "latitude" before "lat", whatever the member order; the first member of a name in any case.
    const d = run(
      `{"lat":0,"Latitude":${la},"lon":${lo}}\n{"LAT":${la},"lat":0,"lon":${lo}}\n{"Lat ":${la},"lon":${lo}}\n`,
    );
    expect(d.rows.map((r) => r.country)).toEqual([at(IN_HOLE).country, at(IN_HOLE).country, null]);
    expect(d.rows[2].error).toBe('Latitude is required.');
    // Given names: exact first; a dotted name not found so is a path; names given, a Point is not read.
    const g = run(
      `{"Y":0,"y":${la},"x":${lo}}\n{"Y":${la},"X":${lo}}\n{"type":"Point","coordinates":[${lo},${la}]}\n`,
      { lat: 'y', lon: 'x' },
    );
    expect(g.rows.map((r) => r.country ?? r.error)).toEqual([
      at(IN_HOLE).country,
      at(IN_HOLE).country,
      'Latitude is required. Longitude is required.',
    ]);
    const p = run(`{"p":{"a":[${la}]},"x":${lo}}\n{"p.a.0":${la},"p":{"a":[0]},"x":${lo}}\n`, {
      lat: 'p.a.0',
      lon: 'x',
    });
    expect(p.rows.map((r) => r.country)).toEqual([at(IN_HOLE).country, at(IN_HOLE).country]);
  });

  it('no row with coordinates: every row an error row, and batch() completes', async () => {
    const file = scratchPath('ndjson-none.ndjson');
    writeFileSync(file, '{"a":1}\n{"b":{"lat":1}}\n[1]\n');
    const summary = await batch({ input: file, output: `${file}.out`, data: fixturePath('iso'), workers: 1 });
    expect(summary).toMatchObject({ rows: 3, found: 0, notFound: 0, errors: 3 });
    const out = readFileSync(`${file}.out`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((o) => o.error)).toEqual([
      'Latitude is required. Longitude is required.',
      'Latitude is required. Longitude is required.',
      'Row is not a JSON object.',
    ]);
  });

  it('names are not read from the rows: --lat "" is refused, and unknown names give error rows', () => {
    const keys = (opts: Opts) => resolveColumns(null, 'ndjson', 44, { fields: ['country'], ...opts }).settings;
    expect(keys({})).toMatchObject({ latKey: '', lonKey: '', latPath: null, lonPath: null });
    expect(keys({ lat: 'a.b.0', lon: 'c' })).toMatchObject({ latKey: 'a.b.0', latPath: ['a', 'b', 0], lonPath: null });
    expect(() => keys({ lat: '' })).toThrow(/--lat must name a member/);
  });
});

describe('members the answers replace', () => {
  it('top-level "country", "subdivision" and "error" of any spelling are replaced, never duplicated; the rest is kept byte for byte', () => {
    const [la, lo] = IN_UA43;
    const lines = [
      `{"country":"X","lat":${la},"lon":${lo}}`,
      `{ "id" : 1 ,"country":"X" , "lat":${la},"lon":${lo},"country":"Y","subdivision":null,"error":"old"}`,
      `{"c\\u006funtry":"X","lat":${la},"lon":${lo},"n":{"country":"kept"},"a":[{"error":1}]}`,
      `{"country":1}`,
      `{ "error" : 2 , "country":[{"}":"{"}] }`,
      `{"lat":${la},"lon":${lo},"country":"X"}\r`,
    ];
    const { lines: out, rows } = run(`${lines.join('\n')}\n`);
    const want = at(IN_UA43);
    expect(want.country).toBe('UKR');
    expect(rows[0]).toEqual({ lat: la, lon: lo, ...want });
    expect(out[0]).toBe(`{"lat":${la},"lon":${lo},"country":"UKR","subdivision":${JSON.stringify(want.subdivision)}}`);
    expect(out[1].startsWith(`{ "id" : 1 , "lat":${la},"lon":${lo},"country":"UKR"`)).toBe(true);
    expect(rows[1]).toEqual({ id: 1, lat: la, lon: lo, ...want });
    expect(rows[2]).toEqual({ lat: la, lon: lo, n: { country: 'kept' }, a: [{ error: 1 }], ...want });
    expect(out[3]).toBe('{"country":null,"subdivision":null,"error":"Latitude is required. Longitude is required."}');
    expect(out[4]).toBe('{  "country":null,"subdivision":null,"error":"Latitude is required. Longitude is required."}');
    expect(out[5]).toMatch(/^\{"lat":[\d.]+,"lon":[\d.]+,"country":"UKR","subdivision":.*\}\r$/);
  });

  it('only the members the run writes: --fields country leaves "subdivision" alone', () => {
    const [la, lo] = IN_UA43;
    const { rows } = run(`{"subdivision":"S","country":"C","lat":${la},"lon":${lo}}\n`, { fields: ['country'] });
    expect(rows[0]).toEqual({ subdivision: 'S', lat: la, lon: lo, country: 'UKR' });
  });
});

describe('the byte scanner', () => {
  const K = (s: string) => enc.encode(s);
  const scan = (line: string, names?: [string[], string[]]) => {
    const b = enc.encode(line);
    return scanRow(
      b,
      0,
      b.length,
      K('lat'),
      K('lon'),
      ...((names?.map(nameSet) ?? [null, null]) as [NameSet, NameSet]),
    );
  };

  it('reports members named like the answers (bit 2), and declines rows with another spelling of a default name', () => {
    expect(scan('{"lat":1,"lon":2,"error":3}')).toBe(7);
    expect(scan('{"country":1,"lat":1}')).toBe(5);
    expect(scan('{"n":{"country":1},"lat":1,"lon":2}')).toBe(3);
    const defaults: [string[], string[]] = [
      ['latitude', 'lat'],
      ['longitude', 'lon', 'lng', 'long'],
    ];
    expect(scan('{"lat":1,"lon":2}', defaults)).toBe(3);
    expect([scanned[0], scanned[1]]).toEqual([1, 2]);
    for (const line of ['{"lat":1,"LAT":1,"lon":2}', '{"Latitude":1,"lat":1,"lon":2}', '{"lat":1,"lon":2,"lng":3}'])
      expect(scan(line, defaults), line).toBe(-1);
    expect(scan('{"lat":1,"lon":2,"n":{"LAT":1},"lat2":1}', defaults)).toBe(3);
  });

  it('learns the names the rows use: after one row read by JSON.parse, the next rows are scanned', () => {
    const [la, lo] = IN_UA43;
    const { cells } = run(`{"Latitude":${la},"LNG":${lo}}\n`);
    expect([dec.decode(cells.latKey!), dec.decode(cells.lonKey!)]).toEqual(['Latitude', 'LNG']);
    const b = enc.encode(`{"Latitude":${la},"LNG":${lo}}`);
    expect(scanRow(b, 0, b.length, cells.latKey!, cells.lonKey!, cells.latNames, cells.lonNames)).toBe(3);
  });
});

describe('long lines', () => {
  const [la, lo] = IN_UA43;
  /** A row of exactly `n` bytes before its terminator. */
  const rowOf = (n: number) => {
    const head = `{"lat":${la},"lon":${lo},"pad":"`;
    return `${head}${'x'.repeat(n - head.length - 2)}"}`;
  };

  it('up to MAX_RECORD_BYTES (CR not counted) a line is a row; a longer one an error row; the rows around it unharmed', () => {
    const small = `{"lat":${la},"lon":${lo}}`;
    const text = `${small}\n${rowOf(MAX_RECORD_BYTES)}\r\n${rowOf(MAX_RECORD_BYTES + 1)}\n${small}`;
    const { lines, stats } = run(text);
    expect(lines.length).toBe(4);
    expect(JSON.parse(lines[1]).country).toBe('UKR');
    expect(lines[1].endsWith('}\r')).toBe(true);
    expect(JSON.parse(lines[2])).toEqual({ country: null, subdivision: null, error: OVERSIZE });
    expect(JSON.parse(lines[3]).country).toBe('UKR');
    expect(stats).toMatchObject({ rows: 4, errors: 1 });
  });

  it('batch(): a first line over 1 MiB, and one in the middle, are rows like any other', async () => {
    const file = scratchPath('ndjson-long.ndjson');
    const small = `{"lat":${la},"lon":${lo}}\n`;
    writeFileSync(file, `${rowOf(3 << 20)}\n${small.repeat(50_000)}${rowOf(5 << 20)}\n${small.repeat(10)}`);
    const summary = await batch({ input: file, output: `${file}.out`, data: fixturePath('iso'), workers: 2 });
    expect(summary).toMatchObject({ rows: 50_012, errors: 0 });
    const out = readFileSync(`${file}.out`, 'utf8').split('\n');
    expect(out.length).toBe(50_013);
    expect(JSON.parse(out[0]).country).toBe('UKR');
    expect(JSON.parse(out[50_001]).country).toBe('UKR');
  });
});
