// `geolookup export --format geoparquet`: one row per code, dissolved. Read back with hyparquet
// (which reads the `geo` metadata and decodes the WKB itself): every row, its geometry and its bbox
// covering column. In PostGIS: every dissolved row ST_IsValid, its area that of the union of the
// per-cell export's rows of its code, and ST_Covers agreeing with the lookup on seeded points
// except within the quantisation bound of an edge.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGeoParquet } from '../src/index.js';
import { dissolveCode, dissolveDataset, type MultiPolygon } from '../../../src/export/dissolve.js';
import { exportChunks, exportRows } from '../../../src/export/rows.js';
import { readDataset } from '../../../src/format/dataset.js';
import { preload, tryCountryFromGps, trySubdivisionFromGps } from 'geolookup';
import { DATASET, parseCsvLine, ROOT } from '../../../test/support/export-files.js';
import {
  compareWithLibrary,
  findPostGIS,
  loadBoundaries,
  loadPoints,
  type PostGIS,
  startPostGIS,
} from '../../../test/support/postgis.js';
import { type PointSet, prng, QUANTISATION_BOUND_M } from '../../../test/support/sample-points.js';
import { skipWithout } from '../../../test/support/system.js';

const dir = mkdtempSync(join(tmpdir(), 'geolookup-geoparquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  layer: string;
  code: string;
  name: string;
  country: string;
  geometry: MultiPolygon;
  bbox: { xmin: number; ymin: number; xmax: number; ymax: number };
}

async function readRows(path: string): Promise<{ rows: Row[]; geo: Record<string, unknown> }> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const meta = parquetMetadata(file);
  const geo = JSON.parse(meta.key_value_metadata?.find((kv) => kv.key === 'geo')?.value ?? 'null');
  const rows = (await parquetReadObjects({ file })) as unknown as Row[];
  return { rows, geo };
}

function vertexBox(g: MultiPolygon): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of g.coordinates)
    for (const ring of poly)
      for (const [x, y] of ring) {
        b[0] = Math.min(b[0], x);
        b[1] = Math.min(b[1], y);
        b[2] = Math.max(b[2], x);
        b[3] = Math.max(b[3], y);
      }
  return b;
}

const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'export', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

// Western and central Europe: enclaves (Baarle, Büsingen, Campione, Llívia), lakes shared by
// countries, coasts, microstates (Monaco, San Marino, Vatican, Liechtenstein, Andorra).
const REGION = { col0: 177, col1: 194, row0: 131, row1: 144 };
const only = (col: number, row: number) =>
  col >= REGION.col0 && col < REGION.col1 && row >= REGION.row0 && row < REGION.row1;
describe('export --format geoparquet', () => {
  it('CLI on the lite dataset: one row per code the per-cell export has, geo metadata, WKB and bbox read back', async () => {
    const out = join(dir, 'lite-country.parquet');
    const r = run(['--layer', 'country', '--format', 'geoparquet', '--data', 'lite', '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const { rows, geo } = await readRows(out);
    expect(geo).toMatchObject({
      version: '1.1.0',
      primary_column: 'geometry',
      columns: {
        geometry: {
          encoding: 'WKB',
          geometry_types: ['MultiPolygon'],
          edges: 'planar',
          orientation: 'counterclockwise',
          covering: {
            bbox: { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] },
          },
        },
      },
    });
    // The same codes as the per-cell export of the same dataset, once each.
    const lite = readDataset(readFileSync(join(ROOT, 'dist-data', 'world-lite.geolookup')));
    const cellCodes = new Set<string>();
    for (const row of exportRows(lite, 'country')) cellCodes.add(row.code);
    const codes = rows.map((x) => x.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(codes)).toEqual(cellCodes);
    const total = [Infinity, Infinity, -Infinity, -Infinity];
    for (const row of rows) {
      expect(row.layer).toBe('country');
      expect(row.country).toBe(row.code);
      expect(row.name.length).toBeGreaterThan(0);
      expect(row.geometry.type).toBe('MultiPolygon');
      for (const poly of row.geometry.coordinates)
        for (const ring of poly) {
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring[ring.length - 1]);
        }
      const [xmin, ymin, xmax, ymax] = vertexBox(row.geometry);
      expect(row.bbox).toEqual({ xmin, ymin, xmax, ymax });
      total[0] = Math.min(total[0], xmin);
      total[1] = Math.min(total[1], ymin);
      total[2] = Math.max(total[2], xmax);
      total[3] = Math.max(total[3], ymax);
    }
    expect((geo as { columns: { geometry: { bbox: number[] } } }).columns.geometry.bbox).toEqual(total);
  }, 300_000);

  it('a layer row and dissolveCode (geometryOf) of a code inside the walked cells hold the same area', () => {
    const ds = readDataset(readFileSync(DATASET));
    const lookup = preload();
    const area = (g: MultiPolygon) =>
      g.coordinates.reduce(
        (sum, poly) =>
          sum +
          poly.reduce((s, ring) => {
            let a = 0;
            for (let i = 0; i + 1 < ring.length; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
            return s + a / 2;
          }, 0),
        0,
      );
    let checked = 0;
    for (const row of dissolveDataset(ds, 'country', only)) {
      const [w, s, e, n] = row.bbox;
      // Only codes wholly inside the walked cells: the walk cuts the others at its edge.
      if (w <= REGION.col0 - 180 || e >= REGION.col1 - 180 || s <= REGION.row0 - 90 || n >= REGION.row1 - 90) continue;
      const one = dissolveCode(lookup, 'country', row.code);
      expect(Math.abs(area(one) - area(row.geometry)), row.code).toBeLessThan(1e-9);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  }, 300_000);

  it('CLI: geoparquet without -o exits 2', () => {
    const r = run(['--layer', 'country', '--format', 'geoparquet']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/geoparquet needs -o FILE/);
  });
});

const POINTS = Number(process.env.GEOPARQUET_POINTS ?? 30_000);

const install = findPostGIS();
describe.skipIf(skipWithout('PostGIS GeoParquet tests', typeof install === 'string' ? install : null))(
  'dissolved GeoParquet rows in PostGIS',
  () => {
    const ds = readDataset(readFileSync(DATASET));
    let db: PostGIS;
    beforeAll(async () => {
      db = await startPostGIS(install as Exclude<typeof install, string>);
    }, 120_000);
    afterAll(async () => {
      await db?.stop();
    });

    for (const layer of ['country', 'subdivision'] as const) {
      it(`${layer}: valid, the per-cell union's area, and ST_Covers agrees with the lookup on ${POINTS} points`, async () => {
        const path = join(dir, `${layer}.parquet`);
        const summary = writeGeoParquet(dissolveDataset(ds, layer, only), path);
        const { rows } = await readRows(path);
        expect(rows.length).toBe(summary.rows);
        expect(rows.length).toBeGreaterThan(layer === 'country' ? 10 : 100);
        const table = `gp_${layer}`;
        await db.client.query(
          `CREATE TABLE ${table} (code text PRIMARY KEY, geom geometry(MultiPolygon, 4326) NOT NULL)`,
        );
        // The WKB bytes themselves for PostGIS: read without the geo decoding this time.
        const b = readFileSync(path);
        const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
        const raw = (await parquetReadObjects({
          file,
          metadata: parquetMetadata(file, { geoparquet: false }),
          columns: ['code', 'geometry'],
          // An untyped BYTE_ARRAY as bytes, not text.
          utf8: false,
        })) as unknown as { code: string; geometry: Uint8Array }[];
        expect(raw.every((x) => x.geometry instanceof Uint8Array)).toBe(true);
        await db.client.query(
          `INSERT INTO ${table} SELECT c, ST_GeomFromWKB(g, 4326) FROM unnest($1::text[], $2::bytea[]) AS t(c, g)`,
          [raw.map((x) => x.code), raw.map((x) => Buffer.from(x.geometry))],
        );
        await db.client.query(`CREATE INDEX ON ${table} USING gist (geom)`);
        const invalid = await db.client.query(
          `SELECT code, ST_IsValidReason(geom) AS reason FROM ${table} WHERE NOT ST_IsValid(geom)`,
        );
        expect(invalid.rows).toEqual([]);

        // The per-cell export of the same cells: the same codes, the same area per code.
        const cells = `cells_${layer}`;
        async function* csv() {
          let header = true;
          for (const chunk of exportChunks(ds, layer, 'csv-wkt', only))
            for (const line of chunk.split('\n')) {
              if (line === '') continue;
              if (header) {
                header = false;
                continue;
              }
              const [, code, , country, wkt] = parseCsvLine(line);
              yield { code, country, wkt };
            }
        }
        await loadBoundaries(db.client, cells, csv());
        const areas = await db.client.query<{ code: string; a: number | null; b: number | null }>(
          `SELECT coalesce(g.code, c.code) AS code, ST_Area(g.geom) AS a, c.b FROM ${table} g
           FULL JOIN (SELECT code, ST_Area(ST_Union(geom)) AS b FROM ${cells} GROUP BY code) c ON c.code = g.code`,
        );
        let worst = 0;
        for (const { code, a, b } of areas.rows) {
          expect(a, code).not.toBeNull();
          expect(b, code).not.toBeNull();
          worst = Math.max(worst, Math.abs(a! - b!));
          expect(Math.abs(a! - b!), code).toBeLessThanOrEqual(1e-9 + 1e-9 * b!);
        }
        console.log(
          `${layer}: ${rows.length} dissolved rows; largest area difference to the per-cell union ${worst} deg²`,
        );

        // Seeded points: uniform over the region, and within ~100 m of the rows' vertices.
        const rand = prng(layer === 'country' ? 47 : 4747);
        const lat: number[] = [];
        const lon: number[] = [];
        for (let i = 0; i < POINTS / 2; i++) {
          lon.push(REGION.col0 - 180 + rand() * (REGION.col1 - REGION.col0));
          lat.push(REGION.row0 - 90 + rand() * (REGION.row1 - REGION.row0));
        }
        const vertices = rows.flatMap((x) => x.geometry.coordinates.flatMap((p) => p.flat()));
        while (lat.length < POINTS) {
          const [x, y] = vertices[Math.floor(rand() * vertices.length)];
          const px = x + (rand() - 0.5) * 2e-3;
          const py = y + (rand() - 0.5) * 2e-3;
          if (!only(Math.floor(px + 180), Math.floor(py + 90))) continue;
          lon.push(px);
          lat.push(py);
        }
        const points: PointSet = { lat: Float64Array.from(lat), lon: Float64Array.from(lon) } as PointSet;
        await loadPoints(db.client, `pts_${layer}`, points);
        const answer = layer === 'country' ? tryCountryFromGps : trySubdivisionFromGps;
        const diff = await compareWithLibrary(db.client, `pts_${layer}`, table, points, answer);
        console.log(`${layer}: ${POINTS} points, disagreements ${diff.length}`, diff.slice(0, 5));
        for (const d of diff) expect(d.distanceM, JSON.stringify(d)).toBeLessThan(QUANTISATION_BOUND_M);
      }, 600_000);
    }
  },
);
