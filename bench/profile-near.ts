// Profiling aid: near-city country lookups in a loop (node --cpu-prof --import tsx bench/profile-near.ts).
import { preload, tryCountryFromGps } from '../src/index.js';
import { cityPoints } from './points.js';

preload();
const p = cityPoints(200_000);
let found = 0;
const t0 = performance.now();
for (let rep = 0; rep < 20; rep++)
  for (let i = 0; i < p.lat.length; i++) if (tryCountryFromGps(p.lat[i], p.lon[i])) found++;
console.log(`${((20 * p.lat.length) / (performance.now() - t0) / 1e3).toFixed(2)} M/s`, found);
