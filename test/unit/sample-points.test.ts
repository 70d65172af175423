// The tests' seeded samplers (test/support/sample-points.ts): the same seed, the same points.
import { describe, expect, it } from 'vitest';
import { joinPoints, prng, segmentPoints, spherePoints } from '../support/sample-points.js';

describe('prng', () => {
  it('gives the same numbers in [0, 1) for the same seed, taken modulo 2^32', () => {
    const a = prng(42);
    const b = prng(42);
    const c = prng(42 + 2 ** 32);
    for (let i = 0; i < 1000; i++) {
      const v = a();
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
      expect(b()).toBe(v);
      expect(c()).toBe(v);
    }
    expect(prng(1)()).not.toBe(prng(2)());
  });
  it('is mulberry32: its first outputs for seed 1 are those of the published function', () => {
    const r = prng(1);
    expect([r(), r(), r()].map((v) => Math.round(v * 2 ** 32))).toEqual([2693262067, 11749833, 2265367787]);
  });
});

describe('samplers', () => {
  it('spherePoints: a seed or a generator, in range, and half the points in each hemisphere', () => {
    const p = spherePoints(4000, 7);
    expect(spherePoints(4000, prng(7))).toEqual(p);
    expect(p.lat.every((v) => v >= -90 && v <= 90) && p.lon.every((v) => v >= -180 && v < 180)).toBe(true);
    const north = p.lat.filter((v) => v > 0).length;
    expect(Math.abs(north - 2000)).toBeLessThan(150);
  });
  it('segmentPoints stays within the distance of the segments and wraps at the antimeridian', () => {
    const p = segmentPoints(Float64Array.from([179.99, 0, 179.99, 1]), 500, 5000, 3);
    expect(p.lon.some((v) => v < 0)).toBe(true);
    expect(p.lon.every((v) => v >= 179.9 || v <= -179.9)).toBe(true);
    expect(p.lat.every((v) => v > -0.05 && v < 1.05)).toBe(true);
  });
  it('joinPoints keeps the order', () => {
    const a = spherePoints(3, 1);
    const b = spherePoints(2, 2);
    const j = joinPoints([a, b]);
    expect([...j.lat]).toEqual([...a.lat, ...b.lat]);
    expect([...j.lon]).toEqual([...a.lon, ...b.lon]);
  });
});
