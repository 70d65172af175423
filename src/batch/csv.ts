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
  answerTable,
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

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Where the row loop's coordinate parse leaves its value. */
const num = new Float64Array(1);

/**
 * Index just past the last line feed that ends a record (outside quotes) in b,
 * which starts at a record boundary; 0 when b holds no complete record. A quote
 * anywhere toggles the quoted state, the same rule the row loop follows, so the
 * reader and the workers always agree where records end.
 */
export function lastRecordEnd(b: Buffer): number {
  if (b.indexOf(QUOTE) === -1) return b.lastIndexOf(LF) + 1;
  let quoted = false;
  let last = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) quoted = !quoted;
    else if (c === LF && !quoted) last = i + 1;
  }
  return last;
}

/** Index just past the first record's line feed, or -1 when b holds no complete record. */
export function firstRecordEnd(b: Uint8Array): number {
  let quoted = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) quoted = !quoted;
    else if (c === LF && !quoted) return i + 1;
  }
  return -1;
}

/** A field's text: RFC 4180 unquoting when it is wholly quoted, else as written. */
export function fieldText(b: Uint8Array, start: number, end: number): string {
  const raw = decoder.decode(b.subarray(start, end));
  if (raw.length >= 2 && raw.charCodeAt(0) === QUOTE && raw.charCodeAt(raw.length - 1) === QUOTE)
    return raw.slice(1, -1).replace(/""/g, '"');
  return raw;
}

/** The fields of one record [start, end) (line terminator excluded), unquoted. */
export function splitRecord(b: Uint8Array, start: number, end: number, delimiter: number): string[] {
  const fields: string[] = [];
  let f = start;
  let k = start;
  for (;;) {
    while (k < end && b[k] !== delimiter) {
      if (b[k] === QUOTE) {
        k++;
        while (k < end && b[k] !== QUOTE) k++;
      }
      k++;
    }
    if (k > end) k = end;
    fields.push(fieldText(b, f, k));
    if (k >= end) return fields;
    f = ++k;
  }
}

/**
 * What a CSV row gets appended: its answer cells and the empty error cell, or for a bad row
 * the empty answer cells and the error.
 */
export interface CsvCells extends AnswerTable {
  /** A bad row: one empty cell per answer column, then the error cell's delimiter. */
  errorPrefix: Uint8Array;
  /** Terminator for a last row that has none. */
  eolIsCrlf: boolean;
}

export function csvCells(ds: Dataset, settings: RowSettings): CsvCells {
  const d = String.fromCharCode(settings.delimiter);
  return {
    ...answerTable(
      ds,
      settings,
      (c, s) => (settings.country ? d + (c ?? '') : '') + (settings.subdivision ? d + (s ?? '') : '') + d,
    ),
    errorPrefix: encoder.encode(d.repeat((settings.country ? 1 : 0) + (settings.subdivision ? 1 : 0) + 1)),
    eolIsCrlf: settings.eol === '\r\n',
  };
}

/** Error texts quote the input they describe, so they are always written quoted. */
export function csvQuote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
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
  const { found: hit, start: cellStart, length: cellLength, view: cv } = cells;
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
    let end: number;
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
      while (k < len) {
        const c = b[k];
        if (c === D || c === LF) break;
        if (c === QUOTE) {
          k++;
          while (k < len && b[k] !== QUOTE) k++;
        }
        k++;
      }
      if (k > len) k = len; // an unterminated quote runs to the end of input
      const eol = k === len || b[k] === LF;
      let fieldEnd = k;
      if (eol && fieldEnd > fieldStart && b[fieldEnd - 1] === CR) fieldEnd--;
      if (fieldEnd !== parsedTo || fieldEnd - fieldStart > MAX_CHARS) value = NaN;
      if (col === latCol) {
        latA = fieldStart;
        latB = fieldEnd;
        latFast = value;
      }
      if (col === lonCol) {
        lonA = fieldStart;
        lonB = fieldEnd;
        lonFast = value;
      }
      if (col === lastCol) cut = fieldEnd;
      if (eol) {
        end = k;
        break;
      }
      col++;
      fieldStart = ++k;
    }
    p = end + 1;
    let contentEnd = end;
    if (contentEnd > rowStart && b[contentEnd - 1] === CR) contentEnd--;
    if (contentEnd === rowStart) continue; // an empty line is not a row
    rows++;
    const crlfRow = end < len ? contentEnd < end : cells.eolIsCrlf;
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
    for (let f = 0; f < pad; f++) dst[o++] = D;
    let lat = latFast === latFast ? latFast : latA >= 0 ? cellNumber(b, latA, latB) : NaN;
    let lon = lonFast === lonFast ? lonFast : lonA >= 0 ? cellNumber(b, lonA, lonB) : NaN;
    let error: string | null = null;
    if (!inRange(lat, lon)) {
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
      for (i = keep; i < contentEnd; i++) dst[o++] = b[i];
      if (crlfRow) dst[o++] = CR;
      dst[o++] = LF;
      if (hit[key]) found++;
      else notFound++;
    } else {
      out.pos = o;
      out.put(cells.errorPrefix);
      out.text(csvQuote(error));
      if (keep < contentEnd) out.put(b.subarray(keep, contentEnd));
      out.text(crlfRow ? '\r\n' : '\n');
      dst = out.bytes;
      dv = new DataView(dst.buffer);
      o = out.pos;
      errors++;
    }
  }
  return { out: dst, length: o, rows, found, notFound, errors };
}
