// Where no zone's area holds a point (the open sea, terra nullius), tbb's "all" product answers
// the nautical zone of its longitude: 15° bands centred on multiples of 15°, Etc/GMT-12 at the
// east edge to Etc/GMT+12 at the west. A point on a band edge gets both, the eastern first, and
// ±180° gets Etc/GMT+12 then Etc/GMT-12: geo-tz's rule (dist/find-all.js), kept for agreement.

const BANDS = 25;
/** Band k (0 = Etc/GMT-12, the easternmost; 24 = Etc/GMT+12) spans [LEFT[k], LEFT[k] + 15], clipped to ±180. */
const offset = (k: number) => 12 - k; // hours east of UTC
const name = (k: number) => (offset(k) === 0 ? 'Etc/GMT' : `Etc/GMT${offset(k) > 0 ? '-' : '+'}${Math.abs(offset(k))}`);
// Edges as typed arrays: a double read from one is never boxed (zones.ts, "allocates nothing").
const LEFT = Float64Array.from({ length: BANDS }, (_v, k) => (k === BANDS - 1 ? -180 : offset(k) * 15 - 7.5));
const RIGHT = Float64Array.from({ length: BANDS }, (_v, k) => (k === 0 ? 180 : offset(k) * 15 + 7.5));

/** Every ocean zone, east to west. */
export const OCEAN_ZONES: readonly string[] = Object.freeze(Array.from({ length: BANDS }, (_v, k) => name(k)));
const ONE = OCEAN_ZONES.map((z) => Object.freeze([z]));
/** On the west edge of band k: it and the band west of it. */
const EDGE = OCEAN_ZONES.map((z, k) => Object.freeze(k < BANDS - 1 ? [z, OCEAN_ZONES[k + 1]] : [z]));
const ANTIMERIDIAN = Object.freeze([OCEAN_ZONES[BANDS - 1], OCEAN_ZONES[0]]);

/** The band of a longitude in [-180, 180]: the easternmost holding it, as geo-tz scans them. */
export function oceanBand(lon: number): number {
  if (lon === 180 || lon === -180) return BANDS - 1;
  // The division may round across an edge; the edges themselves are exact doubles.
  let k = 12 - Math.floor((lon + 7.5) / 15);
  if (k < 0) k = 0;
  if (k > BANDS - 1) k = BANDS - 1;
  while (k > 0 && lon >= RIGHT[k]) k--;
  while (k < BANDS - 1 && lon < LEFT[k]) k++;
  return k;
}

/** Every ocean zone geo-tz lists at the longitude `point[1]`, in its order (a typed array: the double is not boxed). */
export function oceanZones(point: Float64Array): readonly string[] {
  const lon = point[1];
  if (lon === 180 || lon === -180) return ANTIMERIDIAN;
  const k = oceanBand(lon);
  return lon === LEFT[k] ? EDGE[k] : ONE[k];
}
