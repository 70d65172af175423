// NDJSON rows: one JSON object per line, written back as its own bytes with the answer
// members inserted before the closing brace (top-level members of those names taken out
// first), so member order, spacing and number spelling are kept. Every row's coordinates are
// found in that row (rowCoordinates). A byte scanner handles the common row: valid JSON whose
// coordinates are plain numbers under the names the rows before used; every other line goes
// through JSON.parse, which also words the error.

import type { Dataset } from '../format/dataset.js';
import { locator } from '../lookup/locate.js';
import { inRange } from '../lookup/validate.js';
import { LAT_NAMES, LON_NAMES } from './columns.js';
import {
  accepted,
  answerTable,
  decoder,
  encoder,
  MAX_RECORD_BYTES,
  OutBuffer,
  oversizeRow,
  scanDecimal,
  validatePair,
  type AnswerTable,
  type ChunkResult,
  type RowSettings,
} from './rows.js';
import { needZones, type TimeZoneSource, type ZoneCells, writeZone, zoneCells } from './timezones.js';
import { type BorderLookup, borderColumnNames, borderValues, needBorders } from './borders.js';

const LF = 10;
const CR = 13;
const OPEN = 123;
const CLOSE = 125;
const QUOTE = 34;
const BACKSLASH = 92;
/** RFC 8142 (GeoJSON text sequences) starts each record with this byte. */
const RS = 0x1e;
const MAX_DEPTH = 64;
/** scanRow's bit for a row with a member the answers replace. */
const REPLACED = 4;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * What an NDJSON row gets inserted before its closing brace: `,"country":"FRA","subdivision":"FR-75C"`,
 * then with --timezone `,"timezone":"Europe/Paris"`.
 */
export interface NdjsonCells extends AnswerTable {
  /** --timezone: the zone's member, after the answer members; else null. */
  zones: ZoneCells | null;
  /** The border members after those (--distance, --nearest, --within); else null. */
  borders: ((latitude: number, longitude: number) => string) | null;
  /** The members for a bad row, before its "error" member. */
  nulls: string;
  /** What a line over MAX_RECORD_BYTES becomes, without its line feed. */
  oversize: string;
  /**
   * The member names the scanner reads, as UTF-8: the names given, else the default names the
   * last row read by JSON.parse used (learned: files keep their names); null: no scanner.
   */
  latKey: Uint8Array | null;
  lonKey: Uint8Array | null;
  /**
   * Names not given: the default names. A row with another member of one of these names in any
   * case goes to JSON.parse, so the scanner's member is always the rule's pick.
   */
  latNames: NameSet | null;
  lonNames: NameSet | null;
}

/** Names the scanner matches in any case: lower-case ASCII, and a bit per length (mod 32) to pass most keys at once. */
export interface NameSet {
  lengths: number;
  names: Uint8Array[];
}

export function nameSet(names: readonly string[]): NameSet {
  return { lengths: names.reduce((m, n) => m | (1 << n.length), 0), names: names.map((n) => encoder.encode(n)) };
}

/**
 * The cells for `settings`; `zones` answers the timezone member (settings.timezone) and `borders`
 * the border members (settings.borders), else unused.
 */
export function ndjsonCells(
  ds: Dataset,
  settings: RowSettings,
  zones: TimeZoneSource | null = null,
  borders: BorderLookup | null = null,
): NdjsonCells {
  const names = borderColumnNames(settings.borders);
  const values = settings.borders ? borderValues(needBorders(borders), settings) : null;
  const members = (c: string | null, s: string | null) =>
    (settings.country ? `,"country":${JSON.stringify(c)}` : '') +
    (settings.subdivision ? `,"subdivision":${JSON.stringify(s)}` : '');
  const zone = (z: string | null) => `,"timezone":${JSON.stringify(z)}`;
  const zoneTable = settings.timezone ? zoneCells(needZones(zones), zone) : null;
  const answers = answerTable(ds, settings, members);
  // A key whose bytes are not valid UTF-8 decodes to U+FFFD, so bytes cannot tell a name with
  // U+FFFD (or a lone surrogate, encoded as U+FFFD) from another: JSON.parse decides. Member
  // paths are read by JSON.parse too (the scanner reads top-level members only).
  const scanner =
    settings.latPath === null &&
    settings.lonPath === null &&
    [settings.latKey, settings.lonKey].every((k) => !/[\uD800-\uDFFF\uFFFD]/.test(k));
  const defaults = (given: string, them: readonly string[]) => (scanner && given === '' ? nameSet(them) : null);
  return {
    ...answers,
    longest: answers.longest + (zoneTable?.longest ?? 0),
    zones: zoneTable,
    borders:
      values &&
      ((lat, lon) =>
        values(lat, lon)
          .map((v, i) => `,"${names[i]}":${JSON.stringify(v)}`)
          .join('')),
    nulls: members(null, null) + (zoneTable ? zone(null) : '') + names.map((n) => `,"${n}":null`).join(''),
    oversize: oversizeRow(settings),
    latKey: scanner ? encoder.encode(settings.latKey || LAT_NAMES[0]) : null,
    lonKey: scanner ? encoder.encode(settings.lonKey || LON_NAMES[0]) : null,
    latNames: defaults(settings.latKey, LAT_NAMES),
    lonNames: defaults(settings.lonKey, LON_NAMES),
  };
}

/** The value at a member path (own members and array elements only), undefined where there is none. */
export function atPath(row: unknown, path: readonly (string | number)[]): unknown {
  let v = row;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/**
 * Lines of b (whole lines; the last may lack its line feed only at end of input) → the
 * same objects with "country" / "subdivision" (null when none), "timezone" (null on a bad row)
 * when asked for, and for a bad row "error". A line that is not a JSON object becomes
 * {"line": its text, …, "error"}.
 * Blank lines are not rows and are dropped.
 */
export function processNdjson(ds: Dataset, settings: RowSettings, cells: NdjsonCells, b: Uint8Array): ChunkResult {
  const { locate, locateCountry } = locator(ds);
  const { subdivision: wantSub } = settings;
  const {
    found: hit,
    start: cellStart,
    length: cellLength,
    view: cv,
    longest,
    latNames,
    lonNames,
    zones,
    borders,
  } = cells;
  // The scanner's names, read again after each row JSON.parse reads (it may learn others).
  let latKey = cells.latKey;
  let lonKey = cells.lonKey;
  // Lines grow by their answer members: twice the input rarely needs regrowing.
  const out = new OutBuffer(2 * b.length + 1024);
  let dst = out.bytes;
  let dv = new DataView(dst.buffer);
  const sv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let o = 0;
  const len = b.length;
  let rows = 0;
  let found = 0;
  let notFound = 0;
  let errors = 0;
  let p = 0;
  while (p < len) {
    let end = b.indexOf(LF, p);
    if (end < 0) end = len;
    const start = p;
    p = end + 1;
    if (end - start > MAX_RECORD_BYTES && oversized(out, o, b, start, end, cells)) {
      ({ bytes: dst, pos: o } = out);
      dv = new DataView(dst.buffer);
      rows++;
      errors++;
      continue;
    }
    let close = end - 1;
    while (close >= start && isSpace(b[close])) close--;
    if (close < start) continue; // blank line
    const body = recordStart(b, start, close);
    if (body > close) continue; // separators alone
    rows++;
    // The coordinates stay in number-typed locals (a double kept in an `unknown` is boxed).
    let lat = NaN;
    let lon = NaN;
    let error: string | null = null;
    let cutCount = 0;
    const got = latKey !== null ? scanRow(b, body, close + 1, latKey, lonKey!, latNames, lonNames) : -1;
    if (got >= 0 && (got & 3) === 3) {
      lat = scanned[0];
      lon = scanned[1];
      if (!inRange(lat, lon)) {
        error = validatePair(lat, lon);
        lat = accepted.lat;
        lon = accepted.lon;
      }
      if (got & REPLACED) cutCount = answerCuts(b, body, close + 1, settings);
    } else {
      const text = decoder.decode(b.subarray(body, close + 1));
      const problem = readRow(text, settings, cells);
      latKey = cells.latKey;
      lonKey = cells.lonKey;
      if (problem !== null) {
        // The line kept as a string member of a new object, after its separators.
        out.pos = o;
        out.put(b.subarray(start, body));
        out.text(`{"line":${JSON.stringify(text)}${cells.nulls},"error":${JSON.stringify(problem)}}\n`);
        ({ bytes: dst, pos: o } = out);
        dv = new DataView(dst.buffer);
        errors++;
        continue;
      }
      if (typeof read.lat === 'number' && typeof read.lon === 'number' && inRange(read.lat, read.lon)) {
        lat = read.lat;
        lon = read.lon;
      } else {
        error = validatePair(read.lat, read.lon);
        lat = accepted.lat;
        lon = accepted.lon;
      }
      if (read.replaces) cutCount = answerCuts(b, body, close + 1, settings);
    }
    const tail = (end < len ? end + 1 : len) - close;
    if (o + (close - start) + longest + tail + 1 > dst.length) {
      out.pos = o;
      dst = out.reserve(close - start + longest + tail + 1);
      dv = new DataView(dst.buffer);
    }
    // The row up to its closing brace, four bytes at a time (without the members the answers replace).
    let i = start;
    if (cutCount === 0) {
      for (; i + 4 <= close; i += 4, o += 4) dv.setUint32(o, sv.getUint32(i));
      for (; i < close; i++) dst[o++] = b[i];
    } else o = copyCut(b, start, close, cutCount, dst, o);
    // The first member written after "{" takes no comma.
    let last = o - 1;
    while (isSpace(dst[last])) last--;
    const skip = dst[last] === OPEN ? 1 : 0;
    if (error === null) {
      const key = wantSub ? locate(lat, lon) : locateCountry(lat, lon) + 1;
      // Whole words: the padding written past the members is overwritten by what follows.
      const from = cellStart[key] + skip;
      const n = cellLength[key] - skip;
      for (let j = 0; j < n; j += 4) dv.setUint32(o + j, cv.getUint32(from + j));
      o += n;
      // After the answer members: never the first member, so always with its comma.
      if (zones !== null) o = writeZone(zones, dv, o, lat, lon);
      if (borders !== null) {
        out.pos = o;
        out.text(borders(lat, lon));
        dst = out.reserve(tail + 1); // the closing brace on, as reserved above
        dv = new DataView(dst.buffer);
        o = out.pos;
      }
      if (hit[key]) found++;
      else notFound++;
    } else {
      out.pos = o;
      out.text(`${cells.nulls.slice(skip)},"error":${JSON.stringify(error)}`);
      dst = out.reserve(tail + 1);
      dv = new DataView(dst.buffer);
      o = out.pos;
      errors++;
    }
    // The closing brace, what follows it and the line feed (added when the input ends without one).
    for (i = close; i < close + tail; i++) dst[o++] = b[i];
    if (end === len) dst[o++] = LF;
  }
  return { out: dst, length: o, rows, found, notFound, errors };
}

const NEWLINE = Uint8Array.of(LF);

/**
 * Writes at `at` the error row a line over MAX_RECORD_BYTES becomes (its line feed, and a CR
 * before it, not counted, and kept), or returns false for a line within the limit. The reader
 * skips the longer lines it cannot hold; this catches those it could.
 */
function oversized(out: OutBuffer, at: number, b: Uint8Array, start: number, end: number, cells: NdjsonCells): boolean {
  const content = b[end - 1] === CR ? end - 1 : end;
  if (content - start <= MAX_RECORD_BYTES) return false;
  out.pos = at;
  out.text(cells.oversize);
  out.put(end < b.length ? b.subarray(content, end + 1) : NEWLINE);
  return true;
}

/**
 * Where the record of a line starts: after the RFC 8142 record separators and UTF-8 byte order
 * marks it opens with (kept in the output, out of the JSON), at most close + 1.
 */
function recordStart(b: Uint8Array, start: number, close: number): number {
  let i = start;
  for (;;) {
    if (i <= close && b[i] === RS) i++;
    else if (i + 2 <= close && b[i] === 0xef && b[i + 1] === 0xbb && b[i + 2] === 0xbf) i += 3;
    else return i;
  }
}

// ---- the slow path: JSON.parse and the rule ----

/** Where readRow leaves what it read: the coordinate values (undefined: none) and whether answer members are there. */
const read = { lat: undefined as unknown, lon: undefined as unknown, replaces: false };

/** JSON.parse's reading of one line into `read`; the error for a line that is not a JSON object, else null. */
function readRow(text: string, settings: RowSettings, cells: NdjsonCells): string | null {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch (e) {
    return `Row is not valid JSON: ${(e as Error).message}.`;
  }
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return 'Row is not a JSON object.';
  rowCoordinates(row as Record<string, unknown>, settings, cells);
  read.replaces = writtenMembers(settings).some((name) => Object.hasOwn(row, name));
  return null;
}

/**
 * The rule (docs/BATCH.md), per row and per coordinate: the top-level member --lat names
 * (exactly, else in any case; a dotted name the row has no member of spells a member path), or
 * without --lat the first of LAT_NAMES the row has in any case (the first such member); the same
 * for longitude. When that does not give both and neither name was given, a GeoJSON Point, or a
 * Feature whose geometry is one, gives [longitude, latitude]. What is missing stays undefined.
 */
function rowCoordinates(row: Record<string, unknown>, settings: RowSettings, cells: NdjsonCells): void {
  const keys = Object.keys(row);
  const latName = memberName(keys, settings.latKey, LAT_NAMES);
  const lonName = memberName(keys, settings.lonKey, LON_NAMES);
  const { latPath, lonPath } = settings;
  read.lat = latName !== null ? row[latName] : latPath !== null ? atPath(row, latPath) : undefined;
  read.lon = lonName !== null ? row[lonName] : lonPath !== null ? atPath(row, lonPath) : undefined;
  const named = settings.latKey !== '' || settings.lonKey !== '';
  const point = !named && (read.lat === undefined || read.lon === undefined) ? pointCoordinates(row) : null;
  if (point !== null) {
    read.lat = point[1];
    read.lon = point[0];
  }
  // The next rows most likely use the same names: the scanner looks for them.
  if (settings.latKey === '' && latName !== null && cells.latKey !== null) cells.latKey = learn(cells.latKey, latName);
  if (settings.lonKey === '' && lonName !== null && cells.lonKey !== null) cells.lonKey = learn(cells.lonKey, lonName);
}

/** The member a coordinate is read from: the name given, exactly, else in any case; no name, the first default present. */
function memberName(keys: string[], given: string, defaults: readonly string[]): string | null {
  if (given !== '') return keys.includes(given) ? given : anyCase(keys, given);
  for (const name of defaults) {
    const key = anyCase(keys, name);
    if (key !== null) return key;
  }
  return null;
}

function anyCase(keys: string[], name: string): string | null {
  const lower = name.toLowerCase();
  return keys.find((k) => k.toLowerCase() === lower) ?? null;
}

/** A GeoJSON Point's coordinates: the row's, or its geometry's when the row is a Feature; null for anything else. */
function pointCoordinates(row: object): unknown[] | null {
  const geometry = atPath(row, ['type']) === 'Feature' ? atPath(row, ['geometry']) : row;
  const coordinates = atPath(geometry, ['coordinates']);
  return atPath(geometry, ['type']) === 'Point' && Array.isArray(coordinates) ? coordinates : null;
}

/** The scanner's bytes for `name`, a default name in some case: ASCII, as no other character lower-cases to its letters. */
function learn(current: Uint8Array, name: string): Uint8Array {
  if (current.length === name.length && current.every((c, k) => c === name.charCodeAt(k))) return current;
  return encoder.encode(name);
}

// ---- members the answers replace ----

/** Byte ranges of the current row that are left out: [cuts[2k], cuts[2k + 1]). */
const cuts: number[] = [];

/**
 * The top-level members of the object b[start, end) (valid JSON) that the answer members
 * replace ("country", "subdivision" and "timezone" when written, "error" always; every copy, whatever the
 * key's escapes), each with one separator so that what is left stays valid JSON: the comma
 * before it, or for members before the first kept one, the comma after. Returns the count of
 * ranges put in `cuts`, in order.
 */
function answerCuts(b: Uint8Array, start: number, end: number, settings: RowSettings): number {
  let n = 0;
  let i = skipSpace(b, skipSpace(b, start, end) + 1, end);
  if (b[i] === CLOSE) return 0;
  let kept = false;
  let lead = -1; // the first of the members dropped before any is kept
  let prevEnd = -1;
  for (;;) {
    const keyStart = i;
    const keyStop = skipString(b, i, end);
    const drop = replaced(b, keyStart, keyStop, settings);
    i = skipSpace(b, skipSpace(b, keyStop, end) + 1, end);
    i = skipValid(b, i, end);
    if (!drop) {
      if (lead >= 0) {
        cuts[2 * n] = lead;
        cuts[2 * n++ + 1] = keyStart;
        lead = -1;
      }
      kept = true;
    } else if (kept) {
      cuts[2 * n] = prevEnd;
      cuts[2 * n++ + 1] = i;
    } else if (lead < 0) lead = keyStart;
    prevEnd = i;
    i = skipSpace(b, i, end);
    if (b[i] === CLOSE) break;
    i = skipSpace(b, i + 1, end);
  }
  if (lead >= 0) {
    cuts[2 * n] = lead;
    cuts[2 * n++ + 1] = prevEnd;
  }
  return n;
}

/** Every member a row can be written (the answers, the extensions', error), each as UTF-8. */
const ANSWER_NAMES = ['error', 'country', 'subdivision', 'timezone', 'distance_m', 'nearest', 'nearest_m', 'within'];
const ANSWER_BYTES = ANSWER_NAMES.map((n) => encoder.encode(n));

/** The members `settings` writes, which replace the row's own of those names: error always. */
export function writtenMembers(settings: RowSettings): string[] {
  return [
    'error',
    ...(settings.country ? ['country'] : []),
    ...(settings.subdivision ? ['subdivision'] : []),
    ...(settings.timezone ? ['timezone'] : []),
    ...borderColumnNames(settings.borders),
  ];
}

const written = new WeakMap<RowSettings, Uint8Array[]>();

/** Whether the key b[keyStart, keyStop) (quotes included) names a member the answers replace. */
function replaced(b: Uint8Array, keyStart: number, keyStop: number, settings: RowSettings): boolean {
  const from = keyStart + 1;
  const to = keyStop - 1;
  if (b.subarray(from, to).includes(BACKSLASH))
    return writtenMembers(settings).includes(JSON.parse(decoder.decode(b.subarray(keyStart, keyStop))));
  let names = written.get(settings);
  if (names === undefined) written.set(settings, (names = writtenMembers(settings).map((n) => encoder.encode(n))));
  return names.some((name) => sameBytes(b, from, to, name));
}

/** Index after the value at b[i] of a line known to be valid JSON (any depth, no recursion). */
function skipValid(b: Uint8Array, i: number, end: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i, end);
  if (c !== OPEN && c !== 91) {
    // A number or literal ends where a separator, a closing bracket or white space starts.
    while (i < end && !isSpace(b[i]) && b[i] !== 44 && b[i] !== CLOSE && b[i] !== 93) i++;
    return i;
  }
  for (let depth = 0; ; ) {
    const d = b[i];
    if (d === QUOTE) {
      i = skipString(b, i, end);
      continue;
    }
    i++;
    if (d === OPEN || d === 91) depth++;
    else if ((d === CLOSE || d === 93) && --depth === 0) return i;
  }
}

/** b[start, close) into dst at o without the `count` ranges in `cuts`; returns the new o. */
function copyCut(b: Uint8Array, start: number, close: number, count: number, dst: Uint8Array, o: number): number {
  let i = start;
  for (let k = 0; k <= count; k++) {
    const to = k < count ? cuts[2 * k] : close;
    for (; i < to; i++) dst[o++] = b[i];
    if (k < count) i = cuts[2 * k + 1];
  }
  return o;
}

// ---- the scanner: RFC 8259 grammar at byte level ----

/** Where scanRow leaves the coordinates it found. */
export const scanned = new Float64Array(2);

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Index after the string that opens at b[i], or -1 when it is not valid JSON. */
function skipString(b: Uint8Array, i: number, end: number): number {
  for (i++; i < end; ) {
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c < 32) return -1;
    if (c !== BACKSLASH) {
      i++;
      continue;
    }
    if (i + 1 >= end) return -1;
    const e = b[i + 1];
    if (e === 117) {
      if (i + 5 >= end || !isHex(b[i + 2]) || !isHex(b[i + 3]) || !isHex(b[i + 4]) || !isHex(b[i + 5])) return -1;
      i += 6;
    } else if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === 47 ||
      e === 98 ||
      e === 102 ||
      e === 110 ||
      e === 114 ||
      e === 116
    )
      i += 2;
    else return -1;
  }
  return -1;
}

/** Index after the digits from i. */
function skipDigits(b: Uint8Array, i: number, end: number): number {
  while (i < end && b[i] >= 48 && b[i] <= 57) i++;
  return i;
}

/** Index after the number that starts at b[i] (-?int frac? exp?), or -1. */
function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 45) i++;
  if (i >= end) return -1;
  if (b[i] === 48) i++;
  else if (b[i] >= 49 && b[i] <= 57) i = skipDigits(b, i, end);
  else return -1;
  if (i < end && b[i] === 46) {
    const j = skipDigits(b, i + 1, end);
    if (j === i + 1) return -1;
    i = j;
  }
  if (i < end && (b[i] === 101 || b[i] === 69)) {
    i++;
    if (i < end && (b[i] === 43 || b[i] === 45)) i++;
    const j = skipDigits(b, i, end);
    if (j === i) return -1;
    i = j;
  }
  return i;
}

function skipSpace(b: Uint8Array, i: number, end: number): number {
  while (i < end && isSpace(b[i])) i++;
  return i;
}

function literal(b: Uint8Array, i: number, end: number, word: string): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

/** Index after the value at b[i] (whitespace before it already skipped), or -1. */
function skipValue(b: Uint8Array, i: number, end: number, depth: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i, end);
  if (c === 45 || (c >= 48 && c <= 57)) return skipNumber(b, i, end);
  if (c === 116) return literal(b, i, end, 'true');
  if (c === 102) return literal(b, i, end, 'false');
  if (c === 110) return literal(b, i, end, 'null');
  if (c !== OPEN && c !== 91) return -1;
  if (depth >= MAX_DEPTH) return -1;
  const close = c === OPEN ? CLOSE : 93;
  i = skipSpace(b, i + 1, end);
  if (i < end && b[i] === close) return i + 1;
  for (;;) {
    if (i >= end) return -1;
    if (c === OPEN) {
      if (b[i] !== QUOTE) return -1;
      i = skipString(b, i, end);
      if (i < 0) return -1;
      i = skipSpace(b, i, end);
      if (i >= end || b[i] !== 58) return -1;
      i = skipSpace(b, i + 1, end);
      if (i >= end) return -1;
    }
    i = skipValue(b, i, end, depth + 1);
    if (i < 0) return -1;
    i = skipSpace(b, i, end);
    if (i >= end) return -1;
    if (b[i] === close) return i + 1;
    if (b[i] !== 44) return -1;
    i = skipSpace(b, i + 1, end);
  }
}

function sameBytes(b: Uint8Array, from: number, to: number, key: Uint8Array): boolean {
  if (to - from !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[from + k] !== key[k]) return false;
  return true;
}

/** Whether b[from, to) is one of `set`'s names in any case (the caller checked set.lengths). */
function oneOf(b: Uint8Array, from: number, to: number, set: NameSet): boolean {
  for (const name of set.names) {
    if (to - from !== name.length) continue;
    let k = 0;
    while (k < name.length && (b[from + k] | 0x20) === name[k]) k++;
    if (k === name.length) return true;
  }
  return false;
}

/** The lengths of the names answerName matches, a bit each. */
const ANSWER_LENGTHS = ANSWER_NAMES.reduce((bits, n) => bits | (1 << n.length), 0);

/** Whether b[from, to) names a member the answers may replace (which of them do is answerCuts' call). */
function answerName(b: Uint8Array, from: number, to: number): boolean {
  for (const name of ANSWER_BYTES) if (sameBytes(b, from, to, name)) return true;
  return false;
}

/**
 * The number at b[i] when it is plain (-?int(.frac)?, exact by scanDecimal's rules: the double
 * JSON.parse gives, -0 as 0), into scanned[slot]; returns the index after it, or -1 for
 * anything else (invalid JSON numbers, exponents, long mantissas).
 */
function plainNumber(b: Uint8Array, i: number, end: number, slot: number): number {
  const stop = skipNumber(b, i, end);
  if (stop < 0 || scanDecimal(b, i, stop, scanned, slot) !== stop || scanned[slot] !== scanned[slot]) return -1;
  return stop;
}

/**
 * Checks that b[start, end) is one JSON object and picks its top-level members named
 * latKey and lonKey (the last of each, as JSON.parse keeps the last): returns -1 when the
 * line needs JSON.parse (not valid JSON, not an object, an escaped key, a coordinate that
 * is not a plain number, another member with one of latNames / lonNames in any case), else
 * bit 0 set when the latitude is in scanned[0], bit 1 when the longitude is in scanned[1]
 * (unset: the object has no such member) and bit 2 (REPLACED) when a member is named
 * "country", "subdivision", "timezone" or "error".
 */
export function scanRow(
  b: Uint8Array,
  start: number,
  end: number,
  latKey: Uint8Array,
  lonKey: Uint8Array,
  latNames: NameSet | null = null,
  lonNames: NameSet | null = null,
): number {
  let i = skipSpace(b, start, end);
  if (i >= end || b[i] !== OPEN) return -1;
  const latLengths = latNames === null ? 0 : latNames.lengths;
  const lonLengths = lonNames === null ? 0 : lonNames.lengths;
  let found = 0;
  i = skipSpace(b, i + 1, end);
  if (i < end && b[i] === CLOSE) return skipSpace(b, i + 1, end) === end ? 0 : -1;
  for (;;) {
    if (i >= end || b[i] !== QUOTE) return -1;
    const keyStart = i + 1;
    const keyStop = skipString(b, i, end);
    if (keyStop < 0) return -1;
    const keyEnd = keyStop - 1;
    for (let k = keyStart; k < keyEnd; k++) if (b[k] === BACKSLASH) return -1;
    i = skipSpace(b, keyStop, end);
    if (i >= end || b[i] !== 58) return -1;
    i = skipSpace(b, i + 1, end);
    if (i >= end) return -1;
    const isLat = sameBytes(b, keyStart, keyEnd, latKey);
    const isLon = sameBytes(b, keyStart, keyEnd, lonKey);
    // Most keys differ in length from every name looked for: one bit test each, no call.
    const n = keyEnd - keyStart;
    if (
      (!isLat && ((latLengths >>> n) & 1) !== 0 && oneOf(b, keyStart, keyEnd, latNames!)) ||
      (!isLon && ((lonLengths >>> n) & 1) !== 0 && oneOf(b, keyStart, keyEnd, lonNames!))
    )
      return -1;
    if (((ANSWER_LENGTHS >>> n) & 1) !== 0 && answerName(b, keyStart, keyEnd)) found |= REPLACED;
    if (isLat || isLon) {
      i = plainNumber(b, i, end, isLat ? 0 : 1);
      if (i < 0) return -1;
      if (isLat && isLon) scanned[1] = scanned[0];
      found |= (isLat ? 1 : 0) | (isLon ? 2 : 0);
    } else i = skipValue(b, i, end, 1);
    if (i < 0) return -1;
    i = skipSpace(b, i, end);
    if (i >= end) return -1;
    if (b[i] === CLOSE) return skipSpace(b, i + 1, end) === end ? found : -1;
    if (b[i] !== 44) return -1;
    i = skipSpace(b, i + 1, end);
  }
}
