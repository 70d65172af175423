// NDJSON rows: one JSON object per line. Each line is parsed with JSON.parse
// (the coordinates may be numbers or strings anywhere in the object) and
// written back as its own bytes with the answer members inserted before the
// closing brace, so member order, spacing and number spelling are kept.

import type { Dataset } from './dataset.js';
import { locator } from './locate.js';
import { accepted, decoder, encoder, OutBuffer, validatePair, type ChunkResult, type RowSettings } from './batch-rows.js';

const LF = 10;
const OPEN = 123;
const CLOSE = 125;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

export interface NdjsonCells {
  /** Indexed by code index + 1 (0 = null): `,"country":"FRA"`. */
  country: Uint8Array[];
  subdivision: Uint8Array[];
  nullCountry: Uint8Array;
  nullSubdivision: Uint8Array;
}

export function ndjsonCells(ds: Dataset): NdjsonCells {
  const cell = (key: string, code: string | null) => encoder.encode(`,${JSON.stringify(key)}:${JSON.stringify(code)}`);
  return {
    country: [null, ...ds.countryCodes].map((c) => cell('country', c)),
    subdivision: [null, ...ds.subdivisionCodes].map((c) => cell('subdivision', c)),
    nullCountry: cell('country', null),
    nullSubdivision: cell('subdivision', null),
  };
}

/**
 * Lines of b (whole lines; the last may lack its line feed only at end of input) → the
 * same objects with "country" / "subdivision" (null when none) and, for a bad row,
 * "error". A line that is not a JSON object becomes {"line": its text, …, "error"}.
 * Blank lines are not rows and are dropped.
 */
export function processNdjson(ds: Dataset, settings: RowSettings, cells: NdjsonCells, b: Uint8Array): ChunkResult {
  const { locate, locateCountry } = locator(ds);
  const { latKey, lonKey, country: wantCountry, subdivision: wantSub } = settings;
  const { regionCountry, regionSubdivision } = ds;
  const out = new OutBuffer(b.length + (b.length >> 1) + 1024);
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
    rows++;
    const text = decoder.decode(b.subarray(start, close + 1));
    let row: unknown;
    let problem: string | null = null;
    try {
      row = JSON.parse(text);
      if (row === null || typeof row !== 'object' || Array.isArray(row)) problem = 'Row is not a JSON object.';
    } catch (e) {
      problem = `Row is not valid JSON: ${(e as Error).message}.`;
    }
    if (problem !== null) {
      out.text(`{"line":${JSON.stringify(text)}`);
      if (wantCountry) out.put(cells.nullCountry);
      if (wantSub) out.put(cells.nullSubdivision);
      out.text(`,"error":${JSON.stringify(problem)}}\n`);
      errors++;
      continue;
    }
    let open = close - 1;
    while (open > start && isSpace(b[open])) open--;
    const empty = b[open] === OPEN && b[close] === CLOSE;
    out.copy(b, start, close);
    // The first member written after "{" takes no comma.
    let skip = empty ? 1 : 0;
    const obj = row as Record<string, unknown>;
    let lat = obj[latKey];
    let lon = obj[lonKey];
    let error: string | null = null;
    if (!(typeof lat === 'number' && typeof lon === 'number' && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) {
      error = validatePair(lat, lon);
      lat = accepted.lat;
      lon = accepted.lon;
    }
    if (error === null) {
      let c: number;
      let s = -1;
      if (wantSub) {
        const r = locate(lat as number, lon as number);
        c = regionCountry[r];
        s = regionSubdivision[r];
      } else c = locateCountry(lat as number, lon as number);
      if (wantCountry) {
        out.copy(cells.country[c + 1], skip, cells.country[c + 1].length);
        skip = 0;
      }
      if (wantSub) out.copy(cells.subdivision[s + 1], skip, cells.subdivision[s + 1].length);
      if ((wantCountry ? c : s) >= 0) found++;
      else notFound++;
    } else {
      if (wantCountry) {
        out.copy(cells.nullCountry, skip, cells.nullCountry.length);
        skip = 0;
      }
      if (wantSub) out.copy(cells.nullSubdivision, skip, cells.nullSubdivision.length);
      out.text(`,"error":${JSON.stringify(error)}`);
      errors++;
    }
    out.copy(b, close, end < len ? end + 1 : len);
    if (end === len) out.text('\n');
  }
  return { out: out.bytes, length: out.pos, rows, found, notFound, errors };
}
