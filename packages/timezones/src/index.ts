// Node entry: the zone lookup over the package's dataset (dist-data/timezones.geolookup), loaded
// on first use, plus createTimeZoneLookup for another time-zone dataset file or its bytes.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BinaryInput, createGeoLookup, DataError, type DatasetMeta, type IndexArray } from 'geolookup';
import { type TimeZoneLookup, timeZoneLookup } from './zones.js';

export { OCEAN_ZONES } from './ocean.js';
export type { TimeZoneLookup } from './zones.js';

/** The dataset's seal (geolookup's createGeoLookup `seal`), recorded by tsup.config.ts at build; none in source runs. */
declare const __TIMEZONES_SEAL__: string | undefined;
const SEAL = typeof __TIMEZONES_SEAL__ === 'string' ? __TIMEZONES_SEAL__ : undefined;

/** dist-data/timezones.geolookup at the package root, beside dist/ and src/. */
export function timeZoneDataPath(): string {
  const url: unknown = import.meta.url;
  // CommonJS builds turn import.meta into {} and have a real __dirname.
  const dir = typeof url === 'string' && url.startsWith('file:') ? dirname(fileURLToPath(url)) : __dirname;
  return join(dir, '..', 'dist-data', 'timezones.geolookup');
}

/** The zone lookup over another time-zone dataset: a file path or the file's bytes. */
export function createTimeZoneLookup(options: { data: string | BinaryInput } | string | BinaryInput): TimeZoneLookup {
  return timeZoneLookup(createGeoLookup(options));
}

let embedded: TimeZoneLookup | null = null;

/** Loads the package's dataset now (otherwise the first lookup does). Returns the lookup. */
export function preloadTimeZones(): TimeZoneLookup {
  if (embedded) return embedded;
  const path = timeZoneDataPath();
  try {
    embedded = timeZoneLookup(createGeoLookup({ data: path, ...(SEAL ? { seal: SEAL } : {}) }));
  } catch (err) {
    if (err instanceof DataError)
      err.message +=
        ' (in a source checkout, `npm run build-data` builds it; in a bundled app, ship the file and use createTimeZoneLookup)';
    throw err;
  }
  return embedded;
}

export function timeZoneFromGps(latitude: number | string, longitude: number | string): string {
  return (embedded ?? preloadTimeZones()).timeZoneFromGps(latitude, longitude);
}
export function tryTimeZoneFromGps(latitude: number | string, longitude: number | string): string | null {
  return (embedded ?? preloadTimeZones()).tryTimeZoneFromGps(latitude, longitude);
}
export function timeZonesFromGps(latitude: number | string, longitude: number | string): readonly string[] {
  return (embedded ?? preloadTimeZones()).timeZonesFromGps(latitude, longitude);
}
export function timeZoneNames(): readonly string[] {
  return (embedded ?? preloadTimeZones()).timeZoneNames();
}
export function timeZoneIndexes(latitudes: Float64Array, longitudes: Float64Array, out?: IndexArray): IndexArray {
  return (embedded ?? preloadTimeZones()).timeZoneIndexes(latitudes, longitudes, out);
}
/** Sources (timezone-boundary-builder and its tzdata release, geo-tz), licences and build statistics. */
export function timeZoneDatasetInfo(): DatasetMeta & { tzdata: string } {
  const tz = embedded ?? preloadTimeZones();
  return { ...tz.meta, tzdata: tz.tzdata };
}
