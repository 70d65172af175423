// `--timezone`: the IANA time zone of every row, answered by the optional package
// @geolookup/timezones. The core neither depends on it nor bundles it: the main thread only
// resolves it (a missing package fails the run before any input is read), and each worker
// loads its CommonJS build by that path with createRequire and looks every row up in it.

import { createRequire } from 'node:module';
import { type CellTable, cellTable, encoder } from './rows.js';

export const TIMEZONES_PACKAGE = '@geolookup/timezones';

/** What the batch uses of @geolookup/timezones (its Node entry satisfies it). */
export interface TimeZoneSource {
  /** The zone of valid coordinates (the batch checked them): always a zone, Etc/GMT±N at sea. */
  timeZoneFromGps(latitude: number, longitude: number): string;
  /** Every zone an answer can name. */
  timeZoneNames(): readonly string[];
}

interface TimeZonesPackage extends TimeZoneSource {
  /** Loads the package's dataset now: a DataError here, not at the first row. */
  preloadTimeZones(): unknown;
}

/**
 * Where `pkg`'s CommonJS entry is, resolved from this module as the workers will load it. When the
 * package is not installed: an Error with code MODULE_NOT_FOUND (exit 1 in the CLI, no stack, as
 * `geolookup timezone` without it) naming the flag that needs it and the package to install.
 */
export function resolveExtension(pkg: string, flag: string): string {
  try {
    return createRequire(import.meta.url).resolve(pkg);
  } catch (e) {
    // Only the package itself missing; anything else (an entry not built) is its own error, as it is.
    if ((e as { code?: string }).code !== 'MODULE_NOT_FOUND' || !String(e).includes(`'${pkg}'`)) throw e;
    throw Object.assign(
      new Error(`${flag} needs ${pkg}, which is not installed; install it beside geolookup: npm install ${pkg}`, {
        cause: e,
      }),
      { code: 'MODULE_NOT_FOUND' },
    );
  }
}

/** The package at `path` (resolveExtension), its dataset loaded: run in each worker. */
export function loadTimeZones(path: string): TimeZoneSource {
  const tz = createRequire(path)(path) as TimeZonesPackage;
  tz.preloadTimeZones();
  return tz;
}

/** The time-zone source settings.timezone needs. */
export function needZones(zones: TimeZoneSource | null): TimeZoneSource {
  if (zones === null) throw new Error(`settings.timezone needs a time-zone source (${TIMEZONES_PACKAGE})`);
  return zones;
}

/** The cells of each zone (timeZoneNames() order), and the row's zone as a key into them. */
export interface ZoneCells extends CellTable {
  zoneOf(latitude: number, longitude: number): number;
}

/**
 * `render(zone)` of every zone the source can answer, in one cell table. The per-point form is
 * the one the row loops can use: they answer each row as they copy it, not in arrays of points.
 */
export function zoneCells(source: TimeZoneSource, render: (zone: string) => string): ZoneCells {
  const names = source.timeZoneNames();
  // The answers are the strings of the names table: the map reads their cached hash.
  const index = new Map(names.map((n, i) => [n, i]));
  return {
    ...cellTable(names.map((n) => encoder.encode(render(n)))),
    zoneOf(latitude, longitude) {
      const zone = source.timeZoneFromGps(latitude, longitude);
      const k = index.get(zone);
      if (k === undefined) throw new Error(`${TIMEZONES_PACKAGE} answered "${zone}", not one of its timeZoneNames()`);
      return k;
    },
  };
}

/**
 * Writes the zone cell of the point at byte `o` of `dv`, in whole words as the answer cells are
 * (the padding past it is overwritten by what follows); returns the offset after it.
 */
export function writeZone(zones: ZoneCells, dv: DataView, o: number, latitude: number, longitude: number): number {
  const z = zones.zoneOf(latitude, longitude);
  const from = zones.start[z];
  const n = zones.length[z];
  for (let j = 0; j < n; j += 4) dv.setUint32(o + j, zones.view.getUint32(from + j));
  return o + n;
}
