// The lookups allocate nothing: a double that crosses a call V8 did not inline, or flows through
// a branch merged with a constant, is boxed into a fresh heap number (this happened twice, and
// the bench's heap-growth figure stayed flat through it, since the scavenger clears garbage).
// Here: a million lookups per operation, counted by the heap's used size and by the scavenges
// the GC reports while they run.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { countryIndexes, isInCountry, isInSubdivision, preload, subdivisionIndexes, tryCountryFromGps, trySubdivisionFromGps } from '../src/index.js';
import { cityPoints } from '../bench/points.js';

const N = 1_000_000;
const p = cityPoints(50_000, 7);
const codes = Array.from(p.lat, (lat, i) => tryCountryFromGps(lat, p.lon[i]) ?? 'FRA');
const subs = Array.from(p.lat, (lat, i) => trySubdivisionFromGps(lat, p.lon[i]) ?? 'FR-IDF');
const m = p.lat.length;

// One loop per operation, so each call site sees one function (as in a caller's own loop).
const loops: [string, () => number][] = [
  ['tryCountryFromGps', () => { let n = 0; for (let k = 0; k < N; k++) if (tryCountryFromGps(p.lat[k % m], p.lon[k % m]) !== null) n++; return n; }],
  ['trySubdivisionFromGps', () => { let n = 0; for (let k = 0; k < N; k++) if (trySubdivisionFromGps(p.lat[k % m], p.lon[k % m]) !== null) n++; return n; }],
  ['isInCountry', () => { let n = 0; for (let k = 0; k < N; k++) if (isInCountry(codes[k % m], p.lat[k % m], p.lon[k % m])) n++; return n; }],
  ['isInSubdivision', () => { let n = 0; for (let k = 0; k < N; k++) if (isInSubdivision(subs[k % m], p.lat[k % m], p.lon[k % m])) n++; return n; }],
  ['countryIndexes (typed arrays)', () => { const out = new Int32Array(m); let n = 0; for (let k = 0; k < N; k += m) n += countryIndexes(p.lat, p.lon, out)[0]; return n; }],
  ['subdivisionIndexes (typed arrays)', () => { const out = new Int32Array(m); let n = 0; for (let k = 0; k < N; k += m) n += subdivisionIndexes(p.lat, p.lon, out)[0]; return n; }],
];

describe('no allocation per lookup', () => {
  preload();
  it.each(loops)('%s: a million lookups grow the heap by under 1 MB (boxing would be 16-32 MB) and trigger no scavenge', async (_name, loop) => {
    for (let r = 0; r < 3; r++) loop(); // optimise first: unoptimised code boxes by design
    await new Promise((r) => setTimeout(r, 10));
    let scavenges = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if ((e as { detail?: { kind?: number } }).detail?.kind === 1) scavenges++;
    });
    obs.observe({ entryTypes: ['gc'] });
    const before = getHeapStatistics().used_heap_size;
    const found = loop();
    const after = getHeapStatistics().used_heap_size;
    await new Promise((r) => setTimeout(r, 10));
    obs.disconnect();
    expect(found).toBeGreaterThan(0);
    expect(after - before).toBeLessThan(1e6);
    expect(scavenges).toBe(0);
  });
});
