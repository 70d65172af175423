// `geolookup export --format pmtiles` through the real CLI (the core hands the format to
// @geolookup/server), read back by the pmtiles library: header, metadata, and tiles whose
// polygons hold the codes the library answers at seeded points around Baarle.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { PMTiles, type Source, TileType } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetInfo, tryCountryFromGps, trySubdivisionFromGps } from 'geolookup';
import { cli, ROOT } from '../../../test/support/export-files.js';

const BOX = [4.9, 51.42, 4.96, 51.46] as const;
const ZOOM = 14;

/** The archive's bytes as a pmtiles Source. */
function bufferSource(buf: Buffer): Source {
  return {
    getKey: () => 'archive',
    getBytes: async (offset, length) => ({
      data: buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + offset + length) as ArrayBuffer,
    }),
  };
}

function inRing(ring: number[][], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Codes of the features of `layer` whose polygons hold (lon, lat). */
function codesAt(tile: VectorTile, layer: string, z: number, x: number, y: number, lon: number, lat: number) {
  const l = tile.layers[layer];
  const out: string[] = [];
  for (let i = 0; i < (l?.length ?? 0); i++) {
    const f = l.feature(i).toGeoJSON(x, y, z);
    const polygons =
      f.geometry.type === 'Polygon'
        ? [f.geometry.coordinates]
        : f.geometry.type === 'MultiPolygon'
          ? f.geometry.coordinates
          : [];
    if (polygons.some((p) => inRing(p[0], lon, lat) && !p.slice(1).some((h) => inRing(h, lon, lat))))
      out.push(String(f.properties?.code));
  }
  return out;
}

describe('geolookup export --format pmtiles', () => {
  let dir: string;
  let archive: PMTiles;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'geolookup-pmtiles-'));
    const file = join(dir, 'baarle.pmtiles');
    cli([
      'export',
      '--format',
      'pmtiles',
      '-o',
      file,
      '--minzoom',
      '8',
      '--maxzoom',
      String(ZOOM),
      '--bbox',
      BOX.join(','),
    ]);
    archive = new PMTiles(bufferSource(readFileSync(file)));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has a PMTiles v3 header of MVT tiles over the box, and metadata naming the layers and credits', async () => {
    const h = await archive.getHeader();
    expect([h.specVersion, h.tileType, h.minZoom, h.maxZoom]).toEqual([3, TileType.Mvt, 8, ZOOM]);
    expect([h.minLon, h.minLat, h.maxLon, h.maxLat]).toEqual([...BOX]);
    expect(h.numAddressedTiles).toBeGreaterThan(20);
    const meta = (await archive.getMetadata()) as { vector_layers: { id: string }[]; attribution: string };
    expect(meta.vector_layers.map((l) => l.id).sort()).toEqual([
      'country',
      'country-label',
      'subdivision',
      'subdivision-label',
    ]);
    for (const s of datasetInfo().sources) if (s.attribution) expect(meta.attribution).toContain(s.attribution);
  });

  it('holds, at seeded points clear of lines, the country and subdivision the library answers there', async () => {
    let seed = 7;
    const next = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const seen = new Set<string>();
    let checked = 0;
    for (let i = 0; i < 60; i++) {
      const lon = BOX[0] + 0.01 + next() * (BOX[2] - BOX[0] - 0.02);
      const lat = BOX[1] + 0.01 + next() * (BOX[3] - BOX[1] - 0.02);
      const country = tryCountryFromGps(lat, lon);
      const subdivision = trySubdivisionFromGps(lat, lon);
      // Clear of lines: the answers stay the same 10 m (16 px at z14… 10 px here) around.
      const clear = [0, 1, 2, 3, 4, 5, 6, 7].every((k) => {
        const [a, b] = [lat + (1e-4 * Math.sin(k)) / 1.1, lon + (1.5e-4 * Math.cos(k)) / 1.1];
        return tryCountryFromGps(a, b) === country && trySubdivisionFromGps(a, b) === subdivision;
      });
      if (!clear) continue;
      const n = 2 ** ZOOM;
      const x = Math.floor(((lon + 180) / 360) * n);
      const r = (lat * Math.PI) / 180;
      const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
      const got = await archive.getZxy(ZOOM, x, y);
      expect(got, `${lat},${lon}`).toBeDefined();
      // pbf 4's reader (the root's) reads as pbf 5's, which @mapbox/vector-tile's types name.
      const tile = new VectorTile(new Pbf(new Uint8Array(got!.data)) as never);
      expect(codesAt(tile, 'country', ZOOM, x, y, lon, lat), `${lat},${lon}`).toEqual(country ? [country] : []);
      expect(codesAt(tile, 'subdivision', ZOOM, x, y, lon, lat), `${lat},${lon}`).toEqual(
        subdivision ? [subdivision] : [],
      );
      seen.add(String(country));
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    expect([...seen].sort()).toEqual(['BEL', 'NLD']);
  });

  it('refuses zooms past the overview without --bbox, and any other --format, before any work', () => {
    const run = (args: string[]) => {
      try {
        execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
          cwd: ROOT,
          encoding: 'utf8',
          stdio: 'pipe',
        });
        return { status: 0, stderr: '' };
      } catch (e) {
        const x = e as { status: number; stderr: string };
        return { status: x.status, stderr: x.stderr };
      }
    };
    const deep = run(['export', '--format', 'pmtiles', '-o', join(dir, 'x.pmtiles'), '--maxzoom', '9']);
    expect([deep.status, deep.stderr]).toEqual([2, expect.stringMatching(/--maxzoom above 7 needs --bbox/)]);
    const stdout = run(['export', '--format=pmtiles']);
    expect([stdout.status, stdout.stderr]).toEqual([2, expect.stringMatching(/-o FILE is required/)]);
  });
});
