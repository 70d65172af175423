// Seeded points over the zones fixture, answered by the dataset and by an even-odd test on the
// source GeoJSON (the smallest zone holding the point wins, as the build ranks enclaves). Points
// nearer an edge than the build's quantisation may answer either side, so they are left out.
// The same comparison on the world dataset, against PostGIS: test/data/oracle.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../fixtures/datasets.js';
import { prng, ringSegments } from '../support/sample-points.js';

type Ring = number[][];
interface Zone {
  code: string;
  polygons: Ring[][];
  area: number;
}

const source = JSON.parse(readFileSync(new URL('../fixtures/zones.geojson', import.meta.url), 'utf8'));
const zones: Zone[] = source.features.map(
  (f: { properties: { code: string }; geometry: { type: string; coordinates: unknown } }) => {
    const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
    const area = polygons.reduce(
      (a, p) => a + Math.abs(ringArea(p[0])) - p.slice(1).reduce((h, r) => h + Math.abs(ringArea(r)), 0),
      0,
    );
    return { code: f.properties.code.toUpperCase(), polygons, area };
  },
);
const segments = ringSegments(source.features);
// Well above the quantisation step of a leaf cell's window (a few 1e-6° here).
const EDGE_MARGIN = 1e-4;

function ringArea(ring: Ring): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return a / 2;
}

/** Even-odd over a polygon's rings. */
function holds(polygon: Ring[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** The smallest zone holding the point, or null. */
function expected(lat: number, lon: number): string | null {
  let best: Zone | null = null;
  for (const z of zones) {
    if (z.polygons.some((p) => holds(p, lon, lat)) && (!best || z.area < best.area)) best = z;
  }
  return best?.code ?? null;
}

/** Distance in degrees from the point to the nearest source edge. */
function edgeDistance(lat: number, lon: number): number {
  let best = Infinity;
  for (let s = 0; s < segments.length; s += 4) {
    const [ax, ay, bx, by] = [segments[s], segments[s + 1], segments[s + 2], segments[s + 3]];
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((lon - ax) * dx + (lat - ay) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(lon - (ax + t * dx), lat - (ay + t * dy)));
  }
  return best;
}

describe('zones fixture against its source polygons', () => {
  const geo = loadFixture('zones');
  it.each([
    ['around RING, CORE and ISLAND', -0.5, -0.5, 5, 5],
    ['across the antimeridian', 9.5, 177.5, 12.5, 180],
    ['across the antimeridian, east side', 9.5, -180, 12.5, -178.5],
    ['closely around ISLAND', 1.7, 1.7, 2.4, 2.3],
  ])('%s: every point away from an edge answers the zone that holds it', (_what, lat0, lon0, lat1, lon1) => {
    const r = prng(Math.round(lat0 * 1000 + lon0));
    let compared = 0;
    const seen = new Set<string | null>();
    for (let i = 0; i < 4000; i++) {
      const lat = lat0 + r() * (lat1 - lat0);
      const lon = lon0 + r() * (lon1 - lon0);
      if (edgeDistance(lat, lon) < EDGE_MARGIN) continue;
      const want = expected(lat, lon);
      expect(geo.tryCountryFromGps(lat, lon), `${lat}, ${lon}`).toBe(want);
      seen.add(want);
      compared++;
    }
    expect(compared).toBeGreaterThan(3900);
    expect(seen.size).toBeGreaterThan(1); // the box holds a border, not one answer
  });
  it('points within a hair of an edge answer one of the two sides', () => {
    const r = prng(5);
    for (let s = 0; s < segments.length; s += 4) {
      for (let k = 0; k < 20; k++) {
        const t = r();
        const lon = segments[s] + t * (segments[s + 2] - segments[s]);
        const lat = segments[s + 1] + t * (segments[s + 3] - segments[s + 1]);
        const sides = new Set([expected(lat + 1e-3, lon + 1e-3), expected(lat - 1e-3, lon - 1e-3)]);
        sides.add(expected(lat + 1e-3, lon - 1e-3)).add(expected(lat - 1e-3, lon + 1e-3));
        if (lon === 180 || lon === -180) sides.add(expected(lat, -lon));
        expect(sides.has(geo.tryCountryFromGps(lat, Math.max(-180, Math.min(180, lon))))).toBe(true);
      }
    }
  });
});
