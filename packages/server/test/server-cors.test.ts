// CORS on the wire: the preflight of a listed origin, the headers of every answer to it (errors
// included), nothing for other origins, `*` only with anonymous access, and the CLI's checks.
// The same from a real browser: server-cors-browser.test.ts.
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/index.js';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import { type HttpAnswer, request } from '../../../test/support/loopback.js';
import { exchangeResponses } from '../../../test/support/raw-http.js';
import {
  expectProblem,
  get,
  KEY,
  keysFile,
  SMALL,
  start,
  useServerFixture,
} from '../../../test/support/server-fixture.js';

useServerFixture();

const PAGE = 'http://127.0.0.1:5173';
const OTHER = 'http://evil.example';
const PATH = '/geo/country/fromGps/48.8566,2.3522';
const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Burst-Limit',
  'X-RateLimit-Burst-Remaining',
  'Retry-After',
];

const preflight = (port: number, origin: string, path = PATH) =>
  request(
    port,
    path,
    {
      Origin: origin,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'x-api-key',
    },
    'OPTIONS',
  );

function expectCors(r: HttpAnswer, origin: string): void {
  expect(r.headers['access-control-allow-origin']).toBe(origin);
  const exposed = (r.headers['access-control-expose-headers'] as string).split(', ');
  expect(exposed).toEqual(expect.arrayContaining(EXPOSED));
  expect(r.headers.vary).toBe('Origin');
}

function expectNoCors(r: HttpAnswer): void {
  for (const name of Object.keys(r.headers)) expect(name).not.toMatch(/^access-control-/);
}

describe('CORS with listed origins', () => {
  it('a preflight from a listed origin: 204 with the methods, the key header and a max age', async () => {
    const { port } = await start({ corsOrigins: [PAGE, 'https://app.example'] });
    for (const path of [PATH, '/geo/subdivision/FR-IDF/isInSubdivision?latitude=1&longitude=2', '/openapi.json']) {
      const r = await preflight(port, PAGE, path);
      expect(r.status).toBe(204);
      expect(r.body).toBe('');
      expect(r.headers['access-control-allow-origin']).toBe(PAGE);
      expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect(r.headers['access-control-allow-headers']).toBe('X-API-Key');
      expect(Number(r.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(r.headers.vary).toBe('Origin');
      expect(r.headers['x-ratelimit-remaining']).toBeUndefined(); // not counted: no key, no limits
    }
    expect((await preflight(port, 'https://app.example')).headers['access-control-allow-origin']).toBe(
      'https://app.example',
    );
  });

  it('answers and errors to a listed origin carry its CORS headers: 200, 304, 400, 401, 404, 405, 429', async () => {
    const { port, server } = await start({ corsOrigins: [PAGE] });
    const o = { Origin: PAGE };
    const ok = await get(port, PATH, KEY, o);
    expect(ok.status).toBe(200);
    expectCors(ok, PAGE);
    expectCors(await get(port, PATH, KEY, { ...o, 'If-None-Match': server.etag }), PAGE);
    expectCors(await get(port, '/geo/country/fromGps/120,45', KEY, o), PAGE);
    const noKey = await get(port, PATH, null, o);
    expectProblem(noKey, 401, T.auth);
    expectCors(noKey, PAGE);
    expectCors(await get(port, '/geo/country/fromGps/0,-30', KEY, o), PAGE);
    expectCors(await get(port, '/nowhere', KEY, o), PAGE);
    expectCors(await request(port, PATH, { ...o, 'X-API-Key': KEY }, 'DELETE'), PAGE);
    // SMALL has a monthly quota of 2.
    for (let i = 0; i < 2; i++) expect((await get(port, PATH, SMALL, o)).status).toBe(200);
    const over = await get(port, PATH, SMALL, o);
    expectProblem(over, 429, T.rate);
    expectCors(over, PAGE);
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('another origin gets no CORS headers, and its preflight the 405 any OPTIONS gets', async () => {
    const { port } = await start({ corsOrigins: [PAGE] });
    const r = await get(port, PATH, KEY, { Origin: OTHER });
    expect(r.status).toBe(200);
    expectNoCors(r);
    expect(r.headers.vary).toBe('Origin'); // a shared cache keeps one copy per origin
    const pre = await preflight(port, OTHER);
    expect(pre.status).toBe(405);
    expect(pre.headers.allow).toBe('GET, HEAD');
    expectNoCors(pre);
    // A near miss is another origin: scheme, port and trailing slash count.
    for (const near of ['https://127.0.0.1:5173', 'http://127.0.0.1:5174', `${PAGE}/`, 'null'])
      expectNoCors(await get(port, PATH, KEY, { Origin: near }));
    // No Origin (not a browser, or same-origin): no CORS headers either.
    expectNoCors(await get(port, PATH));
  });

  it('an OPTIONS that is no preflight (no Access-Control-Request-Method) is still 405, readable by the page', async () => {
    const { port } = await start({ corsOrigins: [PAGE] });
    const r = await request(port, PATH, { Origin: PAGE }, 'OPTIONS');
    expect(r.status).toBe(405);
    expectCors(r, PAGE);
  });

  it('without corsOrigins a preflight is 405 as before, and no answer has a CORS header or Vary', async () => {
    const { port } = await start();
    const pre = await preflight(port, PAGE);
    expect(pre.status).toBe(405);
    expectNoCors(pre);
    const r = await get(port, PATH, KEY, { Origin: PAGE });
    expectNoCors(r);
    expect(r.headers.vary).toBeUndefined();
  });

  it('a preflight on a raw keep-alive connection is followed by the real request', async () => {
    const { port } = await start({ corsOrigins: [PAGE] });
    const [pre, answer] = await exchangeResponses(port, [
      `OPTIONS ${PATH} HTTP/1.1\r\nHost: a\r\nOrigin: ${PAGE}\r\nAccess-Control-Request-Method: GET\r\n\r\n`,
      `GET ${PATH} HTTP/1.1\r\nHost: a\r\nOrigin: ${PAGE}\r\nX-API-Key: ${KEY}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(pre.status).toBe(204);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('FRA');
    expect(answer.headers['access-control-allow-origin']).toBe(PAGE);
  });
});

describe('CORS for any origin (*)', () => {
  it('with anonymous access: answers carry `*`, no Vary', async () => {
    const { port } = await start({ corsOrigins: ['*'], allowAnonymous: true });
    const r = await get(port, PATH, null, { Origin: OTHER });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers.vary).toBeUndefined();
    const pre = await preflight(port, OTHER);
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });

  it('createServer refuses * without anonymous access, and an origin that is not scheme://host[:port]', async () => {
    await expect(start({ corsOrigins: ['*'] })).rejects.toThrow(/only with anonymous access/);
    for (const bad of ['127.0.0.1:5173', 'http://a.example/app', 'ftp://a.example', ''])
      await expect(start({ corsOrigins: [bad] })).rejects.toThrow(/scheme:\/\/host/);
  });
});

describe('geolookup serve --cors-origin', () => {
  const cli = (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = run(
      ['serve', ...args],
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('refuses * without --allow-anonymous, and a malformed origin, with exit status 2', () => {
    const star = cli('--keys', keysFile, '--cors-origin', '*');
    expect(star.code).toBe(2);
    expect(star.err).toMatch(/--cors-origin: .*only with anonymous access/);
    const path = cli('--keys', keysFile, '--cors-origin', PAGE, '--cors-origin', 'http://a.example/x');
    expect(path.code).toBe(2);
    expect(path.err).toMatch(/--cors-origin: CORS origin must be scheme:\/\/host/);
    expect(cli('--help').out).toMatch(/--cors-origin ORIGIN/);
  });
});
