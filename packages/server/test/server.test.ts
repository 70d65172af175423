// The HTTP server over real sockets on an ephemeral loopback port: routes, statuses, headers,
// conditional requests and robustness, then the timeouts. The engine is the real one on the
// embedded dataset. API keys: server-keys.test.ts; limits and persistence: server-limits.test.ts.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import { HOST, request } from '../../../test/support/loopback.js';
import { exchange, exchangeResponses, parseResponses } from '../../../test/support/raw-http.js';
import { expectProblem, get, KEY, rawGet, start, useServerFixture } from '../../../test/support/server-fixture.js';

useServerFixture();

describe('routes', () => {
  let port: number;
  let etag: string;
  beforeAll(async () => {
    ({
      port,
      server: { etag },
    } = await start({ limits: { burstPerMinute: 1_000_000 } }));
  });

  it.each([
    ['/geo/country/fromGps/48.8566,2.3522', 'FRA'],
    ['/geo/country/fromGps/-33.8688,151.2093', 'AUS'],
    ['/geo/country/fromGps/67.5,-179.9', 'RUS'],
    ['/geo/subdivision/fromGps/48.8566,2.3522', 'FR-75C'],
    ['/geo/subdivision/fromGps/40.7128,-74.006', 'US-NY'],
    ['/geo/country/FRA/isInCountry?latitude=48.8566&longitude=2.3522', 'true'],
    ['/geo/country/fra/isInCountry?longitude=2.3522&latitude=48.8566', 'true'],
    ['/geo/country/DEU/isInCountry?latitude=48.8566&longitude=2.3522', 'false'],
    ['/geo/country/ATA/isInCountry?latitude=-80&longitude=0', 'false'],
    ['/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.8566&longitude=2.3522', 'true'],
    ['/geo/subdivision/US-CA/isInSubdivision?latitude=40.7128&longitude=-74.006', 'false'],
    ['/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.8566&longitude=2.3522&cachebust=1', 'true'],
  ])('GET %s → 200 %s', async (path, body) => {
    const r = await get(port, path);
    expect(r.status).toBe(200);
    expect(r.body).toBe(body);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(r.headers['cache-control']).toBe('public, max-age=86400');
    expect(r.headers.etag).toBe(etag);
  });

  it('percent-decoding applies to each value after the pair is split on its literal comma', async () => {
    for (const path of ['/geo/country/fromGps/48%2E8566,2%2e3522', '/geo/country/fromGps/%34%38.8566,%32.3522']) {
      const r = await get(port, path);
      expect([path, r.status, r.body]).toEqual([path, 200, 'FRA']);
    }
  });

  it('a 404 names the point as numbers, whatever decimal form the path had', async () => {
    const p = expectProblem(await get(port, '/geo/country/fromGps/5.,5.'), 404, T.notFound);
    expect(p.detail).toBe('No country at 5,5.');
  });

  it('the ETag is a quoted hash of the dataset, the same for every lookup', () => {
    expect(etag).toMatch(/^"gl1-[0-9a-f]{24}"$/);
  });

  it('HEAD answers the same headers without a body', async () => {
    const g = await get(port, '/geo/subdivision/fromGps/48.8566,2.3522');
    const h = await request(port, '/geo/subdivision/fromGps/48.8566,2.3522', { 'X-API-Key': KEY }, 'HEAD');
    expect(h.status).toBe(200);
    expect(h.body).toBe('');
    for (const name of [
      'content-type',
      'content-length',
      'cache-control',
      'etag',
      'x-ratelimit-limit',
      'x-ratelimit-burst-limit',
    ]) {
      expect(h.headers[name]).toBe(g.headers[name]);
    }
  });

  it('If-None-Match with the ETag → 304 without a body', async () => {
    const r = await get(port, '/geo/country/fromGps/48.8566,2.3522', KEY, { 'If-None-Match': etag });
    expect(r.status).toBe(304);
    expect(r.body).toBe('');
    expect(r.headers.etag).toBe(etag);
    expect((await get(port, '/geo/country/fromGps/48.8566,2.3522', KEY, { 'If-None-Match': '"other"' })).status).toBe(
      200,
    );
  });

  it('404 for a point in no country or subdivision: a cacheable problem record', async () => {
    const sea = await get(port, '/geo/country/fromGps/0,-30');
    const p = expectProblem(sea, 404, T.notFound);
    expect(p.title).toBe('Not Found');
    expect(sea.headers['cache-control']).toBe('public, max-age=86400');
    expect(sea.headers.etag).toBe(etag);
    expectProblem(await get(port, '/geo/subdivision/fromGps/0,-30'), 404, T.notFound);
    expectProblem(await get(port, '/geo/country/fromGps/-85,0'), 404, T.notFound); // Antarctica
  });

  it.each([
    ['/geo/country/ZZZ/isInCountry?latitude=1&longitude=1'],
    ['/geo/subdivision/FR-ZZZ/isInSubdivision?latitude=1&longitude=1'],
  ])('404 for an unknown code: %s', async (path) => {
    expectProblem(await get(port, path), 404, T.notFound);
  });

  it.each([
    ['/'],
    ['/geo'],
    ['/geo/country'],
    ['/geo/planet/fromGps/1,2'],
    ['/geo/country/FRA/isInCountry/x?latitude=1&longitude=1'],
    ['/geo//country/fromGps/1,2'],
    ['/GEO/country/fromGps/1,2'],
  ])('404 for an unknown path: %s', async (path) => {
    const r = await get(port, path);
    expectProblem(r, 404, T.notFound);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers.etag).toBeUndefined();
  });

  const bad: [string, string, RegExp][] = [
    ['out of range, swapped', '/geo/country/fromGps/120,45', /swapped/i],
    ['longitude out of range', '/geo/subdivision/fromGps/45,181', /longitude must be between -180 and 180/i],
    ['non-numeric', '/geo/country/fromGps/abc,2', /latitude must be a decimal number/i],
    ['exponent', '/geo/country/fromGps/1e1,2', /latitude must be a decimal number/i],
    ['hex', '/geo/country/fromGps/0x10,2', /latitude must be a decimal number/i],
    ['percent-encoded leading space', '/geo/country/fromGps/%2048.85,2.35', /latitude must not contain whitespace/i],
    ['percent-encoded trailing space', '/geo/country/fromGps/48.85,2.35%20', /longitude must not contain whitespace/i],
    ['percent-encoded newline', '/geo/country/fromGps/48.85%0A,2.35', /latitude must not contain whitespace/i],
    ['space after the comma', '/geo/country/fromGps/48.85,%202.35', /longitude must not contain whitespace/i],
    ['missing comma', '/geo/country/fromGps/48.85', /comma between latitude and longitude is missing/i],
    ['encoded comma is not the separator', '/geo/country/fromGps/48.85%2C2.35', /comma .* is missing/i],
    [
      'encoded comma, said so',
      '/geo/subdivision/fromGps/48.85%2c2.35',
      /missing \(an encoded comma, %2C, is part of a value, not the separator\)/,
    ],
    [
      'encoded comma inside a value',
      '/geo/country/fromGps/48%2C85,2.35',
      /latitude must be a decimal number.*"48,85"/i,
    ],
    ['no coordinates', '/geo/subdivision/fromGps/', /coordinates are missing/i],
    ['three parts', '/geo/country/fromGps/1,2,3', /more than two parts/i],
    ['extra path segment', '/geo/country/fromGps/1,2/3', /extra path segments/i],
    ['empty longitude', '/geo/country/fromGps/1,', /longitude must not be empty/i],
    ['broken percent-encoding', '/geo/country/fromGps/48.85,%zz', /longitude has invalid percent-encoding/i],
    ['missing query latitude', '/geo/country/FRA/isInCountry?longitude=2', /latitude is required/i],
    ['no query at all', '/geo/subdivision/FR-IDF/isInSubdivision', /latitude is required.*longitude is required/i],
    [
      'repeated query latitude',
      '/geo/country/FRA/isInCountry?latitude=1&latitude=2&longitude=2',
      /latitude must be given once, got 2 values/i,
    ],
    [
      'repeated query longitude',
      '/geo/subdivision/FR-IDF/isInSubdivision?latitude=1&longitude=2&longitude=2',
      /longitude must be given once/i,
    ],
    [
      'plus in a query value (a space)',
      '/geo/country/FRA/isInCountry?latitude=+48.85&longitude=2',
      /latitude must not contain whitespace/i,
    ],
    ['empty query value', '/geo/country/FRA/isInCountry?latitude=&longitude=2', /latitude must not be empty/i],
    ['alpha-2 country code', '/geo/country/FR/isInCountry?latitude=1&longitude=1', /alpha-2.*FRA/i],
    [
      'malformed country code',
      '/geo/country/F1A/isInCountry?latitude=1&longitude=1',
      /countryCode must be ISO 3166-1 alpha-3/i,
    ],
    ['padded country code', '/geo/country/%20FRA/isInCountry?latitude=1&longitude=1', /countryCode/i],
    [
      'malformed subdivision code',
      '/geo/subdivision/FRIDF/isInSubdivision?latitude=1&longitude=1',
      /subdivisionCode must be ISO 3166-2/i,
    ],
    [
      'deleted subdivision code (former FATA)',
      '/geo/subdivision/PK-TA/isInSubdivision?latitude=33&longitude=70.07',
      /"PK-TA".*no longer an ISO 3166-2 code: use "PK-KP"/,
    ],
    [
      'deleted subdivision code split in three',
      '/geo/subdivision/gh-ba/isInSubdivision?latitude=7.34&longitude=-2.33',
      /"GH-BA".*use one of "GH-BO", "GH-BE", "GH-AF"/,
    ],
    [
      'bad code and repeated parameter together',
      '/geo/country/FR/isInCountry?latitude=1&latitude=1&longitude=500',
      /alpha-2.*latitude must be given once.*longitude must be between/i,
    ],
  ];
  it.each(bad)('400 for %s', async (_name, path, detail) => {
    const r = await get(port, path);
    const p = expectProblem(r, 400, T.validation);
    expect(p.title).toBe('Bad Request');
    expect(p.detail).toMatch(detail);
    expect(typeof p.errors).toBe('object');
    expect(Object.keys(p.errors).length).toBeGreaterThan(0);
    for (const list of Object.values(p.errors))
      expect(Array.isArray(list) && list.every((m) => typeof m === 'string')).toBe(true);
    expect(Object.keys(p).sort()).toEqual(['detail', 'errors', 'status', 'title', 'type']);
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('400 per-field errors name the bad fields', async () => {
    const p = JSON.parse((await get(port, '/geo/country/FR/isInCountry?latitude=91&longitude=2')).body);
    expect(Object.keys(p.errors).sort()).toEqual(['countryCode', 'latitude']);
    const pair = JSON.parse((await get(port, '/geo/country/fromGps/1,2,3')).body);
    expect(Object.keys(pair.errors)).toEqual(['coordinates']);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s → 405 with Allow: GET, HEAD', async (method) => {
    const r = await request(port, '/geo/country/fromGps/48.8566,2.3522', { 'X-API-Key': KEY }, method);
    const p = expectProblem(r, 405, T.general);
    expect(p.title).toBe('Method Not Allowed');
    expect(r.headers.allow).toBe('GET, HEAD');
  });

  it('a request with a body is answered and its connection closed', async () => {
    const r = await request(
      port,
      '/geo/country/fromGps/48.8566,2.3522',
      { 'X-API-Key': KEY, 'Content-Type': 'text/plain' },
      'POST',
      'hello',
    );
    expect(r.status).toBe(405);
    expect(r.headers.connection).toBe('close');
  });

  it('/healthz answers without a key and without rate-limit headers', async () => {
    const r = await get(port, '/healthz', null);
    expect(r.status).toBe(200);
    expect(r.body).toBe('ok');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('keep-alive: several requests share one connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ports = new Set<number>();
    for (let i = 0; i < 3; i++) {
      const r = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(
          { host: HOST, port, path: '/geo/country/fromGps/52.52,13.405', headers: { 'X-API-Key': KEY }, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res));
          },
        );
        req.on('error', reject);
        req.on('socket', (s) => s.once('connect', () => ports.add(s.localPort!)));
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers.connection).toBe('keep-alive');
      expect(r.headers['keep-alive']).toBe('timeout=5');
    }
    expect(ports.size).toBe(1);
    agent.destroy();
  });

  it('pipelined requests get their own key verdicts, in order', async () => {
    const head = (key: string) =>
      `GET /geo/country/fromGps/48.8566,2.3522 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`;
    const res = await exchangeResponses(port, [
      `${head(KEY) + head(`${KEY} `)}\r\n${head(KEY).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}`,
    ]);
    expect(res.map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('a request head split across many small writes is scanned correctly', async () => {
    const text = rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY} \r\n`);
    const parts = text.match(/[\s\S]{1,3}/g)!;
    const res = await exchangeResponses(port, parts);
    expect(res.map((r) => r.status)).toEqual([401]);
    const ok = await exchangeResponses(
      port,
      rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY}\r\n`).match(/[\s\S]{1,5}/g)!,
    );
    expect(ok.map((r) => [r.status, r.body])).toEqual([[200, 'FRA']]);
  });

  it('414 for an over-long request target, 431 for an over-large head', async () => {
    const long = await get(port, `/geo/country/fromGps/1,2?pad=${'x'.repeat(3000)}`);
    expectProblem(long, 414, T.general);
    const big = await exchangeResponses(port, rawGet('/healthz', `X-Pad: ${'y'.repeat(9000)}\r\n`));
    expect(big[0].status).toBe(431);
    expect(JSON.parse(big[0].body)).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
  });

  it('malformed HTTP gets a 400 problem record and the process keeps serving', async () => {
    for (const junk of [
      'HELLO\r\n\r\n',
      'GET /a b c HTTP/1.1\r\n\r\n',
      '\x00\x01\x02\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
      'GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n',
    ]) {
      const [r] = await exchangeResponses(port, junk);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ status: 400, title: 'Bad Request' });
    }
    expect((await get(port, '/geo/country/fromGps/48.8566,2.3522')).body).toBe('FRA');
  });
});

describe('timeouts', () => {
  it('a client that never finishes its head gets 408 and is disconnected', async () => {
    const { port } = await start({ headersTimeout: 300, requestTimeout: 300 });
    const began = Date.now();
    const { text } = await exchange(port, 'GET /geo/country/fromGps/1,1 HTTP/1.1\r\nHost: x\r\n', 4000);
    expect(Date.now() - began).toBeLessThan(3000);
    expect(parseResponses(text)[0]?.status ?? 0).toBe(408);
  });

  it('a client that connects and sends nothing is disconnected after headersTimeout', async () => {
    const { port } = await start({ headersTimeout: 300, requestTimeout: 300 });
    const began = Date.now();
    const { text } = await exchange(port, [], 4000);
    expect(Date.now() - began).toBeLessThan(3000);
    expect(parseResponses(text)[0]?.status ?? 0).toBe(408);
  });

  it('an idle keep-alive connection is closed after keepAliveTimeout', async () => {
    const { port } = await start({ keepAliveTimeout: 200 });
    const began = Date.now();
    const { text } = await exchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, 4000);
    expect(parseResponses(text)[0].status).toBe(200);
    expect(Date.now() - began).toBeLessThan(3000);
  });
});
