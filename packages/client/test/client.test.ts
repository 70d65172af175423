// The client against purpose-built loopback servers (test/support/stub-server.ts): options, the
// API-key check, error mapping, retries and backoff (fake timers), timeouts and network failures.
// The cache and the warning cadence: client-cache.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  GeoLookupError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  createClient,
  HEADERS,
  NetworkError,
  TimeoutError,
} from '../src/index.js';
import {
  closeTestServers,
  geoHandler,
  type Handler,
  type Hit,
  problem,
  testServer,
  text,
} from '../../../test/support/stub-server.js';
import { rejection } from '../../../test/support/thrown.js';

/** One event-loop turn with real I/O (setImmediate is not faked). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Under fake timers: advance the clock 1 ms per I/O turn until the promise settles. */
async function drive<T>(promise: Promise<T>, limitMs = 20_000): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  watched.catch(() => {});
  for (let t = 0; !settled && t < limitMs; t++) {
    await turn();
    await turn();
    await vi.advanceTimersByTimeAsync(1);
  }
  return watched;
}

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await closeTestServers();
});

const quiet = { cacheWarningInterval: 0, jitter: 0 };

describe('options', () => {
  it('requires an http(s) baseUrl for remote use', () => {
    expect(() => createClient({ apiKey: 'k' } as never)).toThrow(/baseUrl is required/);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'not a url' })).toThrow(TypeError);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'ftp://example.com' })).toThrow(/http: or https:/);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'https://u:p@example.com' })).toThrow(/credentials/);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'https://example.com/?a=1' })).toThrow(/query/);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'https://example.com', timeout: 0 })).toThrow(/timeout/);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'https://example.com', maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => createClient({ apiKey: 'k', baseUrl: 'https://example.com', cache: {} as never })).toThrow(/cache/);
    expect(createClient({ apiKey: 'k', baseUrl: 'https://example.com/v1/' }).mode).toBe('remote');
  });

  it('keeps a path prefix of baseUrl and encodes codes and coordinates', async () => {
    const srv = await testServer(geoHandler);
    const client = createClient({ apiKey: 'key-1', baseUrl: `${srv.baseUrl}/v1/`, ...quiet });
    await client.countryFromGps(48.8566, 2.3522);
    await client.subdivisionFromGps('48.8566', '2.3522');
    await client.isInCountry('FRA', 1e-7, -0);
    await client.isInSubdivision('FR-IDF', 48.8566, 2.3522);
    expect(srv.hits.map((h) => h.url)).toEqual([
      '/v1/geo/country/fromGps/48.8566,2.3522',
      '/v1/geo/subdivision/fromGps/48.8566,2.3522',
      '/v1/geo/country/FRA/isInCountry?latitude=0.0000001&longitude=0',
      '/v1/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.8566&longitude=2.3522',
    ]);
    expect(srv.hits.every((h) => h.apiKey === 'key-1')).toBe(true);
  });
});

describe('API key check before sending', () => {
  it.each([
    ['empty', ''],
    ['leading space', ' key'],
    ['trailing newline', 'key\n'],
    ['inner space', 'my key'],
    ['tab', 'key\t1'],
    ['NUL', 'key\u0000'],
    ['DEL', 'key\u007f'],
    ['non-breaking space', 'key\u00a0'],
  ])('%s → AuthenticationError, no request', async (_name, apiKey) => {
    const srv = await testServer(geoHandler);
    const client = createClient({ apiKey, baseUrl: srv.baseUrl, ...quiet });
    const err = await rejection(client.countryFromGps(48.8566, 2.3522));
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.status).toBe(401);
    await expect(client.isInCountry('FRA', 1, 2)).rejects.toBeInstanceOf(AuthenticationError);
    expect(srv.hits).toHaveLength(0);
  });

  it('no apiKey at all sends anonymous requests (no header)', async () => {
    const srv = await testServer(geoHandler);
    const client = createClient({ baseUrl: srv.baseUrl, ...quiet });
    expect((await client.countryFromGps(1, 2)).data).toBe('FRA');
    expect(srv.hits[0].apiKey).toBeUndefined();
  });
});

describe('responses and error mapping (purpose-built server)', () => {
  it('parses data and the rate-limit headers named in HEADERS', async () => {
    const srv = await testServer((_req, res) =>
      text(res, 200, 'FRA\n', {
        [HEADERS.burstLimit]: '1000',
        [HEADERS.burstRemaining]: '999',
        [HEADERS.quotaLimit]: '50000',
        [HEADERS.quotaRemaining]: '49999',
      }),
    );
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    expect(await client.countryFromGps(1, 2)).toEqual({
      data: 'FRA',
      rateLimit: { burstLimit: 1000, burstRemaining: 999, quotaLimit: 50000, quotaRemaining: 49999 },
    });
  });

  it('missing or malformed rate-limit headers read as null', async () => {
    const srv = await testServer((_req, res) => text(res, 200, 'true', { [HEADERS.quotaRemaining]: 'lots' }));
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    expect(await client.isInCountry('FRA', 1, 2)).toEqual({
      data: true,
      rateLimit: { burstLimit: null, burstRemaining: null, quotaLimit: null, quotaRemaining: null },
    });
  });

  it('maps 400 (with field errors), 401, 404 and other statuses without retrying 4xx', async () => {
    const answers: Handler[] = [
      (_q, r) =>
        problem(r, 400, {
          detail: 'Latitude out of range.',
          errors: { latitude: ['latitude must be between -90 and 90, got 99'] },
        }),
      (_q, r) => problem(r, 401, { detail: 'Unknown API key.' }),
      (_q, r) => problem(r, 404, { detail: 'No country at 0,-30.' }),
      (_q, r) => text(r, 418, "I'm a teapot"),
      (_q, r) => text(r, 200, 'maybe'),
    ];
    const srv = await testServer((req, res, n) => answers[n - 1](req, res, n));
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cache: false, ...quiet });
    // A valid point the (purpose-built) server refuses: the client reads its 400 as it is.
    const bad = await rejection(client.countryFromGps(9, 2));
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).errors).toEqual({ latitude: ['latitude must be between -90 and 90, got 99'] });
    expect(bad.message).toBe('Latitude out of range.');
    const auth = await rejection(client.countryFromGps(1, 2));
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect(auth.message).toBe('Unknown API key.');
    const nf = await rejection(client.countryFromGps(0, -30));
    expect(nf).toBeInstanceOf(NotFoundError);
    expect(nf.status).toBe(404);
    const other = await rejection(client.countryFromGps(1, 2));
    expect(other.constructor).toBe(GeoLookupError);
    expect([other.status, other.message]).toEqual([418, "I'm a teapot"]);
    const odd = await rejection(client.isInCountry('FRA', 1, 2));
    expect(odd.status).toBe(502);
    expect(srv.hits).toHaveLength(5);
  });
});

describe('retries and backoff (fake timers)', () => {
  const fake = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const gaps = (hits: Hit[]) => hits.slice(1).map((h, i) => h.at - hits[i].at);

  it('503, 503, 200: retries after 1 s then 2 s and answers', async () => {
    const srv = await testServer((_q, r, n) => (n <= 2 ? problem(r, 503, { detail: 'busy' }) : text(r, 200, 'FRA')));
    fake();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    expect((await drive(client.countryFromGps(48.8566, 2.3522))).data).toBe('FRA');
    expect(srv.hits).toHaveLength(3);
    const [a, b] = gaps(srv.hits);
    expect(a).toBeGreaterThanOrEqual(1000);
    expect(a).toBeLessThan(1100);
    expect(b).toBeGreaterThanOrEqual(2000);
    expect(b).toBeLessThan(2100);
  });

  it('gives up after 3 retries (1 s, 2 s, 4 s) with the last status', async () => {
    const srv = await testServer((_q, r) => problem(r, 500, { detail: 'boom' }));
    fake();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    const err = await rejection(drive(client.subdivisionFromGps(1, 2)));
    expect([err.constructor, err.status, err.message]).toEqual([GeoLookupError, 500, 'boom']);
    expect(srv.hits).toHaveLength(4);
    const g = gaps(srv.hits);
    expect(g.map((x) => Math.floor(x / 1000))).toEqual([1, 2, 4]);
  });

  it('429 with a longer Retry-After waits that long, then answers', async () => {
    const srv = await testServer((_q, r, n) =>
      n === 1 ? problem(r, 429, { detail: 'slow down' }, { 'Retry-After': '3' }) : text(r, 200, 'true'),
    );
    fake();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    expect((await drive(client.isInCountry('FRA', 1, 2))).data).toBe(true);
    const [g] = gaps(srv.hits);
    expect(g).toBeGreaterThanOrEqual(3000);
    expect(g).toBeLessThan(3100);
  });

  it('429 with a shorter Retry-After keeps the exponential backoff', async () => {
    const srv = await testServer((_q, r, n) =>
      n <= 2 ? problem(r, 429, {}, { 'Retry-After': '0' }) : text(r, 200, 'FRA'),
    );
    fake();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    await drive(client.countryFromGps(1, 2));
    expect(gaps(srv.hits).map((x) => Math.floor(x / 1000))).toEqual([1, 2]);
  });

  it('429 raised as RateLimitError with retryAfter once retries are exhausted', async () => {
    const srv = await testServer((_q, r) =>
      problem(r, 429, { detail: 'Rate limit exceeded; try again later.' }, { 'Retry-After': '2' }),
    );
    fake();
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, maxRetries: 2, ...quiet });
    const err = await rejection(drive(client.countryFromGps(1, 2)));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(2);
    expect(srv.hits).toHaveLength(3);
    expect(gaps(srv.hits).map((x) => Math.floor(x / 1000))).toEqual([2, 2]);
  });

  it('a Retry-After beyond maxRetryAfter fails at once', async () => {
    const srv = await testServer((_q, r) =>
      problem(r, 429, { detail: 'Monthly quota exceeded.' }, { 'Retry-After': '86400' }),
    );
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    const err = await rejection(client.countryFromGps(1, 2));
    expect((err as RateLimitError).retryAfter).toBe(86400);
    expect(srv.hits).toHaveLength(1);
  });

  it('jitter adds up to the given fraction', async () => {
    const srv = await testServer((_q, r, n) => (n === 1 ? problem(r, 502, {}) : text(r, 200, 'FRA')));
    fake();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cacheWarningInterval: 0, jitter: 0.2 });
    await drive(client.countryFromGps(1, 2));
    const [g] = gaps(srv.hits);
    expect(g).toBeGreaterThanOrEqual(1100);
    expect(g).toBeLessThan(1200);
  });

  it('no retry on 400, 401, 404; maxRetries 0 disables retries', async () => {
    const srv = await testServer((_q, r) => problem(r, 503, {}));
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, maxRetries: 0, ...quiet });
    expect((await rejection(client.countryFromGps(1, 2))).status).toBe(503);
    expect(srv.hits).toHaveLength(1);
    for (const status of [400, 401, 403, 404]) {
      const s = await testServer((_q, r) => problem(r, status, {}));
      const c = createClient({ apiKey: 'k', baseUrl: s.baseUrl, ...quiet });
      expect((await rejection(c.countryFromGps(1, 2))).status).toBe(status);
      expect(s.hits).toHaveLength(1);
    }
  });
});

describe('timeouts and network failures', () => {
  it('a server that never answers → TimeoutError with the abort as cause, no retry', async () => {
    const srv = await testServer(() => {}); // accepts, never answers
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, timeout: 150, ...quiet });
    const started = performance.now();
    const err = await rejection(client.countryFromGps(1, 2));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as TimeoutError).timeout).toBe(150);
    expect((err.cause as Error).name).toBe('TimeoutError');
    expect(srv.hits).toHaveLength(1);
  });

  it('a body that stalls halfway also times out', async () => {
    const srv = await testServer((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '10' });
      res.write('FR');
    });
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, timeout: 150, ...quiet });
    expect(await rejection(client.countryFromGps(1, 2))).toBeInstanceOf(TimeoutError);
  });

  it('a refused connection → NetworkError with the fetch error as cause', async () => {
    const srv = await testServer(geoHandler);
    const baseUrl = srv.baseUrl;
    await srv.close();
    const client = createClient({ apiKey: 'k', baseUrl, ...quiet });
    const err = await rejection(client.countryFromGps(1, 2));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).not.toBeInstanceOf(TimeoutError);
    expect(err.status).toBe(0);
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('a redirect is refused (the key is never forwarded elsewhere)', async () => {
    const srv = await testServer((_q, res) => {
      res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, ...quiet });
    expect(await rejection(client.countryFromGps(1, 2))).toBeInstanceOf(NetworkError);
    expect(srv.hits).toHaveLength(1);
  });
});
