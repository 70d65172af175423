// Seeded CSV files for the differential test: the shapes real exports hold and RFC 4180 forbids
// (quotes in every position, LF/CRLF/CR, a BOM, line breaks inside quotes, blank lines, ragged
// rows, NUL and invalid UTF-8, fields of 1 byte to 16 MiB), with coordinate columns somewhere.
import type { Rng } from './sample-points.js';

export interface GeneratedCsv {
  bytes: Uint8Array;
  delimiter: number;
  /** Pass the delimiter as --delimiter (else the header must let it be sniffed). */
  given: boolean;
  /** The answer columns asked for. */
  fields: ('country' | 'subdivision')[];
}

const DELIMITERS = [',', ';', '\t', '|'];
const LAT = ['lat', 'latitude', 'Lat', 'LATITUDE'];
const LON = ['lon', 'lng', 'longitude', 'Long', 'LON'];
const EOLS = ['\n', '\r\n', '\r'];

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rng, n: number) => Math.floor(r() * n);

/** Random bytes biased to what breaks CSV readers: quotes, delimiters, line breaks, NUL, bytes ≥ 0x80. */
function junk(r: Rng, n: number, d: string): number[] {
  const special = [34, 34, d.charCodeAt(0), 10, 13, 0, 0x80 + int(r, 128), 32, 46, 45];
  return Array.from({ length: n }, () => (r() < 0.4 ? pick(r, special) : 97 + int(r, 26)));
}

/** A big field, properly quoted or not opened by a quote, its bytes drawn a word at a time. */
function bigField(r: Rng, n: number, d: string): Uint8Array {
  const b = new Uint8Array(n + 2);
  const D = d.charCodeAt(0);
  for (let i = 1; i <= n; i++) {
    const c = (r() * 0x100000000) >>> 0;
    b[i] = c & 0x300 ? 97 + (c % 26) : c >>> 24; // mostly letters, now and then any byte
  }
  if (r() < 0.5) {
    b[0] = b[n + 1] = 34;
    for (let i = 1; i <= n; i++) if (b[i] === 34) b[i] = 39; // no quote inside: the field stays whole
    return b;
  }
  for (let i = 1; i <= n; i++) if (b[i] === 10 || b[i] === 13 || b[i] === D) b[i] = 46;
  b[0] = b[n + 1] = 120; // quotes inside are plain bytes: the field is not opened by one
  return b;
}

const ascii = (s: string) => Array.from(Buffer.from(s, 'utf8'));

/** A coordinate in one of many spellings, mostly near the fixture's countries. */
function coordinate(r: Rng, lo: number, hi: number, d: string): number[] {
  const v = lo + r() * (hi - lo);
  const u = r();
  if (u < 0.75) return ascii(v.toFixed(int(r, 8)));
  if (u < 0.8) return ascii(`"${v.toFixed(4)}"`);
  if (u < 0.83) return ascii(`${v.toFixed(2)}"`); // an inch mark
  if (u < 0.86) return ascii(`"${v.toFixed(2)}"x`);
  if (u < 0.89) return ascii(`${v.toExponential(3)}`);
  if (u < 0.92) return ascii(` ${v.toFixed(3)} `);
  if (u < 0.95) return [];
  return junk(r, 1 + int(r, 6), d);
}

/** Any other field: plain, properly quoted (delimiters, quotes and line breaks inside), or broken. */
function field(r: Rng, d: string): number[] {
  const n = int(r, r() < 0.9 ? 8 : 40);
  const body = junk(r, n, d);
  const u = r();
  if (u < 0.35) return body.filter((c) => c !== 34 && c !== 10 && c !== 13 && c !== d.charCodeAt(0));
  if (u < 0.65) return [34, ...body.flatMap((c) => (c === 34 ? [34, 34] : [c])), 34];
  if (u < 0.8) return body.filter((c) => c !== 10 && c !== 13 && c !== d.charCodeAt(0)); // stray quotes
  if (u < 0.9) return [34, ...body.filter((c) => c !== 34), 34, ...ascii('tail"')]; // text after the closing quote
  return body; // anything at all
}

/** A header name for the non-coordinate columns, sometimes quoted or with an inch mark. */
function name(r: Rng, i: number, d: string): number[] {
  const u = r();
  if (u < 0.7) return ascii(`c${i}`);
  if (u < 0.85) return ascii(`"c${i}${d}x"`);
  return ascii(`c${i}"in`);
}

/** A big field's size: log-uniform from 64 KiB to 16 MiB, in about one file in `oneIn`. */
function bigSize(r: Rng, oneIn: number): number {
  return r() * oneIn < 1 ? Math.floor(2 ** (16 + r() * 8)) : 0;
}

export function generateCsv(r: Rng, bigOneIn = 500): GeneratedCsv {
  const d = pick(r, DELIMITERS);
  const given = r() < 0.5;
  const width = 2 + int(r, 5);
  const latCol = int(r, width);
  let lonCol = int(r, width - 1);
  if (lonCol >= latCol) lonCol++;
  const out: number[] = r() < 0.1 ? [0xef, 0xbb, 0xbf] : [];
  const chunks: Uint8Array[] = [];
  const header = Array.from({ length: width }, (_, i) =>
    i === latCol ? ascii(pick(r, LAT)) : i === lonCol ? ascii(pick(r, LON)) : name(r, i, given ? d : ','),
  );
  // Sniffing needs a header the other candidate delimiters do not split into coordinate columns.
  out.push(...header.flatMap((h, i) => (i ? [d.charCodeAt(0), ...h] : h)), ...ascii(pick(r, EOLS)));
  const rows = int(r, r() < 0.9 ? 12 : 60);
  const bigRow = bigSize(r, bigOneIn) > 0 ? int(r, rows + 1) : -1;
  for (let i = 0; i < rows; i++) {
    if (r() < 0.05) {
      out.push(...ascii(pick(r, EOLS))); // a blank line
      continue;
    }
    const n = r() < 0.85 ? width : 1 + int(r, width + 3);
    for (let c = 0; c < n; c++) {
      if (c) out.push(d.charCodeAt(0));
      if (c === latCol) out.push(...coordinate(r, 41, 48, d));
      else if (c === lonCol) out.push(...coordinate(r, 10, 36, d));
      else if (i === bigRow && c === n - 1) {
        chunks.push(Uint8Array.from(out), bigField(r, bigSize(r, 1), d));
        out.length = 0;
      } else out.push(...field(r, d));
    }
    if (i < rows - 1 || r() < 0.7) out.push(...ascii(pick(r, EOLS)));
  }
  if (r() < 0.05) out.push(...ascii(`1${d}"unclosed`), ...junk(r, int(r, 6), d));
  chunks.push(Uint8Array.from(out));
  const fields = pick(r, [['country', 'subdivision'], ['country'], ['subdivision']] as const);
  return { bytes: Buffer.concat(chunks), delimiter: d.charCodeAt(0), given, fields: [...fields] };
}
