// NDJSON rows: one JSON object per line, written back as its own bytes with the answer
// members inserted before the closing brace (top-level members of those names taken out
// first: ndjson-replace.ts), so member order, spacing and number spelling are kept. Every row's
// coordinates are found in that row. A byte scanner (ndjson-scan.ts) handles the common row: valid
// JSON whose coordinates are plain numbers under the names the rows before used; every other line
// goes through JSON.parse (ndjson-read.ts), which also words the error.

import type { Dataset } from '../format/dataset.js';
import { locator } from '../lookup/locate.js';
import { inRange } from '../lookup/validate.js';
import { isSpace, OPEN } from './json-bytes.js';
import type { NdjsonCells } from './ndjson-cells.js';
import { read, readRow } from './ndjson-read.js';
import { answerCuts, copyCut } from './ndjson-replace.js';
import { REPLACED, scanned, scanRow } from './ndjson-scan.js';
import {
  accepted,
  decoder,
  MAX_RECORD_BYTES,
  OutBuffer,
  validatePair,
  type ChunkResult,
  type RowSettings,
} from './rows.js';

export { type NdjsonCells, ndjsonCells } from './ndjson-cells.js';
export { atPath } from './ndjson-read.js';
export { writtenMembers } from './ndjson-replace.js';
export { type NameSet, nameSet, scanned, scanRow } from './ndjson-scan.js';

const LF = 10;
const CR = 13;
/** RFC 8142 (GeoJSON text sequences) starts each record with this byte. */
const RS = 0x1e;

/**
 * Lines of b (whole lines; the last may lack its line feed only at end of input) → the
 * same objects with "country" / "subdivision" (null when none), "timezone" (null on a bad row)
 * when asked for, and for a bad row "error". A line that is not a JSON object becomes
 * {"line": its text, …, "error"}.
 * Blank lines are not rows and are dropped.
 * A measured hot path (`npm run bench:batch`): one long loop on purpose, its row state in locals,
 * with no per-row closure or allocation; split it only with a bench run before and after.
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
    extras,
    answers,
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
    const got = latKey !== null ? scanRow(b, body, close + 1, latKey, lonKey!, latNames, lonNames, answers) : -1;
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
      if (extras !== null) {
        out.pos = o;
        out.text(extras(lat, lon));
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
