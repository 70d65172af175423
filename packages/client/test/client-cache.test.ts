// The client's cache against purpose-built loopback servers (test/support/stub-server.ts): hits,
// TTL, LRU eviction, custom stores, and the warning cadence when caching is off.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotFoundError, ValidationError, createClient, LruCache, cacheKey, type ClientCache } from '../src/index.js';
import { closeTestServers, geoHandler, testServer } from '../../../test/support/stub-server.js';
import { rejection } from '../../../test/support/thrown.js';

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await closeTestServers();
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
    // A bad point is refused before any request (the library's own 400), never from the cache.
    for (let i = 0; i < 2; i++) expect(await rejection(client.countryFromGps(999, 1))).toBeInstanceOf(ValidationError);
    expect(srv.hits).toHaveLength(1);
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
