// npm run bench:server: the geolookup HTTP server (API keys, burst windows and monthly
// quotas all on, limits raised so nothing is refused) against a bare node:http server
// answering a constant string, all driven by autocannon over loopback in the same run; with
// redis-server installed, also one and two instances counting in one Redis (--redis).
// Each server runs in its own child process; autocannon runs here. Where `taskset` exists and
// there are two or more CPUs, the server is pinned to one CPU and this process to another, so
// the two do not take turns on the same core (this also steadies the figures a lot); Redis gets a
// CPU of its own from four CPUs up, else shares the load generator's.
// Latency percentiles come from every response's own timing (autocannon's histogram has 1 ms steps).
//
// It also reports each server's CPU time per request (Linux /proc), steadier than req/s where
// other work shares the machine.
//
// BENCH_SECONDS (default 30) per server, split into BENCH_ROUNDS (default 10) alternating rounds;
// BENCH_CONNECTIONS (default 10); BENCH_PIN=0 to not pin. BENCH_BASELINE=<file> adds another
// build's server module (one exporting createServer, e.g. src/server/server.ts of an older
// checkout) to the same rounds, so a change to the server is compared side by side.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RedisServer, redisMissing, startRedis } from '../test/support/redis.js';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface Result {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface Options {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
  requests?: { method: string; path: string; headers?: Record<string, string> }[];
}
interface Instance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, responseTimeMs: number) => void): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  o: Options,
  cb: (err: Error | null, r: Result) => void,
) => Instance;

const HOST = '127.0.0.1';
const here = fileURLToPath(new URL('.', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 10));
const CPUS = availableParallelism();
// Load generator (this process, all its threads) on CPU 0, each server on CPU 1.
const PIN =
  process.env.BENCH_PIN !== '0' &&
  CPUS >= 2 &&
  spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)]).status === 0;
const PATHS = [
  '/geo/country/fromGps/48.8566,2.3522',
  '/geo/subdivision/fromGps/40.7128,-74.006',
  '/geo/country/DEU/isInCountry?latitude=52.52&longitude=13.405',
  '/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.8566&longitude=2.3522',
];

const REDIS_MISSING = redisMissing();
const BASELINE = process.env.BENCH_BASELINE;
/** The servers measured, in the order of each round. */
const MODES = [
  'bare',
  'geolookup',
  ...(BASELINE ? ['baseline'] : []),
  ...(REDIS_MISSING ? [] : ['redis', 'redis×2']),
] as ('bare' | 'geolookup' | 'baseline' | 'redis' | 'redis×2')[];
type Mode = (typeof MODES)[number];
const LABELS: Record<Mode, string> = {
  bare: 'bare node:http (constant)',
  geolookup: 'geolookup (keys + limits)',
  baseline: 'BENCH_BASELINE (the same)',
  redis: 'geolookup --redis, 1 instance',
  'redis×2': 'geolookup --redis, 2 instances',
};
// CPUs: this process (the load generator) on 0; servers on the others; Redis on a CPU of its own
// from four CPUs up, else on the load generator's (it inherits this process's pinning).
const REDIS_CPU = CPUS >= 4 ? CPUS - 1 : 0;
const serverCpu = (k: number) => 1 + (k % Math.max(1, CPUS >= 4 ? CPUS - 2 : CPUS - 1));

async function child(mode: string, keys: string, redis: string | undefined): Promise<void> {
  let server: http.Server;
  if (mode === 'bare') {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('FRA');
    });
  } else {
    const module = mode === 'base' ? BASELINE! : '../packages/server/src/server/server.js';
    const { createServer } = (await import(module)) as typeof import('../packages/server/src/server/server.js');
    // Keys, burst windows and quota accounting on; the limits raised so the bench is not throttled.
    const s = createServer({
      keys,
      redis,
      limits: { burstPerMinute: Number.MAX_SAFE_INTEGER },
      flushIntervalMs: 10_000,
    });
    await s.ready();
    server = s;
  }
  server.listen(0, HOST, () => process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`));
  process.on('SIGTERM', () => {
    const s = server as http.Server & { shutdown?: () => Promise<void> };
    void (s.shutdown ? s.shutdown() : new Promise((r) => server.close(r))).then(() => process.exit(0));
  });
}

function startChild(
  mode: string,
  keys: string,
  cpu: number,
  redis = '',
): Promise<{ proc: ChildProcess; port: number }> {
  const args = ['--import', 'tsx', join(here, 'server.ts'), '--serve', mode, keys, redis];
  const proc = PIN
    ? spawn('taskset', ['-c', String(cpu), process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /port (\d+)/.exec(out);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.on('exit', (code) => reject(new Error(`${mode} server exited (${code})`)));
  });
}

/** One server's measured rounds, pooled. */
class Tally {
  requests = 0;
  seconds = 0;
  non2xx = 0;
  errors = 0;
  /** CPU time (ms) of the server processes, and of Redis, while they were measured. */
  serverCpu = 0;
  redisCpu = 0;
  times = new Float64Array(1 << 20);
  n = 0;

  add(ms: number): void {
    if (this.n === this.times.length) {
      const grown = new Float64Array(this.times.length * 2);
      grown.set(this.times);
      this.times = grown;
    }
    this.times[this.n++] = ms;
  }

  percentile(q: number): number {
    const sorted = this.times.subarray(0, this.n).sort();
    return this.n ? sorted[Math.min(this.n - 1, Math.floor(q * this.n))] : NaN;
  }
}

function driveOne(port: number, key: string, duration: number, connections: number, tally?: Tally): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://${HOST}:${port}`,
        connections,
        duration,
        pipelining: 1,
        requests: PATHS.map((path) => ({ method: 'GET', path, headers: { 'X-API-Key': key } })),
      },
      (err, r) => {
        if (err) return reject(err);
        if (tally) {
          tally.requests += r.requests.total;
          tally.non2xx += r.non2xx;
          tally.errors += r.errors + r.timeouts;
        }
        resolve();
      },
    );
    if (tally) instance.on('response', (_c, _s, _b, ms) => tally.add(ms));
  });
}

/** Drives the instances of one server at once, the connections shared among them. */
async function drive(ports: number[], key: string, duration: number, tally?: Tally): Promise<void> {
  const each = Math.max(1, Math.round(CONNECTIONS / ports.length));
  await Promise.all(ports.map((port) => driveOne(port, key, duration, each, tally)));
  if (tally) tally.seconds += duration;
}

async function get(port: number, key: string): Promise<string> {
  return new Promise<string>((resolve, reject) =>
    http
      .get({ host: HOST, port, path: PATHS[0], headers: { 'X-API-Key': key } }, (res) => {
        let b = '';
        res.on('data', (d) => (b += d)).on('end', () => resolve(`${res.statusCode} ${b}`));
      })
      .on('error', reject),
  );
}

async function startServers(keys: string, redis: RedisServer | null) {
  const servers: Partial<Record<Mode, { proc: ChildProcess; port: number }[]>> = {};
  servers.bare = [await startChild('bare', keys, serverCpu(0))];
  servers.geolookup = [await startChild('geo', keys, serverCpu(0))];
  if (BASELINE) {
    // Its own copy of the keys: a quota file has one server (quota-lock.ts).
    const copy = keys.replace(/\.json$/, '-baseline.json');
    copyFileSync(keys, copy);
    servers.baseline = [await startChild('base', copy, serverCpu(0))];
  }
  if (redis) {
    servers.redis = [await startChild('geo', keys, serverCpu(0), redis.url)];
    servers['redis×2'] = [
      await startChild('geo', keys, serverCpu(0), redis.url),
      await startChild('geo', keys, serverCpu(1), redis.url),
    ];
  }
  return servers as Record<Mode, { proc: ChildProcess; port: number }[]>;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-bench-'));
  const keys = join(dir, 'keys.json');
  const { createKey } = await import('../packages/server/src/server/keys.js');
  const { key } = createKey(keys, 'pro', { monthlyQuota: Number.MAX_SAFE_INTEGER });
  if (REDIS_MISSING) console.log(`no Redis rows: ${REDIS_MISSING}`);
  const redis = REDIS_MISSING ? null : await startRedis();
  if (redis && PIN && REDIS_CPU !== 0) spawnSync('taskset', ['-a', '-p', '-c', String(REDIS_CPU), String(redis.pid())]);
  const servers = await startServers(keys, redis);
  const tallies = Object.fromEntries(MODES.map((m) => [m, new Tally()])) as Record<Mode, Tally>;
  const ratios = Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
  try {
    // Sanity: every geolookup server answers the real thing with the key.
    for (const mode of MODES)
      for (const { port } of servers[mode]) {
        const body = await get(port, key);
        if (mode !== 'bare' && body !== '200 FRA') throw new Error(`${mode}: unexpected answer: ${body}`);
      }
    for (const mode of MODES) await drive(ports(servers[mode]), key, 2); // warm-up (JIT, connections), not reported
    // Alternate the servers in rounds, so drift in the machine's speed (or another process taking
    // a CPU for a while) hits all alike; each round gives one paired ratio per server.
    for (let round = 0; round < ROUNDS; round++) {
      const got = {} as Record<Mode, number>;
      for (const mode of MODES) {
        const t = tallies[mode];
        const before = t.requests;
        const cpu0 = cpuOf(servers[mode].map((s) => s.proc.pid));
        const redis0 = cpuOf([redis?.pid()]);
        await drive(ports(servers[mode]), key, SECONDS / ROUNDS, t);
        t.serverCpu += cpuOf(servers[mode].map((s) => s.proc.pid)) - cpu0;
        if (mode.startsWith('redis')) t.redisCpu += cpuOf([redis?.pid()]) - redis0;
        got[mode] = t.requests - before;
      }
      for (const mode of MODES) ratios[mode].push(got[mode] / got.bare);
    }
  } finally {
    for (const { proc } of Object.values(servers).flat()) {
      proc.kill('SIGTERM');
      await new Promise((res) => (proc.exitCode === null ? proc.once('exit', res) : res(null)));
    }
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report(tallies, ratios);
}

const ports = (list: { port: number }[]) => list.map((s) => s.port);

const TICK_MS = 1000 / (Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);
/** User + system CPU time (ms) of these processes so far; 0 where /proc cannot tell (not Linux). */
function cpuOf(pids: (number | undefined)[]): number {
  let ms = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ms += (Number(f[11]) + Number(f[12])) * TICK_MS;
    } catch {}
  }
  return ms;
}

function report(tallies: Record<Mode, Tally>, ratios: Record<Mode, number[]>): void {
  const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const pinning = PIN
    ? `, load generator on CPU 0, servers on CPU ${[...new Set([serverCpu(0), serverCpu(1)])].join(' and ')}, Redis on CPU ${REDIS_CPU}`
    : '';
  console.log(
    `\nautocannon ${CONNECTIONS} connections, ${SECONDS} s per server in ${ROUNDS} alternating rounds after a 2 s warm-up, loopback, Node ${process.version}, ` +
      `${CPUS} CPUs${pinning}; requests cycle through the four routes\n`,
  );
  console.log(
    'server                            req/s   p50 ms   p99 ms   non-2xx   errors   CPU µs/req (Redis)   / bare (median round)',
  );
  const rps = (t: Tally) => t.requests / t.seconds;
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const mode of MODES) {
    const t = tallies[mode];
    const vs = mode === 'bare' ? '' : `${pct(rps(t) / rps(tallies.bare))} (${pct(median(ratios[mode]))})`;
    const us = (ms: number) => fmt((ms * 1000) / t.requests, 1);
    const cpu = `${us(t.serverCpu)}${mode.startsWith('redis') ? ` (${us(t.redisCpu)})` : ''}`;
    console.log(
      `${LABELS[mode].padEnd(30)} ${fmt(rps(t)).padStart(8)} ${fmt(t.percentile(0.5), 3).padStart(8)} ${fmt(t.percentile(0.99), 3).padStart(8)} ${String(t.non2xx).padStart(9)} ${String(t.errors).padStart(8)}   ${cpu.padEnd(18)}   ${vs}`,
    );
  }
  console.log('\ntargets: geolookup ≥ 70% of bare, geolookup --redis (1 instance) ≥ 40%');
  // On a shared machine the req/s drift with the neighbours' load; CPU time per request much less.
  const perReq = (m: Mode) => tallies[m].serverCpu / tallies[m].requests;
  for (const mode of MODES.slice(1))
    console.log(`bare / ${mode} server CPU per request: ${pct(perReq('bare') / perReq(mode))}`);
  for (const mode of MODES.slice(1)) console.log(`per round, ${mode}: ${ratios[mode].map(pct).join(', ')}`);
  for (const mode of MODES.slice(1))
    if (tallies[mode].non2xx || tallies[mode].errors)
      console.log(`warning: ${mode} answered non-2xx or failed some requests`);
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt !== -1)
  void child(process.argv[serveAt + 1], process.argv[serveAt + 2], process.argv[serveAt + 3] || undefined);
else
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
