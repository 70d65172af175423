// geometryOf against the lookups themselves: a point inside the returned geometry is one where
// isInCountry / isInSubdivision answers true, and outside one where it answers false, except
// within the quantisation bound of an edge. Enclaves, microstates, a parent code and an alias.
import pip from 'point-in-polygon-hao';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  geometryOf,
  isInCountry,
  isInSubdivision,
  type MultiPolygon,
  NotFoundError,
  ValidationError,
} from '../../src/index.js';
import { findPostGIS, type PostGIS, startPostGIS } from '../support/postgis.js';
import { prng, QUANTISATION_BOUND_M } from '../support/sample-points.js';
import { skipWithout } from '../support/system.js';

const CASES: [code: string, why: string][] = [
  ['VAT', 'a microstate inside a city'],
  ['MCO', 'a microstate on the coast'],
  ['SMR', 'an enclave country'],
  ['CHE', 'holes: Büsingen (DEU) and Campione (ITA)'],
  ['BEL', 'Baarle-Hertog exclaves inside the Netherlands'],
  ['DE-BW', 'a subdivision with the Büsingen exclave'],
  ['ES-GI', 'a province with the Llívia exclave'],
  ['FR-IDF', 'a parent: the union of its departments'],
  ['FR-75C', 'a city subdivision'],
  ['US-PR', 'an alias: the code stands for the territory PRI'],
];

const RANDOM = 3000;
const NEAR = 2000;

function inside(g: MultiPolygon, lon: number, lat: number): boolean {
  return g.coordinates.some((poly) => pip([lon, lat], poly) !== false);
}

/** Metres from the point to the nearest edge of the geometry (equirectangular, fine at this scale). */
function distanceToEdge(g: MultiPolygon, lon: number, lat: number): number {
  const cos = Math.cos((lat * Math.PI) / 180);
  let best = Infinity;
  for (const poly of g.coordinates)
    for (const ring of poly)
      for (let i = 1; i < ring.length; i++) {
        const ax = (ring[i - 1][0] - lon) * cos;
        const ay = ring[i - 1][1] - lat;
        const bx = (ring[i][0] - lon) * cos;
        const by = ring[i][1] - lat;
        const dx = bx - ax;
        const dy = by - ay;
        const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)));
        best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
      }
  return best * 111_195;
}

function bounds(g: MultiPolygon): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of g.coordinates)
    for (const [x, y] of poly[0]) {
      b[0] = Math.min(b[0], x);
      b[1] = Math.min(b[1], y);
      b[2] = Math.max(b[2], x);
      b[3] = Math.max(b[3], y);
    }
  return b;
}

describe('geometryOf agrees with isInCountry / isInSubdivision', () => {
  it.each(CASES)('%s (%s): random points over its box and points near its vertices', (code) => {
    const g = geometryOf(code);
    expect(g.type).toBe('MultiPolygon');
    expect(g.coordinates.length).toBeGreaterThan(0);
    const holds = code.includes('-') ? isInSubdivision : isInCountry;
    const [x0, y0, x1, y1] = bounds(g);
    const padX = (x1 - x0) * 0.1;
    const padY = (y1 - y0) * 0.1;
    const rand = prng(code.length * 7919 + code.charCodeAt(0));
    const vertices = g.coordinates.flatMap((poly) => poly.flat());
    const points: [number, number][] = [];
    for (let i = 0; i < RANDOM; i++)
      points.push([x0 - padX + rand() * (x1 - x0 + 2 * padX), y0 - padY + rand() * (y1 - y0 + 2 * padY)]);
    for (let i = 0; i < NEAR; i++) {
      const [x, y] = vertices[Math.floor(rand() * vertices.length)];
      points.push([x + (rand() - 0.5) * 2e-3, y + (rand() - 0.5) * 2e-3]); // within ~100 m
    }
    let yes = 0;
    const wrong: { lon: number; lat: number; distanceM: number }[] = [];
    for (const [lon, lat] of points) {
      if (lat < -90 || lat > 90 || lon < -180 || lon > 180) continue;
      const answer = holds(code, lat, lon);
      if (answer) yes++;
      if (answer !== inside(g, lon, lat)) wrong.push({ lon, lat, distanceM: distanceToEdge(g, lon, lat) });
    }
    // Both sides were sampled, and any disagreement lies on an edge, within the bound.
    expect(yes).toBeGreaterThan(100);
    expect(points.length - yes).toBeGreaterThan(100);
    for (const w of wrong) expect(w.distanceM, JSON.stringify(w)).toBeLessThan(QUANTISATION_BOUND_M);
  });

  it('CHE has the Büsingen and Campione holes; DE-BW holds Büsingen', () => {
    const busingen: [number, number] = [8.69, 47.697];
    const campione: [number, number] = [8.972, 45.968];
    const che = geometryOf('CHE');
    expect(inside(che, ...busingen)).toBe(false);
    expect(inside(che, ...campione)).toBe(false);
    expect(inside(che, 8.6, 47.7)).toBe(true); // Schaffhausen, beside Büsingen
    expect(inside(geometryOf('DE-BW'), ...busingen)).toBe(true);
  });

  it('codes are checked as the membership tests check them', () => {
    expect(() => geometryOf('XXX')).toThrow(NotFoundError);
    expect(() => geometryOf('FR-XX')).toThrow(NotFoundError);
    expect(() => geometryOf('france')).toThrow(ValidationError);
    expect(() => geometryOf(42 as unknown as string)).toThrow(ValidationError);
    expect(geometryOf('fr-75c')).toEqual(geometryOf('FR-75C'));
  });
});

const install = findPostGIS();
describe.skipIf(skipWithout('PostGIS geometryOf tests', typeof install === 'string' ? install : null))(
  'geometryOf in PostGIS',
  () => {
    let db: PostGIS;
    beforeAll(async () => {
      db = await startPostGIS(install as Exclude<typeof install, string>);
    }, 120_000);
    afterAll(async () => {
      await db?.stop();
    });

    it.each(CASES)('%s is a valid MultiPolygon (ST_IsValid)', async (code) => {
      const { rows } = await db.client.query<{ reason: string }>(
        'SELECT ST_IsValidReason(ST_GeomFromGeoJSON($1)) AS reason',
        [JSON.stringify(geometryOf(code))],
      );
      expect(rows[0].reason).toBe('Valid Geometry');
    });
  },
);
