// npm run bench:server: the geolookup HTTP server (API keys, burst windows and monthly
// quotas all on, limits raised so nothing is refused) against a bare node:http server
// answering a constant string, both driven by autocannon over loopback in the same run.
// Each server runs in its own child process; autocannon runs here. Where `taskset` exists and
// there are two or more CPUs, the server is pinned to one CPU and this process to another, so
// the two do not take turns on the same core (this also steadies the figures a lot).
// Latency percentiles come from every response's own timing (autocannon's histogram has 1 ms steps).
//
// BENCH_SECONDS (default 30) per server, split into BENCH_ROUNDS (default 10) alternating rounds;
// BENCH_CONNECTIONS (default 10); BENCH_PIN=0 to not pin.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

async function child(mode: string, keys: string | undefined): Promise<void> {
  let server: http.Server;
  if (mode === 'bare') {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('FRA');
    });
  } else {
    const { createServer } = await import('../src/server/server.js');
    // Keys, burst windows and quota accounting on; the limits raised so the bench is not throttled.
    server = createServer({ keys, limits: { burstPerMinute: Number.MAX_SAFE_INTEGER }, flushIntervalMs: 10_000 });
  }
  server.listen(0, HOST, () => process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`));
  process.on('SIGTERM', () => {
    const s = server as http.Server & { shutdown?: () => Promise<void> };
    void (s.shutdown ? s.shutdown() : new Promise((r) => server.close(r))).then(() => process.exit(0));
  });
}

function startChild(mode: string, keys: string): Promise<{ proc: ChildProcess; port: number }> {
  const args = ['--import', 'tsx', join(here, 'server.ts'), '--serve', mode, keys];
  const proc = PIN
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
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

function drive(port: number, key: string, duration: number, tally?: Tally): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://${HOST}:${port}`,
        connections: CONNECTIONS,
        duration,
        pipelining: 1,
        requests: PATHS.map((path) => ({ method: 'GET', path, headers: { 'X-API-Key': key } })),
      },
      (err, r) => {
        if (err) return reject(err);
        if (tally) {
          tally.requests += r.requests.total;
          tally.seconds += duration;
          tally.non2xx += r.non2xx;
          tally.errors += r.errors + r.timeouts;
        }
        resolve();
      },
    );
    if (tally) instance.on('response', (_c, _s, _b, ms) => tally.add(ms));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-bench-'));
  const keys = join(dir, 'keys.json');
  const { createKey } = await import('../src/server/keys.js');
  const { key } = createKey(keys, 'pro', { monthlyQuota: Number.MAX_SAFE_INTEGER });
  const servers = { bare: await startChild('bare', keys), geolookup: await startChild('geo', keys) };
  const tallies = { bare: new Tally(), geolookup: new Tally() };
  const roundRatios: number[] = [];
  try {
    // Sanity: the geolookup server answers the real thing with the key.
    const body = await new Promise<string>((resolve, reject) =>
      http
        .get({ host: HOST, port: servers.geolookup.port, path: PATHS[0], headers: { 'X-API-Key': key } }, (res) => {
          let b = '';
          res.on('data', (d) => (b += d)).on('end', () => resolve(`${res.statusCode} ${b}`));
        })
        .on('error', reject),
    );
    if (body !== '200 FRA') throw new Error(`unexpected answer: ${body}`);
    for (const mode of ['bare', 'geolookup'] as const) await drive(servers[mode].port, key, 2); // warm-up (JIT, connections), not reported
    // Alternate the two servers in rounds, so drift in the machine's speed (or another process
    // taking a CPU for a while) hits both alike; each round gives one paired ratio.
    for (let round = 0; round < ROUNDS; round++) {
      const before = tallies.bare.requests;
      await drive(servers.bare.port, key, SECONDS / ROUNDS, tallies.bare);
      const bareRound = tallies.bare.requests - before;
      const beforeGeo = tallies.geolookup.requests;
      await drive(servers.geolookup.port, key, SECONDS / ROUNDS, tallies.geolookup);
      roundRatios.push((tallies.geolookup.requests - beforeGeo) / bareRound);
    }
  } finally {
    for (const { proc } of Object.values(servers)) {
      proc.kill('SIGTERM');
      await new Promise((res) => (proc.exitCode === null ? proc.once('exit', res) : res(null)));
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(
    `\nautocannon ${CONNECTIONS} connections, ${SECONDS} s per server in ${ROUNDS} alternating rounds after a 2 s warm-up, loopback, Node ${process.version}, ` +
      `${CPUS} CPUs${PIN ? ', server and load generator pinned to separate CPUs' : ''}; requests cycle through the four routes\n`,
  );
  console.log('server                       req/s   p50 ms   p99 ms   non-2xx   errors');
  const rps = (t: Tally) => t.requests / t.seconds;
  for (const mode of ['bare', 'geolookup'] as const) {
    const t = tallies[mode];
    const label = mode === 'bare' ? 'bare node:http (constant)' : 'geolookup (keys + limits)';
    console.log(
      `${label.padEnd(25)} ${fmt(rps(t)).padStart(8)} ${fmt(t.percentile(0.5), 3).padStart(8)} ${fmt(t.percentile(0.99), 3).padStart(8)} ${String(t.non2xx).padStart(9)} ${String(t.errors).padStart(8)}`,
    );
  }
  const ratio = rps(tallies.geolookup) / rps(tallies.bare);
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  const median = [...roundRatios].sort((a, b) => a - b)[Math.floor(roundRatios.length / 2)];
  console.log(
    `\nthroughput ratio geolookup / bare: ${pct(ratio)} overall, median of the ${ROUNDS} paired rounds ${pct(median)} (target ≥ 70%)`,
  );
  console.log(`per round: ${roundRatios.map(pct).join(', ')}`);
  if (tallies.geolookup.non2xx || tallies.geolookup.errors)
    console.log('warning: the geolookup server answered non-2xx or failed some requests');
}
const serveAt = process.argv.indexOf('--serve');
if (serveAt !== -1) void child(process.argv[serveAt + 1], process.argv[serveAt + 2]);
else
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
