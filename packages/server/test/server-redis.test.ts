// Limits shared through Redis: `geolookup serve --redis` processes on one real redis-server
// enforce one burst limit and one monthly quota per key and per anonymous client address,
// whichever instance a request reaches; the monthly counts survive every instance restarting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthKey } from '../src/server/limits.js';
import { createKey } from '../src/server/keys.js';
import { createServer } from '../src/server/server.js';
import { type HttpAnswer, listenOnLoopback, request } from '../../../test/support/loopback.js';
import { exchange } from '../../../test/support/raw-http.js';
import { type RedisServer, redisMissing, startRedis } from '../../../test/support/redis.js';
import { type Served, serve, spawnServe } from '../../../test/support/serve-process.js';
import { skipWithout } from '../../../test/support/system.js';

const LOOKUP = '/geo/country/fromGps/48.8566,2.3522';
const PROXY = ['--allow-anonymous', '--trust-proxy', '127.0.0.1'];
let redis: RedisServer;
let dir: string;
let keysFile: string;
const running: Served[] = [];

/**
 * `n` instances of `geolookup serve` on the test Redis with these flags. A loaded test machine
 * must not make Redis look away (the instance would then count alone): a generous timeout.
 */
async function instances(n: number, ...flags: string[]): Promise<Served[]> {
  const args = ['--redis', redis.url, '--redis-timeout', '5000', ...flags];
  const started = await Promise.all(Array.from({ length: n }, () => serve(keysFile, args)));
  running.push(...started);
  return started;
}

async function stopAll(served: Served[]): Promise<void> {
  for (const s of served) s.child.kill('SIGTERM');
  expect(await Promise.all(served.map((s) => s.exited))).toEqual(served.map(() => 0));
}

/** `n` requests at once, request i to instance i mod the count. */
function spread(served: Served[], n: number, headers: Record<string, string>): Promise<HttpAnswer[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => request(served[i % served.length].port, LOOKUP, headers)));
}

function tally(answers: HttpAnswer[]): Record<number, number> {
  const t: Record<number, number> = {};
  for (const a of answers) t[a.status] = (t[a.status] ?? 0) + 1;
  return t;
}

/** A header's values over the 200 answers, sorted. */
function granted(answers: HttpAnswer[], header: string): number[] {
  return answers
    .filter((a) => a.status === 200)
    .map((a) => Number(a.headers[header]))
    .sort((x, y) => x - y);
}

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);
const detail = (a: HttpAnswer) => JSON.parse(a.body).detail as string;

const missing = redisMissing();
describe.skipIf(skipWithout('Redis-shared limits tests', missing))('limits shared through Redis', () => {
  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'geolookup-redis-serve-'));
    keysFile = join(dir, 'keys.json');
    createKey(keysFile, 'pro');
  });

  afterAll(async () => {
    for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await redis?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('burst: one key, 30 requests over three instances, exactly 20 answers and 10 × 429', async () => {
    const { key } = createKey(keysFile, 'pro');
    const fleet = await instances(3, '--burst', '20');
    const answers = await spread(fleet, 30, { 'X-API-Key': key });
    expect(tally(answers)).toEqual({ 200: 20, 429: 10 });
    // Counted atomically: every burst count from 19 down to 0 was handed out exactly once.
    expect(granted(answers, 'x-ratelimit-burst-remaining')).toEqual(upTo(20));
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(detail(a)).toMatch(/Burst limit of 20 requests per minute exceeded/);
      expect(a.headers['x-ratelimit-burst-remaining']).toBe('0');
      const wait = Number(a.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(JSON.parse(a.body).retryAfter).toBe(wait);
    }
    // Burst refusals are not counted against the month: 20 used of 1,000,000.
    const after = await request(fleet[0].port, '/geo/country/fromGps/1,1', { 'X-API-Key': key });
    expect(after.headers['x-ratelimit-remaining']).toBe(String(1_000_000 - 20));
    await stopAll(fleet);
  });

  it('monthly quota: 30 requests over two instances, exactly 20 answers; the count survives restarting both', async () => {
    const { key, record } = createKey(keysFile, 'free', { monthlyQuota: 25 });
    let fleet = await instances(2, '--burst', '1000');
    const first = await spread(fleet, 20, { 'X-API-Key': key });
    expect(tally(first)).toEqual({ 200: 20 });
    expect(granted(first, 'x-ratelimit-remaining')).toEqual(upTo(20).map((i) => i + 5));
    await stopAll(fleet);
    expect(redis.cli('GET', `geolookup:quota:${record.id}:${monthKey(Date.now())}`).trim()).toBe('20');

    fleet = await instances(2, '--burst', '1000');
    const second = await spread(fleet, 10, { 'X-API-Key': key });
    expect(tally(second)).toEqual({ 200: 5, 429: 5 });
    expect(granted(second, 'x-ratelimit-remaining')).toEqual(upTo(5));
    for (const a of second.filter((x) => x.status === 429)) {
      expect(detail(a)).toMatch(/Monthly quota of 25 requests exceeded/);
      expect(a.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(a.headers['retry-after'])).toBe(Number(a.headers['x-ratelimit-reset']));
    }
    // Refused requests were taken back: the count stays at the quota.
    expect(redis.cli('GET', `geolookup:quota:${record.id}:${monthKey(Date.now())}`).trim()).toBe('25');
    await stopAll(fleet);
  });

  it('anonymous burst by client address: 30 requests from each of two addresses, 20 answers each', async () => {
    const fleet = await instances(2, ...PROXY, '--anonymous-burst', '20', '--anonymous-quota', '1000');
    const [a, b] = await Promise.all(
      ['198.51.100.7', '2001:db8::7'].map((addr) => spread(fleet, 30, { 'X-Forwarded-For': addr })),
    );
    for (const answers of [a, b]) {
      expect(tally(answers)).toEqual({ 200: 20, 429: 10 });
      expect(granted(answers, 'x-ratelimit-burst-remaining')).toEqual(upTo(20));
    }
    await stopAll(fleet);
  });

  it('anonymous quota by client address: exactly 20 of 30 over two instances', async () => {
    const fleet = await instances(2, ...PROXY, '--anonymous-burst', '1000', '--anonymous-quota', '20');
    const answers = await spread(fleet, 30, { 'X-Forwarded-For': '192.0.2.44' });
    expect(tally(answers)).toEqual({ 200: 20, 429: 10 });
    expect(granted(answers, 'x-ratelimit-remaining')).toEqual(upTo(20));
    for (const x of answers.filter((r) => r.status === 429)) expect(detail(x)).toMatch(/Monthly quota of 20/);
    // Another address has its own quota.
    expect((await request(fleet[1].port, LOOKUP, { 'X-Forwarded-For': '192.0.2.45' })).status).toBe(200);
    await stopAll(fleet);
  });

  it('createServer({ redis }): ready() after the connection, shutdown() closes it', async () => {
    const clients = () => redis.cli('CLIENT', 'LIST').trim().split('\n').length;
    const before = clients();
    const server = createServer({
      keys: keysFile,
      redis: redis.url,
      redisTimeoutMs: 5000,
      log: () => {},
      allowAnonymous: true,
      limits: { anonymousBurstPerMinute: 1000 },
    });
    await server.ready();
    const port = await listenOnLoopback(server);
    expect((await request(port, '/healthz')).body).toBe('ok');
    expect((await request(port, LOOKUP)).status).toBe(200);
    expect(clients()).toBe(before + 1);
    // Each request keeps its own If-None-Match while it waits for Redis, however many requests
    // are read meanwhile: 12 pipelined on one connection, every other one revalidating.
    const heads = upTo(12).map(
      (i) =>
        `GET ${LOOKUP} HTTP/1.1\r\nHost: x\r\n${i % 2 ? `If-None-Match: ${server.etag}\r\n` : ''}` +
        `${i === 11 ? 'Connection: close\r\n' : ''}\r\n`,
    );
    const { text } = await exchange(port, heads.join(''));
    expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))).toEqual(
      upTo(12).map((i) => (i % 2 ? 304 : 200)),
    );
    await server.shutdown();
    expect(clients()).toBe(before);
  });

  it('bad --redis values and --quota-file with --redis are usage errors (exit 2)', async () => {
    for (const args of [
      ['--redis', 'http://127.0.0.1:6379'],
      ['--redis', 'not a url'],
      ['--redis', redis.url, '--quota-file', join(dir, 'q.json')],
    ]) {
      const child = spawnServe(['--keys', keysFile, '--port', '0', ...args]);
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(2);
      expect(err).toMatch(/--redis|--quota-file/);
    }
  });

  it('Redis unreachable at start: the server starts, says degraded, serves with its own limits; no password logged', async () => {
    const s = await serve(keysFile, ['--redis', 'redis://user:s3cr3t-pass@127.0.0.1:1', ...PROXY]);
    running.push(s);
    expect((await request(s.port, '/healthz')).body).toBe('degraded');
    const answers = await spread([s], 12, { 'X-Forwarded-For': '198.51.100.99' });
    expect(tally(answers)).toEqual({ 200: 10, 429: 2 }); // the default anonymous burst, per instance
    await stopAll([s]);
    expect(s.output()).toMatch(/redis unavailable \(ECONNREFUSED\)/);
    expect(s.output()).not.toContain('s3cr3t-pass');
  });
});
