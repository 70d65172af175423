// The lookups allocate nothing: a double that crosses a call V8 did not inline, or flows through
// a branch merged with a constant, is boxed into a fresh heap number, which a heap-growth figure
// alone does not show, since the scavenger clears garbage.
// Here: a million lookups per operation, counted by the heap's used size and by the scavenges
// the GC reports while they run. A full collection before each count empties the young
// generation, so the few objects a loop may rightly make (a result array) cannot tip a nursery
// that vitest's own traffic left nearly full; it comes before the warm-up, since it may drop
// optimised code, and interpreted code boxes. Only collections that start inside the loop count,
// since the observer also sees whatever vitest allocates while the entries are delivered.
import { describe, expect, it } from 'vitest';
import {
  countryIndexes,
  isInCountry,
  isInSubdivision,
  preload,
  subdivisionIndexes,
  tryCountryFromGps,
  trySubdivisionFromGps,
} from '../../src/index.js';
import { cityPoints } from '../support/sample-points.js';

import { allocationOf, N } from '../support/allocation.js';

const p = cityPoints(50_000, 7);
const codes = Array.from(p.lat, (lat, i) => tryCountryFromGps(lat, p.lon[i]) ?? 'FRA');
const subs = Array.from(p.lat, (lat, i) => trySubdivisionFromGps(lat, p.lon[i]) ?? 'FR-IDF');
const m = p.lat.length;
const out = new Int32Array(m); // the typed-array forms' output, made once as a caller would

function viaGeneric(ops: [string, (k: number) => boolean][]): [string, () => number][] {
  const run = (fn: (k: number) => boolean) => () => {
    let n = 0;
    for (let k = 0; k < N; k++) if (fn(k % m)) n++;
    return n;
  };
  return ops.map(([name, fn]) => [`${name}, through a generic caller`, run(fn)]);
}

// One loop per operation, so each call site sees one function (as in a caller's own loop).
const loops: [string, () => number][] = [
  [
    'tryCountryFromGps',
    () => {
      let n = 0;
      for (let k = 0; k < N; k++) if (tryCountryFromGps(p.lat[k % m], p.lon[k % m]) !== null) n++;
      return n;
    },
  ],
  [
    'trySubdivisionFromGps',
    () => {
      let n = 0;
      for (let k = 0; k < N; k++) if (trySubdivisionFromGps(p.lat[k % m], p.lon[k % m]) !== null) n++;
      return n;
    },
  ],
  [
    'isInCountry',
    () => {
      let n = 0;
      for (let k = 0; k < N; k++) if (isInCountry(codes[k % m], p.lat[k % m], p.lon[k % m])) n++;
      return n;
    },
  ],
  [
    'isInSubdivision',
    () => {
      let n = 0;
      for (let k = 0; k < N; k++) if (isInSubdivision(subs[k % m], p.lat[k % m], p.lon[k % m])) n++;
      return n;
    },
  ],
  // Through a generic caller, as a harness or a request router calls lookups: one loop function
  // calling whichever closure it is given (megamorphic, so V8 optimises each closure on its own
  // and inlines less). A double boxed only where a call is not inlined shows here and not in the
  // direct loops above: the one-code isInSubdivision's box path, for one.
  ...viaGeneric([
    ['tryCountryFromGps', (k) => tryCountryFromGps(p.lat[k], p.lon[k]) !== null],
    ['trySubdivisionFromGps', (k) => trySubdivisionFromGps(p.lat[k], p.lon[k]) !== null],
    ['isInCountry', (k) => isInCountry(codes[k], p.lat[k], p.lon[k])],
    ['isInSubdivision', (k) => isInSubdivision(subs[k], p.lat[k], p.lon[k])],
    ['isInCountry (one code)', (k) => isInCountry('USA', p.lat[k], p.lon[k])],
    ['isInSubdivision (one code)', (k) => isInSubdivision('US-TX', p.lat[k], p.lon[k])],
  ]),
  [
    'countryIndexes (typed arrays)',
    () => {
      let n = 0;
      for (let k = 0; k < N; k += m) n += countryIndexes(p.lat, p.lon, out)[0];
      return n;
    },
  ],
  [
    'subdivisionIndexes (typed arrays)',
    () => {
      let n = 0;
      for (let k = 0; k < N; k += m) n += subdivisionIndexes(p.lat, p.lon, out)[0];
      return n;
    },
  ],
];

describe('no allocation per lookup', () => {
  preload();
  it.each(loops)(
    '%s: a million lookups grow the heap by under 100 kB (one boxed double in 50 lookups: 320 kB) and trigger no scavenge',
    async (_name, loop) => {
      const { growth, scavenges, found } = await allocationOf(loop);
      expect(found).toBeGreaterThan(0);
      expect(growth).toBeLessThan(1e5);
      expect(scavenges).toEqual([]);
    },
  );
});
