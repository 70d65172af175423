// Node entry: the border operations over geolookup's world dataset and this package's borders file
// (dist-data/world.borders), loaded on first use, plus createBorderLookup for another pair.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BinaryInput, createGeoLookup, DataError, type GeoLookup, preload } from 'geolookup';
import {
  type BorderLookup,
  borderLookup,
  type DistanceOptions,
  type NearestRegion,
  type RegionsWithin,
} from './borders.js';
import { type BordersMeta, readBorders } from './read.js';

export { DEFAULT_MAX_KM, MAX_RADIUS_KM } from './borders.js';
export { INVALID_COORDINATE, NOT_FOUND } from 'geolookup';
export type { BorderLookup, DistanceOptions, NearestRegion, RegionsWithin } from './borders.js';
export type { BordersMeta } from './read.js';

/** dist-data/world.borders at the package root, beside dist/ and src/. */
export function bordersDataPath(): string {
  const url: unknown = import.meta.url;
  // CommonJS builds turn import.meta into {} and have a real __dirname.
  const dir = typeof url === 'string' && url.startsWith('file:') ? dirname(fileURLToPath(url)) : __dirname;
  return join(dir, '..', 'dist-data', 'world.borders');
}

function read(data: string | BinaryInput): ReturnType<typeof readBorders> {
  if (typeof data !== 'string') return readBorders(data);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(data);
  } catch (e) {
    throw new DataError(`${data}: cannot read the borders file (${(e as Error).message})`);
  }
  return readBorders(bytes, data);
}

/**
 * The operations over `geo` (a lookup, or a dataset file path or bytes for createGeoLookup) and a
 * borders file drawn from that dataset (a path or its bytes).
 */
export function createBorderLookup(options: {
  geo: GeoLookup | string | BinaryInput;
  data: string | BinaryInput;
}): BorderLookup {
  const geo = isLookup(options.geo) ? options.geo : createGeoLookup(options.geo);
  return borderLookup(geo, read(options.data), typeof options.data === 'string' ? options.data : 'borders');
}

const isLookup = (g: unknown): g is GeoLookup => typeof (g as GeoLookup)?.countryFromGps === 'function';

let embedded: BorderLookup | null = null;

/** Loads the world dataset and this package's borders now (otherwise the first call does). */
export function preloadBorders(): BorderLookup {
  if (embedded) return embedded;
  const path = bordersDataPath();
  try {
    embedded = borderLookup(preload(), read(path), path);
  } catch (err) {
    if (err instanceof DataError)
      err.message +=
        ' (in a source checkout, `npm run build-data` builds it; in a bundled app, ship the file and use createBorderLookup)';
    throw err;
  }
  return embedded;
}

export function distanceToBorder(
  latitude: number | string,
  longitude: number | string,
  options?: DistanceOptions,
): number | null {
  return (embedded ?? preloadBorders()).distanceToBorder(latitude, longitude, options);
}
export function nearestCountry(
  latitude: number | string,
  longitude: number | string,
  options?: { maxKm?: number },
): NearestRegion {
  return (embedded ?? preloadBorders()).nearestCountry(latitude, longitude, options);
}
export function nearestSubdivision(
  latitude: number | string,
  longitude: number | string,
  options?: { maxKm?: number },
): NearestRegion {
  return (embedded ?? preloadBorders()).nearestSubdivision(latitude, longitude, options);
}
export function regionsWithin(latitude: number | string, longitude: number | string, radiusM: number): RegionsWithin {
  return (embedded ?? preloadBorders()).regionsWithin(latitude, longitude, radiusM);
}
export function distancesToBorder(
  latitudes: Float64Array,
  longitudes: Float64Array,
  options?: DistanceOptions,
  out?: Float64Array,
): Float64Array {
  return (embedded ?? preloadBorders()).distancesToBorder(latitudes, longitudes, options, out);
}
export function nearestCountryIndexes(
  latitudes: Float64Array,
  longitudes: Float64Array,
  options?: { maxKm?: number },
  out?: Int32Array,
  distances?: Float64Array,
): Int32Array {
  return (embedded ?? preloadBorders()).nearestCountryIndexes(latitudes, longitudes, options, out, distances);
}
export function nearestSubdivisionIndexes(
  latitudes: Float64Array,
  longitudes: Float64Array,
  options?: { maxKm?: number },
  out?: Int32Array,
  distances?: Float64Array,
): Int32Array {
  return (embedded ?? preloadBorders()).nearestSubdivisionIndexes(latitudes, longitudes, options, out, distances);
}

/** The borders file's metadata: the dataset its lines were drawn from (name, seal), its parameters and sources. */
export function bordersDatasetInfo(): BordersMeta {
  return (embedded ?? preloadBorders()).meta;
}
