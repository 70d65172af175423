// The time zone of a point over a time-zone dataset: a custom-zone geolookup dataset whose zone
// names list IANA zones (build-data/timezones/), and the ocean rule (ocean.ts) where none holds.
// Answers are strings from tables made at load, so a lookup allocates nothing.

import type { DatasetMeta, GeoLookup, IndexArray } from 'geolookup';
import { OCEAN_ZONES, oceanZones } from './ocean.js';

/** geolookup's INVALID_COORDINATE and NOT_FOUND index values (typed-array forms). */
const INVALID_COORDINATE = -2;
const NOT_FOUND = -1;

/** geo-tz's extent: it looks farther points up on this edge. */
const MAX_LAT = 89.9999;
const MAX_LON = 179.9999;

export interface TimeZoneLookup {
  /** The IANA zone at the point (Etc/GMT±N at sea); where zones overlap, the first timeZonesFromGps lists. */
  timeZoneFromGps(latitude: number | string, longitude: number | string): string;
  /**
   * The library's try-form, for code written against its operations: the same answer, since the
   * ocean zones leave no valid point without one; bad input throws ValidationError as everywhere.
   */
  tryTimeZoneFromGps(latitude: number | string, longitude: number | string): string | null;
  /** Every zone at the point, in geo-tz's order: two or more where tbb's zones overlap (Kashgar). */
  timeZonesFromGps(latitude: number | string, longitude: number | string): readonly string[];
  /** Every zone an answer can name, sorted: the table timeZoneIndexes points into. */
  timeZoneNames(): readonly string[];
  /**
   * The zone of every point as an index into timeZoneNames(); -2 (INVALID_COORDINATE) for NaN,
   * ±Infinity or out-of-range input. Writes into `out` when given, else into a new Int16Array.
   */
  timeZoneIndexes(latitudes: Float64Array, longitudes: Float64Array, out?: IndexArray): IndexArray;
  /** The tzdata release the boundaries were drawn for ("2026d"). */
  readonly tzdata: string;
  /** Sources, licences and build statistics of the dataset (geolookup's DatasetMeta). */
  readonly meta: DatasetMeta;
}

/** The zone lookup over `geo`, a dataset built by build-data/timezones/ (or any custom build named so). */
export function timeZoneLookup(geo: GeoLookup): TimeZoneLookup {
  const codes = geo.countryCodes();
  const infos = geo.countries();
  // By zone code index: every zone there, in order; names hold them space-separated (zones-file.ts).
  const zonesByIndex: readonly (readonly string[])[] = codes.map((_c, i) => Object.freeze(infos[i].name.split(' ')));
  const firstZone = zonesByIndex.map((z) => z[0]);
  const indexOf = new Map(codes.map((c, i) => [c, i]));
  const names = [...new Set([...zonesByIndex.flat(), ...OCEAN_ZONES])].sort();
  const nameIndex = new Map(names.map((n, i) => [n, i]));
  const codeToName = Int32Array.from(firstZone, (z) => nameIndex.get(z)!);
  const allOcean = Object.freeze([...OCEAN_ZONES]);
  const tbb = geo.meta.sources.find((s) => s.name === 'timezone-boundary-builder');

  // The point goes to the library's typed-array form over one point in `at`: no double crosses a
  // call V8 may not inline, where it would be boxed (packages/timezones/test/timezones.test.ts, "allocates
  // nothing"). Strings and bad input take the library's own lookup, which parses or throws.
  const at = new Float64Array(2);
  const atLat = at.subarray(0, 1);
  const atLon = at.subarray(1, 2);
  const found = new Int32Array(1);

  /**
   * The zone code index at `at`, or -1 where none. Input that is not a valid pair of plain
   * numbers (decimal strings, bad input) goes through the library's own lookup, which parses it
   * into `at` or throws its error; `lat`/`lon` are only read then.
   */
  function codeAt(lat: unknown, lon: unknown): number {
    const c = geo.countryIndexes(atLat, atLon, found)[0];
    if (c !== INVALID_COORDINATE) return c;
    const code = geo.tryCountryFromGps(lat as string, lon as string); // throws for bad input
    at[0] = Number(lat); // valid, so a decimal string reads as the library read it
    at[1] = Number(lon);
    return code === null ? NOT_FOUND : indexOf.get(code)!;
  }

  // The entry points only store the point (NaN for a string, so codeAt takes the library's path):
  // the doubles stop at the first call.
  function timeZoneFromGps(lat: number | string, lon: number | string): string {
    at[0] = typeof lat === 'number' ? lat : Number.NaN;
    at[1] = typeof lon === 'number' ? lon : Number.NaN;
    return firstAt(lat, lon);
  }

  function firstAt(lat: unknown, lon: unknown): string {
    const c = codeAt(lat, lon);
    return c >= 0 && at[1] !== 180 ? firstZone[c] : zonesAt()[0];
  }

  function timeZonesFromGps(lat: number | string, lon: number | string): readonly string[] {
    at[0] = typeof lat === 'number' ? lat : Number.NaN;
    at[1] = typeof lon === 'number' ? lon : Number.NaN;
    return allAt(lat, lon);
  }

  function allAt(lat: unknown, lon: unknown): readonly string[] {
    const c = codeAt(lat, lon);
    return c >= 0 && at[1] !== 180 ? zonesByIndex[c] : zonesAt();
  }

  /**
   * The zones at `at` where the lookup found none, or at 180° (which the library folds to -180°).
   * geo-tz clamps a point to ±89.9999° × ±179.9999°, where its quad tree ends; the pieces reaching
   * that edge were widened to the globe's (zones-file.ts), so the clamped point lies inside them.
   */
  function zonesAt(): readonly string[] {
    const lat = at[0];
    const lon = at[1];
    if (lat === 90) return allOcean; // the north pole: every band meets there
    const y = Math.min(MAX_LAT, Math.max(-MAX_LAT, lat));
    const x = Math.min(MAX_LON, Math.max(-MAX_LON, lon));
    if (y !== lat || x !== lon) {
      const code = geo.tryCountryFromGps(y, x);
      if (code !== null) return zonesByIndex[indexOf.get(code)!];
    }
    return oceanZones(at);
  }

  return {
    tzdata: tbb?.version ?? 'unknown',
    meta: geo.meta,
    timeZoneFromGps,
    tryTimeZoneFromGps: timeZoneFromGps,
    timeZonesFromGps,
    timeZoneNames: () => names,
    timeZoneIndexes(lats, lons, out) {
      const res = geo.countryIndexes(lats, lons, out); // validates the arrays, marks invalid points
      for (let i = 0; i < res.length && i < lats.length; i++) {
        const c = res[i];
        if (c === INVALID_COORDINATE) continue;
        if (c === NOT_FOUND || lons[i] === 180) {
          // zonesAt reads `at`: the points are plain numbers here.
          at[0] = lats[i];
          at[1] = lons[i];
          res[i] = nameIndex.get(zonesAt()[0])!;
        } else res[i] = codeToName[c];
      }
      return res;
    },
  };
}
