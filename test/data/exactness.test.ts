// The fast path against a brute-force oracle: point-in-polygon-hao on the
// source rings, with the same overlap policy (smaller part first, disputes by
// the policy table, inland-water holes filled, Antarctica dropped). Answers may
// differ only within the quantisation bound of the nearest boundary.
import Flatbush from 'flatbush';
import pip from 'point-in-polygon-hao';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSources, type Sources } from '../../build-data/sources/load.js';
import { makeConfig } from '../../build-data/config.js';
import type { Part } from '../../build-data/sources/parts.js';
import { preload, tryCountryFromGps } from '../../src/index.js';
import { prng, QUANTISATION_BOUND_M, spherePoints } from '../support/sample-points.js';

const RANDOM = Number(process.env.EXACT_RANDOM ?? 200_000);
const NEAR = Number(process.env.EXACT_NEAR ?? 60_000);
// Larger opt-in runs: EXACT_RANDOM=1000000 EXACT_NEAR=1000000 npx vitest run test/data/exactness.test.ts

let src: Sources;
let fb: Flatbush;
const positions = new Map<Part, number[][][]>();

function ringsOf(p: Part): number[][][] {
  let r = positions.get(p);
  if (!r) {
    r = p.rings.map((ring) => {
      const out: number[][] = [];
      for (let i = 0; i < ring.length; i += 2) out.push([ring[i], ring[i + 1]]);
      out.push([ring[0], ring[1]]);
      return out;
    });
    positions.set(p, r);
  }
  return r;
}

function oracle(lat: number, lon: number): string | null {
  let best: Part | null = null;
  for (const id of fb.search(lon, lat, lon, lat)) {
    const p = src.countryParts[id];
    if (best && p.rank > best.rank) continue;
    if (pip([lon, lat], ringsOf(p)) !== false) best = p;
  }
  return best ? src.countries[best.country].code : null;
}

/** Metres from the point to the nearest edge of any part whose box is near it. */
function distanceToBoundary(lat: number, lon: number): number {
  const cos = Math.cos((lat * Math.PI) / 180);
  const pad = 0.01;
  let best = Infinity;
  for (const id of fb.search(lon - pad, lat - pad, lon + pad, lat + pad)) {
    for (const r of src.countryParts[id].rings) {
      const n = r.length >> 1;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const ax = (r[2 * j] - lon) * cos,
          ay = r[2 * j + 1] - lat;
        const bx = (r[2 * i] - lon) * cos,
          by = r[2 * i + 1] - lat;
        const dx = bx - ax,
          dy = by - ay;
        const l2 = dx * dx + dy * dy;
        const t = l2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / l2)) : 0;
        best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy) * 111_195);
      }
    }
  }
  return best;
}

beforeAll(() => {
  src = loadSources(makeConfig(), fileURLToPath(new URL('../../build-data', import.meta.url)));
  fb = new Flatbush(src.countryParts.length);
  for (const p of src.countryParts) fb.add(p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1);
  fb.finish();
  preload();
});

function compare(lat: Float64Array, lon: Float64Array): { differences: number; beyondBound: string[] } {
  let differences = 0;
  const beyondBound: string[] = [];
  for (let i = 0; i < lat.length; i++) {
    const got = tryCountryFromGps(lat[i], lon[i]);
    const want = oracle(lat[i], lon[i]);
    if (got !== want) {
      differences++;
      const d = distanceToBoundary(lat[i], lon[i]);
      if (d > QUANTISATION_BOUND_M)
        beyondBound.push(`${lat[i]},${lon[i]}: got ${got}, oracle ${want}, ${d.toFixed(3)} m from a boundary`);
    }
  }
  return { differences, beyondBound };
}

describe('fast path = brute force', () => {
  it(`agrees on ${RANDOM} random points on the sphere`, () => {
    const p = spherePoints(RANDOM, 7);
    const r = compare(p.lat, p.lon);
    expect(r.beyondBound).toEqual([]);
    expect(r.differences).toBeLessThanOrEqual(RANDOM * 1e-5);
  }, 900_000);

  it(`agrees on ${NEAR} points within 100 m of borders and coasts`, () => {
    const r = prng(11);
    const lat = new Float64Array(NEAR);
    const lon = new Float64Array(NEAR);
    const parts = src.countryParts;
    for (let i = 0; i < NEAR; i++) {
      const ring = parts[Math.floor(r() * parts.length)].rings[0];
      const k = Math.floor(r() * (ring.length >> 1));
      const d = (r() * 100) / 111_195;
      const a = r() * 2 * Math.PI;
      lat[i] = Math.max(-90, Math.min(90, ring[2 * k + 1] + d * Math.sin(a)));
      lon[i] = Math.max(
        -180,
        Math.min(180, ring[2 * k] + (d * Math.cos(a)) / Math.max(0.01, Math.cos((lat[i] * Math.PI) / 180))),
      );
    }
    const res = compare(lat, lon);
    expect(res.beyondBound).toEqual([]);
  }, 900_000);
});
