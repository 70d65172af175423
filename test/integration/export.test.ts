// `geolookup export`: every format well formed, and the country export loaded
// into PostGIS answers like the library (ST_Covers) on 100,000 seeded random
// points, except within the quantisation bound of an edge (listed).

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/format/dataset.js';
import { exportChunks, type ExportFormat } from '../../src/export/rows.js';
import { tryCountryFromGps } from '../../src/index.js';
import {
  compareWithLibrary,
  findPostGIS,
  loadBoundaries,
  loadPoints,
  startPostGIS,
  type PostGIS,
} from '../support/postgis.js';
import { skipWithout } from '../support/system.js';
import { csvRows, DATASET, exportFile, parseCsvLine, ROOT } from '../support/export-files.js';
import { QUANTISATION_BOUND_M, spherePoints } from '../support/sample-points.js';

const ds = readDataset(readFileSync(DATASET));
// Switzerland and its neighbours: enclaves (Büsingen, Campione), lakes shared by countries.
const ALPS = (col: number, row: number) => col >= 185 && col < 191 && row >= 135 && row < 139;

type Ring = [number, number][];
interface Feature {
  type: string;
  properties: { layer: string; code: string; name: string; country: string };
  bbox: number[];
  geometry: { type: string; coordinates: Ring[][] };
}

function text(format: ExportFormat, layer: 'country' | 'subdivision'): string {
  return [...exportChunks(ds, layer, format, ALPS)].join('');
}

const WKT_NUM = '-?\\d+(?:\\.\\d+)?';
const WKT_RING = `\\(${WKT_NUM} ${WKT_NUM}(?:,${WKT_NUM} ${WKT_NUM})*\\)`;
const WKT_POLY = `\\(${WKT_RING}(?:,${WKT_RING})*\\)`;
const WKT = new RegExp(`^MULTIPOLYGON\\(${WKT_POLY}(?:,${WKT_POLY})*\\)$`);

function wktRings(wkt: string): Ring[][] {
  return wkt
    .slice('MULTIPOLYGON((('.length, -3)
    .split(')),((')
    .map((p) => p.split('),(').map((r) => r.split(',').map((pt) => pt.split(' ').map(Number) as [number, number])));
}

function checkPolygons(polys: Ring[][], bbox: number[]): void {
  expect(polys.length).toBeGreaterThan(0);
  for (const poly of polys) {
    for (const ring of poly) {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      for (const [x, y] of ring) {
        expect(x).toBeGreaterThanOrEqual(bbox[0]);
        expect(x).toBeLessThanOrEqual(bbox[2]);
        expect(y).toBeGreaterThanOrEqual(bbox[1]);
        expect(y).toBeLessThanOrEqual(bbox[3]);
      }
    }
  }
}

describe('export formats', () => {
  for (const layer of ['country', 'subdivision'] as const) {
    it(`${layer}: geojson, geojsonseq and csv-wkt hold the same rows, well formed`, () => {
      const fc = JSON.parse(text('geojson', layer)) as { type: string; features: Feature[] };
      expect(fc.type).toBe('FeatureCollection');
      const seq = text('geojsonseq', layer)
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Feature);
      const csvLines = text('csv-wkt', layer).split('\n');
      expect(csvLines[0]).toBe('layer,code,name,country,wkt');
      expect(csvLines.pop()).toBe('');
      const csv = csvLines.slice(1).map(parseCsvLine);
      expect(fc.features.length).toBeGreaterThan(10);
      expect(seq).toEqual(fc.features);
      expect(csv.length).toBe(fc.features.length);
      const known = new Set(layer === 'country' ? ds.countryCodes : ds.subdivisionCodes);
      fc.features.forEach((f, i) => {
        expect(f.type).toBe('Feature');
        expect(f.geometry.type).toBe('MultiPolygon');
        expect(f.properties.layer).toBe(layer);
        expect(known.has(f.properties.code)).toBe(true);
        expect(ds.countryByCode.has(f.properties.country)).toBe(true);
        expect(f.properties.name.length).toBeGreaterThan(0);
        checkPolygons(f.geometry.coordinates, f.bbox);
        const [l, code, name, country, wkt] = csv[i];
        expect({ layer: l, code, name, country }).toEqual(f.properties);
        expect(wkt).toMatch(WKT);
        expect(wktRings(wkt)).toEqual(f.geometry.coordinates);
      });
      if (layer === 'country') {
        const codes = new Set(fc.features.map((f) => f.properties.code));
        for (const c of ['CHE', 'LIE', 'DEU', 'FRA', 'ITA', 'AUT']) expect(codes.has(c)).toBe(true);
      }
    });
  }

  it('CLI: bad arguments exit 2, a missing or damaged dataset exits 1 with a DataError message', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'export', ...args], {
        cwd: ROOT,
        encoding: 'utf8',
      });
    expect(run(['--layer', 'planet', '--format', 'geojson']).status).toBe(2);
    expect(run(['--layer', 'country', '--format', 'kml']).status).toBe(2);
    const missing = run(['--layer', 'country', '--format', 'geojson', '--data', join(ROOT, 'no-such.geolookup')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no-such\.geolookup: cannot read dataset \(ENOENT\)/);
    const dir = mkdtempSync(join(tmpdir(), 'geolookup-export-'));
    try {
      const bytes = readFileSync(DATASET);
      const damaged = join(dir, 'damaged.geolookup');
      writeFileSync(damaged, bytes.subarray(0, bytes.length - 1000));
      const r = run(['--layer', 'country', '--format', 'csv-wkt', '--data', damaged]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/damaged\.geolookup: .*truncated/);
      expect(r.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const install = findPostGIS();
const POINTS = Number(process.env.EXPORT_POINTS ?? 100_000);

describe.skipIf(skipWithout('PostGIS export tests', typeof install === 'string' ? install : null))(
  'country export in PostGIS',
  () => {
    let db: PostGIS;
    let rows = 0;
    beforeAll(async () => {
      const file = await exportFile('country');
      console.log(
        `country export: ${file.path} (${(readFileSync(file.path).length / 1e6).toFixed(1)} MB${file.seconds ? `, made by the CLI in ${file.seconds.toFixed(1)} s` : ', cached'})`,
      );
      db = await startPostGIS(install as Exclude<typeof install, string>);
      rows = await loadBoundaries(db.client, 'country', csvRows(file.path));
    }, 900_000);
    afterAll(async () => {
      await db?.stop();
    });

    it('rows are valid polygons for PostGIS (ST_IsValid)', async () => {
      const invalid = await db.client.query<{ code: string; reason: string }>(
        `SELECT code, ST_IsValidReason(geom) AS reason FROM country WHERE NOT ST_IsValid(geom) ORDER BY id`,
      );
      console.log(`country rows: ${rows}; not ST_IsValid: ${invalid.rows.length}`, invalid.rows.slice(0, 20));
      expect(rows).toBeGreaterThan(5000);
      expect(invalid.rows).toEqual([]);
    });

    it(`ST_Covers agrees with countryFromGps on ${POINTS} seeded random points, except within the quantisation bound of an edge`, async () => {
      const points = spherePoints(POINTS, 20261121);
      await loadPoints(db.client, 'pts', points);
      const t0 = performance.now();
      const diff = await compareWithLibrary(db.client, 'pts', 'country', points, tryCountryFromGps);
      console.log(
        `compared ${POINTS} points in ${((performance.now() - t0) / 1000).toFixed(1)} s; disagreements: ${diff.length}`,
        diff,
      );
      for (const d of diff) expect(d.distanceM, JSON.stringify(d)).toBeLessThan(QUANTISATION_BOUND_M);
    }, 600_000);
  },
);
