// The slow path of an NDJSON row: JSON.parse, which also words the error, then the rule that
// finds the row's coordinates among its members (rowCoordinates).

import { LAT_NAMES, LON_NAMES } from './columns.js';
import type { NdjsonCells } from './ndjson-cells.js';
import { writtenMembers } from './ndjson-replace.js';
import { encoder, type RowSettings } from './rows.js';

/** Where readRow leaves what it read: the coordinate values (undefined: none) and whether answer members are there. */
export const read = { lat: undefined as unknown, lon: undefined as unknown, replaces: false };

/** The value at a member path (own members and array elements only), undefined where there is none. */
export function atPath(row: unknown, path: readonly (string | number)[]): unknown {
  let v = row;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** JSON.parse's reading of one line into `read`; the error for a line that is not a JSON object, else null. */
export function readRow(text: string, settings: RowSettings, cells: NdjsonCells): string | null {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch (e) {
    return `Row is not valid JSON: ${(e as Error).message}.`;
  }
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return 'Row is not a JSON object.';
  rowCoordinates(row as Record<string, unknown>, settings, cells);
  read.replaces = writtenMembers(settings).some((name) => Object.hasOwn(row, name));
  return null;
}

/**
 * The rule (docs/BATCH.md), per row and per coordinate: the top-level member --lat names
 * (exactly, else in any case; a dotted name the row has no member of spells a member path), or
 * without --lat the first of LAT_NAMES the row has in any case (the first such member); the same
 * for longitude. When that does not give both and neither name was given, a GeoJSON Point, or a
 * Feature whose geometry is one, gives [longitude, latitude]. What is missing stays undefined.
 */
function rowCoordinates(row: Record<string, unknown>, settings: RowSettings, cells: NdjsonCells): void {
  const keys = Object.keys(row);
  const latName = memberName(keys, settings.latKey, LAT_NAMES);
  const lonName = memberName(keys, settings.lonKey, LON_NAMES);
  const { latPath, lonPath } = settings;
  read.lat = latName !== null ? row[latName] : latPath !== null ? atPath(row, latPath) : undefined;
  read.lon = lonName !== null ? row[lonName] : lonPath !== null ? atPath(row, lonPath) : undefined;
  const named = settings.latKey !== '' || settings.lonKey !== '';
  const point = !named && (read.lat === undefined || read.lon === undefined) ? pointCoordinates(row) : null;
  if (point !== null) {
    read.lat = point[1];
    read.lon = point[0];
  }
  // The next rows most likely use the same names: the scanner looks for them.
  if (settings.latKey === '' && latName !== null && cells.latKey !== null) cells.latKey = learn(cells.latKey, latName);
  if (settings.lonKey === '' && lonName !== null && cells.lonKey !== null) cells.lonKey = learn(cells.lonKey, lonName);
}

/** The member a coordinate is read from: the name given, exactly, else in any case; no name, the first default present. */
function memberName(keys: string[], given: string, defaults: readonly string[]): string | null {
  if (given !== '') return keys.includes(given) ? given : anyCase(keys, given);
  for (const name of defaults) {
    const key = anyCase(keys, name);
    if (key !== null) return key;
  }
  return null;
}

function anyCase(keys: string[], name: string): string | null {
  const lower = name.toLowerCase();
  return keys.find((k) => k.toLowerCase() === lower) ?? null;
}

/** A GeoJSON Point's coordinates: the row's, or its geometry's when the row is a Feature; null for anything else. */
function pointCoordinates(row: object): unknown[] | null {
  const geometry = atPath(row, ['type']) === 'Feature' ? atPath(row, ['geometry']) : row;
  const coordinates = atPath(geometry, ['coordinates']);
  return atPath(geometry, ['type']) === 'Point' && Array.isArray(coordinates) ? coordinates : null;
}

/** The scanner's bytes for `name`, a default name in some case: ASCII, as no other character lower-cases to its letters. */
function learn(current: Uint8Array, name: string): Uint8Array {
  if (current.length === name.length && current.every((c, k) => c === name.charCodeAt(k))) return current;
  return encoder.encode(name);
}
