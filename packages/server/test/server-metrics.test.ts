// Prometheus metrics and the access log: requests by route and status, the latency histogram,
// 429s by limit and client kind, keys reloads; never a key or key id. /metrics on the main port,
// on the admin port, or off. The `geolookup serve` flags, as a real process.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/index.js';
import { KeyStore } from '../src/server/keys.js';
import { countRedisError, createMetrics, metricsText } from '../src/server/metrics.js';
import { listenOnLoopback, request } from '../../../test/support/loopback.js';
import { metric, readMetrics, type Sample } from '../../../test/support/prometheus-text.js';
import { exchange } from '../../../test/support/raw-http.js';
import { serve } from '../../../test/support/serve-process.js';
import {
  dir,
  get,
  KEY,
  KEY_ID,
  keysFile,
  REVOKED,
  SMALL,
  start,
  useServerFixture,
} from '../../../test/support/server-fixture.js';

useServerFixture();

const PARIS = '/geo/country/fromGps/48.8566,2.3522';

async function scrape(port: number): Promise<{ samples: Sample[]; text: string }> {
  const r = await request(port, '/metrics');
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { samples: readMetrics(r.body), text: r.body };
}

const requests = (route: string, status: number) => ({ route, status: String(status) });

describe('/metrics', () => {
  it('counts answers by route and status, with a latency histogram per route; no key needed', async () => {
    const { port } = await start();
    await get(port, PARIS);
    await get(port, PARIS);
    await get(port, '/geo/subdivision/fromGps/120,45'); // 400
    await get(port, '/geo/country/DEU/isInCountry?latitude=52.52&longitude=13.405', null); // 401
    await get(port, '/nowhere'); // 404
    await request(port, PARIS, { 'X-API-Key': KEY }, 'POST'); // 405
    await request(port, '/healthz');
    await request(port, '/openapi.json');
    await exchange(port, 'GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n'); // 400 before parsing
    const { samples } = await scrape(port);
    const total = 'geolookup_http_requests_total';
    expect(metric(samples, total, requests('countryFromGps', 200))).toBe(2);
    expect(metric(samples, total, requests('countryFromGps', 405))).toBe(1);
    expect(metric(samples, total, requests('subdivisionFromGps', 400))).toBe(1);
    expect(metric(samples, total, requests('isInCountry', 401))).toBe(1);
    expect(metric(samples, total, requests('other', 404))).toBe(1);
    expect(metric(samples, total, requests('healthz', 200))).toBe(1);
    expect(metric(samples, total, requests('openapi', 200))).toBe(1);
    expect(metric(samples, total, requests('none', 400))).toBe(1);
    expect(metric(samples, total)).toBe(9);
    const h = 'geolookup_http_request_duration_seconds';
    expect(metric(samples, `${h}_count`, { route: 'countryFromGps' })).toBe(3);
    expect(metric(samples, `${h}_bucket`, { route: 'countryFromGps', le: '+Inf' })).toBe(3);
    expect(metric(samples, `${h}_sum`, { route: 'countryFromGps' })).toBeGreaterThan(0);
    const buckets = samples.filter((s) => s.name === `${h}_bucket` && s.labels.route === 'countryFromGps');
    expect(buckets.map((b) => b.value)).toEqual([...buckets.map((b) => b.value)].sort((a, b) => a - b));
    // The scrape that read these counts is counted by the next one.
    expect(metric((await scrape(port)).samples, total, requests('metrics', 200))).toBe(1);
  });

  it('counts 429s by the limit that refused and the kind of client', async () => {
    let now = Date.UTC(2026, 5, 10, 12);
    const keyed = await start({ limits: { burstPerMinute: 1 }, now: () => now });
    expect((await get(keyed.port, PARIS)).status).toBe(200);
    expect((await get(keyed.port, PARIS)).status).toBe(429); // burst
    for (let i = 0; i < 3; i++) {
      now += 61_000;
      await get(keyed.port, PARIS, SMALL); // monthly quota 2: the third is refused
    }
    const anon = await start({
      allowAnonymous: true,
      limits: { anonymousBurstPerMinute: 1, anonymousMonthlyQuota: 2 },
      now: () => now,
    });
    await get(anon.port, PARIS, null);
    await get(anon.port, PARIS, null); // burst
    now += 61_000;
    await get(anon.port, PARIS, null);
    now += 61_000;
    await get(anon.port, PARIS, null); // quota
    const name = 'geolookup_rate_limited_total';
    const k = (await scrape(keyed.port)).samples;
    expect(metric(k, name, { limit: 'burst', client: 'key' })).toBe(1);
    expect(metric(k, name, { limit: 'quota', client: 'key' })).toBe(1);
    expect(metric(k, name)).toBe(2);
    expect(metric(k, 'geolookup_http_requests_total', { status: '429' })).toBe(2);
    const a = (await scrape(anon.port)).samples;
    expect(metric(a, name, { limit: 'burst', client: 'anonymous' })).toBe(1);
    expect(metric(a, name, { limit: 'quota', client: 'anonymous' })).toBe(1);
  });

  it('counts keys reloads, those that failed included, and the active keys', async () => {
    const file = join(dir, 'metrics-keys.json');
    copyFileSync(keysFile, file);
    const { server, port } = await start({ keys: file, watchKeys: false });
    expect(server.reloadKeys()).toBe(true);
    writeFileSync(file, '{"version": 1, "keys": [{"id": "zz"}]}');
    expect(server.reloadKeys()).toBe(false);
    const { samples } = await scrape(port);
    expect(metric(samples, 'geolookup_keys_reloads_total', { result: 'ok' })).toBe(1);
    expect(metric(samples, 'geolookup_keys_reloads_total', { result: 'failed' })).toBe(1);
    expect(metric(samples, 'geolookup_keys_active')).toBe(2); // KEY and SMALL; REVOKED is revoked
  });

  it('never shows a key or a key id', async () => {
    const { port } = await start();
    for (const k of [KEY, REVOKED, SMALL]) await get(port, PARIS, k);
    await get(port, `/geo/country/fromGps/${KEY}`);
    const { text } = await scrape(port);
    const ids = JSON.parse(readFileSync(keysFile, 'utf8')).keys.map((k: { id: string }) => k.id);
    for (const secret of [KEY, REVOKED, SMALL, KEY_ID, ...ids, 'glk_']) expect(text).not.toContain(secret);
  });

  it('counts Redis errors through countRedisError (the shared limits call it)', async () => {
    const m = createMetrics(new KeyStore(null), ['other']);
    countRedisError(m);
    countRedisError(m);
    countRedisError(null); // metrics off: nothing to count
    expect(metric(readMetrics(await metricsText(m)), 'geolookup_redis_errors_total')).toBe(2);
  });

  it('metrics: false collects nothing and /metrics is an unknown path', async () => {
    const { server, port } = await start({ metrics: false });
    expect(server.metrics).toBeNull();
    expect((await get(port, '/metrics')).status).toBe(404);
    expect(server.openapi.paths).not.toHaveProperty('/metrics');
  });

  it('admin: true answers /metrics and /healthz on server.admin only', async () => {
    const { server, port } = await start({ admin: true });
    expect((await get(port, '/metrics')).status).toBe(404);
    expect((await request(port, '/healthz')).body).toBe('ok');
    const adminPort = await listenOnLoopback(server.admin!);
    await get(port, PARIS);
    const { samples } = await scrape(adminPort);
    expect(metric(samples, 'geolookup_http_requests_total', requests('countryFromGps', 200))).toBe(1);
    expect((await request(adminPort, '/healthz')).body).toBe('ok');
    expect((await request(adminPort, PARIS)).status).toBe(404);
    const post = await request(adminPort, '/metrics', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    // The main port's /metrics, /healthz and lookup; the admin port's own requests are not counted.
    expect(metric((await scrape(adminPort)).samples, 'geolookup_http_requests_total')).toBe(3);
    await server.shutdown(100);
    expect(server.admin!.listening).toBe(false);
  });
});

describe('access log', () => {
  it('one JSON line per answered request, with the key id and never the key', async () => {
    const lines: string[] = [];
    const { port } = await start({ accessLog: { write: (l: string) => void lines.push(l) } });
    await get(port, PARIS);
    await get(port, PARIS, REVOKED);
    await request(port, PARIS, { 'X-API-Key': KEY }, 'HEAD');
    await get(port, `/geo/country/fromGps/${KEY}`);
    await get(port, `/geo/country/fromGps/${encodeURIComponent(SMALL).replace('_', '%5F')}`);
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toHaveLength(5);
    expect(entries[0]).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      method: 'GET',
      url: PARIS,
      route: 'countryFromGps',
      status: 200,
      ms: expect.any(Number),
      bytes: 3,
      client: KEY_ID,
      remote: '127.0.0.1',
    });
    expect(entries[1]).toMatchObject({ status: 401, client: null });
    expect(entries[2]).toMatchObject({ method: 'HEAD', status: 200, bytes: 0 });
    expect(entries[3]).toMatchObject({ status: 400, url: '/geo/country/fromGps/glk_[masked]' });
    expect(entries[4].url).toBe('/geo/country/fromGps/glk_[masked]');
    for (const line of lines) for (const k of [KEY, REVOKED, SMALL]) expect(line).not.toContain(k.slice(17));
  });
});

describe('geolookup serve: --admin-port, --no-metrics, --log json', () => {
  it('metrics and health on the admin port with Node’s process metrics; an access log on stdout', async () => {
    const s = await serve(keysFile, ['--admin-port', '0', '--log', 'json']);
    try {
      await expect
        .poll(() => /admin \(\/healthz, \/metrics\) on http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output()))
        .toBeTruthy();
      const adminPort = Number(/admin \(\/healthz, \/metrics\) on http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output())![1]);
      expect((await get(s.port, PARIS)).body).toBe('FRA');
      expect((await get(s.port, '/metrics')).status).toBe(404);
      const { samples } = await scrape(adminPort);
      expect(metric(samples, 'geolookup_http_requests_total', requests('countryFromGps', 200))).toBe(1);
      expect(metric(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect((await request(adminPort, '/healthz')).body).toBe('ok');
      s.child.kill('SIGHUP');
      await expect.poll(() => s.output()).toMatch(/keys reloaded/);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      // Every line on stdout and stderr is JSON: the access log's, and the command's own.
      const lines = s
        .output()
        .split('\n')
        .filter((l) => l !== '');
      const log = lines.map((l) => JSON.parse(l));
      // Buffered log lines are written at shutdown.
      const access = log.filter((e) => 'url' in e);
      expect(access.map((e) => `${e.url} ${e.status}`)).toEqual([`${PARIS} 200`, '/metrics 404']);
      const own = log.filter((e) => !('url' in e));
      for (const e of own) {
        expect(Object.keys(e)).toEqual(['level', 'time', 'msg']);
        expect(Number.isNaN(Date.parse(e.time))).toBe(false);
      }
      expect(own.map((e) => `${e.level} ${e.msg.replace(/ .*/, '')}`)).toEqual([
        'info geolookup:', // listening on …
        'info geolookup:', // admin on …
        'warn geolookup:', // keys reloaded
        'warn geolookup:', // SIGTERM: finishing in-flight requests
        'warn geolookup:', // stopped; quota counts written
      ]);
      expect(own[0].msg).toMatch(/^geolookup: listening on http:\/\/127\.0\.0\.1:\d+ /);
      expect(own.at(-1).msg).toBe('geolookup: stopped; quota counts written');
      expect(s.output()).not.toContain(KEY.slice(17));
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('--no-metrics: no /metrics anywhere', async () => {
    const s = await serve(keysFile, ['--no-metrics']);
    try {
      expect((await get(s.port, '/metrics')).status).toBe(404);
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('bad flags exit 2', () => {
    const cli = (...args: string[]) =>
      run(
        ['serve', '--keys', keysFile, ...args],
        () => {},
        () => {},
      );
    expect(cli('--log', 'xml')).toBe(2);
    expect(cli('--admin-host', '127.0.0.1')).toBe(2);
    expect(cli('--port', '9000', '--admin-port', '9000')).toBe(2);
    expect(cli('--admin-port', 'x')).toBe(2);
  });
});
