// Soak runs (not CI): `node --expose-gc --import tsx bench/soak.ts [lookups|server|kill] [--minutes N] [--lookups N]`.
//   lookups: 100 million lookups in one process; heap and RSS at start, every 10 M, end.
//   server:  the server with keys and limits on under autocannon for N minutes (default 10):
//            errors other than intended 429s, RSS at start/end, p99 per minute.
//   kill:    SIGTERM during load (no in-flight request fails, counts flushed), then kill -9
//            during load (after restart the counts lose at most one flush interval).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { cityPoints, spherePoints } from '../test/support/sample-points.js';
import { serve } from '../test/support/serve-process.js';
import { preload, tryCountryFromGps, trySubdivisionFromGps, isInCountry, isInSubdivision } from '../src/index.js';
import { createKey } from '../packages/server/src/server/keys.js';

// autocannon ships no types; only the fields used here are declared.
interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: object) => Promise<CannonResult>;

const args = process.argv.slice(2);
const mode = args.find((a) => !a.startsWith('--')) ?? 'lookups';
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? def : Number(args[i + 1]);
};
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;
function memory(label: string): void {
  gc?.();
  const m = process.memoryUsage();
  console.log(
    `${label}: heapUsed ${mb(m.heapUsed)}, rss ${mb(m.rss)}, external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)}`,
  );
}

function lookups(): void {
  const total = opt('lookups', 100_000_000);
  preload();
  const a = spherePoints(500_000, 41);
  const b = cityPoints(500_000, 42);
  memory('start');
  const began = performance.now();
  let sink = 0;
  for (let i = 0; i < total; ) {
    const end = Math.min(total, i + 10_000_000);
    for (; i < end; i++) {
      const j = i % 500_000;
      const p = i & 1 ? a : b;
      switch (i & 3) {
        case 0:
          sink += tryCountryFromGps(p.lat[j], p.lon[j])?.length ?? 0;
          break;
        case 1:
          sink += trySubdivisionFromGps(p.lat[j], p.lon[j])?.length ?? 0;
          break;
        case 2:
          sink += isInCountry('FRA', p.lat[j], p.lon[j]) ? 1 : 0;
          break;
        default:
          sink += isInSubdivision('US-CA', p.lat[j], p.lon[j]) ? 1 : 0;
      }
    }
    memory(`${i / 1e6} M lookups (${((performance.now() - began) / 1000).toFixed(1)} s)`);
  }
  console.log(`done: ${total} lookups, checksum ${sink}`);
}

function rss(pid: number): string {
  try {
    return mb(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024);
  } catch {
    return '?';
  }
}
const PATHS = [
  '/geo/country/fromGps/48.8566,2.3522',
  '/geo/subdivision/fromGps/40.7128,-74.006',
  '/geo/country/DEU/isInCountry?latitude=52.52&longitude=13.405',
  '/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.85&longitude=2.35',
];

async function server(): Promise<void> {
  const minutes = opt('minutes', 10);
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-soak-'));
  const keys = join(dir, 'keys.json');
  // Four keys at 300,000 a minute each: the limits are on and bind at full speed (their 429s are intended).
  const ks = Array.from({ length: 4 }, () => createKey(keys, 'pro', { monthlyQuota: 1e12 }).key);
  const s = await serve(keys, ['--burst', '300000']);
  const pid = s.child.pid!;
  console.log(`server pid ${pid}, RSS at start ${rss(pid)}; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const requests = ks.flatMap((key) => PATHS.map((path) => ({ method: 'GET', path, headers: { 'X-API-Key': key } })));
  for (let m = 1; m <= minutes; m++) {
    const r = await autocannon({ url: `http://127.0.0.1:${s.port}`, connections: 10, duration: 60, requests });
    const other = Object.entries(r.statusCodeStats ?? {}).filter(([c]) => c !== '200' && c !== '429');
    console.log(
      `minute ${m}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, ` +
        `statuses ${JSON.stringify(r.statusCodeStats)}, errors ${r.errors}, timeouts ${r.timeouts}, unexpected ${JSON.stringify(other)}, RSS ${rss(pid)}`,
    );
  }
  s.child.kill('SIGTERM');
  console.log(`exit ${await s.exited}`);
  rmSync(dir, { recursive: true, force: true });
}

function get(port: number, key: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: PATHS[0], headers: { 'X-API-Key': key }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * Keeps `n` requests in flight until stopped; counts answers and failures (a failure after the stop
 * signal is a refused connection only if nothing was in flight).
 */
function load(port: number, key: string, n: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: n });
  let ok = 0;
  let failed = 0;
  let stopped = false;
  const statuses: Record<number, number> = {};
  const loops = Array.from({ length: n }, async () => {
    while (!stopped) {
      try {
        const status = await get(port, key, agent);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 200) ok++;
        else failed++;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ECONNREFUSED') break; // a new connection after close: not an in-flight request
        failed++;
        break;
      }
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      return { ok, failed, statuses };
    },
    counts: () => ({ ok, failed }),
  };
}

async function kill(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-kill-'));
  const keys = join(dir, 'keys.json');
  const k = createKey(keys, 'pro', { monthlyQuota: 1e12 });
  const quota = join(dir, 'keys.quota.json');
  const used = () => {
    try {
      return JSON.parse(readFileSync(quota, 'utf8')).usage[k.record.id]?.used ?? 0;
    } catch {
      return 0;
    }
  };
  // SIGTERM under load
  const a = await serve(keys, ['--flush-interval', '3600', '--burst', '100000000']);
  const la = load(a.port, k.key, 8);
  await new Promise((r) => setTimeout(r, 5000));
  a.child.kill('SIGTERM');
  const codeA = await a.exited;
  const ra = await la.stop();
  console.log(
    `SIGTERM: exit ${codeA}; answered ${ra.ok}, failed ${ra.failed} ${JSON.stringify(ra.statuses)}; quota file counts ${used()} (served ${ra.ok})`,
  );
  // kill -9 under load, flush interval 2 s
  const before = used();
  const b = await serve(keys, ['--flush-interval', '2', '--burst', '100000000']);
  const lb = load(b.port, k.key, 8);
  await new Promise((r) => setTimeout(r, 7300));
  const servedUntilKill = lb.counts().ok;
  const t0 = Date.now();
  b.child.kill('SIGKILL');
  await b.exited;
  const rb = await lb.stop();
  const after = used();
  const rate = servedUntilKill / 7.3;
  console.log(
    `kill -9: served about ${rb.ok} before the kill (${Math.round(rate)}/s); quota file gained ${after - before}; lost ${rb.ok - (after - before)} ` +
      `(bound: one flush interval, 2 s ≈ ${Math.round(rate * 2)} requests); killed ${Date.now() - t0} ms after the last sample`,
  );
  const c = await serve(keys);
  const agent = new http.Agent({ keepAlive: false });
  console.log(`after restart: first answer ${await get(c.port, k.key, agent)}, count resumes from ${after}`);
  c.child.kill('SIGTERM');
  await c.exited;
  rmSync(dir, { recursive: true, force: true });
}

if (mode === 'lookups') lookups();
else if (mode === 'server') await server();
else if (mode === 'kill') await kill();
else {
  console.error('usage: npm run bench:soak -- [lookups|server|kill] [--minutes N] [--lookups N]');
  process.exit(2);
}
