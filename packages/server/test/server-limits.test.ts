// The HTTP server's burst and quota limits (injected clock), anonymous mode, and the quota counts
// persisted across restarts, over real sockets on an ephemeral loopback port.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKey } from '../src/server/keys.js';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import {
  dir,
  expectProblem,
  get,
  KEY,
  KEY_ID,
  keysFile,
  SMALL,
  start,
  useServerFixture,
} from '../../../test/support/server-fixture.js';

useServerFixture();

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

  it('trusted proxies may be CIDR ranges, IPv4 and IPv6: hops inside them are skipped', async () => {
    const now = Date.UTC(2026, 4, 10, 12, 0, 0);
    const { port } = await start({
      allowAnonymous: true,
      trustProxy: ['fd00::/8', '127.0.0.0/8', '10.0.0.0/8'],
      limits: { anonymousBurstPerMinute: 1 },
      now: () => now,
    });
    const from = (xff: string) => get(port, '/geo/country/fromGps/1,1', null, { 'X-Forwarded-For': xff });
    expect((await from('203.0.113.5, 10.1.2.3')).status).not.toBe(429);
    expect((await from('203.0.113.5, fd12::7, 10.200.0.1')).status).toBe(429); // the same client behind three proxies
    expect((await from('198.51.100.7, 11.0.0.1')).status).not.toBe(429); // 11.0.0.1 is outside the ranges
    expect((await from('11.0.0.1')).status).toBe(429);
  });

  it('a range that does not hold the peer leaves X-Forwarded-For unread', async () => {
    const now = Date.UTC(2026, 4, 10, 12, 0, 0);
    const { port } = await start({
      allowAnonymous: true,
      trustProxy: ['10.0.0.0/8', '::1'],
      limits: { anonymousBurstPerMinute: 1 },
      now: () => now,
    });
    const from = (xff: string) => get(port, '/geo/country/fromGps/1,1', null, { 'X-Forwarded-For': xff });
    expect((await from('203.0.113.1')).status).not.toBe(429);
    expect((await from('203.0.113.2')).status).toBe(429); // both counted against 127.0.0.1
  });

  it.each(['notanip', '10.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0/8', 'localhost'])(
    'trustProxy %j is refused, naming it',
    async (entry) => {
      await expect(start({ trustProxy: ['127.0.0.1', entry] })).rejects.toThrow(
        `"${entry}" is not an IP address or CIDR range`,
      );
    },
  );

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
    // A new month starts from zero. One server at a time on a quota file: b stops first.
    await b.server.shutdown();
    const c = await start({ quotaFile: join(dir, 'restart.quota.json'), now: () => Date.UTC(2026, 5, 1) });
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

  it('one server per quota file: a second is refused, naming --redis, until the first stops', async () => {
    const quotaFile = join(dir, 'shared.quota.json');
    const a = await start({ quotaFile });
    expect(existsSync(`${quotaFile}.lock`)).toBe(true);
    await expect(start({ quotaFile })).rejects.toThrow(
      new RegExp(`^${quotaFile}: the quota file is in use by another server \\(pid ${process.pid} on .*--redis URL`),
    );
    for (let i = 0; i < 5; i++) await get(a.port, '/geo/country/fromGps/48.8566,2.3522');
    await a.server.shutdown();
    expect(existsSync(`${quotaFile}.lock`)).toBe(false);
    const b = await start({ quotaFile });
    for (let i = 0; i < 5; i++) await get(b.port, '/geo/country/fromGps/48.8566,2.3522');
    // Closed as an embedder may close it, without shutdown(): the counts are written, the lock goes.
    await new Promise((resolve) => b.server.close(resolve));
    await expect.poll(() => existsSync(`${quotaFile}.lock`)).toBe(false);
    expect(JSON.parse(readFileSync(quotaFile, 'utf8')).usage[KEY_ID].used).toBe(10);
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
