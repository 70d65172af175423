// What kind of text the batch input is: CSV or NDJSON (by name, else by its first byte), and
// the CSV field separator.

import { ValidationError } from '../lookup/errors.js';
import type { BatchFormat } from './rows.js';

const BOM = [0xef, 0xbb, 0xbf];

/** Tried in this order on the header when --delimiter is not given: comma, tab, semicolon, bar. */
export const SNIFFED_DELIMITERS = [44, 9, 59, 124];

export function startsWithBom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === BOM[0] && b[1] === BOM[1] && b[2] === BOM[2];
}

/** NDJSON when the first byte after a BOM and white space is "{", else CSV. */
export function sniffFormat(b: Uint8Array): BatchFormat {
  for (let i = startsWithBom(b) ? 3 : 0; i < b.length; i++) {
    const c = b[i];
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0x1e) continue; // 0x1e: RFC 8142 record separator
    return c === 123 ? 'ndjson' : 'csv';
  }
  return 'csv';
}

/** The format a file's extension names, if any. */
export function formatFromName(name: string | undefined): BatchFormat | undefined {
  if (!name) return undefined;
  if (/\.(ndjson|jsonl|geojsonl|geojsons|geojsonseq)$/i.test(name)) return 'ndjson';
  if (/\.(csv|tsv|txt)$/i.test(name)) return 'csv';
  return undefined;
}

/** --delimiter as a byte: one ASCII character ("tab" or "\t" for a tab); 44 (comma) when absent. */
export function delimiterByte(d: string | undefined): number {
  if (d === undefined) return 44;
  const s = d === 'tab' || d === '\\t' ? '\t' : d;
  if (s.length !== 1 || s.charCodeAt(0) > 127 || s === '"' || s === '\n' || s === '\r') {
    throw new ValidationError(
      `--delimiter must be one ASCII character other than a quote or a line break, got ${JSON.stringify(d)}.`,
      { delimiter: ['bad delimiter'] },
    );
  }
  return s.charCodeAt(0);
}
