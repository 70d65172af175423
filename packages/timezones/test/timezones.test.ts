// @geolookup/timezones against geo-tz 8.1.9 (the same timezone-boundary-builder release): every
// zone at a million seeded points, in geo-tz's order, and the single form against its first answer.
// A difference passes only within the dataset's vertex bound of a geo-tz boundary (counted and
// listed); named places; the input rules; no allocation per lookup (packages/timezones/docs/TIMEZONES.md).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { geoTzLeafAt } from '../../../build-data/timezones/geo-tz.js';
import { polygonsOf } from '../../../build-data/sources/geojson.js';
import { segmentDistance } from '../../../build-data/index/clip.js';
import { METRES_PER_DEGREE, VERTEX_BOUND_M } from '../../../src/format/layout.js';
import { ValidationError } from 'geolookup';
import * as tz from '../src/index.js';
import { allocationOf, N } from '../../../test/support/allocation.js';
import { cityPoints, joinPoints, spherePoints } from '../../../test/support/sample-points.js';

const find: (lat: number, lon: number) => string[] = createRequire(import.meta.url)('geo-tz/all').find;

/**
 * The dataset moves a vertex by at most VERTEX_BOUND_M, the build's snap by 0.22 m (SNAP_DEG in
 * build-data/timezones/build.ts), and geo-tz's own leaves overlap their quads by up to 5.6 cm.
 */
const BOUND_M = VERTEX_BOUND_M + 0.3;

/** Metres from the point to the nearest edge geo-tz draws there: its leaf's features and quad sides. */
function metresToGeoTzEdge(lat: number, lon: number): number {
  const y = Math.max(-89.9999, Math.min(89.9999, lat));
  const x = Math.max(-179.9999, Math.min(179.9999, lon));
  const leaf = geoTzLeafAt(y, x);
  if (!leaf) return Infinity;
  const q = leaf.quad;
  const rings: number[][][] = [
    [
      [q.left, q.bottom],
      [q.right, q.bottom],
      [q.right, q.top],
      [q.left, q.top],
      [q.left, q.bottom],
    ],
  ];
  if ('features' in leaf) for (const f of leaf.features) for (const p of polygonsOf(f.geometry)) rings.push(...p);
  const cos = Math.cos((y * Math.PI) / 180);
  let best = Infinity;
  for (const r of rings)
    for (let i = 1; i < r.length; i++)
      best = Math.min(best, segmentDistance(x, y, r[i - 1][0], r[i - 1][1], r[i][0], r[i][1], cos));
  return best * METRES_PER_DEGREE;
}

describe('time zones against geo-tz 8.1.9', () => {
  it('a million seeded points (random on the sphere, near cities): every zone and the first, as geo-tz, but within the bound of a boundary', () => {
    const pts = joinPoints([spherePoints(500_000, 49), cityPoints(500_000, 50)]);
    const differ: string[] = [];
    let overlaps = 0;
    for (let i = 0; i < pts.lat.length; i++) {
      const lat = pts.lat[i];
      const lon = pts.lon[i];
      const want = find(lat, lon);
      const all = tz.timeZonesFromGps(lat, lon);
      if (want.length > 1) overlaps++;
      if (all.join() === want.join() && tz.timeZoneFromGps(lat, lon) === want[0]) continue;
      const m = metresToGeoTzEdge(lat, lon);
      differ.push(`${lat},${lon}: geo-tz ${want.join(' ')}, ours ${all.join(' ')}, ${m.toFixed(2)} m from an edge`);
      expect(m, differ.at(-1)).toBeLessThanOrEqual(BOUND_M);
    }
    console.log(
      `time zones: ${pts.lat.length} points, ${overlaps} in overlapping zones, ${differ.length} within ${BOUND_M} m of a boundary answered otherwise${differ.length ? `:\n  ${differ.join('\n  ')}` : ''}`,
    );
    expect(overlaps).toBeGreaterThan(0); // the sample reaches the overlaps (Xinjiang, disputed borders)
    expect(differ.length).toBeLessThan(pts.lat.length / 10_000);
  });

  it.each([
    ['Büsingen (Europe/Busingen, a tzdata link to Europe/Zurich)', 47.6969, 8.6906, 'Europe/Busingen'],
    ['Lord Howe Island', -31.5553, 159.0821, 'Australia/Lord_Howe'],
    ['the Chatham Islands', -43.9535, -176.5597, 'Pacific/Chatham'],
    ['Kathmandu', 27.7172, 85.324, 'Asia/Kathmandu'],
    ['Broken Hill', -31.9505, 141.4533, 'Australia/Broken_Hill'],
    ['Flagstaff', 35.1983, -111.6513, 'America/Phoenix'],
    ['Tuba City, Navajo Nation', 36.135, -111.2399, 'America/Denver'],
    ['the open Atlantic', 0, -30, 'Etc/GMT+2'],
    ['Fiji, east of the antimeridian (Taveuni)', -16.8, 179.99, 'Pacific/Fiji'],
    ['Fiji, west of the antimeridian', -16.8, -179.99, 'Pacific/Fiji'],
    ['Fiji, on the antimeridian', -16.8, 180, 'Pacific/Fiji'],
  ])('%s', (_name, lat, lon, zone) => {
    expect(tz.timeZoneFromGps(lat, lon)).toBe(zone);
    expect(tz.timeZonesFromGps(lat, lon)).toEqual(find(lat, lon));
  });

  it('Büsingen keeps its own name, whose rules are Zurich’s: the same offset on every day of 2026', () => {
    const offset = (zone: string, t: number) =>
      new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).format(t);
    for (let day = 0; day < 365; day++) {
      const t = Date.UTC(2026, 0, 1 + day, 12);
      expect(offset('Europe/Busingen', t)).toBe(offset('Europe/Zurich', t));
    }
  });

  it('Kashgar lies in both Xinjiang zones; the single form is geo-tz’s first', () => {
    const all = tz.timeZonesFromGps(39.4704, 75.9898);
    expect([...all].sort()).toEqual(['Asia/Shanghai', 'Asia/Urumqi']);
    expect(all).toEqual(find(39.4704, 75.9898));
    expect(tz.timeZoneFromGps(39.4704, 75.9898)).toBe(all[0]);
  });

  it('the poles, band edges and the antimeridian at sea answer as geo-tz', () => {
    for (const [lat, lon] of [
      [90, 0],
      [-90, 0],
      [89.99995, 45],
      [0, 7.5],
      [0, -7.5],
      [0, 180],
      [0, -180],
      [0, 172.5],
      [0, 179.99995],
      [0, -172.5],
    ]) {
      expect(tz.timeZonesFromGps(lat, lon), `${lat},${lon}`).toEqual(find(lat, lon));
      expect(tz.timeZoneFromGps(lat, lon)).toBe(find(lat, lon)[0]);
    }
  });
});

describe('the time-zone operations', () => {
  it('take decimal strings and refuse bad input with the library’s ValidationError', () => {
    expect(tz.timeZoneFromGps('47.6', '-122.3')).toBe(tz.timeZoneFromGps(47.6, -122.3));
    for (const [lat, lon] of [
      [Number.NaN, 0],
      [91, 0],
      [0, 180.5],
      ['x', 0],
      [0, Number.POSITIVE_INFINITY],
    ] as [number, number][]) {
      expect(() => tz.timeZoneFromGps(lat, lon)).toThrow(ValidationError);
      expect(() => tz.tryTimeZoneFromGps(lat, lon)).toThrow(ValidationError);
      expect(() => tz.timeZonesFromGps(lat, lon)).toThrow(ValidationError);
    }
  });

  it('timeZoneIndexes points into timeZoneNames as the single form answers, invalid points marked -2', () => {
    const pts = joinPoints([spherePoints(20_000, 51), cityPoints(20_000, 52)]);
    const lat = Float64Array.of(...pts.lat, 90, 89.99995, 0, Number.NaN);
    const lon = Float64Array.of(...pts.lon, 10, 180, -180, 0);
    const idx = tz.timeZoneIndexes(lat, lon, new Int32Array(lat.length));
    const names = tz.timeZoneNames();
    for (let i = 0; i < lat.length - 1; i++) expect(names[idx[i]]).toBe(tz.timeZoneFromGps(lat[i], lon[i]));
    expect(idx[lat.length - 1]).toBe(-2);
  });

  it('timeZoneDatasetInfo names the boundaries, their tzdata release and licence', () => {
    const info = tz.timeZoneDatasetInfo();
    expect(info.tzdata).toMatch(/^20\d\d[a-z]$/);
    const tbb = info.sources.find((s) => s.name === 'timezone-boundary-builder')!;
    expect(tbb).toMatchObject({ version: info.tzdata, licence: 'ODbL-1.0' });
    expect(tbb.attribution).toContain('OpenStreetMap');
  });

  it.each([
    [
      'timeZoneFromGps',
      (p: { lat: Float64Array; lon: Float64Array }) => () => {
        let n = 0;
        for (let k = 0; k < N; k++)
          if (tz.timeZoneFromGps(p.lat[k % p.lat.length], p.lon[k % p.lat.length]).length > 3) n++;
        return n;
      },
    ],
    [
      'timeZonesFromGps',
      (p: { lat: Float64Array; lon: Float64Array }) => () => {
        let n = 0;
        for (let k = 0; k < N; k++) n += tz.timeZonesFromGps(p.lat[k % p.lat.length], p.lon[k % p.lat.length]).length;
        return n;
      },
    ],
  ])('%s allocates nothing: a million lookups, under 100 kB and no scavenge', async (_name, make) => {
    const { growth, scavenges, found } = await allocationOf(
      make(joinPoints([cityPoints(25_000, 53), spherePoints(25_000, 54)])),
    );
    expect(found).toBeGreaterThan(0);
    expect(growth).toBeLessThan(1e5);
    expect(scavenges).toEqual([]);
  });
});
