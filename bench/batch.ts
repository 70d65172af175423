// node --import tsx bench/batch.ts
//
// 1. The typed-array batch API against the single-point functions, same points.
// 2. `geolookup batch` (the built CLI, whole pipeline: read, parse, look up, write
//    a file) on a seeded CSV of BENCH_BATCH_ROWS rows (default 10 M), with 1 worker,
//    2 workers and all cores, BENCH_BATCH_REPEAT (5) times each (alternating, best kept:
//    on a shared machine the best run is the one least disturbed by others; the 2-to-1 worker
//    ratio is also given per round, the two runs back to back); then the
//    same with the output to /dev/null, which leaves out the kernel's file-write cost.
//    Where `taskset` exists, also 1 worker with the whole process pinned to one core: with
//    `--workers 1` unpinned, the main thread's reading and writing and the kernel's page-cache
//    work run on the second core, so that row is the throughput of one core.
//    With `taskset` and at least 2 cores, each round also runs two independent 1-worker
//    processes at once, pinned to cores 0 and 1, each on the whole file: nothing is shared
//    between them, so their combined rate over the pinned run alone is the most 2 cores of this
//    machine give this job (memory, caches and the hypervisor included), the yardstick for the
//    2-worker ratio.
//    "After start-up" is the CLI's own rate from the first job handed to a worker to the end
//    (reading, parsing, lookups, writing, closing the output), without the fixed cost of
//    reading and checking the dataset and starting the workers, nor Node's own start.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as geo from '../src/index.js';
import { cityPoints, type PointSet, spherePoints } from '../test/support/sample-points.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 10_000_000);
const REPEAT = Number(process.env.BENCH_BATCH_REPEAT ?? 5);
const fmt = (v: number) =>
  v >= 1e5 ? `${(v / 1e6).toFixed(2)} M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)} k` : v.toFixed(0);
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

console.log(
  `geolookup batch bench, node ${process.version}, ${availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`,
);
console.log(`load average at start: ${load()}`);

// ---- 1. typed-array API vs single point ----
geo.preload();
function best(rounds: number, fn: () => void): number {
  let ms = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    fn();
    ms = Math.min(ms, performance.now() - t0);
  }
  return ms;
}
console.log('\n### Typed-array batch API vs single-point (points/s, best of 5)\n');
console.log('| points | operation | single-point loop | typed-array batch | batch / single |');
console.log('|---|---|---|---|---|');
const sets: [string, PointSet][] = [
  ['random sphere (1M)', spherePoints(1_000_000)],
  ['near cities (1M)', cityPoints(1_000_000)],
];
let sink = 0;
for (const [name, p] of sets) {
  const n = p.lat.length;
  const out = new Int16Array(n);
  const pairs: [string, () => void, () => void][] = [
    [
      'country',
      () => {
        for (let i = 0; i < n; i++) if (geo.tryCountryFromGps(p.lat[i], p.lon[i]) !== null) sink++;
      },
      () => void geo.countryIndexes(p.lat, p.lon, out),
    ],
    [
      'subdivision',
      () => {
        for (let i = 0; i < n; i++) if (geo.trySubdivisionFromGps(p.lat[i], p.lon[i]) !== null) sink++;
      },
      () => void geo.subdivisionIndexes(p.lat, p.lon, out),
    ],
  ];
  for (const [op, single, batched] of pairs) {
    let s = Infinity;
    let b = Infinity;
    for (let r = 0; r < 5; r++) {
      s = Math.min(s, best(1, single));
      b = Math.min(b, best(1, batched));
    }
    console.log(`| ${name} | ${op} | ${fmt((n / s) * 1000)} | ${fmt((n / b) * 1000)} | ${(s / b).toFixed(2)}× |`);
  }
}
if (sink < 0) console.log(sink);

// ---- 2. the CLI pipeline ----
execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'geolookup-batch-bench-'));
try {
  const file = join(dir, 'points.csv');
  const t0 = performance.now();
  // Half near cities (most real rows are on land, where lookups cost most), half uniform on the sphere.
  const half = ROWS >> 1;
  const city = cityPoints(half, 11);
  const sphere = spherePoints(ROWS - half, 12);
  const fd = openSync(file, 'w');
  let buf = 'id,latitude,longitude\n';
  for (let i = 0; i < ROWS; i++) {
    const lat = i & 1 ? sphere.lat[i >> 1] : city.lat[i >> 1];
    const lon = i & 1 ? sphere.lon[i >> 1] : city.lon[i >> 1];
    buf += `${i},${lat.toFixed(6)},${lon.toFixed(6)}\n`;
    if (buf.length > 1 << 22) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  const size = statSync(file).size;
  console.log(
    `\n### geolookup batch: ${fmt(ROWS)} rows CSV (${(size / 1e6).toFixed(0)} MB, half near cities, half random; written in ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );

  // Each configuration writes a real file, and also /dev/null: the difference is what the kernel
  // charges for the file's page-cache writes, which the workers' two cores pay for too.
  const TASKSET = existsSync('/usr/bin/taskset') ? '/usr/bin/taskset' : null;
  const configs: (number | '1 (one core)')[] = [...new Set([1, 2, availableParallelism()])];
  if (TASKSET) configs.unshift('1 (one core)');
  const sinks = ['file', '/dev/null'] as const;
  type Sink = (typeof sinks)[number];
  const results = new Map<
    string,
    { wall: number; internal: number; steady: number; startup: number; rss: number; cpu: number; loads: string[] }
  >();
  // Every run's wall-clock rows/s, by configuration and round: 1 and 2 workers run back to back
  // in each round, so their ratio within a round is paired. This VM's speed drifts from minute to
  // minute (identical runs took from 2.0 to 4.3 CPU seconds), which best-of-n against best-of-n
  // can pair across two different speeds.
  const perRound = new Map<string, number[]>();
  const addRound = (key: string, rowsPerSecond: number) =>
    perRound.set(key, [...(perRound.get(key) ?? []), rowsPerSecond]);
  const cli = join(root, 'dist', 'cli.js');
  // Two pinned 1-worker processes at once, each on the whole file; resolves with the combined rows/s.
  const pair = async (sink: Sink) => {
    const t = performance.now();
    const one = (core: number) =>
      new Promise<void>((resolve, reject) => {
        const out = sink === 'file' ? join(dir, `out-${core}.csv`) : '/dev/null';
        const child = spawn(
          TASKSET!,
          ['-c', String(core), process.execPath, cli, 'batch', file, '-o', out, '--workers', '1'],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let err = '';
        child.stderr.on('data', (d: Buffer) => (err += d));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`batch failed: ${err}`))));
      });
    await Promise.all([one(0), one(1)]);
    const wall = (performance.now() - t) / 1000;
    if (sink === 'file') for (const core of [0, 1]) rmSync(join(dir, `out-${core}.csv`));
    return (2 * ROWS) / wall;
  };
  const withPair = TASKSET !== null && availableParallelism() >= 2;
  for (let r = 0; r < REPEAT; r++) {
    for (const sink of sinks) {
      if (withPair) addRound(`${sink} pair`, await pair(sink));
      for (const workers of configs) {
        const out = sink === 'file' ? join(dir, 'out.csv') : '/dev/null';
        const loadBefore = load();
        const t = performance.now();
        const pinned = typeof workers === 'string';
        const cmd = [process.execPath, cli, 'batch', file, '-o', out, '--workers', pinned ? '1' : String(workers)];
        if (pinned) cmd.unshift(TASKSET!, '-c', '0');
        // GNU time (Debian package `time`) adds the CPU seconds when it is there.
        const run = TIME
          ? spawnSync(TIME, ['-f', 'cpu %U %S', ...cmd], { encoding: 'utf8' })
          : spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8' });
        const wall = (performance.now() - t) / 1000;
        if (run.status !== 0) throw new Error(`batch failed: ${run.stderr}`);
        const m = /([\d,]+) rows\/s.*peak RSS (\d+) MB/.exec(run.stderr);
        const c = /cpu ([\d.]+) ([\d.]+)/.exec(run.stderr);
        const after = /([\d,]+) rows\/s after ([\d.]+) s of start-up/.exec(run.stderr);
        if (!m || !after) throw new Error(`no summary in: ${run.stderr}`);
        if (sink === 'file') {
          if (r === 0 && workers === configs[0]) {
            const lines = readFileSync(out).reduce((n, ch) => n + (ch === 10 ? 1 : 0), 0);
            if (lines !== ROWS + 1) throw new Error(`output has ${lines} lines, expected ${ROWS + 1}`);
          }
          rmSync(out);
        }
        const key = `${sink} ${workers}`;
        addRound(key, ROWS / wall);
        const prev = results.get(key);
        const internal = Number(m[1].replace(/,/g, ''));
        const steady = Number(after[1].replace(/,/g, ''));
        const entry = {
          wall: ROWS / wall,
          internal,
          steady,
          startup: Number(after[2]),
          rss: Number(m[2]),
          cpu: c ? Number(c[1]) + Number(c[2]) : NaN,
          loads: [...(prev?.loads ?? []), loadBefore],
        };
        if (!prev || entry.wall > prev.wall) results.set(key, entry);
        else prev.loads.push(loadBefore);
      }
    }
  }
  console.log(
    '| output | workers | rows/s (wall clock, process start to exit) | rows/s (CLI summary) | rows/s after start-up (CLI) | start-up s | × 1 worker | × one core | after start-up × 1 worker | CPU s (user + sys) | peak RSS | load average before runs |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const sink of sinks) {
    const one = results.get(`${sink} 1`)!;
    const core = results.get(`${sink} 1 (one core)`);
    for (const workers of configs) {
      const r = results.get(`${sink} ${workers}`)!;
      console.log(
        `| ${sink} | ${workers} | ${fmt(r.wall)} | ${fmt(r.internal)} | ${fmt(r.steady)} | ${r.startup.toFixed(2)} | ${(r.wall / one.wall).toFixed(2)} | ${core ? (r.wall / core.wall).toFixed(2) : '-'} | ${(r.steady / one.steady).toFixed(2)} | ${r.cpu.toFixed(2)} | ${r.rss} MB | ${r.loads.join('; ')} |`,
      );
    }
  }
  // Per-round ratios a[r] / b[r], as "median m (every ratio, sorted)".
  const paired = (a: number[], b: number[], unit = '×') => {
    const sorted = a.map((x, r) => x / b[r]).sort((x, y) => x - y);
    return `median ${sorted[sorted.length >> 1].toFixed(2)}${unit} (${sorted.map((x) => x.toFixed(2)).join(', ')})`;
  };
  for (const sink of sinks as readonly Sink[]) {
    const one = results.get(`${sink} 1`)!;
    const core = results.get(`${sink} 1 (one core)`);
    const two = results.get(`${sink} 2`);
    if (two)
      console.log(
        `scaling 2 workers / 1 worker, output to ${sink}: ${(two.wall / one.wall).toFixed(2)}× (wall clock), ${(two.internal / one.internal).toFixed(2)}× (summary), ${(two.steady / one.steady).toFixed(2)}× (after start-up)`,
      );
    const ones = perRound.get(`${sink} 1`)!;
    const twos = perRound.get(`${sink} 2`);
    if (twos) console.log(`  per round, 2 workers right after 1 (wall clock): ${paired(twos, ones)}`);
    if (two && core)
      console.log(
        `scaling 2 cores / 1 core (1 worker pinned with taskset), output to ${sink}: ${(two.wall / core.wall).toFixed(2)}× (wall clock)`,
      );
    const pairs = perRound.get(`${sink} pair`);
    const cores = perRound.get(`${sink} 1 (one core)`);
    if (pairs && cores) {
      // The pair runs just before the pinned run in each round: paired like the ratios above.
      console.log(
        `  this machine's ceiling, two independent pinned 1-worker processes at once / one alone: ${paired(pairs, cores)}`,
      );
      if (twos) console.log(`  2 workers / that pair's combined rate, per round: ${paired(twos, pairs, '')}`);
    }
  }

  // NDJSON: the same points as objects, 2 M rows (or all, when fewer), to /dev/null.
  const nd = join(dir, 'points.ndjson');
  const ndRows = Math.min(ROWS, 2_000_000);
  const ndFd = openSync(nd, 'w');
  let ndBuf = '';
  for (let i = 0; i < ndRows; i++) {
    const lat = i & 1 ? sphere.lat[i >> 1] : city.lat[i >> 1];
    const lon = i & 1 ? sphere.lon[i >> 1] : city.lon[i >> 1];
    ndBuf += `{"id":${i},"latitude":${lat.toFixed(6)},"longitude":${lon.toFixed(6)}}\n`;
    if (ndBuf.length > 1 << 22) {
      writeSync(ndFd, ndBuf);
      ndBuf = '';
    }
  }
  writeSync(ndFd, ndBuf);
  closeSync(ndFd);
  console.log(
    `\n### NDJSON: ${fmt(ndRows)} rows (${(statSync(nd).size / 1e6).toFixed(0)} MB, same points), output to /dev/null, best of ${REPEAT}\n`,
  );
  console.log('| workers | rows/s (wall clock) | rows/s (CLI summary) |');
  console.log('|---|---|---|');
  for (const workers of [...new Set([1, 2, availableParallelism()])]) {
    let wall = 0;
    let internal = 0;
    for (let r = 0; r < REPEAT; r++) {
      const t = performance.now();
      const run = spawnSync(
        process.execPath,
        [join(root, 'dist', 'cli.js'), 'batch', nd, '-o', '/dev/null', '--workers', String(workers)],
        { encoding: 'utf8' },
      );
      const w = ndRows / ((performance.now() - t) / 1000);
      const m = /([\d,]+) rows\/s/.exec(run.stderr);
      if (run.status !== 0 || !m) throw new Error(`NDJSON batch failed: ${run.stderr}`);
      wall = Math.max(wall, w);
      internal = Math.max(internal, Number(m[1].replace(/,/g, '')));
    }
    console.log(`| ${workers} | ${fmt(wall)} | ${fmt(internal)} |`);
  }
  console.log(`load average at end: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
