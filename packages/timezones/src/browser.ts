// Browser / worker entry: no Node built-ins; the app fetches timezones.geolookup and hands over its bytes.

import { type BinaryInput, createGeoLookup } from 'geolookup/browser';
import { type TimeZoneLookup, timeZoneLookup } from './zones.js';

export { OCEAN_ZONES } from './ocean.js';
export type { TimeZoneLookup } from './zones.js';

/** The zone lookup over the dataset's bytes (e.g. `await (await fetch(url)).arrayBuffer()`). */
export function createTimeZoneLookup(options: { data: BinaryInput } | BinaryInput): TimeZoneLookup {
  return timeZoneLookup(createGeoLookup(options));
}
