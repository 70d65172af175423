// Seeded NDJSON files for the differential test, and the check of the batch's output against
// JSON.parse and the library. The files hold what real exports and hand edits hold: nested
// values, strings with escapes and non-ASCII text, numbers in every JSON spelling, duplicate
// and escaped keys, members named like the answers, coordinates under many names, paths and
// GeoJSON Points, blank lines, CRLF, a BOM, RFC 8142 separators, invalid JSON and invalid UTF-8,
// and now and then a line longer than a batch job.
import { expect } from 'vitest';
import { type GeoLookup, ValidationError } from '../../src/index.js';
import type { Rng } from './sample-points.js';

export type Field = 'country' | 'subdivision';

export interface GeneratedNdjson {
  bytes: Uint8Array;
  /** --lat / --lon, when given. */
  lat?: string;
  lon?: string;
  fields: Field[];
}

export interface Counts {
  rows: number;
  found: number;
  notFound: number;
  errors: number;
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rng, n: number) => Math.floor(r() * n);

// ---- generating ----

/** In generated text, U+E000 + b stands for the raw byte b (invalid UTF-8 where it falls). */
const RAW = 0xe000;
const RAW_BYTES = [0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf5, 0xff, 0xfe];
const raw = (r: Rng) => String.fromCharCode(RAW + pick(r, RAW_BYTES));
const HAS_RAW = /[\ue000-\ue0ff]/;

/** The line's bytes: UTF-8, with the raw-byte stand-ins written as the bytes they stand for. */
function bytesOf(text: string): Buffer {
  if (!HAS_RAW.test(text)) return Buffer.from(text, 'utf8');
  return Buffer.concat(
    text
      .split(/([\ue000-\ue0ff])/)
      .map((part) =>
        part.length === 1 && HAS_RAW.test(part) ? Buffer.of(part.charCodeAt(0) - RAW) : Buffer.from(part, 'utf8'),
      ),
  );
}

const BOXES = [
  // [west, east, south, north]: the iso fixture's countries (test/fixtures/README.md), so that answers occur.
  [30, 40, 44, 48.5],
  [10, 14.5, 41.5, 46],
  [21, 30, 59.8, 70],
  [12.35, 12.55, 43.85, 44.05],
  [7.38, 7.5, 43.64, 43.74],
  [177, 180, -19, -16],
  [-180, -178, -19, -16],
];

/** A point: mostly in the fixture's countries or anywhere, some on the edges of the valid range or past them. */
function point(r: Rng): [number, number] {
  const u = r();
  if (u < 0.6) {
    const [w, e, s, n] = pick(r, BOXES);
    return [s + r() * (n - s), w + r() * (e - w)];
  }
  if (u < 0.85) return [(Math.asin(2 * r() - 1) * 180) / Math.PI, r() * 360 - 180];
  if (u < 0.95) return [pick(r, [90, -90, 0, -0, 1e-300, 45.00000000000001]), pick(r, [180, -180, 0, -0, 5e-324])];
  return pick(r, [
    [91, 0],
    [-90.0000001, 10],
    [10, 180.000001],
    [151.2, -33.8],
    [0, -1e6],
  ]);
}

/** A number in one of JSON's spellings, or now and then in a spelling JSON does not allow. */
function spell(r: Rng, v: number): string {
  const u = r();
  if (u < 0.01) return pick(r, ['.5', '+1', '01', '1.', '0x10', 'NaN', 'Infinity', '-', '1e', '--1']);
  if (v === 0) return pick(r, ['0', '-0', '0.0', '-0.0', '0e0', '-0E+0', '0.000', '-0e-5']);
  if (u < 0.4) return String(v);
  if (u < 0.6) return v.toFixed(int(r, 12));
  if (u < 0.75) return v.toExponential(int(r, 15)).replace('e+', pick(r, ['e+', 'e', 'E', 'E+']));
  if (u < 0.85) {
    const k = 1 + int(r, 8);
    return `${Math.round(v * 10 ** k)}e-${k}`;
  }
  if (u < 0.9) return v.toPrecision(17 + int(r, 4));
  return v.toFixed(int(r, 6)) + '0'.repeat(int(r, 30));
}

const CHUNKS = [
  'a',
  'Z',
  ' ',
  'lat',
  '"',
  '\\',
  '/',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  'é',
  '€',
  '😀',
  '\u2028',
  '\u0000',
  '}',
];
const ESCAPES = [
  '\\"',
  '\\\\',
  '\\/',
  '\\b',
  '\\f',
  '\\n',
  '\\r',
  '\\t',
  '\\u00e9',
  '\\ud83d\\ude00',
  '\\ud800',
  '\\u0022',
];

/** A JSON string literal: text, escapes, non-ASCII, now and then a raw byte or control character. */
function str(r: Rng, max = 12): string {
  let s = '';
  for (let n = int(r, max); n > 0; n--) {
    const u = r();
    if (u < 0.6) s += JSON.stringify(pick(r, CHUNKS)).slice(1, -1);
    else if (u < 0.9) s += pick(r, ESCAPES);
    else if (u < 0.99) s += pick(r, ['x', 'ü', '中', '\ud83c\udf0d']);
    else if (u < 0.999) s += raw(r);
    else s += pick(r, ['\t', '\u0001']); // raw control character: not JSON
  }
  return `"${s}"`;
}

/** A name's JSON spelling, now and then with some characters as \u escapes. */
function name(r: Rng, text: string): string {
  if (r() > 0.08) return JSON.stringify(text);
  const chars = [...text].map((c) =>
    r() < 0.4 && c.length === 1
      ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
      : JSON.stringify(c).slice(1, -1),
  );
  return `"${chars.join('')}"`;
}

const KEYS = [
  'id',
  'name',
  'tags',
  'a',
  'x y',
  'é',
  '',
  '__proto__',
  'constructor',
  'toString',
  'line',
  'properties',
  'type',
  'coordinates',
  'geometry',
  'pos',
  'position',
  'country',
  'subdivision',
  'error',
  'Country',
  'lat ',
];

/** A member name: mostly from KEYS (some named like the answers or coordinates), else random. */
const key = (r: Rng) => (r() < 0.85 ? name(r, pick(r, KEYS)) : str(r, 6));

/** Any JSON value, nested to depth 4; objects inside may hold members named like the answers. */
function value(r: Rng, depth = 0): string {
  const u = r();
  if (u < 0.3) return spell(r, (r() - 0.5) * 10 ** (int(r, 30) - 10));
  if (u < 0.35)
    return pick(r, ['1e21', '5e-324', '1.7976931348623157e308', '1e400', '-1e-400', '123456789012345678901']);
  if (u < 0.55) return str(r);
  if (u < 0.65) return pick(r, ['true', 'false', 'null']);
  if (depth >= 4) return '0';
  if (u < 0.8) return `[${Array.from({ length: int(r, 4) }, () => ws(r) + value(r, depth + 1) + ws(r)).join(',')}]`;
  return object(
    r,
    Array.from({ length: int(r, 4) }, () => [key(r), value(r, depth + 1)]),
  );
}

/** White space between tokens: mostly none. */
const ws = (r: Rng) => (r() < 0.85 ? '' : pick(r, [' ', '  ', '\t', ' \r ', '\r']));

function object(r: Rng, members: [string, string][]): string {
  return `{${ws(r)}${members.map(([k, v]) => `${k}${ws(r)}:${ws(r)}${v}`).join(`${ws(r)},${ws(r)}`)}${ws(r)}}`;
}

/** A coordinate's value: a number in any spelling, sometimes a string, sometimes no number at all. */
function coordinate(r: Rng, v: number): string {
  const u = r();
  if (u < 0.86) return spell(r, v);
  if (u < 0.96) return JSON.stringify((r() < 0.1 ? ' ' : '') + spell(r, v) + (r() < 0.1 ? ' ' : ''));
  return pick(r, ['null', 'true', '"abc"', '[]', '{}', '""', '1e400', '[1,2]']);
}

const LAT_SPELLINGS = ['latitude', 'lat', 'Lat', 'LAT', 'Latitude', 'LATITUDE', 'lAt'];
const LON_SPELLINGS = ['longitude', 'lon', 'lng', 'long', 'Lng', 'LON', 'Longitude', 'LONG'];

/** How a file names its coordinates: --lat / --lon as given to the batch, and how its rows spell them. */
interface Naming {
  lat?: string;
  lon?: string;
  /** The rows' current spelling of the default names (a file keeps it for a while, then changes). */
  style: [string, string];
}

function naming(r: Rng): Naming {
  const style: [string, string] = [pick(r, LAT_SPELLINGS), pick(r, LON_SPELLINGS)];
  const u = r();
  if (u < 0.55) return { style };
  if (u < 0.7)
    return {
      ...pick(r, [
        { lat: 'y', lon: 'x' },
        { lat: 'Breite', lon: 'Länge' },
        { lat: 'lat', lon: 'lng' },
        { lat: 'a.b', lon: 'c' },
      ]),
      style,
    };
  if (u < 0.85)
    return {
      ...pick(r, [
        { lat: 'pos.lat', lon: 'pos.lon' },
        { lat: 'pos.0', lon: 'pos.1' },
        { lat: 'geo.at.1', lon: 'geo.at.0' },
      ]),
      style,
    };
  return { lat: pick(r, ['pos.lat', 'Y']), style };
}

/** Sets the value at a dotted path in a plain JS structure (digits index arrays). */
function setPath(root: Record<string, unknown>, path: string, v: unknown): void {
  const parts = path.split('.');
  let at: Record<string, unknown> = root;
  parts.forEach((p, i) => {
    if (i === parts.length - 1) at[p] = v;
    else at = (at[p] ??= /^\d+$/.test(parts[i + 1]) ? [] : {}) as Record<string, unknown>;
  });
}

/** The members that carry a row's coordinates, as the file's naming has them, with now and then a decoy or none. */
function coordinateMembers(r: Rng, nm: Naming): [string, string][] {
  const [lat, lon] = point(r);
  const la = coordinate(r, lat);
  const lo = coordinate(r, lon);
  const u = r();
  if (nm.lat === undefined && nm.lon === undefined) {
    if (r() < 0.1) nm.style = [pick(r, LAT_SPELLINGS), pick(r, LON_SPELLINGS)];
    const [a, b] = nm.style;
    if (u < 0.62)
      return [
        [name(r, a), la],
        [name(r, b), lo],
      ];
    if (u < 0.7)
      return [
        [name(r, a), la],
        [name(r, pick(r, LAT_SPELLINGS)), coordinate(r, lat)],
        [name(r, b), lo],
      ];
    if (u < 0.8)
      return [
        ['"type"', '"Feature"'],
        ['"geometry"', pointText(r, la, lo)],
        ['"properties"', value(r, 2)],
      ];
    if (u < 0.85)
      return [
        ['"type"', '"Point"'],
        ['"coordinates"', `[${lo},${la}]`],
      ];
    if (u < 0.9)
      return r() < 0.5
        ? [[name(r, a), la]]
        : [
            ['"type"', '"Feature"'],
            ['"geometry"', 'null'],
            [name(r, b), lo],
          ];
    return [];
  }
  const members: [string, string][] = [];
  const one = (given: string | undefined, text: string, spellings: string[]) => {
    if (given === undefined) return members.push([name(r, pick(r, spellings)), text]);
    const v = r();
    if (given.includes('.') && v < 0.75) return; // set below, as a path
    if (v < 0.8) members.push([name(r, given), text]);
    else if (v < 0.88) members.push([name(r, given.toUpperCase()), text]);
    else if (v < 0.94) members.push([name(r, given.toUpperCase()), '0'], [name(r, given), text]); // the exact name wins
  };
  one(nm.lat, la, LAT_SPELLINGS);
  one(nm.lon, lo, LON_SPELLINGS);
  const nested: Record<string, unknown> = {};
  for (const [given, v] of [
    [nm.lat, lat],
    [nm.lon, lon],
  ] as const)
    if (given?.includes('.') && u < 0.9) setPath(nested, given, v);
  for (const [k, v] of Object.entries(nested)) members.push([JSON.stringify(k), JSON.stringify(v)]);
  if (u > 0.95) members.push([name(r, pick(r, LAT_SPELLINGS)), la]); // a default name, not the one given
  if (r() < 0.05) members.push(['"type"', '"Point"'], ['"coordinates"', `[${lo},${la}]`]); // names given: not read
  return members;
}

/** A GeoJSON Point geometry's text, or now and then another geometry. */
function pointText(r: Rng, la: string, lo: string): string {
  const u = r();
  const coords = u < 0.9 ? `[${lo},${ws(r)}${la}${r() < 0.1 ? ',12.5' : ''}]` : pick(r, ['[]', `[${lo}]`, '"x"']);
  const type = u < 0.95 ? '"Point"' : '"LineString"';
  return r() < 0.5
    ? object(r, [
        ['"type"', type],
        ['"coordinates"', coords],
      ])
    : object(r, [
        ['"coordinates"', coords],
        ['"type"', type],
      ]);
}

/** One line's text (no line feed): an object row mostly, else blank, not an object, or damaged. */
function line(r: Rng, nm: Naming): string {
  const u = r();
  if (u < 0.03) return pick(r, ['', ' ', '\t', '\r', '\x1e', ' \x1e', '\ufeff', '\x1e\r']);
  if (u < 0.06)
    return pick(r, [
      '[1,2]',
      '3',
      '"x"',
      'null',
      'true',
      '{',
      '}',
      'not json',
      '{"a":1}{',
      '{"a":1}x',
      '[{"lat":1,"lon":2}]',
    ]);
  const members: [string, string][] = Array.from({ length: int(r, 4) }, () => [key(r), value(r)]);
  members.push(...coordinateMembers(r, nm));
  if (r() < 0.15) members.push([name(r, pick(r, ['country', 'subdivision', 'error'])), value(r, 3)]);
  if (r() < 0.05 && members.length > 0) members.push([pick(r, members)[0], value(r, 3)]); // a duplicate key
  for (let i = members.length - 1; i > 0; i--) {
    if (r() < 0.3) {
      const j = int(r, i + 1);
      [members[i], members[j]] = [members[j], members[i]];
    }
  }
  let text = ws(r) + object(r, members) + ws(r);
  if (r() < 0.03) {
    // One character deleted, inserted or replaced: mostly no longer JSON.
    const at = int(r, text.length);
    const c = pick(r, ['{', '}', '[', ']', '"', ',', ':', '\\', ' ', '0', 'e', '-', '.']);
    const v = r();
    text =
      v < 0.33 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + c + text.slice(at + (v < 0.66 ? 0 : 1));
  }
  if (r() < 0.02) {
    const at = int(r, text.length);
    text = text.slice(0, at) + raw(r) + text.slice(at);
  }
  return text;
}

/** A line longer than a batch job (1 MiB): a long string member among the usual ones. */
function longLine(r: Rng, nm: Naming): string {
  const unit = pick(r, ['x', 'ab', 'é', '\\n']);
  const filler = unit.repeat(Math.ceil((1_100_000 + int(r, 100_000)) / Buffer.byteLength(unit)));
  return object(r, [['"filler"', `"${filler}"`], ...coordinateMembers(r, nm)]);
}

/** A row longer than a batch job, its coordinates named as `file`'s options name them. */
export function longRow(r: Rng, file: { lat?: string; lon?: string }): Uint8Array {
  return bytesOf(longLine(r, { lat: file.lat, lon: file.lon, style: ['lat', 'lon'] }));
}

/** A seeded NDJSON file and the options its batch runs with. */
export function generateNdjson(r: Rng): GeneratedNdjson {
  const nm = naming(r);
  const fields = pick<Field[]>(r, [
    ['country', 'subdivision'],
    ['country', 'subdivision'],
    ['country'],
    ['subdivision'],
  ]);
  const eol = pick(r, ['\n', '\n', '\r\n', 'mixed']);
  const sequence = r() < 0.1; // RFC 8142: every record after a record separator
  const lines = Array.from({ length: 1 + int(r, 25) }, () => line(r, nm));
  if (r() < 0.001) lines.splice(int(r, lines.length + 1), 0, longLine(r, nm));
  let text = '';
  lines.forEach((l, i) => {
    let prefix = sequence || r() < 0.01 ? '\x1e' : '';
    if (r() < 0.005) prefix = `\ufeff${prefix}`;
    const end = eol === 'mixed' ? pick(r, ['\n', '\r\n']) : eol;
    text += prefix + l + (i < lines.length - 1 || r() < 0.7 ? end : '');
  });
  if (r() < 0.1) text = `\ufeff${text}`;
  const bytes = bytesOf(text);
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), lat: nm.lat, lon: nm.lon, fields };
}

// ---- checking (shares nothing with src/batch) ----

const LAT_NAMES = ['latitude', 'lat'];
const LON_NAMES = ['longitude', 'lon', 'lng', 'long'];
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const own = (o: unknown, k: string | number) => o !== null && typeof o === 'object' && Object.hasOwn(o, k);

/** The documented rule (docs/BATCH.md, NDJSON members): the member a coordinate is read from. */
function member(row: Record<string, unknown>, given: string | undefined, defaults: string[]): string | undefined {
  const keys = Object.keys(row);
  const anyCase = (n: string) => keys.find((k) => k.toLowerCase() === n.toLowerCase());
  if (given !== undefined) return own(row, given) ? given : anyCase(given);
  for (const n of defaults) {
    const k = anyCase(n);
    if (k !== undefined) return k;
  }
  return undefined;
}

function path(row: unknown, dotted: string): unknown {
  let v = row;
  for (const part of dotted.split('.')) {
    const k = /^(0|[1-9]\d*)$/.test(part) ? Number(part) : part;
    if (!own(v, k)) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** A row's coordinates by the documented rule: [latitude, longitude], undefined where there is none. */
export function coordinatesOf(row: Record<string, unknown>, lat?: string, lon?: string): [unknown, unknown] {
  const one = (given: string | undefined, defaults: string[]) => {
    const k = member(row, given, defaults);
    if (k !== undefined) return row[k];
    return given?.includes('.') ? path(row, given) : undefined;
  };
  const a = one(lat, LAT_NAMES);
  const b = one(lon, LON_NAMES);
  if ((a !== undefined && b !== undefined) || lat !== undefined || lon !== undefined) return [a, b];
  const geometry = path(row, 'type') === 'Feature' ? path(row, 'geometry') : row;
  const coords = path(geometry, 'coordinates');
  if (path(geometry, 'type') === 'Point' && Array.isArray(coords)) return [coords[1], coords[0]];
  return [a, b];
}

/** The library's answer members for a pair of values, or its ValidationError's text. */
function answer(lookup: GeoLookup, fields: Field[], lat: unknown, lon: unknown): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  try {
    if (fields.includes('country')) out.country = lookup.tryCountryFromGps(lat as string, lon as string);
    if (fields.includes('subdivision')) out.subdivision = lookup.trySubdivisionFromGps(lat as string, lon as string);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    for (const f of fields) out[f] = null;
    out.error = e.message;
  }
  return out;
}

/** Length of the RFC 8142 separators and byte order marks a line opens with. */
function prefixLength(b: Uint8Array): number {
  let i = 0;
  for (;;) {
    if (b[i] === 0x1e) i++;
    else if (b[i] === 0xef && b[i + 1] === 0xbb && b[i + 2] === 0xbf) i += 3;
    else return i;
  }
}

function splitLines(b: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let at = 0;
  while (at < b.length) {
    let end = b.indexOf(10, at);
    if (end < 0) end = b.length;
    lines.push(b.subarray(at, end));
    at = end + 1;
  }
  return lines;
}

/** Whether a is b with some bytes left out. */
function isSubsequence(a: Uint8Array, b: Uint8Array): boolean {
  let j = 0;
  for (let i = 0; i < b.length && j < a.length; i++) if (a[j] === b[i]) j++;
  return j === a.length;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** A failed check, named: plain conditions, since a million rows make expect() itself the cost. */
function ensure(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/**
 * Checks the batch's output for one input against JSON.parse and the library, record by record
 * (a failure names the file and line); returns the counts the summary must give.
 */
export function checkNdjson(
  input: Uint8Array,
  output: Uint8Array,
  opts: { lat?: string; lon?: string; fields: Field[] },
  lookup: GeoLookup,
  where: string,
): Counts {
  const counts: Counts = { rows: 0, found: 0, notFound: 0, errors: 0 };
  const outLines = splitLines(output);
  ensure(output.length === 0 || output[output.length - 1] === 10, `${where}: the output ends with a line feed`);
  let k = 0;
  splitLines(input).forEach((inLine, n) => {
    const p = prefixLength(inLine);
    let close = inLine.length - 1;
    while (close >= p && isWs(inLine[close])) close--;
    if (close < p) return; // blank: not a row
    const at = `${where}, line ${n + 1}`;
    ensure(k < outLines.length, `${at}: no output row`);
    const got = outLines[k++];
    counts.rows++;
    ensure(same(got.subarray(0, p), inLine.subarray(0, p)), `${at}: separators kept`);
    const text = utf8.decode(inLine.subarray(p, close + 1));
    let row: unknown;
    let problem: string | null = null;
    try {
      row = JSON.parse(text);
      if (row === null || typeof row !== 'object' || Array.isArray(row)) problem = 'Row is not a JSON object.';
    } catch (e) {
      problem = `Row is not valid JSON: ${(e as Error).message}.`;
    }
    const parsed = JSON.parse(utf8.decode(got.subarray(p)));
    if (problem !== null) {
      const want = { line: text, ...Object.fromEntries(opts.fields.map((f) => [f, null])), error: problem };
      if (JSON.stringify(parsed) !== JSON.stringify(want)) expect({ at, got: parsed }).toEqual({ at, got: want });
      counts.errors++;
      return;
    }
    const obj = row as Record<string, unknown>;
    const [lat, lon] = coordinatesOf(obj, opts.lat, opts.lon);
    const answers = answer(lookup, opts.fields, lat, lon);
    const replaced = ['error', ...opts.fields].filter((f) => Object.hasOwn(obj, f));
    const want = obj;
    for (const f of replaced) delete want[f];
    Object.assign(want, answers);
    if (JSON.stringify(parsed) !== JSON.stringify(want))
      expect({ at, input: text, got: parsed }).toEqual({ at, input: text, got: want });
    // Bytes: the row's own up to its closing brace (less the replaced members), the answer members, the rest.
    const tail = inLine.subarray(close);
    ensure(same(got.subarray(got.length - tail.length), tail), `${at}: the closing brace and what follows kept`);
    const members = Buffer.from(
      Object.entries(answers)
        .map(([f, v]) => `${JSON.stringify(f)}:${JSON.stringify(v)}`)
        .join(','),
    );
    const membersAt = got.length - tail.length - members.length;
    ensure(same(got.subarray(membersAt, got.length - tail.length), members), `${at}: the answer members`);
    const before = got.subarray(p, membersAt);
    const comma = before[before.length - 1] === 44;
    const kept = comma ? before.subarray(0, before.length - 1) : before;
    let last = kept.length - 1;
    while (isWs(kept[last])) last--;
    ensure((kept[last] === 123) === !comma, `${at}: a comma exactly when a member precedes`);
    const rowBytes = inLine.subarray(p, close);
    if (replaced.length === 0) ensure(same(kept, rowBytes), `${at}: the row's bytes kept`);
    else ensure(isSubsequence(kept, rowBytes), `${at}: the row's bytes kept, less the replaced members`);
    if (answers.error !== undefined) counts.errors++;
    else if (answers[opts.fields[0]] !== null) counts.found++;
    else counts.notFound++;
  });
  ensure(k === outLines.length, `${where}: ${outLines.length - k} output rows more than input rows`);
  return counts;
}
