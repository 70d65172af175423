// NDJSON rows: one JSON object per line, written back as its own bytes with the
// answer members inserted before the closing brace, so member order, spacing and
// number spelling are kept. A byte scanner checks the line against the JSON
// grammar and picks the two coordinate members when they are plain numbers;
// every other line (strings, exponents, escaped keys, invalid JSON) goes
// through JSON.parse, which also words the error.

import type { Dataset } from '../format/dataset.js';
import { locator } from '../lookup/locate.js';
import { inRange } from '../lookup/validate.js';
import {
  accepted,
  answerTable,
  decoder,
  encoder,
  OutBuffer,
  scanDecimal,
  validatePair,
  type AnswerTable,
  type ChunkResult,
  type RowSettings,
} from './rows.js';

const LF = 10;
const OPEN = 123;
const CLOSE = 125;
/** RFC 8142 (GeoJSON text sequences) starts each record with this byte. */
const RS = 0x1e;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** What an NDJSON row gets inserted before its closing brace: `,"country":"FRA","subdivision":"FR-75C"`. */
export interface NdjsonCells extends AnswerTable {
  /** The members for a bad row, before its "error" member. */
  nulls: string;
  /** The coordinate member names as UTF-8, or null when the scanner must not be used. */
  latKey: Uint8Array | null;
  lonKey: Uint8Array | null;
}

export function ndjsonCells(ds: Dataset, settings: RowSettings): NdjsonCells {
  const members = (c: string | null, s: string | null) =>
    (settings.country ? `,"country":${JSON.stringify(c)}` : '') +
    (settings.subdivision ? `,"subdivision":${JSON.stringify(s)}` : '');
  // JSON.parse decides for a name an object inherits ("constructor": there even when the row
  // lacks it), and for a name with U+FFFD or a surrogate: a key whose bytes are not valid UTF-8
  // decodes to U+FFFD, so its bytes would not say whether it is that name.
  // Nested paths go through JSON.parse (the scanner reads top-level members only).
  const plain =
    settings.latPath === null &&
    settings.lonPath === null &&
    [settings.latKey, settings.lonKey].every((k) => !(k in {}) && !/[\uD800-\uDFFF\uFFFD]/.test(k));
  return {
    ...answerTable(ds, settings, members),
    nulls: members(null, null),
    latKey: plain ? encoder.encode(settings.latKey) : null,
    lonKey: plain ? encoder.encode(settings.lonKey) : null,
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
 * same objects with "country" / "subdivision" (null when none) and, for a bad row,
 * "error". A line that is not a JSON object becomes {"line": its text, …, "error"}.
 * Blank lines are not rows and are dropped.
 */
export function processNdjson(ds: Dataset, settings: RowSettings, cells: NdjsonCells, b: Uint8Array): ChunkResult {
  const { locate, locateCountry } = locator(ds);
  const { latKey, lonKey, latPath, lonPath, subdivision: wantSub } = settings;
  const { found: hit, start: cellStart, length: cellLength, view: cv, longest } = cells;
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
    let close = end - 1;
    while (close >= start && isSpace(b[close])) close--;
    if (close < start) continue; // blank line
    // A GeoJSON text sequence's record separator stays in the output, out of the JSON.
    let body = start;
    while (body <= close && b[body] === RS) body++;
    if (body > close) continue; // a separator alone
    rows++;
    // The coordinates stay in number-typed locals (a double kept in an `unknown` is boxed).
    let lat = NaN;
    let lon = NaN;
    let error: string | null = null;
    const got = cells.latKey !== null ? scanRow(b, body, close + 1, cells.latKey, cells.lonKey!) : -1;
    if (got >= 0) {
      lat = scanned[0];
      lon = scanned[1];
      if (got !== 3 || !inRange(lat, lon)) {
        error = validatePair(got & 1 ? lat : undefined, got & 2 ? lon : undefined);
        lat = accepted.lat;
        lon = accepted.lon;
      }
    } else {
      const text = decoder.decode(b.subarray(body, close + 1));
      let row: unknown;
      let problem: string | null = null;
      try {
        row = JSON.parse(text);
        if (row === null || typeof row !== 'object' || Array.isArray(row)) problem = 'Row is not a JSON object.';
      } catch (e) {
        problem = `Row is not valid JSON: ${(e as Error).message}.`;
      }
      if (problem !== null) {
        out.pos = o;
        out.text(`{"line":${JSON.stringify(text)}${cells.nulls},"error":${JSON.stringify(problem)}}\n`);
        dst = out.bytes;
        dv = new DataView(dst.buffer);
        o = out.pos;
        errors++;
        continue;
      }
      const a = latPath === null ? (row as Record<string, unknown>)[latKey] : atPath(row, latPath);
      const n = lonPath === null ? (row as Record<string, unknown>)[lonKey] : atPath(row, lonPath);
      if (typeof a === 'number' && typeof n === 'number' && inRange(a, n)) {
        lat = a;
        lon = n;
      } else {
        error = validatePair(a, n);
        lat = accepted.lat;
        lon = accepted.lon;
      }
    }
    let open = close - 1;
    while (open > start && isSpace(b[open])) open--;
    // The first member written after "{" takes no comma.
    const skip = b[open] === OPEN && b[close] === CLOSE ? 1 : 0;
    const tail = (end < len ? end + 1 : len) - close;
    if (o + (close - start) + longest + tail + 1 > dst.length) {
      out.pos = o;
      dst = out.reserve(close - start + longest + tail + 1);
      dv = new DataView(dst.buffer);
    }
    // The row up to its closing brace, four bytes at a time.
    let i = start;
    for (; i + 4 <= close; i += 4, o += 4) dv.setUint32(o, sv.getUint32(i));
    for (; i < close; i++) dst[o++] = b[i];
    if (error === null) {
      const key = wantSub ? locate(lat, lon) : locateCountry(lat, lon) + 1;
      // Whole words: the padding written past the members is overwritten by what follows.
      const from = cellStart[key] + skip;
      const n = cellLength[key] - skip;
      for (let j = 0; j < n; j += 4) dv.setUint32(o + j, cv.getUint32(from + j));
      o += n;
      if (hit[key]) found++;
      else notFound++;
    } else {
      out.pos = o;
      out.text(`${cells.nulls.slice(skip)},"error":${JSON.stringify(error)}`);
      dst = out.bytes;
      dv = new DataView(dst.buffer);
      o = out.pos;
      errors++;
      if (o + tail + 1 > dst.length) {
        dst = out.reserve(tail + 1);
        dv = new DataView(dst.buffer);
      }
    }
    // The closing brace, what follows it and the line feed (added when the input ends without one).
    for (i = close; i < close + tail; i++) dst[o++] = b[i];
    if (end === len) dst[o++] = LF;
  }
  return { out: dst, length: o, rows, found, notFound, errors };
}

// ---- the scanner: RFC 8259 grammar at byte level ----

const QUOTE = 34;
const BACKSLASH = 92;
const MAX_DEPTH = 64;

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
 * is not a plain number), else bit 0 set when the latitude is in scanned[0] and bit 1 when
 * the longitude is in scanned[1] (unset: the object has no such member).
 */
export function scanRow(b: Uint8Array, start: number, end: number, latKey: Uint8Array, lonKey: Uint8Array): number {
  let i = skipSpace(b, start, end);
  if (i >= end || b[i] !== OPEN) return -1;
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
