// Browser / worker entry: no Node built-ins. The app fetches the world dataset and the borders file
// drawn from it, and hands over their bytes (or a lookup from geolookup/browser over the dataset).
// Its build maps the package's imports of 'geolookup' to 'geolookup/browser' (tsup.config.ts).

import { type BinaryInput, createGeoLookup, type GeoLookup } from 'geolookup/browser';
import { type BorderLookup, borderLookup } from './borders.js';
import { readBorders } from './read.js';

export { DEFAULT_MAX_KM, MAX_RADIUS_KM } from './borders.js';
export type { BorderLookup, DistanceOptions, NearestRegion, RegionsWithin } from './borders.js';
export type { BordersMeta } from './read.js';
export { INVALID_COORDINATE, NOT_FOUND } from 'geolookup/browser';

/**
 * The operations over `geo` (a lookup from geolookup/browser, or the dataset's bytes) and the bytes
 * of the borders file drawn from that dataset (e.g. `await (await fetch(url)).arrayBuffer()`).
 */
export function createBorderLookup(options: { geo: GeoLookup | BinaryInput; data: BinaryInput }): BorderLookup {
  const geo = isLookup(options.geo) ? options.geo : createGeoLookup(options.geo);
  return borderLookup(geo, readBorders(options.data), 'borders');
}

const isLookup = (g: unknown): g is GeoLookup => typeof (g as GeoLookup)?.countryFromGps === 'function';
