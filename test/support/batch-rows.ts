// Seeded CSV rows for the batch tests, written in many spellings, and the checks of an output
// against them: an independent RFC 4180 reader and the library's answer for each row.
import { writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { tryCountryFromGps, trySubdivisionFromGps, ValidationError } from '../../src/index.js';
import { timeZoneFromGps } from '../../packages/timezones/src/index.js';
import * as borders from '../../packages/borders/src/index.js';
import { cityPoints, prng, spherePoints } from './sample-points.js';

/** The border columns a test asks for (@geolookup/borders' batch flags, as plain values). */
export interface BorderColumns {
  distance: boolean;
  nearest: boolean;
  withinM: number | null;
  maxKm: number;
}

/** The batch flags asking for `b` (BatchOptions.extensions). */
export const borderFlags = (b: BorderColumns) => ({
  distance: b.distance || undefined,
  nearest: b.nearest || undefined,
  within: b.withinM === null ? undefined : String(b.withinM),
  'max-km': String(b.maxKm),
});

/**
 * An RFC 4180 reader written for the test, character by character, sharing nothing with src/:
 * a quote opens quoting only as a field's first character (elsewhere it is plain, as in Python's
 * csv module), and LF, CRLF or a lone CR end a record.
 */
export function readCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && fieldStart) quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
      fieldStart = true;
      continue;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStart = true;
      continue;
    } else field += c;
    fieldStart = false;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** What the library says for one pair of coordinates or field values: the codes, or the ValidationError text. */
export function expected(
  lat: number | string | undefined,
  lon: number | string | undefined,
): { country: string | null; subdivision: string | null; error: string | null } {
  try {
    return {
      country: tryCountryFromGps(lat as string, lon as string),
      subdivision: trySubdivisionFromGps(lat as string, lon as string),
      error: null,
    };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return { country: null, subdivision: null, error: e.message };
  }
}

/** What @geolookup/timezones says for one pair of coordinates or field values: the zone, null for bad input. */
export function expectedZone(lat: number | string | undefined, lon: number | string | undefined): string | null {
  try {
    return timeZoneFromGps(lat as string, lon as string);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return null;
  }
}

/**
 * What @geolookup/borders says for one row's border columns (docs/BATCH.md), as CSV cells: the
 * least distance over the fields' layers, the first field's nearest region, the fields' regions
 * within the radius; metres to the centimetre; empty for bad input or none within reach.
 */
export function expectedBorders(
  lat: number | string | undefined,
  lon: number | string | undefined,
  fields: ('country' | 'subdivision')[],
  b: BorderColumns,
): string[] {
  const cm = (m: number) => String(Math.round(m * 100) / 100);
  const none = [...(b.distance ? [''] : []), ...(b.nearest ? ['', ''] : []), ...(b.withinM !== null ? [''] : [])];
  if (expected(lat, lon).error !== null) return none;
  const [la, lo] = [lat as string, lon as string];
  const cells: string[] = [];
  if (b.distance) {
    const d = fields
      .map((layer) => borders.distanceToBorder(la, lo, { maxKm: b.maxKm, layer }))
      .filter((m) => m !== null);
    cells.push(d.length ? cm(Math.min(...d)) : '');
  }
  if (b.nearest) {
    try {
      const n = (fields[0] === 'country' ? borders.nearestCountry : borders.nearestSubdivision)(la, lo, {
        maxKm: b.maxKm,
      });
      cells.push(n.code, cm(n.distanceM));
    } catch (e) {
      if ((e as Error).name !== 'NotFoundError') throw e;
      cells.push('', '');
    }
  }
  if (b.withinM !== null) {
    const r = borders.regionsWithin(la, lo, b.withinM);
    cells.push(
      [...(fields.includes('country') ? r.countries : []), ...(fields.includes('subdivision') ? r.subdivisions : [])]
        .map((x) => x.code)
        .join(' '),
    );
  }
  return cells;
}

export interface Row {
  /** The row as written, without its terminator. */
  raw: string;
  lat: string | undefined;
  lon: string | undefined;
}

/**
 * Seeded rows: points near cities and anywhere, coordinates in many spellings (quoted,
 * '5.', '.5', '-0', 17 significant digits), and about 3% bad or odd rows.
 */
export function makeRows(n: number, seed: number): Row[] {
  const r = prng(seed);
  const city = cityPoints(n, seed + 1);
  const sphere = spherePoints(n, seed + 2);
  const bad: [string | undefined, string | undefined, string?][] = [
    ['NaN', '2'],
    ['', '2'],
    [' 12', '3'],
    ['12 ', '3'],
    ['1e2', '3'],
    ['+1', '3'],
    ['0x10', '3'],
    ['48,85', '2.35'],
    ['151.2', '-33.8'],
    ['91', '0'],
    ['10', '-180.0001'],
    ['4"8', '2'],
    ['abc', 'def'],
    ['1'.repeat(70), '2'],
    ['48.85', undefined],
    [undefined, undefined],
    ['Infinity', '0'],
    ['48.85', '2.35\n'],
  ];
  const odd = ['-0', '.5', '5.', '-.5', '90', '-90', '0.123456789012345678', '00012.5'];
  const names = ['plain', 'with, comma', 'with "quotes"', 'two\nlines', 'crlf\r\ninside', 'ünïcödé', ''];
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const u = r();
    let lat: string | undefined;
    let lon: string | undefined;
    if (u < 0.03) [lat, lon] = bad[Math.floor(r() * bad.length)];
    else if (u < 0.04) [lat, lon] = [odd[Math.floor(r() * odd.length)], odd[Math.floor(r() * odd.length)]];
    else {
      const p = u < 0.5 ? city : sphere;
      const digits = Math.floor(r() * 9);
      lat = p.lat[i].toFixed(digits);
      lon = r() < 0.1 ? String(p.lon[i]) : p.lon[i].toFixed(digits);
      if (lat === '-0' || /^-0\.0*$/.test(lat)) lat = lat.slice(1);
    }
    const name = names[Math.floor(r() * names.length)];
    const needsQuote = (s: string) => /[",\r\n]/.test(s) || r() < 0.05;
    const cell = (s: string) => (needsQuote(s) ? quote(s) : s);
    const cells = [String(i), cell(name)];
    if (lat !== undefined) cells.push(cell(lat));
    if (lon !== undefined) cells.push(cell(lon));
    if (lat !== undefined && lon !== undefined && r() < 0.5) cells.push('tail');
    rows.push({ raw: cells.join(','), lat, lon });
  }
  return rows;
}

export function writeCsv(
  file: string,
  rows: Row[],
  opts: { bom?: boolean; crlfEvery?: number; header?: string } = {},
): string {
  const every = opts.crlfEvery ?? 7;
  const text = `${(opts.bom ? '\uFEFF' : '') + (opts.header ?? 'id,name,latitude,longitude')}\n${rows.map((row, i) => row.raw + (i % every === 3 ? '\r\n' : '\n')).join('')}`;
  writeFileSync(file, text);
  return text;
}

/**
 * Checks every output row against its input row and the library (and with `timezone`, its
 * timezone cell against @geolookup/timezones); returns the counts.
 */
export function checkCsv(
  out: string,
  rows: Row[],
  fields: ('country' | 'subdivision')[] = ['country', 'subdivision'],
  header = 'id,name,latitude,longitude',
  opts: { timezone?: boolean; delimiter?: string; borders?: BorderColumns } = {},
) {
  const delimiter = opts.delimiter ?? ',';
  const parsed = readCsv(out.replace(/^\uFEFF/, ''), delimiter);
  const width = header.split(',').length;
  const b = opts.borders;
  const borderNames = b
    ? [
        ...(b.distance ? ['distance_m'] : []),
        ...(b.nearest ? ['nearest', 'nearest_m'] : []),
        ...(b.withinM !== null ? ['within'] : []),
      ]
    : [];
  const answers = [...fields, ...(opts.timezone ? ['timezone'] : []), ...borderNames];
  expect(parsed[0]).toEqual([...header.split(','), ...answers, 'error']);
  expect(parsed.length - 1).toBe(rows.length);
  const counts = { found: 0, notFound: 0, errors: 0 };
  for (let i = 0; i < rows.length; i++) {
    const got = parsed[i + 1];
    // A short row is padded to the header's width; a long row's extra fields follow the error cell.
    const input = readCsv(`${rows[i].raw}\n`, delimiter)[0];
    const padded = [...input.slice(0, width), ...Array<string>(Math.max(0, width - input.length)).fill('')];
    const want = expected(rows[i].lat, rows[i].lon);
    expect(got.slice(0, width), `row ${i}`).toEqual(padded);
    expect(got.slice(width + answers.length + 1), `row ${i}`).toEqual(input.slice(width));
    const cells = got.slice(width, width + answers.length + 1);
    const zone = opts.timezone ? [expectedZone(rows[i].lat, rows[i].lon) ?? ''] : [];
    const border = b ? expectedBorders(rows[i].lat, rows[i].lon, fields, b) : [];
    const wanted = [...fields.map((f) => want[f] ?? ''), ...zone, ...border, want.error ?? ''];
    if (JSON.stringify(cells) !== JSON.stringify(wanted))
      expect({ row: i, raw: rows[i].raw, cells }).toEqual({ row: i, raw: rows[i].raw, cells: wanted });
    if (want.error) counts.errors++;
    else if (want[fields[0]]) counts.found++;
    else counts.notFound++;
  }
  return counts;
}
