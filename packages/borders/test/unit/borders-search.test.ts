// The borders search against brute force on generated lines: every edge measured by minimising
// Karney's geodesic distance along it (golden-section search over the straight lon/lat edge), so
// nothing of the search's local frame, index or pruning is shared. Lines lie at mid latitudes,
// near the equator, near the poles and on both sides of the antimeridian.

import Flatbush from 'flatbush';
import geographiclib from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { encodeLines } from '../../build-data/encode.js';
import type { BorderLine } from '../../build-data/extract.js';
import { UNITS_PER_DEGREE } from '../../src/layout.js';
import { borderSearch, type Nearest } from '../../src/search.js';
import { prng } from '../../../../test/support/sample-points.js';

const WGS84 = geographiclib.Geodesic.WGS84;
const metres = (lat1: number, lon1: number, lat2: number, lon2: number) =>
  WGS84.Inverse(lat1, lon1, lat2, lon2, geographiclib.Geodesic.DISTANCE).s12 as number;

/** Great-circle metres on the sphere of the polar radius, below the geodesic on the ellipsoid. */
function sphere(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6_356_752 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Brute force: the least geodesic distance from the point to the straight lon/lat edge. */
function edgeDistance(lat: number, lon: number, ax: number, ay: number, bx: number, by: number): number {
  const at = (t: number) => metres(lat, lon, ay + t * (by - ay), ax + t * (bx - ax));
  let lo = 0;
  let hi = 1;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const m1 = hi - g * (hi - lo);
    const m2 = lo + g * (hi - lo);
    if (at(m1) < at(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(at(0), at(1), at((lo + hi) / 2));
}

// Regions: 0 none; 1-3 country 0 (subdivisions 0-2); 4 country 1 (subdivision 3); 5 country 2 (no subdivision).
const regionCountry = Int32Array.of(-1, 0, 0, 0, 1, 2);
const regionSubdivision = Int32Array.of(-1, 0, 1, 2, 3, -1);
const PAIRS: [number, number][] = [
  [1, 0],
  [1, 2],
  [2, 3],
  [3, 4],
  [4, 5],
  [5, 0],
  [2, 0],
];

/** Random walks of 5-60 vertices on the unit lattice, edges up to 900 m and 0.009°, so encoding keeps them as they are. */
function lines(rnd: () => number, centres: [number, number][], perCentre: number): BorderLine[] {
  const out: BorderLine[] = [];
  for (const [clat, clon] of centres)
    for (let k = 0; k < perCentre; k++) {
      const n = 5 + Math.floor(rnd() * 56);
      let lat = clat + (rnd() - 0.5) * 0.6;
      let lon = clon + (rnd() - 0.5) * 0.6;
      const coords: number[] = [];
      let heading = rnd() * 2 * Math.PI;
      for (let i = 0; i < n; i++) {
        const x = Math.round(Math.max(-180, Math.min(180, lon)) * UNITS_PER_DEGREE) / UNITS_PER_DEGREE;
        const y = Math.round(lat * UNITS_PER_DEGREE) / UNITS_PER_DEGREE;
        coords.push(x, y);
        heading += (rnd() - 0.5) * 2;
        // At most 0.009° on either axis: the writer splits longer edges (MAX_EDGE_DEGREES).
        const step = (20 + rnd() * 880) / 111_000;
        const dLat = step * Math.cos(heading);
        const dLon = (step * Math.sin(heading)) / Math.cos((lat * Math.PI) / 180);
        const shrink = Math.min(1, 0.009 / Math.max(Math.abs(dLat), Math.abs(dLon)));
        lat += dLat * shrink;
        lon += dLon * shrink;
      }
      const [left, right] = PAIRS[Math.floor(rnd() * PAIRS.length)];
      out.push({ left, right, coords: Float64Array.from(coords) });
    }
  return out;
}

describe('borders search against brute force on generated lines', () => {
  const rnd = prng(45);
  const centres: [number, number][] = [
    [51.4, 4.9],
    [0.5, 30],
    [-33, 151],
    [78, 15],
    [83.5, -40],
    [-16.6, 179.8],
    [-16.6, -179.8],
  ];
  const all = lines(rnd, centres, 12);
  const encoded = encodeLines(all);
  const index = Flatbush.from(encoded.flatbush.buffer as ArrayBuffer, encoded.flatbush.byteOffset);
  const search = borderSearch({ ...encoded, index, regionCountry, regionSubdivision }, 3, 4);
  const layerCode = { country: regionCountry, subdivision: regionSubdivision };
  // The search's own error: 0.1 m (the local frame's chord of a 1 km lon/lat edge bows by up to
  // 7 cm at 51°N) or 5e-5 of the distance. The file's bound adds the rounding of its vertices.
  const tolerance = (d: number) => Math.max(0.1, 5e-5 * d);

  /**
   * Per code of the layer, the brute-force distance from the point to its nearest edge. An edge is
   * measured only when a bound from its midpoint (the distance on the sphere of the polar radius,
   * less half its length, less 1%) does not already put it beyond the code's best, `cap`, or (for
   * `nearestOnly`) the ties of the nearest: only saves time.
   */
  function brute(
    lat: number,
    lon: number,
    layer: 'country' | 'subdivision',
    cap: number,
    nearestOnly: boolean,
  ): Map<number, number> {
    const codes = layerCode[layer];
    const best = new Map<number, number>();
    const edges: { lower: number; line: BorderLine; i: number }[] = [];
    for (const line of all) {
      if (codes[line.left] === codes[line.right]) continue;
      const c = line.coords;
      for (let i = 2; i < c.length; i += 2) {
        const half = sphere(c[i - 1], c[i - 2], c[i + 1], c[i]) / 2 / 0.99;
        const mid = sphere(lat, lon, (c[i - 1] + c[i + 1]) / 2, (c[i - 2] + c[i]) / 2);
        edges.push({ lower: (mid - half) * 0.99 - 1, line, i });
      }
    }
    edges.sort((a, b) => a.lower - b.lower);
    let nearest = Infinity;
    for (const { lower, line, i } of edges) {
      if (lower > cap || (nearestOnly && lower > nearest + 2 * tolerance(nearest))) break;
      const left = codes[line.left];
      const right = codes[line.right];
      const c = line.coords;
      if (!(lower < (best.get(left) ?? Infinity)) && !(lower < (best.get(right) ?? Infinity))) continue;
      const d = edgeDistance(lat, lon, c[i - 2], c[i - 1], c[i], c[i + 1]);
      for (const code of [left, right]) if (code >= 0 && !(best.get(code)! <= d)) best.set(code, d);
      nearest = Math.min(nearest, d);
    }
    return best;
  }

  it('keeps every generated vertex but those within 0.1 m of a straight line', () => {
    const input = all.reduce((n, l) => n + l.coords.length / 2, 0);
    expect(encoded.vertices).toBeLessThanOrEqual(input);
    expect(encoded.vertices).toBeGreaterThan(input * 0.95);
  });

  it('nearest: the distance and the nearest code of brute force, on 200 points near the lines and out to 200 km', () => {
    const found: Nearest = { metres: -1, code: -1 };
    let compared = 0;
    for (let k = 0; k < 200; k++) {
      const [clat, clon] = centres[k % centres.length];
      const spread = k % 3 === 0 ? 1.5 : 0.4;
      const lat = Math.max(-90, Math.min(90, clat + (rnd() - 0.5) * spread));
      let lon = clon + ((rnd() - 0.5) * spread) / Math.cos((clat * Math.PI) / 180);
      if (lon > 180) lon -= 360;
      if (lon < -180) lon += 360;
      const layer = k % 2 === 0 ? 'country' : 'subdivision';
      const radius = [500, 5_000, 50_000, 200_000][k % 4];
      const want = brute(lat, lon, layer, radius + tolerance(radius), true);
      const ranked = [...want].filter(([, d]) => d <= radius).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      search.nearest(lat, lon, radius, layer, found);
      // A nearest edge within the tolerance of the radius may fall either side of it.
      if (ranked.length === 0 || (ranked[0][1] > radius - tolerance(radius) && found.metres < 0)) {
        if (ranked.length === 0) expect(found.metres, `${lat},${lon} ${layer} r=${radius}`).toBe(-1);
        continue;
      }
      const [code, d] = ranked[0];
      expect(Math.abs(found.metres - d), `${lat},${lon} ${layer}`).toBeLessThanOrEqual(tolerance(d));
      // Codes within the tolerance of each other are ties: either may be named.
      const tied = ranked.filter(([, e]) => e - d <= tolerance(d)).map(([c]) => c);
      expect(tied, `${lat},${lon} ${layer}`).toContain(found.code);
      if (tied.length === 1) expect(found.code).toBe(code);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('within: every code brute force finds in the radius, with its distance, and no other', () => {
    let listed = 0;
    for (let k = 0; k < 120; k++) {
      const [clat, clon] = centres[k % centres.length];
      const lat = clat + (rnd() - 0.5) * 0.5;
      let lon = clon + (rnd() - 0.5) * 0.5;
      if (lon > 180) lon -= 360;
      if (lon < -180) lon += 360;
      const radius = [50, 1_000, 20_000][k % 3];
      // One traversal reports both layers.
      const got = { country: new Map<number, number>(), subdivision: new Map<number, number>() };
      search.within(lat, lon, radius, (layer, code, m) => {
        expect(got[layer].has(code), `${layer} code ${code} reported twice`).toBe(false);
        got[layer].set(code, m);
      });
      for (const layer of ['country', 'subdivision'] as const) {
        const want = brute(lat, lon, layer, radius + tolerance(radius), false);
        for (const [code, d] of want) {
          if (Math.abs(d - radius) <= tolerance(radius)) continue;
          if (d < radius) {
            expect(got[layer].has(code), `${lat},${lon} ${layer} code ${code} at ${d}`).toBe(true);
            expect(Math.abs(got[layer].get(code)! - d)).toBeLessThanOrEqual(tolerance(d));
            listed++;
          } else expect(got[layer].has(code), `${lat},${lon} ${layer} code ${code} at ${d}`).toBe(false);
        }
        for (const code of got[layer].keys()) expect(want.has(code), `${layer} code ${code} not in reach`).toBe(true);
      }
    }
    expect(listed).toBeGreaterThan(30);
  });

  it('a layer skips lines between two regions of one answer (country 0 inside its subdivisions)', () => {
    const found: Nearest = { metres: -1, code: -1 };
    // Lines 1|2 and 2|3 are subdivision borders of country 0 only.
    const inner = all.find((l) => l.left === 1 && l.right === 2)!;
    const lat = inner.coords[1];
    const lon = inner.coords[0];
    expect(search.nearest(lat, lon, 1_000, 'subdivision', found).metres).toBeLessThan(0.01);
    const country = brute(lat, lon, 'country', 200_000, true);
    const nearestCountryBorder = Math.min(...country.values());
    search.nearest(lat, lon, 200_000, 'country', found);
    expect(Math.abs(found.metres - nearestCountryBorder)).toBeLessThanOrEqual(tolerance(nearestCountryBorder));
  });
});
