// The client's border operations (distanceToBorder, nearestCountry, nearestSubdivision,
// regionsWithin), beyond the contract: remote against a real server with @geolookup/borders, and
// offline over the package, each answers what the package answers, with the same typed errors;
// the cache keys on the parameters too; an engine that does not pair (the lite dataset) is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import * as borders from '../../borders/src/index.js';
import {
  cacheKey,
  type ClientResult,
  createClient,
  GeoLookupError,
  type GeoLookupClient,
  NotFoundError,
  ValidationError,
} from '../src/index.js';
import { createServer, type GeoLookupServer } from '../../server/src/server/server.js';
import * as lib from 'geolookup';
import type { NearestRegion as NearestAnswer, RegionsWithin as RegionsAnswer } from '../../borders/src/index.js';
import '../../../test/support/client-extensions.js';
import { HOST, listenOnLoopback } from '../../../test/support/loopback.js';
import { cityPoints } from '../../../test/support/sample-points.js';
import { projectWithoutTimeZones, runModule } from '../../../test/support/server-fixture.js';
import { rejection } from '../../../test/support/thrown.js';

let server: GeoLookupServer;
let baseUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'geolookup-client-borders-'));
beforeAll(async () => {
  server = createServer({ allowAnonymous: true, limits: { anonymousBurstPerMinute: 100_000 }, quotaFile: null });
  baseUrl = `http://${HOST}:${await listenOnLoopback(server)}`;
});
afterAll(async () => {
  await server.shutdown(100);
  rmSync(dir, { recursive: true, force: true });
});
const quiet = { cacheWarningInterval: 0 };

type Coordinate = number | string;
/** One call of each method, with its arguments, as a user writes it. */
type Case = [string, (c: GeoLookupClient | typeof borders) => unknown];

function cases(): Case[] {
  const pts: [Coordinate, Coordinate][] = [
    [51.4416, 4.9268], // Baarle
    [36.0, -5.5], // the Strait of Gibraltar
    [40, -40], // the open Atlantic
    [-16.8, 180], // Fiji, on the antimeridian
    [-16.8, -180],
    ['47.6969', '8.6908'], // Büsingen, as text
  ];
  const { lat, lon } = cityPoints(12, 461);
  for (let i = 0; i < lat.length; i++) pts.push([lat[i], lon[i]]);
  const out: Case[] = [];
  for (const [a, b] of pts) {
    const at = `${a},${b}`;
    out.push(
      [`distanceToBorder(${at})`, (c) => c.distanceToBorder(a, b)],
      [
        `distanceToBorder(${at}, subdivision, 5 km)`,
        (c) => c.distanceToBorder(a, b, { layer: 'subdivision', maxKm: 5 }),
      ],
      [`nearestCountry(${at})`, (c) => c.nearestCountry(a, b)],
      [`nearestCountry(${at}, 0.5 km)`, (c) => c.nearestCountry(a, b, { maxKm: 0.5 })],
      [`nearestSubdivision(${at}, 100 km)`, (c) => c.nearestSubdivision(a, b, { maxKm: 100 })],
      [`regionsWithin(${at}, 50 m)`, (c) => c.regionsWithin(a, b, 50)],
      [`regionsWithin(${at}, 20 km)`, (c) => c.regionsWithin(a, b, 20_000)],
    );
  }
  // Bad input: the package's ValidationError, remote and offline alike.
  const bad = (name: string, call: Case[1]): Case => [name, call];
  out.push(
    bad('maxKm -1', (c) => c.distanceToBorder(1, 2, { maxKm: -1 })),
    bad('maxKm NaN', (c) => c.nearestCountry(1, 2, { maxKm: Number.NaN })),
    bad('maxKm 501', (c) => c.nearestSubdivision(1, 2, { maxKm: 501 })),
    bad('maxKm Infinity', (c) => c.distanceToBorder(1, 2, { maxKm: Number.POSITIVE_INFINITY })),
    bad('layer sea', (c) => c.distanceToBorder(1, 2, { layer: 'sea' as never })),
    bad('radiusM -1', (c) => c.regionsWithin(1, 2, -1)),
    bad('radiusM 500001', (c) => c.regionsWithin(1, 2, 500_001)),
    bad('radiusM missing', (c) => (c.regionsWithin as (a: number, b: number) => unknown)(1, 2)),
    bad('radiusM and latitude', (c) => c.regionsWithin(91, 2, -1)),
    bad('latitude', (c) => c.distanceToBorder(91, 2)),
  );
  return out;
}

/**
 * What a call gave: its data, or the error's class, status, fields and message; a bad coordinate's
 * message quotes the text the URL carried (got "91"), so with one only the fields are compared.
 */
async function outcome(call: () => unknown): Promise<unknown> {
  try {
    const value = (await call()) as { data?: unknown };
    return { data: value !== null && typeof value === 'object' && 'data' in value ? value.data : value };
  } catch (e) {
    const err = e as GeoLookupError & { errors?: Record<string, string[]> };
    const fields = Object.keys(err.errors ?? {}).sort();
    const point = fields.includes('latitude') || fields.includes('longitude');
    return {
      error: err.name,
      status: err.status,
      fields,
      ...(point ? {} : { message: err.message, errors: err.errors }),
    };
  }
}

describe('remote and offline, the border operations answer what @geolookup/borders answers', () => {
  it('at the named places and 12 seeded points, with the same typed errors for bad input', async () => {
    const all = cases();
    const want = await Promise.all(all.map(([, call]) => outcome(() => call(borders))));
    const remote = createClient({ baseUrl, cache: false, ...quiet });
    const offline = createClient({ offline: true });
    const paired = createClient({ offline: true, engine: lib.preload() });
    for (const client of [remote, offline, paired]) {
      const got = await Promise.all(all.map(([, call]) => outcome(() => call(client))));
      expect(got.map((g, i) => [all[i][0], g])).toEqual(all.map(([name], i) => [name, want[i]]));
    }
    const kinds = want.map((w) => JSON.stringify(w));
    for (const kind of [/^{"data":null}$/, /"error":"NotFoundError"/, /"error":"ValidationError"/, /"distanceM":0}/])
      expect(
        kinds.some((k) => kind.test(k)),
        String(kind),
      ).toBe(true);
  });

  it("a region none is near: a NotFoundError of every copy's class, remote and offline", async () => {
    for (const client of [createClient({ baseUrl, ...quiet }), createClient({ offline: true })]) {
      const e = await rejection(client.nearestCountry(40, -40));
      expect(e).toBeInstanceOf(NotFoundError);
      expect(e).toBeInstanceOf(lib.NotFoundError);
      expect((e as NotFoundError).status).toBe(404);
    }
  });

  it('an options argument that is no object is a ValidationError, remote and offline', async () => {
    for (const client of [createClient({ baseUrl, ...quiet }), createClient({ offline: true })]) {
      const e = await rejection(client.distanceToBorder(1, 2, 5 as never));
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).errors).toEqual({ options: ['options must be an object, got 5'] });
    }
  });

  it('offline with an engine the borders file was not drawn from (lite): a DataError; the contract still answers', async () => {
    const lite = createClient({ offline: true, engine: lib.createGeoLookup(lib.resolveDataPath('lite')) });
    const e = await rejection(lite.distanceToBorder(51.4416, 4.9268));
    expect(e).toBeInstanceOf(lib.DataError);
    expect(e.message).toMatch(/simplified/);
    // The refusal is kept: the next call gets the same error without reading the borders file again.
    expect(await rejection(lite.regionsWithin(51.4416, 4.9268, 20))).toBe(e);
    expect((await lite.countryFromGps(51.4416, 4.9268)).data).toMatch(/^(BEL|NLD)$/);
  });

  it('a body that is not the answer’s JSON is a GeoLookupError 502', async () => {
    for (const body of ['abc', '"NLD"', '{"code":"NLD"}', '-1', '{"countries":[],"subdivisions":{}}']) {
      const client = createClient({
        baseUrl,
        cache: false,
        ...quiet,
        fetch: async () => new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }),
      });
      const calls = [client.distanceToBorder(1, 2), client.nearestCountry(1, 2), client.regionsWithin(1, 2, 5)];
      for (const call of calls) {
        const e = await rejection(call);
        expect(e).toBeInstanceOf(GeoLookupError);
        expect((e as GeoLookupError).status).toBe(502);
      }
    }
  });
});

describe('the cache keys on the parameters', () => {
  it('cacheKey: a parameter after the point, a number and its decimal text alike; the contract’s keys as before', () => {
    expect(cacheKey('regionsWithin', undefined, 1, 2, { radiusM: 20 })).toBe(
      'geolookup:regionsWithin::1000000,2000000?radiusM=20',
    );
    expect(cacheKey('regionsWithin', undefined, 1, 2, { radiusM: '20.0' })).toBe(
      cacheKey('regionsWithin', undefined, 1, 2, { radiusM: 20 }),
    );
    expect(cacheKey('distanceToBorder', undefined, 1, 2, { maxKm: 5, layer: 'subdivision' })).toBe(
      'geolookup:distanceToBorder::1000000,2000000?maxKm=5&layer=subdivision',
    );
    expect(cacheKey('distanceToBorder', undefined, 1, 2, { maxKm: undefined })).toBe(
      cacheKey('distanceToBorder', undefined, 1, 2),
    );
    expect(cacheKey('regionsWithin', undefined, 1, 2, { radiusM: Number.NaN })).toBeNull();
    expect(cacheKey('regionsWithin', undefined, 1, 2, { radiusM: {} })).toBeNull();
    expect(cacheKey('countryFromGps', undefined, 48.8566004, -0.0000001)).toBe('geolookup:countryFromGps::48856600,0');
  });

  it('one request per point and parameters; answers and 404s from the cache; a changed answer leaves the cache as it was', async () => {
    const urls: string[] = [];
    const client = createClient({
      baseUrl,
      ...quiet,
      fetch: (url, init) => {
        urls.push(url.slice(baseUrl.length));
        return globalThis.fetch(url, init);
      },
    });
    const first = await client.distanceToBorder(51.4416, 4.9268);
    expect((await client.distanceToBorder(51.4416, 4.9268)).data).toBe(first.data);
    await client.distanceToBorder(51.4416, 4.9268, { maxKm: 5 });
    await client.distanceToBorder(51.4416, 4.9268, { maxKm: '5' as never });
    await client.distanceToBorder(51.4416, 4.9268, { maxKm: 5, layer: 'subdivision' });
    const regions = await client.regionsWithin(36, -5.5, 20_000);
    regions.data.countries.pop();
    expect((await client.regionsWithin(36, -5.5, 20_000)).data).toEqual(borders.regionsWithin(36, -5.5, 20_000));
    await client.regionsWithin(36, -5.5, 50);
    for (let i = 0; i < 2; i++) expect(await rejection(client.nearestCountry(40, -40))).toBeInstanceOf(NotFoundError);
    expect(urls).toEqual([
      '/geo/border/distance/fromGps/51.4416,4.9268',
      '/geo/border/distance/fromGps/51.4416,4.9268?maxKm=5',
      '/geo/border/distance/fromGps/51.4416,4.9268?maxKm=5&layer=subdivision',
      '/geo/regions/within/fromGps/36,-5.5?radiusM=20000',
      '/geo/regions/within/fromGps/36,-5.5?radiusM=50',
      '/geo/country/nearest/fromGps/40,-40',
    ]);
  });
});

describe('types', () => {
  it('each method takes its parameters and answers its kind', () => {
    const c = createClient({ offline: true });
    expectTypeOf(c.distanceToBorder).parameters.toEqualTypeOf<
      [Coordinate, Coordinate, ({ maxKm?: number; layer?: 'country' | 'subdivision' } | undefined)?]
    >();
    expectTypeOf(c.distanceToBorder).returns.toEqualTypeOf<Promise<ClientResult<number | null>>>();
    expectTypeOf(c.nearestCountry).returns.toEqualTypeOf<Promise<ClientResult<NearestAnswer>>>();
    expectTypeOf(c.nearestSubdivision).parameters.toEqualTypeOf<
      [Coordinate, Coordinate, ({ maxKm?: number } | undefined)?]
    >();
    expectTypeOf(c.regionsWithin).parameters.toEqualTypeOf<[Coordinate, Coordinate, number]>();
    expectTypeOf(c.regionsWithin).returns.toEqualTypeOf<Promise<ClientResult<RegionsAnswer>>>();
    expectTypeOf(c.countryFromGps).returns.toEqualTypeOf<Promise<ClientResult<string>>>();
  });
});

describe('in a project without @geolookup/borders', () => {
  let project: ReturnType<typeof projectWithoutTimeZones>;
  beforeAll(() => {
    project = projectWithoutTimeZones();
  });
  afterAll(() => project?.remove());

  it('offline: no such method, and call() rejects with a GeoLookupError saying what is missing', async () => {
    const { code, stdout, stderr } = await runModule(
      project.dir,
      `import { createClient, GeoLookupError } from '@geolookup/client';
const local = createClient({ offline: true });
try {
  await local.call('regionsWithin', 51.4416, 4.9268, 20);
} catch (e) {
  console.log(JSON.stringify({ method: typeof local.regionsWithin, geo: e instanceof GeoLookupError, status: e.status, message: e.message }));
}`,
    );
    expect([code, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toEqual({
      method: 'undefined',
      geo: true,
      status: 500,
      message:
        'This client has no operation regionsWithin: it offers countryFromGps, subdivisionFromGps, isInCountry, isInSubdivision. ' +
        "An extension's operation needs its package installed (or passed as options.extensions).",
    });
  });
});
