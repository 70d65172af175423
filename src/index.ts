// Node entry: the four operations on the embedded dataset (dist-data/world.geolookup),
// loaded lazily and synchronously on first use, plus createGeoLookup for other datasets.

import { createGeoLookupFromBytes, type GeoLookup, lookupOf } from './lookup/engine.js';
import { resolve } from 'node:path';
import { fileIdentity, readLazily } from './node/lazy-records.js';
import { checkFor, defaultDataPath, type EmbeddedDataset, readFile, resolveDataPath } from './node/data-path.js';
import { type BinaryInput, sealOf } from './format/container.js';
import type { BBox } from './lookup/boxes.js';
import type { CountryInfo, DatasetMeta, SubdivisionInfo } from './format/dataset.js';

export * from './exports.js';
export {
  DATA_PATH_ENV,
  defaultDataPath,
  EMBEDDED_DATASETS,
  type EmbeddedDataset,
  resolveDataPath,
} from './node/data-path.js';
import type { IndexArray } from './lookup/typed-arrays.js';
import { geometryOf as geometryFrom, type MultiPolygon } from './export/geometry-of.js';
import { deFactoAreaAt as areaAt } from './lookup/de-facto.js';
import type { DeFactoArea } from './format/dataset.js';
import { type DissolvedRegion, dissolveLayer } from './export/dissolve.js';

export interface GeoLookupOptions {
  /**
   * A dataset the package ships, by name ('world', or 'lite': simplified borders, a few MB,
   * docs/LITE.md), a dataset file path (write './lite' for a file of that name), or its bytes.
   */
  data: EmbeddedDataset | string | BinaryInput;
  /**
   * For a package shipping its own dataset file (an extension's): the seal (sealOf) its
   * build recorded from that file. While the file at `data` carries it, the file is trusted as the
   * package's own are: records read on demand, pointer checks skipped (src/node/seal.ts).
   */
  seal?: string;
}

/** The four operations over another dataset: 'lite', a file path or the file's bytes. */
export function createGeoLookup(options: GeoLookupOptions | string | BinaryInput): GeoLookup {
  const data =
    typeof options === 'object' && options !== null && 'data' in options
      ? options.data
      : (options as string | BinaryInput);
  if (typeof data === 'string') {
    const path = resolveDataPath(data);
    const seal = (options as GeoLookupOptions).seal;
    const sealed = sealedLookup(path, seal === undefined ? undefined : (header) => sealOf(header) === seal);
    if (sealed) return sealed;
    const bytes = readFile(path);
    return createGeoLookupFromBytes(bytes, path, checkFor(path, bytes));
  }
  return createGeoLookupFromBytes(data, 'dataset');
}

// The package's own sealed files read their records on demand, one lookup per file (and version of
// it) in a process: a second doubles the memory, and V8 compiles the lookup code shared by two
// datasets slower for both (docs/PERFORMANCE.md, "One dataset per process").
const sealedLookups = new Map<string, { identity: string; lookup: WeakRef<GeoLookup> }>();

/** The lookup over a sealed file at `path`, the one made before while it lives and the file is unchanged; null for other files. */
function sealedLookup(path: string, sealed?: (header: Uint8Array) => boolean): GeoLookup | null {
  const key = resolve(path);
  const known = sealedLookups.get(key);
  const alive = known?.lookup.deref();
  if (alive && known?.identity === fileIdentity(key)) return alive;
  const lazy = readLazily(path, sealed);
  if (!lazy) return null;
  const lookup = lookupOf(lazy.bytes, path, 'none', lazy.pages);
  sealedLookups.set(key, { identity: lazy.identity, lookup: new WeakRef(lookup) });
  return lookup;
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
export function isInSubdivision(
  subdivisionCode: string,
  latitude: number | string,
  longitude: number | string,
): boolean {
  return (embedded ?? preload()).isInSubdivision(subdivisionCode, latitude, longitude);
}
export function tryCountryFromGps(latitude: number | string, longitude: number | string): string | null {
  return (embedded ?? preload()).tryCountryFromGps(latitude, longitude);
}
export function trySubdivisionFromGps(latitude: number | string, longitude: number | string): string | null {
  return (embedded ?? preload()).trySubdivisionFromGps(latitude, longitude);
}
/**
 * ISO 3166-1 countries (plus documented user-assigned codes) with names; `covered` says whether the
 * data has land for it.
 */
export function countries(): readonly CountryInfo[] {
  return (embedded ?? preload()).countries();
}
/** ISO 3166-2 subdivisions with names and parents; `covered` says whether lookups can return or test it. */
export function subdivisions(): readonly SubdivisionInfo[] {
  return (embedded ?? preload()).subdivisions();
}
/**
 * The area a country (alpha-3) or subdivision (ISO 3166-2, a parent giving the union of its
 * descendants) holds, as the lookups answer it, as a GeoJSON MultiPolygon; from the embedded
 * dataset or `lookup`'s. Computed when called: about 18 ms for Luxembourg, under 1 s for the
 * largest countries (npm run bench); the same errors as isInCountry / isInSubdivision for a bad code.
 */
export function geometryOf(code: string, lookup: GeoLookup = embedded ?? preload()): MultiPolygon {
  return geometryFrom(lookup, code);
}
/**
 * Every code of a layer ('country' or 'subdivision') as one dissolved GeoJSON MultiPolygon each,
 * from the embedded dataset or `lookup`'s: where the layer answers that code, regions never
 * overlapping. A generator: one region is made at a time, as the walk over the grid completes it.
 */
export function regionGeometries(
  layer: 'country' | 'subdivision',
  lookup: GeoLookup = embedded ?? preload(),
): Generator<DissolvedRegion> {
  return dissolveLayer(lookup, layer);
}
/**
 * The de facto area (datasetInfo().deFacto: Northern Cyprus, Western Sahara, Kosovo, …) the point
 * lies in, with what is answered there, who administers it and why; null elsewhere. Informative: it
 * changes no answer. The same errors as tryCountryFromGps for a bad point.
 */
export function deFactoAreaAt(
  latitude: number | string,
  longitude: number | string,
  lookup: GeoLookup = embedded ?? preload(),
): DeFactoArea | null {
  return areaAt(lookup, latitude, longitude);
}
/** Sources, versions, licences and build statistics of the embedded dataset. */
export function datasetInfo(): DatasetMeta {
  return (embedded ?? preload()).meta;
}

// Typed-array batch forms on the embedded dataset; see BatchLookup in src/lookup/typed-arrays.ts.
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
/**
 * Countries and subdivisions with a polygon part whose bounding box meets the box (a superset of those
 * the box touches).
 */
export function regionsInBox(
  minLongitude: number,
  minLatitude: number,
  maxLongitude: number,
  maxLatitude: number,
): { countries: string[]; subdivisions: string[] } {
  return (embedded ?? preload()).regionsInBox(minLongitude, minLatitude, maxLongitude, maxLatitude);
}
/**
 * Bounding box [minLon, minLat, maxLon, maxLat] of a country (land and territorial sea) or subdivision;
 * null when the data holds none of it.
 */
export function boundingBox(code: string): BBox | null {
  return (embedded ?? preload()).boundingBox(code);
}
