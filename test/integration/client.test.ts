// The client against purpose-built loopback servers: retries and backoff (fake timers),
// timeouts, network failures, the API-key check, the cache and the warning cadence.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  GeoLookupError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  createClient,
  HEADERS,
  LruCache,
  cacheKey,
  NetworkError,
  TimeoutError,
  type ClientCache,
} from '../../src/client/index.js';

interface Hit {
  url: string;
  apiKey: string | undefined;
  at: number; // Date.now() when the request arrived (fake time under fake timers)
}

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

interface TestServer {
  baseUrl: string;
  hits: Hit[];
  close(): Promise<void>;
}

const servers: Server[] = [];

async function testServer(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', apiKey: req.headers['x-api-key'] as string | undefined, at: Date.now() });
    handler(req, res, hits.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

function problem(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/problem+json', ...headers });
  res.end(JSON.stringify({ type: 'about:blank', title: 'x', status, ...body }));
}

/** A tiny stand-in for the service: FRA / FR-IDF / true, and 404 at latitude 0. */
const geoHandler: Handler = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.includes('/0,') || url.searchParams.get('latitude') === '0')
    return problem(res, 404, { detail: 'No country at 0.' });
  if (url.pathname.includes('/999,'))
    return problem(res, 400, { detail: 'bad', errors: { latitude: ['latitude must be between -90 and 90'] } });
  if (url.pathname.startsWith('/geo/country/fromGps/'))
    return text(res, 200, 'FRA', { [HEADERS.quotaRemaining]: '41' });
  if (url.pathname.startsWith('/geo/subdivision/fromGps/')) return text(res, 200, 'FR-IDF');
  return text(res, 200, 'true');
};

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

async function rejection(promise: Promise<unknown>): Promise<GeoLookupError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(GeoLookupError);
    return e as GeoLookupError;
  }
  throw new Error('expected a rejection');
}

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
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
    const bad = await rejection(client.countryFromGps(99, 2));
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

describe('cache', () => {
  it('a repeated lookup is answered from the cache', async () => {
    const srv = await testServer(geoHandler);
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl });
    const first = await client.countryFromGps(48.8566, 2.3522);
    const second = await client.countryFromGps(48.8566, 2.3522);
    expect(second).toEqual(first); // the cached answer carries the last known rate-limit state
    expect(second.rateLimit.quotaRemaining).toBe(41);
    await client.subdivisionFromGps(48.8566, 2.3522); // other operation: other key
    await client.isInCountry('FRA', 48.8566, 2.3522);
    await client.isInCountry('FRA', 48.8566, 2.3522);
    await client.isInCountry('DEU', 48.8566, 2.3522); // other code: other key
    expect(srv.hits).toHaveLength(4);
    await client.clearCache();
    await client.countryFromGps(48.8566, 2.3522);
    expect(srv.hits).toHaveLength(5);
  });

  it('404 is cached (deterministic), 400 is not', async () => {
    const srv = await testServer(geoHandler);
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl });
    for (let i = 0; i < 3; i++) {
      const err = await rejection(client.countryFromGps(0, -30));
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.message).toBe('No country at 0.');
    }
    expect(srv.hits).toHaveLength(1);
    await rejection(client.countryFromGps(999, 1));
    await rejection(client.countryFromGps(999, 1));
    expect(srv.hits).toHaveLength(3);
  });

  it('coordinates are rounded to 6 decimals for the key', async () => {
    const srv = await testServer(geoHandler);
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl });
    await client.countryFromGps(48.8566, 2.3522);
    await client.countryFromGps(48.8566004, 2.3521996); // rounds to the same micro-degrees
    await client.countryFromGps('48.8566', '2.352200'); // the same point as strings
    expect(srv.hits).toHaveLength(1);
    await client.countryFromGps(48.856601, 2.3522); // 1 micro-degree away
    expect(srv.hits).toHaveLength(2);
    expect(cacheKey('countryFromGps', undefined, 48.8566004, -0.0000001)).toBe('geolookup:countryFromGps::48856600,0');
    expect(cacheKey('isInCountry', 'FRA', '1.5', 2)).toBe('geolookup:isInCountry:FRA:1500000,2000000');
    expect(cacheKey('countryFromGps', undefined, '1e2', 2)).toBeNull();
  });

  it('entries expire after the TTL, checked when read', async () => {
    const srv = await testServer(geoHandler);
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cacheTtl: 60_000 });
    await client.countryFromGps(1, 2);
    vi.advanceTimersByTime(59_999);
    await client.countryFromGps(1, 2);
    expect(srv.hits).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await client.countryFromGps(1, 2);
    expect(srv.hits).toHaveLength(2);
  });

  it('the default TTL is 5 minutes', async () => {
    const srv = await testServer(geoHandler);
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl });
    await client.countryFromGps(1, 2);
    vi.advanceTimersByTime(5 * 60_000 - 1);
    await client.countryFromGps(1, 2);
    expect(srv.hits).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await client.countryFromGps(1, 2);
    expect(srv.hits).toHaveLength(2);
  });

  it('evicts the least recently used entry beyond cacheMaxEntries', async () => {
    const srv = await testServer(geoHandler);
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cacheMaxEntries: 2 });
    const A = () => client.countryFromGps(1, 1);
    const B = () => client.countryFromGps(2, 2);
    const C = () => client.countryFromGps(3, 3);
    await A();
    await B();
    await A(); // hit; A is now the most recent
    expect(srv.hits).toHaveLength(2);
    await C(); // evicts B
    await A(); // still cached
    expect(srv.hits).toHaveLength(3);
    await B(); // miss
    expect(srv.hits).toHaveLength(4);
  });

  it('LruCache on its own: 1000 entries and 5 minutes by default', () => {
    const lru = new LruCache();
    expect([lru.maxEntries, lru.ttl]).toEqual([1000, 300_000]);
    for (let i = 0; i < 1001; i++) lru.set(`k${i}`, i);
    expect(lru.size).toBe(1000);
    expect(lru.get('k0')).toBeUndefined();
    expect(lru.get('k1000')).toBe(1000);
    lru.remove('k1000');
    expect(lru.get('k1000')).toBeUndefined();
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it('a custom asynchronous cache replaces the built-in one', async () => {
    const srv = await testServer(geoHandler);
    const store = new Map<string, unknown>();
    const later = <T>(v: T) => new Promise<T>((resolve) => setTimeout(() => resolve(v), 1));
    const calls: string[] = [];
    const custom: ClientCache = {
      get: (k) => {
        calls.push(`get ${k}`);
        return later(store.get(k) ?? null); // null on a miss, like Redis
      },
      set: (k, v, ttl) => {
        calls.push(`set ${k} ${ttl}`);
        return later(void store.set(k, v));
      },
      remove: (k) => {
        calls.push(`remove ${k}`);
        return later(store.delete(k));
      },
      clear: () => {
        calls.push('clear');
        return later(store.clear());
      },
    };
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cache: custom });
    expect((await client.countryFromGps(48.8566, 2.3522)).data).toBe('FRA');
    expect((await client.countryFromGps(48.8566, 2.3522)).data).toBe('FRA');
    await rejection(client.countryFromGps(0, 5));
    await rejection(client.countryFromGps(0, 5));
    expect(srv.hits).toHaveLength(2);
    const key = 'geolookup:countryFromGps::48856600,2352200';
    expect(calls.slice(0, 3)).toEqual([`get ${key}`, `set ${key} 300000`, `get ${key}`]);
    expect(store.get(key)).toMatchObject({ data: 'FRA' });
    expect(JSON.parse(JSON.stringify(store.get(key)))).toEqual(store.get(key)); // plain JSON, Redis-ready
    // A cache that ignores the ttl still honours it: expired entries are removed when read.
    store.set(key, { data: 'FRA', expiresAt: Date.now() - 1 });
    await client.countryFromGps(48.8566, 2.3522);
    expect(calls).toContain(`remove ${key}`);
    expect(srv.hits).toHaveLength(3);
    await client.clearCache();
    expect(store.size).toBe(0);
  });

  it('a synchronous custom cache works too, and a failing cache only warns', async () => {
    const srv = await testServer(geoHandler);
    const map = new Map<string, unknown>();
    const sync: ClientCache = {
      get: (k) => map.get(k),
      set: (k, v) => map.set(k, v),
      remove: (k) => map.delete(k),
      clear: () => map.clear(),
    };
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cache: sync });
    await client.isInSubdivision('FR-IDF', 48.8566, 2.3522);
    await client.isInSubdivision('FR-IDF', 48.8566, 2.3522);
    expect(srv.hits).toHaveLength(1);

    const warnings: string[] = [];
    const broken: ClientCache = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => {
        throw new Error('redis down');
      },
      remove: () => {},
      clear: () => {},
    };
    const c2 = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cache: broken, logger: (m) => warnings.push(m) });
    expect((await c2.countryFromGps(1, 2)).data).toBe('FRA');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/cache get failed.*redis down/);
  });
});

describe('warning when caching is off', () => {
  it('warns every cacheWarningInterval requests through the logger', async () => {
    const srv = await testServer(geoHandler);
    const warnings: string[] = [];
    const client = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      cache: false,
      cacheWarningInterval: 3,
      logger: (m) => warnings.push(m),
    });
    for (let i = 1; i <= 7; i++) {
      await client.countryFromGps(1, 2);
      expect(warnings).toHaveLength(Math.floor(i / 3));
    }
    expect(warnings[0]).toMatch(/3 requests with caching off/);
    expect(warnings[1]).toMatch(/6 requests/);
  });

  it('defaults to every 100 requests via process.emitWarning; a console-like logger works', async () => {
    const srv = await testServer(geoHandler);
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, cache: false });
    for (let i = 0; i < 200; i++) await client.countryFromGps(1, 2);
    expect(emit).toHaveBeenCalledTimes(2);
    expect(emit.mock.calls[0][1]).toMatchObject({ type: 'GeoLookupWarning' });

    const warn = vi.fn();
    const c2 = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      cache: false,
      cacheWarningInterval: 1,
      logger: { warn },
    });
    await c2.countryFromGps(1, 2);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('0 suppresses; with the cache on there is no warning', async () => {
    const srv = await testServer(geoHandler);
    const warnings: string[] = [];
    const off = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      cache: false,
      cacheWarningInterval: 0,
      logger: (m) => warnings.push(m),
    });
    const on = createClient({
      apiKey: 'k',
      baseUrl: srv.baseUrl,
      cacheWarningInterval: 1,
      logger: (m) => warnings.push(m),
    });
    for (let i = 0; i < 5; i++) {
      await off.countryFromGps(1, 2);
      await on.countryFromGps(i + 1, 2);
    }
    expect(warnings).toEqual([]);
  });
});
