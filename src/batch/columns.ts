// Where the coordinates are: the CSV header's latitude and longitude columns (and its field
// separator when none is given), or the NDJSON members that hold them. The answer is the row
// settings every worker receives.

import { ValidationError } from '../lookup/errors.js';
import { firstRecordEnd, splitRecord } from './csv.js';
import { SNIFFED_DELIMITERS, startsWithBom } from './format.js';
import { JOB_BYTES } from './input.js';
import { atPath } from './ndjson.js';
import type { BatchField, BatchFormat, RowSettings } from './rows.js';

const LAT_NAMES = ['latitude', 'lat'];
const LON_NAMES = ['longitude', 'lon', 'lng', 'long'];

export interface ColumnOptions {
  /** Column (CSV) or member (NDJSON) names; default: LAT_NAMES / LON_NAMES, any case. */
  lat?: string;
  lon?: string;
  /** As given; when absent the CSV header decides. */
  delimiter?: string;
  fields: BatchField[];
}

export interface Columns {
  settings: RowSettings;
  /** CSV: the header to write first, with the answer columns' names appended; null for NDJSON. */
  header: Buffer | null;
  /** The first job's rows, the header taken off; null when there are none. */
  rows: Uint8Array | null;
  /** Input bytes the header took. */
  headerBytes: number;
}

/** The name as given (exact first, then any case), else the first default present in any case. */
function pickName(names: string[], wanted: string | undefined, defaults: string[]): string | null {
  const norm = names.map((n) => n.trim().toLowerCase());
  const candidates = wanted === undefined ? defaults : [wanted];
  if (wanted !== undefined && names.includes(wanted)) return wanted;
  for (const c of candidates) {
    const i = norm.indexOf(c.trim().toLowerCase());
    if (i >= 0) return names[i];
  }
  return null;
}

function missingColumn(
  what: string,
  flag: string,
  wanted: string | undefined,
  defaults: string[],
  where: string,
): ValidationError {
  const looked =
    wanted === undefined ? `looked for ${defaults.join(', ')}, any case; name it with ${flag}` : `no "${wanted}"`;
  return new ValidationError(`No ${what} column in ${where} (${looked}).`, { [flag.slice(2)]: [`no ${what} column`] });
}

/**
 * The settings for the first job of the input (null: an empty input), its CSV header read and
 * taken off; a ValidationError when the coordinates cannot be found.
 */
export function resolveColumns(
  first: Uint8Array | null,
  format: BatchFormat,
  delimiter: number,
  opts: ColumnOptions,
): Columns {
  const settings: RowSettings = {
    format,
    delimiter,
    headerFields: 0,
    latColumn: -1,
    lonColumn: -1,
    latKey: '',
    lonKey: '',
    latPath: null,
    lonPath: null,
    country: opts.fields.includes('country'),
    subdivision: opts.fields.includes('subdivision'),
    eol: '\n',
  };
  if (first === null) return { settings, header: null, rows: null, headerBytes: 0 };
  if (format === 'csv') return csvColumns(first, settings, opts);
  Object.assign(settings, ndjsonKeys(first, opts));
  return { settings, header: null, rows: first, headerBytes: 0 };
}

function csvColumns(job: Uint8Array, settings: RowSettings, opts: ColumnOptions): Columns {
  let headerEnd = firstRecordEnd(job);
  if (headerEnd < 0) headerEnd = job.length;
  let contentEnd = headerEnd;
  if (contentEnd > 0 && job[contentEnd - 1] === 10) contentEnd--;
  if (contentEnd > 0 && job[contentEnd - 1] === 13) contentEnd--;
  const bom = startsWithBom(job) ? 3 : 0;
  // Without --delimiter, the header decides: the first of , tab ; | that splits it into the
  // coordinate columns (spreadsheets in many locales export ';', TSV files use tabs).
  if (opts.delimiter === undefined) {
    const found = SNIFFED_DELIMITERS.find((d) => {
      const split = splitRecord(job, bom, contentEnd, d);
      return pickName(split, opts.lat, LAT_NAMES) !== null && pickName(split, opts.lon, LON_NAMES) !== null;
    });
    if (found !== undefined) settings.delimiter = found;
  }
  const names = splitRecord(job, bom, contentEnd, settings.delimiter);
  const latName = pickName(names, opts.lat, LAT_NAMES);
  if (latName === null)
    throw missingColumn('latitude', '--lat', opts.lat, LAT_NAMES, `the header (columns: ${names.join(', ')})`);
  const lonName = pickName(names, opts.lon, LON_NAMES);
  if (lonName === null)
    throw missingColumn('longitude', '--lon', opts.lon, LON_NAMES, `the header (columns: ${names.join(', ')})`);
  settings.headerFields = names.length;
  settings.latColumn = names.indexOf(latName);
  settings.lonColumn = names.indexOf(lonName);
  const eol = headerEnd > contentEnd ? Buffer.from(job.subarray(contentEnd, headerEnd)).toString('latin1') : '\n';
  settings.eol = eol;
  const d = String.fromCharCode(settings.delimiter);
  const added = [...(settings.country ? ['country'] : []), ...(settings.subdivision ? ['subdivision'] : []), 'error'];
  return {
    settings,
    header: Buffer.concat([job.subarray(0, contentEnd), Buffer.from(added.map((f) => d + f).join('') + eol)]),
    rows: headerEnd < job.length ? job.slice(headerEnd) : null,
    headerBytes: headerEnd,
  };
}

/** The line without the RFC 8142 record separators (0x1e) it starts with. */
function withoutRecordSeparators(line: string): string {
  let i = 0;
  while (line.charCodeAt(i) === 0x1e) i++;
  return line.slice(i);
}

type NdjsonKeys = Pick<RowSettings, 'latKey' | 'lonKey' | 'latPath' | 'lonPath'>;

/** `a.b.0` → ['a', 'b', 0]: digits name an array element. */
const memberPath = (name: string) => name.split('.').map((k) => (/^(0|[1-9]\d*)$/.test(k) ? Number(k) : k));

/** One coordinate in a row: its top-level member, else the path its dotted name spells. */
function findMember(
  row: object,
  keys: string[],
  wanted: string | undefined,
  defaults: string[],
  path: (string | number)[] | null,
): { key: string; path: (string | number)[] | null } | null {
  const key = pickName(keys, wanted, defaults);
  if (key !== null) return { key, path: null };
  if (path !== null && atPath(row, path) !== undefined) return { key: wanted!, path };
  return null;
}

/** A GeoJSON Point feature's coordinates, [longitude, latitude]. */
function isPointFeature(row: object): boolean {
  const geometry = atPath(row, ['geometry']) as { type?: unknown; coordinates?: unknown } | undefined;
  return atPath(row, ['type']) === 'Feature' && geometry?.type === 'Point' && Array.isArray(geometry.coordinates);
}

const POINT_KEYS: NdjsonKeys = {
  latKey: 'geometry.coordinates.1',
  lonKey: 'geometry.coordinates.0',
  latPath: ['geometry', 'coordinates', 1],
  lonPath: ['geometry', 'coordinates', 0],
};

/**
 * NDJSON coordinates, from the first object among the first lines that has them: top-level
 * members (as named, or the default names in any case); else, for names with dots, the member
 * path they spell (`--lat position.lat`); else, without names, a GeoJSON Point feature's
 * geometry.coordinates ([longitude, latitude]).
 */
function ndjsonKeys(job: Uint8Array, opts: ColumnOptions): NdjsonKeys {
  const text = new TextDecoder().decode(job.subarray(0, Math.min(job.length, JOB_BYTES)));
  const lines = text.split('\n').slice(0, 1000);
  const latPath = opts.lat?.includes('.') ? memberPath(opts.lat) : null;
  const lonPath = opts.lon?.includes('.') ? memberPath(opts.lon) : null;
  for (const line of lines) {
    let row: unknown;
    try {
      row = JSON.parse(withoutRecordSeparators(line)); // as processNdjson: record separators only
    } catch {
      continue;
    }
    if (!row || typeof row !== 'object' || Array.isArray(row)) continue;
    const keys = Object.keys(row);
    const lat = findMember(row, keys, opts.lat, LAT_NAMES, latPath);
    const lon = findMember(row, keys, opts.lon, LON_NAMES, lonPath);
    if (lat !== null && lon !== null) return { latKey: lat.key, lonKey: lon.key, latPath: lat.path, lonPath: lon.path };
    if (opts.lat === undefined && opts.lon === undefined && isPointFeature(row)) return { ...POINT_KEYS };
  }
  if (opts.lat !== undefined && opts.lon !== undefined) return { latKey: opts.lat, lonKey: opts.lon, latPath, lonPath };
  throw missingColumn(
    'latitude/longitude',
    '--lat',
    undefined,
    LAT_NAMES,
    'the first 1,000 NDJSON rows (nor GeoJSON Point features)',
  );
}
