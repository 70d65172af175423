// The playground's world overview (zooms 0-7) from the package's prebuilt file (packages/server
// tsup.config.ts writes it, tiles/overview.ts names it by the dataset's bytes): `geolookup
// playground` as built (dist/), over a real socket, serves the same bytes the overview computed
// from the dataset gives (tile-source.ts from the sources, in this process), at every tile of
// zooms 0-3 and at tiles across the antimeridian, over land and over the open sea; and a dataset
// with other bytes at the same path is drawn from its own geometry, never from the prebuilt file.
// GEOLOOKUP_OVERVIEW_EVERY_TILE=1 compares every tile of zooms 0-7 (21,845; about a minute).
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeoLookup, type GeoLookup, resolveDataPath } from 'geolookup';
import { type TileSource, tileSource } from '../src/tiles/tile-source.js';
import { OVERVIEW_MAX_ZOOM } from '../src/tiles/tiler.js';
import { buildDataset } from '../../../test/support/build-dataset.js';
import { HOST } from '../../../test/support/loopback.js';
import { BUILT_CLI, type Served, startCli } from '../../../test/support/serve-process.js';

const STARTED = /playground: http:\/\/127\.0\.0\.1:(\d+)\/ \(tiles from .*, zooms 0-7 from (.*?)(, prebuilt)?\)/;
const EVERY_TILE = process.env.GEOLOOKUP_OVERVIEW_EVERY_TILE === '1';

const world = resolveDataPath('world');
const lite = resolveDataPath('lite');
const dir = mkdtempSync(join(tmpdir(), 'geolookup-overview-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Hard link when the temp folder shares the file system (no copy of the dataset), else copy. */
function place(from: string, to: string): void {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** `geolookup playground` as built, on a free port; its overview's source from the started line. */
async function playground(args: string[] = []): Promise<{ served: Served; prebuilt: boolean }> {
  const served = await startCli(['playground', '--port', '0', ...args], STARTED, 30_000, BUILT_CLI);
  return { served, prebuilt: STARTED.exec(served.output())![3] !== undefined };
}

async function stop(served: Served): Promise<void> {
  served.child.kill('SIGTERM');
  expect(await served.exited).toBe(0);
}

/** The tile as served: its bytes, or null for 204 (no feature). */
async function served(port: number, z: number, x: number, y: number): Promise<Buffer | null> {
  const res = await fetch(`http://${HOST}:${port}/tiles/${z}/${x}/${y}.mvt`);
  const body = Buffer.from(await res.arrayBuffer());
  expect([200, 204], `${z}/${x}/${y}`).toContain(res.status);
  return res.status === 204 ? null : body;
}

/** The tile holding (lat, lon) at zoom z. */
function tileAt(z: number, lat: number, lon: number): [number, number, number] {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  const x = Math.min(n - 1, Math.floor(((lon + 180) / 360) * n));
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [z, x, y];
}

/** The codes of a tile's `country` layer. */
function countryCodes(mvt: Uint8Array | null): string[] {
  if (mvt === null) return [];
  const layer = new VectorTile(new Pbf(mvt) as never).layers.country;
  return Array.from({ length: layer?.length ?? 0 }, (_, i) => String(layer.feature(i).properties.code)).sort();
}

const upTo = (zoom: number) =>
  Array.from({ length: zoom + 1 }, (_, z) =>
    Array.from({ length: 4 ** z }, (_, i): [number, number, number] => [z, i % 2 ** z, Math.floor(i / 2 ** z)]),
  ).flat();

const ZOOMS = [4, 5, 6, 7];
/** Both sides of 180° in Fiji (Taveuni) and Chukotka; the open South Pacific; Paris. */
const ACROSS = ZOOMS.flatMap((z) => [
  tileAt(z, -16.8, 179.99),
  tileAt(z, -16.8, -179.99),
  tileAt(z, 65, 179.5),
  tileAt(z, 65, -179.5),
]);
const SEA = ZOOMS.map((z) => tileAt(z, -50, -120));
const PARIS = ZOOMS.map((z) => tileAt(z, 48.8566, 2.3522));
const SAMPLE = EVERY_TILE ? upTo(OVERVIEW_MAX_ZOOM) : [...upTo(3), ...ACROSS, ...SEA, ...PARIS];

let worldLookup: GeoLookup;
/** The overview as computed from the lite dataset: the playground's path without a prebuilt file. */
let computed: TileSource;

beforeAll(() => {
  worldLookup = createGeoLookup(world);
  computed = tileSource(worldLookup, createGeoLookup(lite));
  computed.warm();
});

describe('the prebuilt world overview', () => {
  let p: { served: Served; prebuilt: boolean };
  beforeAll(async () => {
    p = await playground();
  });
  afterAll(() => p && stop(p.served));

  it('is the one the built playground draws from for the embedded dataset', () => {
    expect(p.served.output()).toMatch(/zooms 0-7 from \S*world-lite\.geolookup, prebuilt\)/);
    expect(p.prebuilt).toBe(true);
  });

  it(
    `serves the bytes the computed overview gives (${SAMPLE.length} tiles)`,
    async () => {
      let drawn = 0;
      for (const [z, x, y] of SAMPLE) {
        const want = computed.tile(z, x, y);
        const got = await served(p.served.port, z, x, y);
        expect(got === null ? null : new Uint8Array(got), `${z}/${x}/${y}`).toEqual(want);
        if (want !== null) drawn++;
      }
      expect(drawn).toBeGreaterThan(SAMPLE.length / 4);
    },
    EVERY_TILE ? 1_800_000 : undefined,
  );

  it('draws a country on both sides of 180°, and nothing over the open sea', async () => {
    for (const z of ZOOMS) {
      for (const lat of [-16.8, 65]) {
        const code = lat < 0 ? 'FJI' : 'RUS';
        const [east, west] = [tileAt(z, lat, 179.99), tileAt(z, lat, -179.99)];
        expect(east[1], `zoom ${z}`).toBe(2 ** z - 1);
        expect(west[1], `zoom ${z}`).toBe(0);
        expect(countryCodes(await served(p.served.port, ...east)), `${z} ${code} east`).toContain(code);
        expect(countryCodes(await served(p.served.port, ...west)), `${z} ${code} west`).toContain(code);
      }
      expect(await served(p.served.port, ...tileAt(z, -50, -120)), `zoom ${z} sea`).toBeNull();
      expect(countryCodes(await served(p.served.port, ...tileAt(z, 48.8566, 2.3522)))).toContain('FRA');
    }
  });
});

describe('a dataset at the same path with other bytes', () => {
  let zones: string;
  const data = join(dir, 'mine', 'mine.geolookup');
  const beside = join(dir, 'mine', 'mine-lite.geolookup');

  beforeAll(async () => {
    zones = await buildDataset(join(dir, 'zones'), 'zones', ['--countries', 'examples/delivery-zones.geojson']);
    mkdirSync(join(dir, 'mine'));
    place(world, data);
  });

  it('gets the prebuilt overview while its bytes are the embedded lite dataset', async () => {
    place(lite, beside);
    const p = await playground(['--data', data]);
    try {
      expect(p.served.output()).toContain(`from ${beside}, prebuilt)`);
      expect(await served(p.served.port, 0, 0, 0)).toEqual(Buffer.from(computed.tile(0, 0, 0)!));
    } finally {
      await stop(p.served);
    }
  });

  it('is drawn from its own geometry once they change, never from the prebuilt file', async () => {
    place(zones, beside);
    const p = await playground(['--data', data]);
    try {
      expect(p.prebuilt).toBe(false);
      expect(p.served.output()).toContain(`from ${beside})`);
      const own = tileSource(worldLookup, createGeoLookup(zones));
      for (const [z, x, y] of [[0, 0, 0], tileAt(5, 48.86, 2.34), tileAt(7, 45.72, 5.08), tileAt(3, -16.8, 179.99)]) {
        const want = own.tile(z, x, y);
        const got = await served(p.served.port, z, x, y);
        expect(got === null ? null : new Uint8Array(got), `${z}/${x}/${y}`).toEqual(want);
      }
      const paris = tileAt(7, 48.86, 2.34);
      expect(countryCodes(await served(p.served.port, ...paris))).toEqual(['PARIS-CENTRE', 'PARIS-RING']);
      expect(countryCodes(computed.tile(...paris))).toEqual(['FRA']);
    } finally {
      await stop(p.served);
    }
  });
});
