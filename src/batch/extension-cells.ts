// The extensions' columns of each row (geolookup/extend's BatchColumns): opened once per worker
// over the worker's own dataset, their values rendered as CSV cells or NDJSON members.

import type { BatchValue } from '../extend/extension.js';
import { findExtensions, openExtension } from '../extend/loader.js';
import type { GeoLookup } from '../lookup/engine.js';
import type { RowSettings } from './rows.js';

/** The values of every extension column of a row at a valid point, in settings order; null: none asked. */
export type ExtensionRow = ((latitude: number, longitude: number) => BatchValue[]) | null;

/**
 * Opens each extension settings.extensions names over `geo` (never the embedded pair: the batch
 * measures on the dataset it reads) and joins their rows(); a DataError or a missing package here
 * fails the run before any row goes out.
 */
export function extensionRow(settings: RowSettings, geo: () => GeoLookup): ExtensionRow {
  if (settings.extensions.length === 0) return null;
  const found = findExtensions();
  const fields = [
    ...(settings.country ? (['country'] as const) : []),
    ...(settings.subdivision ? (['subdivision'] as const) : []),
  ];
  const rows = settings.extensions.map((asked) => {
    const extension = found.find((e) => e.name === asked.name);
    if (!extension?.batch) throw new Error(`${asked.name} is not installed where this batch worker runs`);
    const opened = openExtension(extension, geo(), false);
    return extension.batch.rows(opened, asked.values, fields);
  });
  if (rows.length === 1) return rows[0] as NonNullable<ExtensionRow>;
  return (lat, lon) => rows.flatMap((row) => row(lat, lon));
}

/**
 * `render` of each value, remembered for text values (time zones, codes: a few hundred distinct
 * ones), so a row's cells cost a map lookup, not a string built per row.
 */
function memo(render: (v: BatchValue) => string): (v: BatchValue) => string {
  const seen = new Map<string, string>();
  return (v) => {
    if (typeof v !== 'string') return render(v);
    let r = seen.get(v);
    if (r === undefined) {
      r = render(v);
      if (seen.size < 65_536) seen.set(v, r);
    }
    return r;
  };
}

/** The CSV cells of a row's extension columns, each after its delimiter, then the error cell's delimiter. */
export function csvExtras(row: NonNullable<ExtensionRow>, d: string, cell: (s: string) => string) {
  const render = memo((v) => d + (v === null ? '' : cell(Array.isArray(v) ? v.join(' ') : String(v))));
  return (lat: number, lon: number): string => {
    const values = row(lat, lon);
    let s = '';
    for (let i = 0; i < values.length; i++) s += render(values[i]);
    return s + d;
  };
}

/** The NDJSON members of a row's extension columns: `,"name":value` each. */
export function ndjsonExtras(row: NonNullable<ExtensionRow>, names: readonly string[]) {
  const renders = names.map((n) => {
    const key = `,${JSON.stringify(n)}:`;
    return memo((v) => key + JSON.stringify(v));
  });
  return (lat: number, lon: number): string => {
    const values = row(lat, lon);
    let s = '';
    for (let i = 0; i < values.length; i++) s += renders[i](values[i]);
    return s;
  };
}
