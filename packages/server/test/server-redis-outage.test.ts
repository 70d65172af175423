// Redis going away under traffic: killed (SIGKILL, then started again from its append-only file)
// and frozen (SIGSTOP: connected but silent, long enough for the instances to open a new
// connection). Two `geolookup serve --redis` instances keep answering every request (no 500, no
// hang), say `degraded` on /healthz, log the outage once, and share their limits again when Redis
// is back, with the requests served meanwhile counted.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/server/keys.js';
import { monthKey } from '../src/server/limits.js';
import { HOST, request } from '../../../test/support/loopback.js';
import { type RedisServer, redisMissing, startRedis } from '../../../test/support/redis.js';
import { type Served, serve } from '../../../test/support/serve-process.js';
import { skipWithout } from '../../../test/support/system.js';

const LOOKUP = '/geo/country/fromGps/48.8566,2.3522';
const CLIENTS_PER_INSTANCE = 3;
const REQUEST_TIMEOUT_MS = 5000;
let redis: RedisServer;
let dir: string;
let fleet: Served[] = [];

/** One GET; 'timeout' when no answer comes within REQUEST_TIMEOUT_MS, 'error: …' when the connection fails. */
function get(port: number, key: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host: HOST, port, path: LOOKUP, headers: { 'X-API-Key': key }, agent: false }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode!));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      resolve('timeout');
      req.destroy();
    });
    req.on('error', (e) => resolve(`error: ${e.message}`));
  });
}

/** Clients looping over the instances until stop(); `outcomes` counts each status or failure. */
function traffic(key: string) {
  const outcomes = new Map<number | string, number>();
  let running = true;
  let done = 0;
  const loops = fleet.flatMap((s) =>
    Array.from({ length: CLIENTS_PER_INSTANCE }, async () => {
      while (running) {
        const o = await get(s.port, key);
        outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
        done++;
      }
    }),
  );
  return {
    outcomes,
    /** Resolves after `n` more answers. */
    async more(n: number): Promise<void> {
      const target = done + n;
      while (done < target) await new Promise((r) => setTimeout(r, 10));
    },
    async stop(): Promise<void> {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Polls every instance's /healthz until each says `want`; false after `ms`. */
async function healthBecomes(want: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const bodies = await Promise.all(fleet.map((s) => request(s.port, '/healthz').then((r) => r.body)));
    if (bodies.every((b) => b === want)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const missing = redisMissing();
describe.skipIf(skipWithout('Redis outage tests', missing))('Redis stopped under traffic', () => {
  beforeAll(async () => {
    redis = await startRedis({ aof: true });
    dir = mkdtempSync(join(tmpdir(), 'geolookup-redis-outage-'));
  });

  afterAll(async () => {
    for (const s of fleet) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await redis?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('killed, restarted, frozen, resumed: every request answered, degraded meanwhile, then shared again', async () => {
    const keysFile = join(dir, 'keys.json');
    const { key, record } = createKey(keysFile, 'pro');
    // 1 s for an answer: long enough that a busy test machine does not start an outage of its own.
    const flags = ['--redis', redis.url, '--redis-timeout', '1000', '--burst', '1000000'];
    fleet = await Promise.all([0, 1].map(() => serve(keysFile, flags)));
    expect(await healthBecomes('ok', 1000)).toBe(true);
    const load = traffic(key);
    await load.more(100);

    await redis.stop('SIGKILL');
    expect(await healthBecomes('degraded', 5000)).toBe(true);
    await load.more(100);
    await redis.restart(); // same port, same append-only file
    expect(await healthBecomes('ok', 10_000)).toBe(true);
    await load.more(100);

    redis.pause();
    expect(await healthBecomes('degraded', 5000)).toBe(true);
    await load.more(100);
    await new Promise((r) => setTimeout(r, 4000)); // long enough for the silent connection to be replaced
    redis.resume();
    expect(await healthBecomes('ok', 10_000)).toBe(true);
    await load.more(100);
    await load.stop();

    // Every request got its answer, and every answer was a 200.
    const served = load.outcomes.get(200) ?? 0;
    expect(Object.fromEntries(load.outcomes)).toEqual({ 200: served });
    expect(served).toBeGreaterThanOrEqual(500);

    for (const s of fleet) s.child.kill('SIGTERM');
    expect(await Promise.all(fleet.map((s) => s.exited))).toEqual([0, 0]);
    for (const s of fleet) {
      const out = s.output();
      // Logged once per outage, and the return once each.
      expect(out.match(/redis unavailable/g)).toHaveLength(2);
      expect(out.match(/redis answers again; limits are shared/g)).toHaveLength(2);
      expect(out).toMatch(/redis connection silent; opening a new one/);
      expect(out).not.toContain(key);
      expect(out).not.toMatch(/internal error/);
    }
    // Requests served while Redis was away were added when it came back. Only the commands in
    // flight when it was killed (at most one per client) may be lost with it.
    const counted = Number(redis.cli('GET', `geolookup:quota:${record.id}:${monthKey(Date.now())}`));
    expect(counted).toBeLessThanOrEqual(served);
    expect(counted).toBeGreaterThanOrEqual(served - fleet.length * CLIENTS_PER_INSTANCE);
  });
});
