// deFactoAreaAt (src/lookup/de-facto.ts): its even-odd test against point-in-polygon-hao on generated
// polygons with holes, and, on the ISO fixture, that the build keeps no entry its data does not
// answer as written (the fixture draws none of the policy's areas) and that bad points are refused.
import pip from 'point-in-polygon-hao';
import { describe, expect, it } from 'vitest';
import { deFactoAreaAt, inPolygon } from '../../src/lookup/de-facto.js';
import { ValidationError } from '../../src/lookup/errors.js';
import { loadFixture } from '../fixtures/datasets.js';

/** A seeded xorshift generator in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** A star-shaped ring around (cx, cy): n vertices at random radii in [r0, r1], closed. */
function star(rnd: () => number, cx: number, cy: number, r0: number, r1: number, n: number, clockwise: boolean) {
  const ring: number[][] = [];
  for (let i = 0; i < n; i++) {
    const t = ((clockwise ? -i : i) / n) * 2 * Math.PI;
    const r = r0 + (r1 - r0) * rnd();
    ring.push([cx + r * Math.cos(t), cy + r * Math.sin(t)]);
  }
  ring.push(ring[0]);
  return ring;
}

describe('inPolygon', () => {
  it('agrees with point-in-polygon-hao on 200 generated polygons with holes, 100 points each', () => {
    const rnd = random(47);
    let inside = 0;
    for (let k = 0; k < 200; k++) {
      const cx = -170 + 340 * rnd();
      const cy = -80 + 160 * rnd();
      const polygon = [star(rnd, cx, cy, 2, 5, 3 + Math.floor(40 * rnd()), false)];
      if (rnd() < 0.5) polygon.push(star(rnd, cx, cy, 0.5, 1.5, 3 + Math.floor(10 * rnd()), true));
      for (let i = 0; i < 100; i++) {
        const x = cx - 6 + 12 * rnd();
        const y = cy - 6 + 12 * rnd();
        const reference = pip([x, y], polygon);
        if (reference === 0) continue; // on an edge: either answer is allowed
        expect(inPolygon(polygon, x, y), `${x}, ${y}`).toBe(reference);
        if (reference) inside++;
      }
    }
    // The points fall on both sides.
    expect(inside).toBeGreaterThan(3000);
    expect(inside).toBeLessThan(17000);
  });
});

describe('deFactoAreaAt on the ISO fixture', () => {
  const geo = loadFixture('iso');

  it('finds no area: the build keeps no entry whose point the fixture does not answer as written', () => {
    expect(geo.meta.deFacto ?? []).toEqual([]);
    expect(deFactoAreaAt(geo, 45, 34.1)).toBe(null);
    expect(deFactoAreaAt(geo, 60, 25)).toBe(null);
  });

  it('refuses a bad point as tryCountryFromGps does', () => {
    expect(() => deFactoAreaAt(geo, 91, 0)).toThrow(ValidationError);
    expect(() => deFactoAreaAt(geo, 'x', 0)).toThrow(ValidationError);
  });
});
