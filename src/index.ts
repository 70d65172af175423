// Node entry: the four operations on the embedded dataset (dist-data/world.geolookup),
// loaded lazily and synchronously on first use, plus createGeoLookup for other datasets.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGeoLookupFromBytes, type GeoLookup } from './engine.js';
import { DataError } from './errors.js';
import type { BinaryInput } from './container.js';
import type { BBox } from './boxes.js';
import type { CountryInfo, DatasetMeta, SubdivisionInfo } from './dataset.js';

export * from './errors.js';
export type { GeoLookup } from './engine.js';
export type { BBox, BoxQueries } from './boxes.js';
export type { CountryInfo, SubdivisionInfo, DatasetMeta, SourceInfo } from './dataset.js';
export type { BinaryInput } from './container.js';
export { NOT_FOUND, INVALID_COORDINATE, type BatchLookup, type IndexArray } from './batch.js';
import type { IndexArray } from './batch.js';

export interface GeoLookupOptions {
  /** A dataset file path, or its bytes (Buffer, Uint8Array, ArrayBuffer). */
  data: string | BinaryInput;
}

/** Environment variable naming the dataset file, for apps whose bundler leaves dist-data/ behind. */
export const DATA_PATH_ENV = 'GEOLOOKUP_DATA';

const FIX_HINT =
  `set ${DATA_PATH_ENV} to the path of world.geolookup, or pass its bytes: createGeoLookup(readFileSync(path))`;

/**
 * The folder of this module. import.meta.url first: `node -e` and the REPL define a global
 * __dirname ('.') that an ES module would otherwise pick up. CommonJS builds (tsup, esbuild)
 * turn import.meta into {}, and have a real __dirname.
 */
function moduleDir(): string {
  const url: unknown = import.meta.url;
  if (typeof url === 'string' && url.startsWith('file:')) return dirname(fileURLToPath(url));
  if (typeof __dirname === 'string') return __dirname;
  throw new DataError(`cannot locate the embedded dataset from this module (${String(url)}): ${FIX_HINT}`);
}

/**
 * $GEOLOOKUP_DATA when set; else dist-data/world.geolookup at the package root, beside src/
 * and dist/ (entries built into dist/<name>/, such as client and server, are one level deeper,
 * so look up to two levels up); else a dist-data/ shipped beside a bundled app's file.
 */
export function defaultDataPath(): string {
  const fromEnv = process.env[DATA_PATH_ENV];
  if (fromEnv) return fromEnv;
  const candidates = defaultCandidates();
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

function defaultCandidates(): string[] {
  const here = moduleDir();
  return [join(here, '..', 'dist-data', 'world.geolookup'), join(here, '..', '..', 'dist-data', 'world.geolookup'), join(here, 'dist-data', 'world.geolookup')];
}

/** Why the default dataset is missing and what to do, for the DataError that reports it. */
function defaultDataHint(path: string): string {
  let isDefault = false;
  try {
    isDefault = path === defaultDataPath();
  } catch {
    // no default location in this environment: the path came from the caller
  }
  if (!isDefault) return '';
  if (process.env[DATA_PATH_ENV]) return ` (from ${DATA_PATH_ENV})`;
  return (
    ` (the embedded dataset was looked for at ${defaultCandidates().join(', ')}; in a source checkout run \`npm run build-data\`;` +
    ` in a bundled app (esbuild, webpack, Electron) ship the file and ${FIX_HINT})`
  );
}

function readFile(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DataError(`${path}: cannot read dataset (${code ?? String(err)})${defaultDataHint(path)}`, { cause: err });
  }
}

/** The four operations over another dataset: a file path or the file's bytes. */
export function createGeoLookup(options: GeoLookupOptions | string | BinaryInput): GeoLookup {
  const data = typeof options === 'object' && options !== null && 'data' in options ? options.data : (options as string | BinaryInput);
  if (typeof data === 'string') return createGeoLookupFromBytes(readFile(data), data);
  return createGeoLookupFromBytes(data, 'dataset');
}

let embedded: GeoLookup | null = null;

/** Loads the embedded dataset now (otherwise the first lookup does). Returns the lookup. */
export function preload(): GeoLookup {
  if (!embedded) embedded = createGeoLookup(defaultDataPath());
  return embedded;
}

export function countryFromGps(latitude: number | string, longitude: number | string): string {
  return (embedded ?? preload()).countryFromGps(latitude, longitude);
}
export function subdivisionFromGps(latitude: number | string, longitude: number | string): string {
  return (embedded ?? preload()).subdivisionFromGps(latitude, longitude);
}
export function isInCountry(countryCode: string, latitude: number | string, longitude: number | string): boolean {
  return (embedded ?? preload()).isInCountry(countryCode, latitude, longitude);
}
export function isInSubdivision(subdivisionCode: string, latitude: number | string, longitude: number | string): boolean {
  return (embedded ?? preload()).isInSubdivision(subdivisionCode, latitude, longitude);
}
export function tryCountryFromGps(latitude: number | string, longitude: number | string): string | null {
  return (embedded ?? preload()).tryCountryFromGps(latitude, longitude);
}
export function trySubdivisionFromGps(latitude: number | string, longitude: number | string): string | null {
  return (embedded ?? preload()).trySubdivisionFromGps(latitude, longitude);
}
/** ISO 3166-1 countries (plus documented user-assigned codes) with names; `covered` says whether the data has land for it. */
export function countries(): readonly CountryInfo[] {
  return (embedded ?? preload()).countries();
}
/** ISO 3166-2 subdivisions with names and parents; `covered` says whether lookups can return or test it. */
export function subdivisions(): readonly SubdivisionInfo[] {
  return (embedded ?? preload()).subdivisions();
}
/** Sources, versions, licences and build statistics of the embedded dataset. */
export function datasetInfo(): DatasetMeta {
  return (embedded ?? preload()).meta;
}

// Typed-array batch forms on the embedded dataset; see BatchLookup in src/batch.ts.
/** Country index per point into countryCodes(); NOT_FOUND (-1) or INVALID_COORDINATE (-2) otherwise. */
export function countryIndexes(latitudes: Float64Array, longitudes: Float64Array, out?: IndexArray): IndexArray {
  return (embedded ?? preload()).countryIndexes(latitudes, longitudes, out);
}
/** Subdivision index per point into subdivisionCodes(); NOT_FOUND (-1) or INVALID_COORDINATE (-2) otherwise. */
export function subdivisionIndexes(latitudes: Float64Array, longitudes: Float64Array, out?: IndexArray): IndexArray {
  return (embedded ?? preload()).subdivisionIndexes(latitudes, longitudes, out);
}
/** Country code per point, null where none; ValidationError for an invalid point. */
export function countriesFromGps(latitudes: Float64Array, longitudes: Float64Array): (string | null)[] {
  return (embedded ?? preload()).countriesFromGps(latitudes, longitudes);
}
/** Subdivision code per point, null where none; ValidationError for an invalid point. */
export function subdivisionsFromGps(latitudes: Float64Array, longitudes: Float64Array): (string | null)[] {
  return (embedded ?? preload()).subdivisionsFromGps(latitudes, longitudes);
}
/** The code table countryIndexes points into. */
export function countryCodes(): readonly string[] {
  return (embedded ?? preload()).countryCodes();
}
/** The code table subdivisionIndexes points into. */
export function subdivisionCodes(): readonly string[] {
  return (embedded ?? preload()).subdivisionCodes();
}
/** Countries and subdivisions with a polygon part whose bounding box meets the box (a superset of those the box touches). */
export function regionsInBox(minLongitude: number, minLatitude: number, maxLongitude: number, maxLatitude: number): { countries: string[]; subdivisions: string[] } {
  return (embedded ?? preload()).regionsInBox(minLongitude, minLatitude, maxLongitude, maxLatitude);
}
/** Bounding box [minLon, minLat, maxLon, maxLat] of a country (land and territorial sea) or subdivision; null when the data holds none of it. */
export function boundingBox(code: string): BBox | null {
  return (embedded ?? preload()).boundingBox(code);
}
