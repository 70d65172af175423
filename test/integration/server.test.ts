// The HTTP server over real sockets on an ephemeral loopback port: routes, statuses,
// headers, API keys, burst and quota limits (injected clock), anonymous mode,
// persistence, robustness. The engine is the real one on the embedded dataset.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preload } from '../../src/index.js';
import { createKey, revokeKey } from '../../src/server/keys.js';
import { createServer, type GeoLookupServer, type ServerOptions } from '../../src/server/server.js';
import { run } from '../../src/cli/run.js';
import { exchange, exchangeResponses, HOST, parseResponses } from '../support/raw-http.js';

/** Stands for the valid key in raw-socket cases (the key is made in beforeAll). */
const K = '<KEY>';
let dir: string;
let keysFile: string;
let KEY: string; // free plan
let KEY_ID: string;
let REVOKED: string;
let SMALL: string; // monthly quota 2
const logs: string[] = [];
const servers: GeoLookupServer[] = [];

beforeAll(() => {
  preload();
  dir = mkdtempSync(join(tmpdir(), 'geolookup-server-'));
  keysFile = join(dir, 'keys.json');
  ({
    key: KEY,
    record: { id: KEY_ID },
  } = createKey(keysFile, 'free'));
  REVOKED = createKey(keysFile, 'pro').key;
  revokeKey(keysFile, REVOKED.slice(4, 16));
  SMALL = createKey(keysFile, 'free', { monthlyQuota: 2 }).key;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.shutdown(100)));
  rmSync(dir, { recursive: true, force: true });
  // Never a key in anything the server logged.
  for (const line of logs) for (const k of [KEY, REVOKED, SMALL]) expect(line).not.toContain(k);
});

async function start(options: ServerOptions = {}): Promise<{ server: GeoLookupServer; port: number }> {
  const server = createServer({ keys: keysFile, quotaFile: null, log: (l) => logs.push(l), ...options });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
  method = 'GET',
  body?: string,
  agent: http.Agent | false = false,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: HOST, port, path, method, headers, agent }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const get = (port: number, path: string, key: string | null = KEY, extra: http.OutgoingHttpHeaders = {}) =>
  request(port, path, key === null ? extra : { 'X-API-Key': key, ...extra });

const rawGet = (path: string, headerLines: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headerLines}Connection: close\r\n\r\n`;

function expectProblem(r: Res, status: number, type: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  const p = JSON.parse(r.body);
  expect(p).toMatchObject({ type, status });
  expect(typeof p.title).toBe('string');
  expect(typeof p.detail).toBe('string');
  expect(r.body).not.toMatch(/\n\s+at |\.ts:\d+|node:internal/); // never a stack trace
  return p;
}

const T = {
  validation: 'https://geolookup.dev/problems/validation',
  notFound: 'https://geolookup.dev/problems/not-found',
  auth: 'https://geolookup.dev/problems/authentication',
  rate: 'https://geolookup.dev/problems/rate-limit',
  general: 'about:blank',
};

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

describe('API keys', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await start());
  });

  it('a valid key is accepted, whatever the case of the header name', async () => {
    for (const name of ['X-API-Key', 'x-api-key', 'X-API-KEY']) {
      expect((await request(port, '/geo/country/fromGps/48.8566,2.3522', { [name]: KEY })).status).toBe(200);
    }
  });

  const cases: [string, () => Promise<Res>, RegExp][] = [
    ['missing', () => get(port, '/geo/country/fromGps/1,1', null), /missing/],
    [
      'Authorization instead',
      () => get(port, '/geo/country/fromGps/1,1', null, { Authorization: `Bearer ${KEY}` }),
      /Authorization header is not accepted/,
    ],
    [
      'Authorization with the bare key',
      () => get(port, '/geo/country/fromGps/1,1', null, { Authorization: KEY }),
      /Authorization/,
    ],
    ['another header name', () => get(port, '/geo/country/fromGps/1,1', null, { 'X-Api-Token': KEY }), /missing/],
    ['trailing space', () => get(port, '/geo/country/fromGps/1,1', `${KEY} `), /whitespace/],
    ['trailing tab', () => get(port, '/geo/country/fromGps/1,1', `${KEY}\t`), /whitespace/],
    ['leading extra space', () => get(port, '/geo/country/fromGps/1,1', ` ${KEY}`), /whitespace/],
    ['empty value', () => get(port, '/geo/country/fromGps/1,1', ''), /empty/],
    [
      'inner space',
      () => get(port, '/geo/country/fromGps/1,1', `${KEY.slice(0, 10)} ${KEY.slice(10)}`),
      /whitespace or control/,
    ],
    ['revoked', () => get(port, '/geo/country/fromGps/1,1', REVOKED), /revoked/],
    [
      'unknown, well-formed',
      () => get(port, '/geo/country/fromGps/1,1', `glk_${KEY_ID}_${'A'.repeat(43)}`),
      /not valid/,
    ],
    ['unknown id', () => get(port, '/geo/country/fromGps/1,1', KEY.replace(KEY_ID, '000000000000')), /not valid/],
    ['malformed', () => get(port, '/geo/country/fromGps/1,1', 'let-me-in'), /not valid/],
    [
      'duplicated (same value)',
      () => request(port, '/geo/country/fromGps/1,1', { 'X-API-Key': [KEY, KEY] }),
      /exactly one/,
    ],
    [
      'duplicated (different case)',
      () =>
        request(port, '/geo/country/fromGps/1,1', [
          'Host',
          'localhost',
          'X-API-Key',
          KEY,
          'x-api-key',
          KEY,
        ] as unknown as http.OutgoingHttpHeaders),
      /exactly one/,
    ],
  ];
  it.each(cases)('401 when the key is %s', async (_name, send, detail) => {
    const r = await send();
    const p = expectProblem(r, 401, T.auth);
    expect(p.title).toBe('Unauthorized');
    expect(p.detail).toMatch(detail);
    expect(r.headers['www-authenticate']).toBe('X-API-Key');
    expect(r.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  const rawCases: [string, string][] = [
    ['trailing space', `X-API-Key: ${K} \r\n`],
    ['two spaces after the colon', `X-API-Key:  ${K}\r\n`],
    ['tab separator', `X-API-Key:\t${K}\r\n`],
    ['newline inside the value', `X-API-Key: ${K}\nx\r\n`],
    ['bare newline ending the value', `X-API-Key: ${K}\n`],
    ['folded onto a second line', `X-API-Key: ${K}\r\n continued\r\n`],
    ['carriage return inside the value', `X-API-Key: ${K}\rx\r\n`],
    ['control character', `X-API-Key: ${K}\x01\r\n`],
    ['NUL', `X-API-Key: \x00${K}\r\n`],
    ['DEL', `X-API-Key: ${K}\x7f\r\n`],
    ['non-ASCII', `X-API-Key: ${K}\xe9\r\n`],
    ['duplicated', `X-API-Key: ${K}\r\nX-API-Key: ${K}\r\n`],
  ];
  it.each(rawCases)('401 over a raw socket: %s', async (_name, lines) => {
    const res = await exchangeResponses(port, rawGet('/geo/country/fromGps/48.8566,2.3522', lines.replaceAll(K, KEY)));
    expect(res).toHaveLength(1);
    expect(res[0].status).toBe(401);
    expect(JSON.parse(res[0].body)).toMatchObject({ type: T.auth, status: 401, title: 'Unauthorized' });
  });

  it('the exact key over a raw socket is accepted (the raw cases differ only by their flaw)', async () => {
    const res = await exchangeResponses(port, rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY}\r\n`));
    expect(res.map((r) => [r.status, r.body])).toEqual([[200, 'FRA']]);
    const tight = await exchangeResponses(port, rawGet('/geo/country/fromGps/48.8566,2.3522', `x-api-key:${KEY}\r\n`));
    expect(tight.map((r) => r.status)).toEqual([200]);
  });

  it('one connection, several keys: each request is checked on its own', async () => {
    const forged = KEY.slice(0, -1) + (KEY.endsWith('A') ? 'B' : 'A'); // same length, last character differs
    const head = (key: string, close = false) =>
      `GET /geo/country/fromGps/48.8566,2.3522 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
    const res = await exchangeResponses(
      port,
      head(KEY) + head(REVOKED) + head(KEY) + head(forged) + head(SMALL) + head(KEY, true),
    );
    expect(res.map((r) => r.status)).toEqual([200, 401, 200, 401, 200, 200]);
    expect(res[4].headers['x-ratelimit-limit']).toBe('2');
    expect(res[5].headers['x-ratelimit-limit']).toBe('10000');
  });

  it('a key revoked while its keep-alive connection is open is refused on that connection', async () => {
    const file = join(dir, 'keepalive-keys.json');
    const k = createKey(file, 'free');
    const { server, port: p } = await start({ keys: file, watchKeys: false });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const once = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          { host: HOST, port: p, path: '/geo/country/fromGps/48.8566,2.3522', headers: { 'X-API-Key': k.key }, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('socket', (s) => sockets.add(s));
        req.on('error', reject);
      });
    expect(await once()).toBe(200);
    expect(await once()).toBe(200);
    revokeKey(file, k.record.id);
    server.reloadKeys();
    expect(await once()).toBe(401);
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it('a malformed request for another header is a 400, not a 401', async () => {
    const [r] = await exchangeResponses(
      port,
      rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY}\r\nX-Other: a\nb\r\n`),
    );
    expect(r.status).toBe(400);
  });

  it('keys file changes apply without a restart: revoke, add, broken file kept out', async () => {
    const file = join(dir, 'reload-keys.json');
    const first = createKey(file, 'free');
    const { server, port: p } = await start({ keys: file });
    const status = async (k: string) => (await get(p, '/geo/country/fromGps/48.8566,2.3522', k)).status;
    const eventually = async (k: string, want: number) => {
      for (let i = 0; i < 100 && (await status(k)) !== want; i++) await new Promise((r) => setTimeout(r, 30));
      expect(await status(k)).toBe(want);
    };
    expect(await status(first.key)).toBe(200);
    const second = createKey(file, 'pro');
    await eventually(second.key, 200);
    revokeKey(file, first.record.id);
    await eventually(first.key, 401);
    // A broken file is not loaded; the previous keys stay in force.
    writeFileSync(file, '{ not json');
    expect(server.reloadKeys()).toBe(false);
    expect(await status(second.key)).toBe(200);
    expect(logs.some((l) => /keys not reloaded/.test(l))).toBe(true);
  });

  it('reloadKeys() (SIGHUP in the CLI) picks up a change when watching is off', async () => {
    const file = join(dir, 'hup-keys.json');
    const k = createKey(file, 'free');
    const { server, port: p } = await start({ keys: file, watchKeys: false });
    expect((await get(p, '/geo/country/fromGps/1,1', k.key)).status).not.toBe(401);
    revokeKey(file, k.record.id);
    await new Promise((r) => setTimeout(r, 100));
    expect((await get(p, '/geo/country/fromGps/1,1', k.key)).status).not.toBe(401);
    expect(server.reloadKeys()).toBe(true);
    expect((await get(p, '/geo/country/fromGps/1,1', k.key)).status).toBe(401);
  });

  it('the keys file holds hashes, never keys', () => {
    const text = readFileSync(keysFile, 'utf8');
    for (const k of [KEY, REVOKED, SMALL]) expect(text).not.toContain(k.slice(17));
    expect(JSON.parse(text).keys[0]).toMatchObject({
      id: KEY_ID,
      plan: 'free',
      monthlyQuota: 10000,
      revoked: false,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe('limits', () => {
  const t0 = Date.UTC(2026, 4, 10, 12, 0, 0);

  it('rate-limit headers on every identified response, 400 and 404 included', async () => {
    let now = t0;
    const { port } = await start({ now: () => now, limits: { burstPerMinute: 50 } });
    for (const [path, status] of [
      ['/geo/country/fromGps/48.8566,2.3522', 200],
      ['/geo/country/fromGps/0,-30', 404],
      ['/geo/country/fromGps/x,1', 400],
      ['/nope', 404],
    ] as const) {
      const r = await get(port, path);
      expect(r.status).toBe(status);
      expect(r.headers['x-ratelimit-limit']).toBe('10000');
      expect(r.headers['x-ratelimit-burst-limit']).toBe('50');
      expect(Number(r.headers['x-ratelimit-remaining'])).toBeLessThan(10000);
      expect(Number(r.headers['x-ratelimit-burst-remaining'])).toBeLessThan(50);
      // seconds to the next UTC month: 2026-06-01T00:00Z - 2026-05-10T12:00Z
      expect(r.headers['x-ratelimit-reset']).toBe(String((Date.UTC(2026, 5, 1) - now) / 1000));
      now += 1000;
    }
  });

  it('burst: a sliding window of one-second slots; 429 with Retry-After, nothing counted', async () => {
    let now = t0 + 250;
    const { port } = await start({ now: () => now, limits: { burstPerMinute: 3 } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await get(port, '/geo/country/fromGps/48.8566,2.3522');
      expect(r.status).toBe(200);
      remaining.push(`${r.headers['x-ratelimit-burst-remaining']}/${r.headers['x-ratelimit-remaining']}`);
    }
    expect(remaining).toEqual(['2/9999', '1/9998', '0/9997']);
    const over = await get(port, '/geo/country/fromGps/48.8566,2.3522');
    const p = expectProblem(over, 429, T.rate);
    expect(p.title).toBe('Too Many Requests');
    expect(p.detail).toMatch(/Burst limit of 3 requests per minute exceeded; try again later/);
    expect(over.headers['retry-after']).toBe('60');
    expect(p.retryAfter).toBe(60);
    expect(over.headers['x-ratelimit-burst-remaining']).toBe('0');
    expect(over.headers['x-ratelimit-remaining']).toBe('9997'); // a refused request is not counted
    expect(over.headers['cache-control']).toBe('no-store');
    now = t0 + 30_500;
    expect((await get(port, '/geo/country/fromGps/1,1')).headers['retry-after']).toBe('30');
    now = t0 + 59_999;
    expect((await get(port, '/geo/country/fromGps/1,1')).headers['retry-after']).toBe('1');
    now = t0 + 60_000; // the slot of the first three has left the window
    const back = await get(port, '/geo/country/fromGps/48.8566,2.3522');
    expect(back.status).toBe(200);
    expect(back.headers['x-ratelimit-burst-remaining']).toBe('2');
  });

  it('burst: requests spread over the minute leave the window one slot at a time', async () => {
    let now = t0;
    const { port } = await start({ now: () => now, limits: { burstPerMinute: 3 } });
    for (const dt of [0, 20_000, 40_000]) {
      now = t0 + dt;
      expect((await get(port, '/geo/country/fromGps/1,1')).status).not.toBe(429);
    }
    now = t0 + 50_000;
    const r = await get(port, '/geo/country/fromGps/1,1');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('10');
    now = t0 + 60_000;
    expect((await get(port, '/geo/country/fromGps/1,1')).headers['x-ratelimit-burst-remaining']).toBe('0');
  });

  it('burst windows are per key', async () => {
    const now = t0;
    const other = createKey(keysFile, 'pro').key;
    const { port } = await start({ now: () => now, limits: { burstPerMinute: 1 } });
    expect((await get(port, '/geo/country/fromGps/1,1', KEY)).status).not.toBe(429);
    expect((await get(port, '/geo/country/fromGps/1,1', KEY)).status).toBe(429);
    expect((await get(port, '/geo/country/fromGps/1,1', other)).status).not.toBe(429);
  });

  it('monthly quota: 429 until the next UTC month, then reset', async () => {
    let now = Date.UTC(2026, 0, 31, 23, 59, 0);
    const { port } = await start({ now: () => now });
    const a = await get(port, '/geo/country/fromGps/48.8566,2.3522', SMALL);
    expect([
      a.headers['x-ratelimit-limit'],
      a.headers['x-ratelimit-remaining'],
      a.headers['x-ratelimit-reset'],
    ]).toEqual(['2', '1', '60']);
    const b = await get(port, '/geo/country/fromGps/48.8566,2.3522', SMALL);
    expect(b.headers['x-ratelimit-remaining']).toBe('0');
    const over = await get(port, '/geo/country/fromGps/48.8566,2.3522', SMALL);
    const p = expectProblem(over, 429, T.rate);
    expect(p.detail).toMatch(/Monthly quota of 2 requests exceeded; try again later/);
    expect(over.headers['retry-after']).toBe('60');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    now = Date.UTC(2026, 1, 1, 0, 0, 0);
    const next = await get(port, '/geo/country/fromGps/48.8566,2.3522', SMALL);
    expect(next.status).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('1');
    expect(next.headers['x-ratelimit-reset']).toBe(String(28 * 86400));
  });
});

describe('anonymous mode', () => {
  it('off by default: no key is 401', async () => {
    const { port } = await start();
    expectProblem(await get(port, '/geo/country/fromGps/1,1', null), 401, T.auth);
  });

  it('on: 10 requests per minute per client address, a bad key is still 401, a good key has its own limits', async () => {
    const now = Date.UTC(2026, 4, 10, 12, 0, 0);
    const { port } = await start({ allowAnonymous: true, now: () => now });
    for (let i = 0; i < 10; i++) {
      const r = await get(port, '/geo/country/fromGps/48.8566,2.3522', null);
      expect(r.status).toBe(200);
      expect(r.headers['x-ratelimit-burst-limit']).toBe('10');
      expect(r.headers['x-ratelimit-burst-remaining']).toBe(String(9 - i));
      expect(r.headers['x-ratelimit-limit']).toBe('10000');
    }
    const over = await get(port, '/geo/country/fromGps/48.8566,2.3522', null);
    expectProblem(over, 429, T.rate);
    expect(over.headers['retry-after']).toBe('60');
    // X-Forwarded-For is ignored without a trusted proxy
    expect((await get(port, '/geo/country/fromGps/1,1', null, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(429);
    expectProblem(await get(port, '/geo/country/fromGps/1,1', 'bogus'), 401, T.auth);
    expectProblem(await get(port, '/geo/country/fromGps/1,1', `${KEY} `), 401, T.auth);
    const keyed = await get(port, '/geo/country/fromGps/48.8566,2.3522', KEY);
    expect(keyed.status).toBe(200);
    expect(keyed.headers['x-ratelimit-burst-limit']).toBe('1000');
  });

  it('behind a trusted proxy, X-Forwarded-For names the client', async () => {
    const now = Date.UTC(2026, 4, 10, 12, 0, 0);
    const { port } = await start({
      allowAnonymous: true,
      trustProxy: ['127.0.0.1'],
      limits: { anonymousBurstPerMinute: 1 },
      now: () => now,
    });
    const from = (xff: string) => get(port, '/geo/country/fromGps/1,1', null, { 'X-Forwarded-For': xff });
    expect((await from('203.0.113.1')).status).not.toBe(429);
    expect((await from('203.0.113.1')).status).toBe(429);
    expect((await from('198.51.100.7, 203.0.113.2')).status).not.toBe(429);
    expect((await from('203.0.113.2')).status).toBe(429); // the rightmost untrusted hop
  });

  it('anonymous monthly quota per address', async () => {
    const now = Date.UTC(2026, 4, 10, 12, 0, 0);
    const { port } = await start({ allowAnonymous: true, limits: { anonymousMonthlyQuota: 1 }, now: () => now });
    expect((await get(port, '/geo/country/fromGps/1,1', null)).headers['x-ratelimit-remaining']).toBe('0');
    const r = await get(port, '/geo/country/fromGps/1,1', null);
    expect(r.status).toBe(429);
    expect(JSON.parse(r.body).detail).toMatch(/Monthly quota/);
  });
});

describe('quota persistence', () => {
  it('counts survive a restart; writes are atomic (no temporary file left)', async () => {
    const quotaFile = join(dir, 'restart.quota.json');
    const now = Date.UTC(2026, 4, 10, 12, 0, 0);
    const a = await start({ quotaFile, flushIntervalMs: 3_600_000, now: () => now });
    for (let i = 0; i < 3; i++) expect((await get(a.port, '/geo/country/fromGps/48.8566,2.3522')).status).toBe(200);
    await a.server.shutdown();
    const saved = JSON.parse(readFileSync(quotaFile, 'utf8'));
    expect(saved.usage[KEY_ID]).toEqual({ month: '2026-05', used: 3 });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const b = await start({ quotaFile, now: () => now });
    expect((await get(b.port, '/geo/country/fromGps/48.8566,2.3522')).headers['x-ratelimit-remaining']).toBe(
      String(10000 - 4),
    );
    // A new month starts from zero.
    const c = await start({ quotaFile: join(dir, 'restart.quota.json'), now: () => Date.UTC(2026, 5, 1) });
    await b.server.shutdown();
    expect((await get(c.port, '/geo/country/fromGps/48.8566,2.3522')).headers['x-ratelimit-remaining']).toBe('9999');
  });

  it('changed counts are written at the flush interval while serving', async () => {
    const quotaFile = join(dir, 'interval.quota.json');
    const { port } = await start({ quotaFile, flushIntervalMs: 50 });
    await get(port, '/geo/country/fromGps/48.8566,2.3522');
    await get(port, '/geo/country/fromGps/48.8566,2.3522');
    let used = 0;
    for (let i = 0; i < 100 && used !== 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      try {
        used = JSON.parse(readFileSync(quotaFile, 'utf8')).usage[KEY_ID]?.used ?? 0;
      } catch {
        /* not written yet */
      }
    }
    expect(used).toBe(2);
  });

  it('the default quota file sits beside the keys file', async () => {
    const keys = join(dir, 'beside.json');
    const k = createKey(keys, 'free');
    const { server, port } = await start({ keys, quotaFile: undefined });
    await get(port, '/geo/country/fromGps/1,1', k.key);
    await server.shutdown();
    expect(JSON.parse(readFileSync(join(dir, 'beside.quota.json'), 'utf8')).usage[k.record.id].used).toBe(1);
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

describe('CLI keys (in-process)', () => {
  const cli = (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = run(
      args,
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('create prints the key once, alone on stdout; list shows ids, never keys or hashes; revoke marks it', () => {
    const file = join(dir, 'cli-keys.json');
    const made = cli('keys', 'create', '--keys', file, '--plan', 'pro', '--label', 'ci');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^glk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.err).toMatch(/shown only this once/);
    expect(made.err).not.toContain(made.out);
    const id = made.out.slice(4, 16);
    const list = cli('keys', 'list', '--keys', file);
    expect(list.out).toMatch(new RegExp(`${id}\\s+pro\\s+1000000\\s+active`));
    expect(list.out).not.toContain(made.out);
    const json = JSON.parse(cli('keys', 'list', '--keys', file, '--json').out);
    expect(json[0]).toMatchObject({ id, plan: 'pro', revoked: false, label: 'ci' });
    expect(json[0].sha256).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain(made.out);
    expect(cli('keys', 'revoke', id, '--keys', file)).toMatchObject({ code: 0, out: `revoked ${id}` });
    expect(cli('keys', 'list', '--keys', file).out).toMatch(/revoked/);
    expect(cli('keys', 'revoke', 'ffffffffffff', '--keys', file).code).toBe(3);
  });

  it('bad usage exits 2; an unreadable keys file exits 1', () => {
    expect(cli('keys', 'create', '--keys', join(dir, 'x.json'), '--plan', 'gold').code).toBe(2);
    expect(cli('keys', 'create', '--plan', 'free').code).toBe(2);
    expect(cli('keys', 'frob', '--keys', 'x').code).toBe(2);
    expect(cli('keys').code).toBe(2);
    expect(cli('serve').code).toBe(2); // neither --keys nor --allow-anonymous
    expect(cli('serve', '--keys', 'k.json', '--port', 'eighty').code).toBe(2);
    expect(cli('serve', '--keys', 'k.json', '--bogus').code).toBe(2);
    expect(cli('keys', 'list', '--keys', join(dir, 'missing.json')).code).toBe(1);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 1, "keys": [{"id": "zz"}]}');
    const r = cli('serve', '--keys', broken);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/id must be 12 hex digits/);
    expect(cli('serve', '--help').out).toMatch(/--allow-anonymous/);
    expect(cli('--help').out).toMatch(/geolookup serve/);
  });
});
