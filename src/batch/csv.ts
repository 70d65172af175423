// CSV (RFC 4180) at byte level: record boundaries for the reader, header
// fields, and the row loop the workers run. A generic CSV library builds a
// string per field and an array per row, an allocation that would cost more than
// the lookups, so the loop here scans the bytes once, parses the two coordinate
// fields in place and copies each row through with the answer cells added.

import type { Dataset } from '../format/dataset.js';
import { locator } from '../lookup/locate.js';
import { inRange } from '../lookup/validate.js';
import {
  accepted,
  answerColumns,
  answerTable,
  csvQuote,
  MAX_RECORD_BYTES,
  oversizeRow,
  decoder,
  encoder,
  MAX_CHARS,
  OutBuffer,
  parseDecimal,
  scanDecimal,
  validatePair,
  type AnswerTable,
  type ChunkResult,
  type RowSettings,
} from './rows.js';
import { csvExtras, type ExtensionRow } from './extension-cells.js';

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Where the row loop's coordinate parse leaves its value. */
const num = new Float64Array(1);

// The quoting rule, one for the reader, the header and the workers (RFC 4180, and for what it
// forbids, Python's csv module: test/unit/csv-differential.test.ts holds them to it):
// - a field is quoted only when its first byte is a quote; "" inside is one quote, and the
//   quote that closes it may be followed by more bytes, kept literally up to the delimiter;
// - a quote anywhere else is an ordinary byte (`TV 55" LG`), so it never joins lines;
// - LF, CRLF and a lone CR end a record outside quotes; inside quotes they are data.

/**
 * The index of the byte that ends the field starting at `start`, scanning from `k` (past a
 * parsed prefix; never past a quote that opens the field): a delimiter, LF or CR, or `len`
 * at the end of input; `len + 1` when the input ends inside the field's quotes.
 */
export function fieldEnd(b: Uint8Array, start: number, k: number, len: number, D: number): number {
  if (k === start && k < len && b[k] === QUOTE) {
    for (k++; ; k += 2) {
      while (k < len && b[k] !== QUOTE) k++;
      if (k >= len) return len + 1;
      if (k + 1 >= len || b[k + 1] !== QUOTE) break; // the closing quote
    }
    k++;
  }
  while (k < len) {
    const c = b[k];
    if (c === D || c === LF || c === CR) return k;
    k++;
  }
  return len;
}

/** Index just past the record terminator at b[k] (LF, CR or CRLF), given k < len. */
function afterTerminator(b: Uint8Array, k: number, len: number): number {
  return b[k] === CR && k + 1 < len && b[k + 1] === LF ? k + 2 : k + 1;
}

/**
 * Index just past the first record end in b[from, len), which starts at a record boundary, or
 * -1 when none is complete. A CR at the very end counts only at the end of input (`final`): an
 * LF may follow in the next read.
 */
export function nextRecordEnd(b: Uint8Array, from: number, D: number, final = false, len = b.length): number {
  let f = from;
  for (;;) {
    const k = fieldEnd(b, f, f, len, D);
    if (k >= len) return final && k === len && len > from ? len : -1;
    if (b[k] === D) f = k + 1;
    else if (b[k] === CR && k + 1 === len && !final) return -1;
    else return afterTerminator(b, k, len);
  }
}

/** Index just past the last complete record of b (which starts at a record boundary), 0 when none. */
export function lastRecordEnd(b: Uint8Array, D: number): number {
  const len = b.length;
  // Buffer's searches are memchr; a Uint8Array's are a loop ~20 instructions a byte (callgrind).
  const buf = Buffer.from(b.buffer, b.byteOffset, len);
  if (buf.indexOf(QUOTE) === -1) {
    // No quotes: the last terminator, but not a CR that an LF may follow in the next read.
    const lf = buf.lastIndexOf(LF);
    const cr = len >= 2 ? buf.lastIndexOf(CR, len - 2) : -1;
    return Math.max(lf, cr) + 1;
  }
  let last = 0;
  for (let end = nextRecordEnd(b, 0, D); end > 0; end = nextRecordEnd(b, end, D)) last = end;
  return last;
}

/**
 * The same rule byte by byte across reads, for a record too long to hold: `feed` returns the
 * index in its chunk just past the record's end, or -1 when the record goes on.
 */
export function recordSkipper(D: number): (chunk: Uint8Array) => number {
  // 0 at a field's start, 1 in an unquoted field, 2 inside quotes, 3 just after a quote inside quotes.
  let state = 0;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (state === 2) {
        if (c === QUOTE) state = 3;
      } else if (state === 3 && c === QUOTE) state = 2;
      else if (c === LF || c === CR)
        return i + 1; // an LF after this CR reads as a blank line: dropped
      else if (c === D) state = 0;
      else state = state === 0 && c === QUOTE ? 2 : 1;
    }
    return -1;
  };
}

/** A field's bytes [start, end) as text under the quoting rule above. */
export function fieldText(b: Uint8Array, start: number, end: number): string {
  if (end <= start || b[start] !== QUOTE) return decoder.decode(b.subarray(start, end));
  const parts: Uint8Array[] = [];
  let k = start + 1;
  for (;;) {
    let q = k;
    while (q < end && b[q] !== QUOTE) q++;
    parts.push(b.subarray(k, q));
    if (q + 1 < end && b[q + 1] === QUOTE) {
      parts.push(b.subarray(q, q + 1));
      k = q + 2;
    } else {
      if (q + 1 < end) parts.push(b.subarray(q + 1, end)); // after the closing quote: as written
      break;
    }
  }
  return decoder.decode(Buffer.concat(parts));
}

/** The fields of one record [start, end) (line terminator excluded), unquoted. */
export function splitRecord(b: Uint8Array, start: number, end: number, delimiter: number): string[] {
  const fields: string[] = [];
  let f = start;
  for (;;) {
    const k = Math.min(fieldEnd(b, f, f, end, delimiter), end);
    fields.push(fieldText(b, f, k));
    if (k >= end) return fields;
    f = k + 1;
  }
}

/**
 * What a CSV row gets appended: its answer cells (and its extensions') and the empty error cell,
 * or for a bad row the empty answer cells and the error.
 */
export interface CsvCells extends AnswerTable {
  /** The extensions' cells and the error cell's delimiter, after the answer cells; else null. */
  extras: ((latitude: number, longitude: number) => string) | null;
  /** A bad row: one empty cell per answer column, then the error cell's delimiter. */
  errorPrefix: Uint8Array;
  /** Terminator for a last row that has none. */
  eolIsCrlf: boolean;
}

/** The cells for `settings`; `row` answers the extensions' columns (settings.extensions). */
export function csvCells(ds: Dataset, settings: RowSettings, row: ExtensionRow = null): CsvCells {
  const d = String.fromCharCode(settings.delimiter);
  // Every answer is quoted when it holds the delimiter: subdivision codes hold '-' (FR-75C), custom
  // zone codes '_', '.' and '-', zone names '/', '_', '-' and '+' (test/integration/batch-api.test.ts).
  const cell = (s: string) => (s.includes(d) || s.includes('"') ? csvQuote(s) : s);
  if (settings.extensions.length > 0 && row === null) throw new Error('settings.extensions needs their row');
  // The last cell before the error's carries the error cell's delimiter.
  const extras = row && csvExtras(row, d, cell);
  const answers = answerTable(
    ds,
    settings,
    (c, s) =>
      (settings.country ? d + cell(c ?? '') : '') + (settings.subdivision ? d + cell(s ?? '') : '') + (extras ? '' : d),
  );
  return {
    ...answers,
    extras,
    errorPrefix: encoder.encode(d.repeat(answerColumns(settings) + 1)),
    eolIsCrlf: settings.eol === '\r\n',
  };
}

const UNCLOSED = 'The row ends inside a quoted field: a quote opened and never closed.';

/** Writes a line terminator at dst[o] (room reserved); returns the index after it. */
function endLine(dst: Uint8Array, o: number, crlf: boolean): number {
  if (crlf) dst[o++] = CR;
  dst[o++] = LF;
  return o;
}

/** A quoted coordinate ("48.85") is parsed inside its quotes; anything odd gives NaN. */
function cellNumber(b: Uint8Array, start: number, end: number): number {
  if (end - start >= 2 && b[start] === QUOTE && b[end - 1] === QUOTE) return parseDecimal(b, start + 1, end - 1);
  return parseDecimal(b, start, end);
}

/**
 * Rows of b (whole records; the last may lack its terminator only at end of input)
 * → the same rows with the answer cells and the error cell appended, each keeping
 * its own line terminator. Lines with no bytes at all are not rows and are dropped.
 * A measured hot path (`npm run bench:batch`): one long loop on purpose, its row state in locals,
 * with no per-row closure or allocation; split it only with a bench run before and after.
 */
export function processCsv(ds: Dataset, settings: RowSettings, cells: CsvCells, b: Uint8Array): ChunkResult {
  const { locate, locateCountry } = locator(ds);
  const D = settings.delimiter;
  const latCol = settings.latColumn;
  const lonCol = settings.lonColumn;
  const wantSub = settings.subdivision;
  // The answer cells go after the header's last field: a short row is padded with empty fields
  // to reach it; a longer row's extra fields follow the error cell.
  const lastCol = settings.headerFields - 1;
  // A delimiter that can sit inside a number ('.', '-', a digit) must split the fields before
  // they are parsed: the scan's parse would run on through it.
  const parseWhileScanning = D !== 46 && D !== 45 && !(D >= 48 && D <= 57);
  const { found: hit, start: cellStart, length: cellLength, view: cv, extras } = cells;
  const longest = cells.longest + 2; // and the line terminator
  // Rows grow by their answer cells: twice the input rarely needs regrowing.
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
    const rowStart = p;
    let col = 0;
    let fieldStart = p;
    let latA = -1;
    let latB = -1;
    let lonA = -1;
    let lonB = -1;
    let latFast = NaN;
    let lonFast = NaN;
    let cut = -1; // where the header's last field ends, when the row reaches it
    let k = p;
    let open = false; // the input ends inside this row's last field's quotes
    for (;;) {
      // A coordinate field is parsed as it is scanned (its bytes are read once). The value
      // counts only if the field ends where the number does; anything else ("48.8 N", quotes,
      // 17 digits) leaves NaN for the slow path.
      let value = NaN;
      let parsedTo = -1;
      if (parseWhileScanning && (col === latCol || col === lonCol)) {
        parsedTo = k = scanDecimal(b, k, len, num, 0);
        value = num[0];
      }
      k = fieldEnd(b, fieldStart, k, len, D);
      if (k > len) {
        open = true;
        k = len;
      }
      if (k !== parsedTo || k - fieldStart > MAX_CHARS) value = NaN;
      if (col === latCol) {
        latA = fieldStart;
        latB = k;
        latFast = value;
      }
      if (col === lonCol) {
        lonA = fieldStart;
        lonB = k;
        lonFast = value;
      }
      if (col === lastCol) cut = k;
      if (k === len || b[k] !== D) break;
      col++;
      fieldStart = ++k;
    }
    const contentEnd = k;
    p = k < len ? afterTerminator(b, k, len) : len;
    if (contentEnd === rowStart) continue; // an empty line is not a row
    rows++;
    if (contentEnd - rowStart > MAX_RECORD_BYTES) {
      out.pos = o;
      out.text(oversizeRow(settings));
      if (p > contentEnd) out.put(b.subarray(contentEnd, p));
      else out.text(settings.eol);
      ({ bytes: dst, pos: o } = out);
      dv = new DataView(dst.buffer);
      errors++;
      continue;
    }
    const keep = cut < 0 ? contentEnd : cut;
    const pad = cut < 0 && col < lastCol ? lastCol - col : 0;
    if (o + (contentEnd - rowStart) + pad + longest > dst.length) {
      out.pos = o;
      dst = out.reserve(contentEnd - rowStart + pad + longest);
      dv = new DataView(dst.buffer);
    }
    // The row's own bytes, four at a time (DataView reads and writes compile to plain unaligned moves).
    let i = rowStart;
    for (; i + 4 <= keep; i += 4, o += 4) dv.setUint32(o, sv.getUint32(i));
    for (; i < keep; i++) dst[o++] = b[i];
    // An unclosed quote is closed where its field ends, so the answer cells stay cells.
    if (open && keep === contentEnd) dst[o++] = QUOTE;
    for (let f = 0; f < pad; f++) dst[o++] = D;
    let lat = latFast === latFast ? latFast : latA >= 0 ? cellNumber(b, latA, latB) : NaN;
    let lon = lonFast === lonFast ? lonFast : lonA >= 0 ? cellNumber(b, lonA, lonB) : NaN;
    let error: string | null = null;
    if (open) error = UNCLOSED;
    else if (!inRange(lat, lon)) {
      error = validatePair(
        latA < 0 ? undefined : fieldText(b, latA, latB),
        lonA < 0 ? undefined : fieldText(b, lonA, lonB),
      );
      lat = accepted.lat;
      lon = accepted.lon;
    }
    if (error === null) {
      const key = wantSub ? locate(lat, lon) : locateCountry(lat, lon) + 1;
      // Whole words: the padding written past the cells is overwritten by what follows.
      const from = cellStart[key];
      const n = cellLength[key];
      for (let j = 0; j < n; j += 4) dv.setUint32(o + j, cv.getUint32(from + j));
      o += n;
      if (extras !== null) {
        out.pos = o;
        out.text(extras(lat, lon));
        dst = out.reserve(p - keep + 2); // and what follows, as reserved above
        dv = new DataView(dst.buffer);
        o = out.pos;
      }
      for (i = keep; i < p; i++) dst[o++] = b[i]; // extra fields and the row's own terminator
      if (contentEnd === len) o = endLine(dst, o, cells.eolIsCrlf);
      if (hit[key]) found++;
      else notFound++;
    } else {
      out.pos = o;
      out.put(cells.errorPrefix);
      out.text(csvQuote(error));
      if (keep < contentEnd) out.put(b.subarray(keep, contentEnd));
      if (open && keep < contentEnd) out.text('"');
      out.put(b.subarray(contentEnd, p));
      if (contentEnd === len) out.text(cells.eolIsCrlf ? '\r\n' : '\n');
      dst = out.bytes;
      dv = new DataView(dst.buffer);
      o = out.pos;
      errors++;
    }
  }
  return { out: dst, length: o, rows, found, notFound, errors };
}
