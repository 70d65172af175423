// The border routes, extensions beyond the service's contract: served when @geolookup/borders is
// installed (as in this checkout), answered as the package answers (JSON: metres or null, a region,
// the regions within a radius; a 404 when no region is near), with the package's own ETag; their
// query parameters checked as the coordinates are (each once, percent-decoded, every bad field in
// one 400); and no such routes where the package is not installed or does not pair with the
// server's dataset (the lite one). Real servers on loopback sockets, real borders data.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as borders from '../../borders/src/index.js';
import { datasetEtag } from '../src/server/responses.js';
import { createGeoLookup, NotFoundError, preload, resolveDataPath, ValidationError } from 'geolookup';
import { callOperation, findExtensions, type Operation, operationsOf } from 'geolookup/extend';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import { request } from '../../../test/support/loopback.js';
import { metric, readMetrics } from '../../../test/support/prometheus-text.js';
import { cityPoints, spherePoints } from '../../../test/support/sample-points.js';
import {
  expectProblem,
  get,
  KEY,
  logs,
  projectWithoutTimeZones,
  start,
  startWithoutTimeZones,
  useServerFixture,
} from '../../../test/support/server-fixture.js';

useServerFixture();

const OPERATIONS = operationsOf(findExtensions());
const BORDER_OPS = OPERATIONS.filter((op) => op.extension === '@geolookup/borders');
const op = (id: Operation['id']) => OPERATIONS.find((o) => o.id === id)!;
const DISTANCE = '/geo/border/distance/fromGps/';
const NEAREST = '/geo/country/nearest/fromGps/';
const WITHIN = '/geo/regions/within/fromGps/';
const BAARLE = '51.4416,4.9268';
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The named places, and seeded points near cities and over the sphere (plain decimals). */
function points(): [string, string][] {
  const out: [string, string][] = [
    ['51.4416', '4.9268'], // Baarle: nested enclaves
    ['36.0', '-5.5'], // the Strait of Gibraltar, between ESP, MAR and GIB
    ['40', '-40'], // the open Atlantic: nothing within 50 km
    ['-16.8', '180'], // Fiji, on the antimeridian
    ['-16.8', '-180'],
    ['-17.0', '179.99'],
  ];
  for (const { lat, lon } of [cityPoints(20, 451), spherePoints(10, 452)])
    for (let i = 0; i < lat.length; i++) out.push([String(lat[i]), String(lon[i])]);
  return out.filter(([a, b]) => !/e/i.test(a + b));
}

/** Each operation with the query strings the test asks it with. */
const QUERIES: Record<string, string[]> = {
  distanceToBorder: ['', '?layer=subdivision', '?maxKm=5', '?maxKm=0.5&layer=country'],
  nearestCountry: ['', '?maxKm=1', '?maxKm=200'],
  nearestSubdivision: ['', '?maxKm=2.5'],
  regionsWithin: ['?radiusM=50', '?radiusM=20000', '?radiusM=0'],
};

/** What the package answers, as the route sends it: [status, body]. */
function expected(o: Operation, lat: string, lon: string, query: string): [number, string] {
  const params = Object.fromEntries(new URLSearchParams(query));
  try {
    return [200, JSON.stringify(callOperation(borders as never, o, undefined, lat, lon, params))];
  } catch (e) {
    if (e instanceof NotFoundError) return [404, e.message];
    throw e;
  }
}

describe('with @geolookup/borders installed', () => {
  let port: number;
  let etag: string;
  beforeAll(async () => {
    ({
      port,
      server: { etag },
    } = await start({ limits: { burstPerMinute: 1_000_000 } }));
  });

  it('each route answers what the package answers, at the named places and 30 seeded points', async () => {
    const pts = points();
    const cases = BORDER_OPS.flatMap((o) =>
      QUERIES[o.id].flatMap((q) =>
        pts.map(([lat, lon]) => ({
          o,
          lat,
          lon,
          q,
          path: `${o.path.replace('{latitude},{longitude}', `${lat},${lon}`)}${q}`,
        })),
      ),
    );
    expect(cases.length).toBeGreaterThan(400);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const answers = await Promise.all(
        cases.map((c) => request(port, c.path, { 'X-API-Key': KEY }, 'GET', undefined, agent)),
      );
      const got = answers.map((r, i) => [
        cases[i].path,
        r.status,
        r.status === 404 ? JSON.parse(r.body).detail : r.body,
      ]);
      expect(got).toEqual(cases.map((c) => [c.path, ...expected(c.o, c.lat, c.lon, c.q)]));
      // The cases reach every kind of answer: null, a 404, a number, a region at 0 and beyond.
      const bodies = got.map((g) => `${g[1]} ${g[2]}`);
      for (const kind of [/^200 null$/, /^404 /, /^200 \d+\.\d+$/, /"distanceM":0\}$/, /"distanceM":[1-9][\d.]*\}$/])
        expect(
          bodies.some((b) => kind.test(b)),
          String(kind),
        ).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('the named places: Baarle 8 m from a border, Gibraltar between three countries, nothing near the open Atlantic', async () => {
    const baarle = await get(port, `${WITHIN}${BAARLE}?radiusM=20`);
    expect(JSON.parse(baarle.body).countries.map((r: { code: string }) => r.code)).toEqual(['NLD', 'BEL']);
    const strait = JSON.parse((await get(port, `${WITHIN}36.0,-5.5?radiusM=20000`)).body);
    expect(strait.countries.map((r: { code: string }) => r.code)).toEqual(['ESP', 'MAR', 'GIB']);
    expect((await get(port, `${DISTANCE}40,-40`)).body).toBe('null');
    expectProblem(await get(port, `${NEAREST}40,-40`), 404, T.notFound);
    expect((await get(port, `${WITHIN}40,-40?radiusM=50000`)).body).toBe('{"countries":[],"subdivisions":[]}');
  });

  it('as JSON, with the headers of countryFromGps in the same order; the ETag names the borders file, the 404 too', async () => {
    const info = datasetEtag({ meta: borders.bordersDatasetInfo() });
    const country = await get(port, `/geo/country/fromGps/${BAARLE}`);
    for (const o of BORDER_OPS) {
      const path = `${o.path.replace('{latitude},{longitude}', BAARLE)}${QUERIES[o.id][0]}`;
      const r = await get(port, path);
      expect([r.status, r.headers['content-type'], r.headers.etag], o.id).toEqual([200, 'application/json', info]);
      expect(Object.keys(r.headers)).toEqual(Object.keys(country.headers));
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.body)));
      expect(r.headers['cache-control']).toBe(country.headers['cache-control']);
      const head = await request(port, path, { 'X-API-Key': KEY }, 'HEAD');
      expect([head.status, head.body, head.headers.etag]).toEqual([200, '', info]);
      const notModified = await get(port, path, KEY, { 'If-None-Match': info });
      expect([notModified.status, notModified.body]).toEqual([304, '']);
      expect((await get(port, path, KEY, { 'If-None-Match': etag })).status).toBe(200);
    }
    expect(info).not.toBe(etag);
    const none = await get(port, `${NEAREST}40,-40`);
    expect([none.status, none.headers.etag, none.headers['cache-control']]).toEqual([
      404,
      info,
      country.headers['cache-control'],
    ]);
  });

  /** Bad requests, and the fields their 400 names. */
  const BAD: [string, string[]][] = [
    [`${DISTANCE}${BAARLE}?maxKm=-1`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?maxKm=NaN`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?maxKm=500.001`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?maxKm=1e2`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?maxKm=`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?maxKm=+5`, ['maxKm']], // '+' is a space in a query
    [`${DISTANCE}${BAARLE}?maxKm=%zz`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?maxKm=1&maxKm=1`, ['maxKm']],
    [`${DISTANCE}${BAARLE}?layer=sea`, ['layer']],
    [`${DISTANCE}${BAARLE}?layer=Country`, ['layer']],
    [`${NEAREST}${BAARLE}?maxKm=Infinity`, ['maxKm']],
    [`/geo/subdivision/nearest/fromGps/${BAARLE}?maxKm=-0.1`, ['maxKm']],
    [`${WITHIN}${BAARLE}`, ['radiusM']],
    [`${WITHIN}${BAARLE}?radiusM=500001`, ['radiusM']],
    [`${WITHIN}${BAARLE}?radiusM=-1`, ['radiusM']],
    [`${WITHIN}${BAARLE}?radiusM=20&radiusM=20`, ['radiusM']],
    // Together with the point's problems, every bad field in one 400.
    [`${DISTANCE}91,0?maxKm=-1`, ['maxKm', 'latitude']],
    [`${DISTANCE}91,0?layer=sea`, ['latitude', 'layer']],
    [`${DISTANCE}1,2,3?layer=sea&maxKm=1&maxKm=2`, ['coordinates', 'maxKm', 'layer']],
    [`${DISTANCE}abc,%zz?maxKm=1`, ['latitude', 'longitude']],
    [`${WITHIN}0,181`, ['radiusM', 'longitude']],
    [`${NEAREST}48.85%2C2.35?maxKm=x`, ['coordinates', 'maxKm']],
  ];
  it.each(BAD)('%s: 400 naming %j', async (path, fields) => {
    const r = await get(port, path);
    const p = expectProblem(r, 400, T.validation);
    expect(Object.keys(p.errors).sort()).toEqual([...fields].sort());
    expect([r.headers['cache-control'], r.headers.etag]).toEqual(['no-store', undefined]);
    // The detail says each field's problem (a malformed pair in its own words, as on the contract's routes).
    for (const [field, messages] of Object.entries(p.errors) as [string, string[]][])
      if (field !== 'coordinates') for (const m of messages) expect(p.detail).toContain(m.slice(1));
  });

  it('a bad value gets the message the package gives it', async () => {
    const r = await get(port, `${WITHIN}${BAARLE}?radiusM=-1`);
    let thrown: unknown;
    try {
      borders.regionsWithin(51.4416, 4.9268, -1);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(JSON.parse(r.body).errors).toEqual((thrown as ValidationError).errors);
  });

  it('other query parameters are ignored, as on the contract’s routes; the point’s 400 is the contract’s', async () => {
    const plain = await get(port, `${DISTANCE}${BAARLE}`);
    expect((await get(port, `${DISTANCE}${BAARLE}?radiusM=x&maxkm=1&_=1`)).body).toBe(plain.body);
    for (const pair of ['120,45', '1,2,3', '48.85%2C2.35', '%2048.85,2.35']) {
      const border = await get(port, `${DISTANCE}${pair}`);
      const country = await get(port, `/geo/country/fromGps/${pair}`);
      expect(JSON.parse(border.body)).toEqual(JSON.parse(country.body));
    }
  });

  it('the document’s bounds are the package’s', () => {
    const maxKm = op('distanceToBorder').params!.find((p) => p.name === 'maxKm')!;
    expect(maxKm).toMatchObject({ max: borders.MAX_RADIUS_KM, default: borders.DEFAULT_MAX_KM });
  });

  it('metrics and the access log name each route by its operation', async () => {
    const lines: string[] = [];
    const { port: p } = await start({ accessLog: { write: (l: string) => void lines.push(l) } });
    await get(p, `${WITHIN}${BAARLE}?radiusM=20`);
    await get(p, `${WITHIN}${BAARLE}?radiusM=-1`);
    await get(p, `${NEAREST}40,-40`);
    const samples = readMetrics((await request(p, '/metrics')).body);
    const total = 'geolookup_http_requests_total';
    expect(metric(samples, total, { route: 'regionsWithin', status: '200' })).toBe(1);
    expect(metric(samples, total, { route: 'regionsWithin', status: '400' })).toBe(1);
    expect(metric(samples, total, { route: 'nearestCountry', status: '404' })).toBe(1);
    const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.route !== 'metrics');
    const body = (await get(port, `${WITHIN}${BAARLE}?radiusM=20`)).body;
    expect(entries.map((e) => [e.route, e.status])).toEqual([
      ['regionsWithin', 200],
      ['regionsWithin', 400],
      ['nearestCountry', 404],
    ]);
    expect(entries[0].bytes).toBe(Buffer.byteLength(body));
  });
});

describe('over another dataset', () => {
  it('a lookup given to the server pairs with the borders file: the same answers', async () => {
    const { port } = await start({ lookup: createGeoLookup(resolveDataPath('world')) });
    const cases: [Operation, string, string, string][] = [
      [op('regionsWithin'), '51.4416', '4.9268', '?radiusM=20'],
      [op('distanceToBorder'), '36.0', '-5.5', ''],
      [op('nearestCountry'), '40', '-40', ''],
      [op('nearestSubdivision'), '-16.8', '180', '?maxKm=10'],
    ];
    for (const [o, lat, lon, q] of cases) {
      const r = await get(port, `${o.path.replace('{latitude},{longitude}', `${lat},${lon}`)}${q}`);
      expect([r.status, r.status === 404 ? JSON.parse(r.body).detail : r.body]).toEqual(expected(o, lat, lon, q));
    }
  });

  it('the lite dataset does not pair: no border routes, a line in the log, the contract’s routes as ever', async () => {
    const before = logs.length;
    const { port, server } = await start({ data: resolveDataPath('lite') });
    expect(logs.slice(before).join('\n')).toMatch(
      /@geolookup\/borders is installed but not served over this dataset: .*simplified/,
    );
    const r = await get(port, `${DISTANCE}${BAARLE}`);
    expectProblem(r, 404, T.notFound);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(r.body).detail).not.toContain('/geo/regions/within/');
    const paths = Object.keys(server.openapi.paths as object);
    for (const o of BORDER_OPS) expect(paths).not.toContain(o.path);
    expect(paths).toContain(op('timeZoneFromGps').path);
    expect((await get(port, `/geo/country/fromGps/${BAARLE}`)).status).toBe(200);
  });

  it('$GEOLOOKUP_DATA naming the lite dataset: the same, in a process whose preload() reads it', () => {
    const script = `
import { createServer } from '@geolookup/server';

const lines = [];
const server = createServer({ allowAnonymous: true, quotaFile: null, watchKeys: false, log: (l) => lines.push(l) });
console.log(JSON.stringify({ lines, paths: Object.keys(server.openapi.paths) }));
server.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GEOLOOKUP_DATA: 'lite' },
    });
    expect(r.stderr).toBe('');
    const { lines, paths } = JSON.parse(r.stdout);
    expect(lines).toEqual([
      expect.stringMatching(/^geolookup: @geolookup\/borders is installed but not served .*simplified/),
    ]);
    for (const o of BORDER_OPS) expect(paths).not.toContain(o.path);
    expect(paths).toContain(op('countryFromGps').path);
  });
});

describe('without @geolookup/borders (a project without it, in a child process)', () => {
  let project: ReturnType<typeof projectWithoutTimeZones>;
  beforeAll(() => {
    project = projectWithoutTimeZones();
  });
  afterAll(() => project?.remove());

  it('the border paths are no routes, not in the OpenAPI document, counted as `other`', async () => {
    const without = await startWithoutTimeZones(project.dir, {
      allowAnonymous: true,
      limits: { anonymousBurstPerMinute: 1000 },
    });
    try {
      const unknown = await get(without.port, '/geo/planet/fromGps/1,2', null);
      for (const o of BORDER_OPS) {
        const path = `${o.path.replace('{latitude},{longitude}', '91,0')}?maxKm=-1&radiusM=-1`;
        const r = await get(without.port, path, null);
        expectProblem(r, 404, T.notFound); // no 400: no route to check it
        expect(JSON.parse(r.body).detail).toBe(
          JSON.parse(unknown.body).detail.replace('/geo/planet/fromGps/1,2', path.split('?')[0]),
        );
      }
      const doc = JSON.parse((await request(without.port, '/openapi.json')).body);
      for (const o of BORDER_OPS) expect(Object.keys(doc.paths)).not.toContain(o.path);
      expect(JSON.stringify(doc)).not.toMatch(/maxKm|radiusM/);
      const samples = readMetrics((await request(without.port, '/metrics')).body);
      expect(metric(samples, 'geolookup_http_requests_total', { route: 'other', status: '404' })).toBe(
        BORDER_OPS.length + 1,
      );
    } finally {
      expect(await without.stop()).toMatch(/^port \d+\n$/);
    }
  });
});

it('preload() is the embedded dataset the package measures on', () => {
  expect(borders.bordersDatasetInfo().dataset.name).toBe(preload().meta.name);
});
