// Where the coordinates are: the CSV header's latitude and longitude columns (and its field
// separator when none is given), or the NDJSON members that hold them. The answer is the row
// settings every worker receives.

import { ValidationError } from '../lookup/errors.js';
import { nextRecordEnd, splitRecord } from './csv.js';
import { SNIFFED_DELIMITERS, startsWithBom } from './format.js';
import { type BatchField, type BatchFormat, extensionColumns, type RowExtension, type RowSettings } from './rows.js';

export const LAT_NAMES = ['latitude', 'lat'];
export const LON_NAMES = ['longitude', 'lon', 'lng', 'long'];

export interface ColumnOptions {
  /** Column (CSV) or member (NDJSON) names; default: LAT_NAMES / LON_NAMES, any case. */
  lat?: string;
  lon?: string;
  /** As given; when absent the CSV header decides. */
  delimiter?: string;
  fields: BatchField[];
  /** The extensions' columns after the fields' (--timezone, --distance, …). */
  extensions?: readonly RowExtension[];
}

export interface Columns {
  settings: RowSettings;
  /** CSV: the header to write first, with the answer columns' names appended; null for NDJSON. */
  header: Buffer | null;
  /** CSV: input bytes the header took (its terminator included); 0 for NDJSON. */
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

function baseSettings(format: BatchFormat, delimiter: number, opts: ColumnOptions): RowSettings {
  return {
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
    extensions: opts.extensions ?? [],
    eol: '\n',
  };
}

/**
 * True once `b` holds the whole CSV header under every delimiter the header may use (they
 * only differ when a quote opens a field), or at the end of input.
 */
export function csvHeaderRead(delimiter: string | undefined, given: number) {
  const candidates = delimiter === undefined ? SNIFFED_DELIMITERS : [given];
  return (b: Uint8Array, atEnd: boolean) => atEnd || candidates.every((d) => nextRecordEnd(b, bomLength(b), d) > 0);
}

const bomLength = (b: Uint8Array) => (startsWithBom(b) ? 3 : 0);

/**
 * The settings of a CSV input from its first bytes (at least the whole header, or all of a
 * shorter input), and the header to write; a ValidationError when the coordinates cannot be found.
 */
function csvColumns(first: Uint8Array, delimiter: number, opts: ColumnOptions): Columns {
  const settings = baseSettings('csv', delimiter, opts);
  const bom = bomLength(first);
  // Without --delimiter, the header decides: the first of , tab ; | that splits it into the
  // coordinate columns (spreadsheets in many locales export ';', TSV files use tabs).
  const headerFields = (d: number) => {
    const end = nextRecordEnd(first, bom, d, true);
    return splitRecord(first, bom, contentEnd(first, bom, Math.max(end, bom)), d);
  };
  if (opts.delimiter === undefined) {
    const found = SNIFFED_DELIMITERS.find((d) => {
      const split = headerFields(d);
      return pickName(split, opts.lat, LAT_NAMES) !== null && pickName(split, opts.lon, LON_NAMES) !== null;
    });
    if (found !== undefined) settings.delimiter = found;
  }
  const D = settings.delimiter;
  const names = headerFields(D);
  const latName = pickName(names, opts.lat, LAT_NAMES);
  if (latName === null)
    throw missingColumn('latitude', '--lat', opts.lat, LAT_NAMES, `the header (columns: ${names.join(', ')})`);
  const lonName = pickName(names, opts.lon, LON_NAMES);
  if (lonName === null)
    throw missingColumn('longitude', '--lon', opts.lon, LON_NAMES, `the header (columns: ${names.join(', ')})`);
  settings.headerFields = names.length;
  settings.latColumn = names.indexOf(latName);
  settings.lonColumn = names.indexOf(lonName);
  const headerEnd = Math.max(nextRecordEnd(first, bom, D, true), bom);
  const end = contentEnd(first, bom, headerEnd);
  // A last row with no terminator gets the header's.
  if (headerEnd > end) settings.eol = Buffer.from(first.subarray(end, headerEnd)).toString('latin1');
  const d = String.fromCharCode(D);
  const added = [
    ...(settings.country ? ['country'] : []),
    ...(settings.subdivision ? ['subdivision'] : []),
    ...extensionColumns(settings),
    'error',
  ];
  return {
    settings,
    header: Buffer.concat([first.subarray(0, end), Buffer.from(added.map((f) => d + f).join('') + settings.eol)]),
    headerBytes: headerEnd,
  };
}

/** Where the record [start, end) ends without its terminator (LF, CRLF or CR). */
function contentEnd(b: Uint8Array, start: number, end: number): number {
  if (end > start && b[end - 1] === 10) end--;
  if (end > start && b[end - 1] === 13) end--;
  return end;
}

/**
 * The settings for an input from its first bytes (null: an empty input): for CSV at least its
 * whole header (csvHeaderRead); NDJSON needs none (each row's members are found in that row).
 * A ValidationError when the coordinates cannot be found.
 */
export function resolveColumns(
  first: Uint8Array | null,
  format: BatchFormat,
  delimiter: number,
  opts: ColumnOptions,
): Columns {
  if (format === 'ndjson')
    return {
      settings: { ...baseSettings(format, delimiter, opts), ...ndjsonKeys(opts) },
      header: null,
      headerBytes: 0,
    };
  if (first === null) return { settings: baseSettings(format, delimiter, opts), header: null, headerBytes: 0 };
  return csvColumns(first, delimiter, opts);
}

type NdjsonKeys = Pick<RowSettings, 'latKey' | 'lonKey' | 'latPath' | 'lonPath'>;

/** `a.b.0` → ['a', 'b', 0]: digits name an array element. */
const memberPath = (name: string) => name.split('.').map((k) => (/^(0|[1-9]\d*)$/.test(k) ? Number(k) : k));

/**
 * The NDJSON members --lat and --lon name ('' when not given: the default names), with the
 * member path a dotted name spells. No row is read here: the workers find each row's
 * coordinates in that row (src/batch/ndjson.ts), so a row anywhere may name them its own way.
 */
function ndjsonKeys(opts: ColumnOptions): NdjsonKeys {
  for (const flag of ['lat', 'lon'] as const)
    if (opts[flag] === '')
      throw new ValidationError(`--${flag} must name a member, got "".`, { [flag]: ['empty member name'] });
  const path = (name: string | undefined) => (name?.includes('.') ? memberPath(name) : null);
  return { latKey: opts.lat ?? '', lonKey: opts.lon ?? '', latPath: path(opts.lat), lonPath: path(opts.lon) };
}
