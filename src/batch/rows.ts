// What the CSV and NDJSON row processors share: the job settings, the growing
// output buffer, the fast decimal parser and the slow path through the
// library's own validator (only for fields the fast parser declines).

import type { Dataset } from '../format/dataset.js';
import { ValidationError } from '../lookup/errors.js';
import { parsePair } from '../lookup/validate.js';
import type { BatchValues } from '../extend/extension.js';

export type BatchFormat = 'csv' | 'ndjson';
export type BatchField = 'country' | 'subdivision';

/** Settings every worker receives once; plain data so it can cross postMessage. */
export interface RowSettings {
  format: BatchFormat;
  /** CSV: field separator byte (44 = comma). */
  delimiter: number;
  /** CSV: fields in the header; shorter rows are padded to it before the answer cells. */
  headerFields: number;
  /** CSV: 0-based columns of latitude and longitude. */
  latColumn: number;
  lonColumn: number;
  /** NDJSON: --lat / --lon as given; '' when not given (the default names are found per row). */
  latKey: string;
  lonKey: string;
  /** NDJSON: the member path a dotted --lat / --lon spells; null otherwise. */
  latPath: (string | number)[] | null;
  lonPath: (string | number)[] | null;
  country: boolean;
  subdivision: boolean;
  /** The extensions' columns after the answer columns, in this order (extension-cells.ts). */
  extensions: readonly RowExtension[];
  /** CSV: line terminator written after a last row that has none ("\n" or "\r\n"). */
  eol: string;
}

/** An extension asked for columns: plain data, as every worker receives it. */
export interface RowExtension {
  /** Its name, as geolookup/extend's loader finds it in each worker. */
  name: string;
  columns: readonly string[];
  /** The batch's flags as given, for its rows(). */
  values: BatchValues;
}

/** The extensions' column names, in order. */
export const extensionColumns = (settings: RowSettings): string[] => settings.extensions.flatMap((e) => e.columns);

export interface ChunkStats {
  rows: number;
  /** Rows with an answer for the first requested field (country, else subdivision). */
  found: number;
  notFound: number;
  errors: number;
}

export interface ChunkResult extends ChunkStats {
  /** Output bytes: out.subarray(0, length) of a buffer the caller may transfer. */
  out: Uint8Array;
  length: number;
}

/**
 * The longest record (its bytes without the terminator): a longer one is an error row with no
 * data cells, not read. Far past any real row, and a bound on memory when an unbalanced quote
 * swallows the file. The reader skips a record it sees run past this; the processors check the rest.
 */
export const MAX_RECORD_BYTES = 64 << 20;
export const OVERSIZE = `The record is over the ${MAX_RECORD_BYTES >> 20} MiB limit (${MAX_RECORD_BYTES} bytes); it was not read.`;

/** Error texts quote the input they describe, so they are always written quoted. */
export function csvQuote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The row an over-long record becomes, terminator excluded: CSV, the header's width of empty
 * fields, empty answer cells and the error; NDJSON, the answer members as null and the error.
 */
export function oversizeRow(settings: RowSettings): string {
  if (settings.format === 'ndjson') {
    const members = [
      ...(settings.country ? ['"country":null'] : []),
      ...(settings.subdivision ? ['"subdivision":null'] : []),
      ...extensionColumns(settings).map((n) => `${JSON.stringify(n)}:null`),
      `"error":${JSON.stringify(OVERSIZE)}`,
    ];
    return `{${members.join(',')}}`;
  }
  const answers = answerColumns(settings);
  return (
    String.fromCharCode(settings.delimiter).repeat(Math.max(0, settings.headerFields - 1) + answers + 1) +
    csvQuote(OVERSIZE)
  );
}

/** How many answer columns a row gets before its error cell. */
export function answerColumns(settings: RowSettings): number {
  return (settings.country ? 1 : 0) + (settings.subdivision ? 1 : 0) + extensionColumns(settings).length;
}

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

/**
 * Output buffers the main thread has written and handed back. Reusing them spares
 * the page faults and zeroing of fresh memory on every job, and the GC work.
 */
export const spareBuffers: ArrayBuffer[] = [];

/**
 * Cells for a row to copy a word at a time: every key's bytes back to back in one byte array,
 * each starting on a multiple of 4 and padded to one, so a row copies its cells from one place,
 * not from a small array per key scattered over the heap.
 */
export interface CellTable {
  bytes: Uint8Array;
  /** Big-endian word reads of bytes (as the writes are: byte order kept). */
  view: DataView;
  /** Key k's cells: bytes[start[k], start[k] + length[k]). */
  start: Uint32Array;
  length: Uint16Array;
  /** The longest cells plus the padding a word copy may write past them. */
  longest: number;
}

export function cellTable(cells: Uint8Array[]): CellTable {
  const start = new Uint32Array(cells.length);
  const length = Uint16Array.from(cells, (a) => a.length);
  let at = 0;
  cells.forEach((a, k) => {
    start[k] = at;
    at += (a.length + 3) & ~3;
  });
  const bytes = new Uint8Array(at + 4);
  for (let k = 0; k < cells.length; k++) bytes.set(cells[k], start[k]);
  return { bytes, view: new DataView(bytes.buffer), start, length, longest: Math.max(0, ...length) + 3 };
}

/**
 * The bytes a row gets appended for each answer key (the region id when subdivisions are
 * asked for, else country index + 1, 0 for none), built once per worker.
 */
export interface AnswerTable extends CellTable {
  /** 1 where the key's first requested field has an answer. */
  found: Uint8Array;
}

export function answerTable(
  ds: Dataset,
  settings: RowSettings,
  render: (country: string | null, subdivision: string | null) => string,
): AnswerTable {
  const keys: [string | null, string | null][] = settings.subdivision
    ? Array.from(ds.regionCountry, (c, r) => [
        ds.countryCodes[c] ?? null,
        ds.subdivisionCodes[ds.regionSubdivision[r]] ?? null,
      ])
    : [[null, null], ...ds.countryCodes.map((c): [string, null] => [c, null])];
  return {
    ...cellTable(keys.map(([c, s]) => encoder.encode(render(c, s)))),
    found: Uint8Array.from(keys, ([c, s]) => ((settings.country ? c : s) !== null ? 1 : 0)),
  };
}

/** Output bytes grown by doubling; the processors write into `bytes` at `pos`. */
export class OutBuffer {
  bytes: Uint8Array;
  pos = 0;
  constructor(capacity: number) {
    const want = Math.max(capacity, 4096);
    let spare = spareBuffers.pop();
    while (spare !== undefined && spare.byteLength < want) spare = spareBuffers.pop();
    this.bytes = spare ? new Uint8Array(spare) : new Uint8Array(want);
  }
  /** Room for n more bytes. */
  reserve(n: number): Uint8Array {
    if (this.pos + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.pos + n));
      grown.set(this.bytes.subarray(0, this.pos));
      this.bytes = grown;
    }
    return this.bytes;
  }
  /** Short copies in a loop beat subarray + set, which allocate a view per call. */
  put(src: Uint8Array): void {
    const dst = this.reserve(src.length);
    let o = this.pos;
    for (let i = 0; i < src.length; i++) dst[o++] = src[i];
    this.pos = o;
  }
  text(s: string): void {
    this.reserve(s.length * 3);
    this.pos += encoder.encodeInto(s, this.bytes.subarray(this.pos)).written;
  }
}

/** Powers of ten that are exact doubles (10^0 … 10^22). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
export const MAX_CHARS = 64;

/**
 * Reads a plain decimal (`-?(\d+\.?\d*|\.\d+)`, the validator's grammar) from b[i], going no
 * further than end: writes its value to out[slot] and returns the index where the number
 * stopped (the caller checks that its field ends there). The value is NaN when there is no
 * digit, or when it could not be exact: while the digits fit in 2^53 and there are at most 22
 * of them after the point, one correctly rounded division by an exact power of ten gives the
 * same double as Number(text) (Clinger's fast path); longer mantissas are left to the slow
 * path. -0 folds to 0, as the validator does. The value goes through a Float64Array rather
 * than a return value: a double returned from a call V8 does not inline is boxed.
 * The one copy of this arithmetic: CSV fields, quoted CSV fields and NDJSON members use it.
 */
export function scanDecimal(b: Uint8Array, i: number, end: number, out: Float64Array, slot: number): number {
  const neg = i < end && b[i] === 45;
  if (neg) i++;
  let m = 0;
  let digits = 0;
  let frac = -1;
  let exact = true;
  for (; i < end; i++) {
    const d = b[i] - 48;
    if (d >= 0 && d <= 9) {
      if (m > 900719925474098) {
        exact = false; // m·10 + 9 would pass 2^53
        break;
      }
      m = m * 10 + d;
      digits++;
      if (frac >= 0) frac++;
    } else if (d === -2 && frac < 0)
      frac = 0; // '.'
    else break;
  }
  if (!exact || digits === 0 || frac > 22) out[slot] = NaN;
  else {
    const v = frac > 0 ? m / POW10[frac] : m;
    out[slot] = neg && v !== 0 ? -v : v;
  }
  return i;
}

const one = new Float64Array(1);

/** A whole field [start, end) as a plain decimal (at most 64 bytes), or NaN to send it to the slow path. */
export function parseDecimal(b: Uint8Array, start: number, end: number): number {
  if (end - start > MAX_CHARS || scanDecimal(b, start, end, one, 0) !== end) return NaN;
  return one[0];
}

/** Where the slow path leaves the numbers of a pair it accepted. */
export const accepted = { lat: 0, lon: 0 };

/**
 * The library's own rules for fields the fast parser declined (quoted, odd, missing):
 * returns null and fills `accepted`, or returns the text of the ValidationError the API gives.
 */
export function validatePair(lat: unknown, lon: unknown): string | null {
  try {
    const [a, b] = parsePair(lat, lon);
    accepted.lat = a;
    accepted.lon = b;
    return null;
  } catch (e) {
    if (e instanceof ValidationError) return e.message;
    throw e;
  }
}
