// Seeded test points for the PostGIS comparisons.

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Points {
  lats: Float64Array;
  lons: Float64Array;
}

/** Uniform on the sphere (equal area), longitudes in [-180, 180). */
export function randomOnSphere(n: number, rnd: () => number): Points {
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lons[i] = rnd() * 360 - 180;
    lats[i] = (Math.asin(2 * rnd() - 1) * 180) / Math.PI;
  }
  return { lats, lons };
}

const M_PER_DEG = 111_195;

/**
 * Points within `metres` of the given segments (flat [ax, ay, bx, by, …]):
 * a random segment weighted by count, a random place along it, then a random
 * offset of up to `metres` in each direction.
 */
export function nearSegments(segs: Float64Array, n: number, metres: number, rnd: () => number): Points {
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  const count = segs.length >> 2;
  for (let i = 0; i < n; i++) {
    const s = (rnd() * count) | 0;
    const t = rnd();
    const x = segs[4 * s] + (segs[4 * s + 2] - segs[4 * s]) * t;
    const y = segs[4 * s + 1] + (segs[4 * s + 3] - segs[4 * s + 1]) * t;
    const dy = ((rnd() * 2 - 1) * metres) / M_PER_DEG;
    const dx = ((rnd() * 2 - 1) * metres) / (M_PER_DEG * Math.max(0.01, Math.cos((y * Math.PI) / 180)));
    lats[i] = Math.max(-90, Math.min(90, y + dy));
    let lon = x + dx;
    if (lon >= 180) lon -= 360;
    if (lon < -180) lon += 360;
    lons[i] = lon;
  }
  return { lats, lons };
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

export function concat(parts: Points[]): Points {
  const n = parts.reduce((s, p) => s + p.lats.length, 0);
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  let o = 0;
  for (const p of parts) {
    lats.set(p.lats, o);
    lons.set(p.lons, o);
    o += p.lats.length;
  }
  return { lats, lons };
}

/** The lookup answers longitude 180 as -180; the export's rows end at 180 with a closed edge, so compare there. */
export function foldLongitude(lon: number): number {
  return lon === 180 ? -180 : lon;
}

export const QUANTISATION_BOUND_M = 0.155;
