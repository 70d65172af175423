// The time-zone route, an extension beyond the service's contract: served when @geolookup/timezones
// is installed (as in this checkout), answered as @geolookup/timezones answers and in every other
// respect as /geo/country/fromGps is (headers, keys, limits, 400s, HEAD, 304, metrics, access log);
// and, in a project without the package (a child process), no route at all, while the contract's
// routes answer byte for byte as they do with it. Real servers on loopback sockets.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeZoneFromGps } from '../../timezones/src/index.js';
import { findExtensions, operationsOf } from 'geolookup/extend';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import { request } from '../../../test/support/loopback.js';
import { metric, readMetrics } from '../../../test/support/prometheus-text.js';
import { exchange, parseResponses, type RawResponse } from '../../../test/support/raw-http.js';
import { cityPoints, spherePoints } from '../../../test/support/sample-points.js';
import {
  expectProblem,
  get,
  KEY,
  KEY_ID,
  projectWithoutTimeZones,
  REVOKED,
  start,
  startWithoutTimeZones,
  useServerFixture,
} from '../../../test/support/server-fixture.js';

const OPERATIONS = operationsOf(findExtensions());

useServerFixture();

const ZONE = '/geo/timezone/fromGps/';
const COUNTRY = '/geo/country/fromGps/';
const PARIS = '48.8566,2.3522';
const ZONE_ROUTE = OPERATIONS.find((op) => op.id === 'timeZoneFromGps')!.path;

/** Points as the path writes them: plain decimals (String of a double, never with an exponent here). */
function seededPoints(): [string, string][] {
  const out: [string, string][] = [];
  for (const { lat, lon } of [cityPoints(200, 71), spherePoints(200, 72)])
    for (let i = 0; i < lat.length; i++) out.push([String(lat[i]), String(lon[i])]);
  // The poles, the antimeridian, the open sea, integer and string forms.
  out.push(['90', '0'], ['-90', '0'], ['-16.8', '180'], ['-16.8', '-180'], ['0', '-30'], ['5.', '5.'], ['-0', '-0']);
  return out.filter(([a, b]) => !/e/i.test(a + b));
}

/** The same requests as the path-pair 400s of server.test.ts. */
const BAD_PAIRS = [
  '120,45',
  '45,181',
  'abc,2',
  '1e1,2',
  '0x10,2',
  '%2048.85,2.35',
  '48.85,2.35%20',
  '48.85%0A,2.35',
  '48.85,%202.35',
  '48.85',
  '48.85%2C2.35',
  '48.85%2c2.35',
  '48%2C85,2.35',
  '',
  '1,2,3',
  '1,2/3',
  '1,',
  '48.85,%zz',
  '91,0',
  '-90.0000001,0',
  '0,-180.5',
];

describe('with @geolookup/timezones installed', () => {
  let port: number;
  let etag: string;
  beforeAll(async () => {
    ({
      port,
      server: { etag },
    } = await start({ limits: { burstPerMinute: 1_000_000 } }));
  });

  it('answers what @geolookup/timezones answers, on 400 seeded points near cities and over the sphere', async () => {
    const points = seededPoints();
    expect(points.length).toBeGreaterThan(400);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const answers = await Promise.all(
        points.map(([lat, lon]) =>
          request(port, `${ZONE}${lat},${lon}`, { 'X-API-Key': KEY }, 'GET', undefined, agent),
        ),
      );
      const got = answers.map((r, i) => [points[i].join(','), r.status, r.body]);
      expect(got).toEqual(points.map(([lat, lon]) => [`${lat},${lon}`, 200, timeZoneFromGps(lat, lon)]));
    } finally {
      agent.destroy();
    }
  });

  it('with the headers of countryFromGps, in the same order; its ETag names the time-zone dataset', async () => {
    const zone = await get(port, `${ZONE}${PARIS}`);
    const country = await get(port, `${COUNTRY}${PARIS}`);
    expect(zone.body).toBe('Europe/Paris');
    expect(Object.keys(zone.headers)).toEqual(Object.keys(country.headers));
    for (const name of ['content-type', 'cache-control', 'x-ratelimit-limit', 'x-ratelimit-burst-limit', 'connection'])
      expect(zone.headers[name], name).toBe(country.headers[name]);
    expect(zone.headers['content-length']).toBe('12');
    expect(zone.headers.etag).toMatch(/^"gl1-[0-9a-f]{24}"$/);
    expect(zone.headers.etag).not.toBe(etag);
    expect(country.headers.etag).toBe(etag);
    expect((await get(port, `${ZONE}0,-30`)).headers.etag).toBe(zone.headers.etag);
  });

  it('HEAD and If-None-Match: its own ETag gives 304, the dataset’s does not', async () => {
    const tag = (await get(port, `${ZONE}${PARIS}`)).headers.etag as string;
    const head = await request(port, `${ZONE}${PARIS}`, { 'X-API-Key': KEY }, 'HEAD');
    expect([head.status, head.body, head.headers.etag, head.headers['content-length']]).toEqual([200, '', tag, '12']);
    const notModified = await get(port, `${ZONE}${PARIS}`, KEY, { 'If-None-Match': tag });
    expect([notModified.status, notModified.body, notModified.headers.etag]).toEqual([304, '', tag]);
    expect((await get(port, `${ZONE}${PARIS}`, KEY, { 'If-None-Match': etag })).status).toBe(200);
    expect((await get(port, `${COUNTRY}${PARIS}`, KEY, { 'If-None-Match': tag })).status).toBe(200);
  });

  it.each(BAD_PAIRS)('bad coordinates %j: the status and problem record of countryFromGps', async (pair) => {
    const zone = await get(port, `${ZONE}${pair}`);
    const country = await get(port, `${COUNTRY}${pair}`);
    expectProblem(zone, 400, T.validation);
    expect([zone.status, zone.headers['cache-control'], zone.headers.etag]).toEqual([400, 'no-store', undefined]);
    expect(JSON.parse(zone.body)).toEqual(JSON.parse(country.body));
  });

  it('the key and the limits as for countryFromGps: 401 without a key or with a revoked one, 429 past the burst', async () => {
    for (const key of [null, REVOKED]) {
      const zone = await get(port, `${ZONE}${PARIS}`, key);
      const country = await get(port, `${COUNTRY}${PARIS}`, key);
      expectProblem(zone, 401, T.auth);
      expect([zone.body, zone.headers['www-authenticate']]).toEqual([
        country.body,
        country.headers['www-authenticate'],
      ]);
    }
    const now = Date.UTC(2026, 5, 15, 12, 0, 0, 500); // a fixed clock: the same Retry-After for both
    const limited = await start({ limits: { burstPerMinute: 2 }, now: () => now });
    expect((await get(limited.port, `${ZONE}${PARIS}`)).status).toBe(200);
    expect((await get(limited.port, `${COUNTRY}${PARIS}`)).status).toBe(200); // one burst for both routes
    const zone = await get(limited.port, `${ZONE}${PARIS}`);
    const country = await get(limited.port, `${COUNTRY}${PARIS}`);
    expectProblem(zone, 429, T.rate);
    expect(JSON.parse(zone.body)).toEqual(JSON.parse(country.body));
    expect(zone.headers['retry-after']).toBe(country.headers['retry-after']);
  });

  it('an unknown path lists the time-zone route among the routes', async () => {
    const p = expectProblem(await get(port, '/geo/timezone/'), 404, T.notFound);
    expect(p.detail).toMatch(new RegExp(`, ${ZONE_ROUTE.replace(/[{}]/g, '\\$&')}[,.]`));
  });

  it('metrics count it as timeZoneFromGps, the access log names it so', async () => {
    const lines: string[] = [];
    const { port: p } = await start({ accessLog: { write: (l: string) => void lines.push(l) } });
    await get(p, `${ZONE}${PARIS}`);
    await get(p, `${ZONE}${PARIS}`);
    await get(p, `${ZONE}91,0`);
    await request(p, `${ZONE}${PARIS}`, { 'X-API-Key': KEY }, 'HEAD');
    const samples = readMetrics((await request(p, '/metrics')).body);
    const total = 'geolookup_http_requests_total';
    expect(metric(samples, total, { route: 'timeZoneFromGps', status: '200' })).toBe(3);
    expect(metric(samples, total, { route: 'timeZoneFromGps', status: '400' })).toBe(1);
    expect(metric(samples, 'geolookup_http_request_duration_seconds_count', { route: 'timeZoneFromGps' })).toBe(4);
    const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.route !== 'metrics');
    expect(entries[0]).toMatchObject({
      method: 'GET',
      url: `${ZONE}${PARIS}`,
      route: 'timeZoneFromGps',
      status: 200,
      bytes: 12,
      client: KEY_ID,
    });
    expect(entries.map((e) => [e.route, e.method, e.status, e.bytes])).toEqual([
      ['timeZoneFromGps', 'GET', 200, 12],
      ['timeZoneFromGps', 'GET', 200, 12],
      ['timeZoneFromGps', 'GET', 400, expect.any(Number)],
      ['timeZoneFromGps', 'HEAD', 200, 0],
    ]);
  });
});

describe('without @geolookup/timezones (a project without it, in a child process)', () => {
  let project: ReturnType<typeof projectWithoutTimeZones>;
  beforeAll(() => {
    project = projectWithoutTimeZones();
  });
  afterAll(() => project?.remove());

  /** Requests answered on one connection, as bytes, for a byte-for-byte comparison. */
  const CONTRACT = [
    `${COUNTRY}${PARIS}`,
    `${COUNTRY}0,-30`,
    `${COUNTRY}120,45`,
    `${COUNTRY}1,2,3`,
    `/geo/subdivision/fromGps/${PARIS}`,
    '/geo/country/FRA/isInCountry?latitude=48.8566&longitude=2.3522',
    '/geo/country/FR/isInCountry?latitude=1&latitude=1&longitude=500',
    '/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.8566&longitude=2.3522',
    '/geo/subdivision/FR-ZZZ/isInSubdivision?latitude=1&longitude=1',
  ];
  const raw = async (port: number, paths: string[], extra = ''): Promise<RawResponse[]> => {
    const heads = paths.map((p, i) => {
      const close = i === paths.length - 1 ? 'Connection: close\r\n' : '';
      return `GET ${p} HTTP/1.1\r\nHost: localhost\r\n${extra}${close}\r\n`;
    });
    return parseResponses((await exchange(port, heads.join(''))).text);
  };
  /** What differs from run to run: the date, and the seconds to the month's end. */
  const stable = (r: RawResponse) => {
    const { date: _date, 'x-ratelimit-reset': _reset, ...headers } = r.headers;
    return { status: r.status, names: r.names, headers, body: r.body };
  };

  it('the time-zone path is no route, it is not in the OpenAPI document, and the contract’s routes answer byte for byte as with the package', async () => {
    const options = { allowAnonymous: true, limits: { anonymousBurstPerMinute: 1000 } };
    const without = await startWithoutTimeZones(project.dir, options);
    try {
      const { port: withPort } = await start(options);
      const [a, b] = [await raw(without.port, CONTRACT), await raw(withPort, CONTRACT)];
      expect(a.map(stable)).toEqual(b.map(stable));
      expect(a.map((r) => r.status)).toEqual([200, 404, 400, 400, 200, 200, 400, 200, 404]);

      const [zone] = await raw(without.port, [`${ZONE}${PARIS}`]);
      const [unknown] = await raw(without.port, ['/geo/planet/fromGps/1,2']);
      expect(stable(zone).names).toEqual(stable(unknown).names);
      expect([zone.status, zone.headers['cache-control'], zone.headers.etag]).toEqual([404, 'no-store', undefined]);
      const [pz, pu] = [JSON.parse(zone.body), JSON.parse(unknown.body)];
      expect(pz.detail).toBe(pu.detail.replace('/geo/planet/fromGps/1,2', `${ZONE}${PARIS}`));
      expect(pz).toEqual({ ...pu, detail: pz.detail });
      expect(pz.detail).not.toContain('timezone/fromGps/{');
      expect((await get(without.port, `${ZONE}91,0`, null)).status).toBe(404); // no 400: no route to check it

      const doc = JSON.parse((await request(without.port, '/openapi.json')).body);
      expect(Object.keys(doc.paths)).not.toContain(ZONE_ROUTE);
      expect(doc.tags).toBeUndefined();
      const samples = readMetrics((await request(without.port, '/metrics')).body);
      expect(metric(samples, 'geolookup_http_requests_total', { route: 'other', status: '404' })).toBe(3);
      expect(metric(samples, 'geolookup_http_requests_total', { route: 'timeZoneFromGps' })).toBe(0);
    } finally {
      expect(await without.stop()).toMatch(/^port \d+\n$/);
    }
  });
});
