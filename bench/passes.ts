// The timing of npm run bench, shared by its processes (bench.ts, lite.ts): the point sets, and
// passes taken in rounds, each after an untimed pass over other points of the same kind.
import { cityPoints, type PointSet, spherePoints } from '../test/support/sample-points.js';

const N_RANDOM = Number(process.env.BENCH_RANDOM ?? 1_000_000);
const N_CITY = Number(process.env.BENCH_CITY ?? 200_000);

/** The timed point sets by name, and for each the untimed points run before every pass (seed 99). */
export function pointSets(): { name: string; points: PointSet; warm: PointSet }[] {
  return [
    {
      name: `random sphere (${N_RANDOM / 1e6}M)`,
      points: spherePoints(N_RANDOM),
      warm: spherePoints(Math.min(N_RANDOM, 200_000), 99),
    },
    {
      name: `near cities (${N_CITY / 1e3}k)`,
      points: cityPoints(N_CITY),
      warm: cityPoints(Math.min(N_CITY, 200_000), 99),
    },
  ];
}

/** Rounds over a set of n points: at least 2M lookups per operation in all. */
export const roundsFor = (n: number) => Math.max(5, Math.ceil(2_000_000 / n));

export type OwnOp = (p: PointSet, i: number, codes: string[], subs: string[]) => unknown;

/** Rates of each timed pass, and ns per lookup of every 10k-point batch. */
export interface Tally {
  passes: number[];
  times: number[];
  done: number;
}
export const tally = (): Tally => ({ passes: [], times: [], done: 0 });

/** Points, with the codes the isIn* rows ask about at each (empty where no row reads them). */
export interface Timed {
  points: PointSet;
  codes: string[];
  subs: string[];
}

/** JIT warm-up: up to 50k lookups of every operation. */
export function warmUp(ops: [string, OwnOp][], t: Timed): void {
  let sink = 0;
  for (const [, fn] of ops)
    for (let i = 0; i < Math.min(t.points.lat.length, 50_000); i++) if (fn(t.points, i, t.codes, t.subs)) sink++;
  if (sink < 0) console.log(sink);
}

/**
 * One round of our operations, in an order that rotates with the round so that none always runs
 * first; each timed pass follows an untimed one over `warm`.
 */
export function ownRound(round: number, ops: [string, OwnOp][], timed: Timed, warm: Timed, tallies: Tally[]): void {
  for (let j = 0; j < ops.length; j++) {
    const k = (round + j) % ops.length;
    ownPass(warm.points, ops[k][1], warm.codes, warm.subs, tally());
    ownPass(timed.points, ops[k][1], timed.codes, timed.subs, tallies[k]);
  }
}

function ownPass(p: PointSet, fn: OwnOp, codes: string[], subs: string[], t: Tally): void {
  const n = p.lat.length;
  const batch = 10_000;
  let sink = 0;
  const t0 = performance.now();
  for (let s = 0; s < n; s += batch) {
    const b0 = performance.now();
    const e = Math.min(n, s + batch);
    for (let i = s; i < e; i++) if (fn(p, i, codes, subs)) sink++;
    t.times.push(((performance.now() - b0) * 1e6) / (e - s));
  }
  t.passes.push(n / ((performance.now() - t0) / 1000));
  t.done = n;
  if (sink < 0) console.log(sink);
}

/** One pass of a peer over a point set, cut short after capSeconds (slow peers). */
export function peerPass(p: PointSet, fn: (lat: number, lon: number) => unknown, capSeconds: number, t: Tally): void {
  let sink = 0;
  const t0 = performance.now();
  const cap = t0 + capSeconds * 1000;
  let i = 0;
  for (; i < p.lat.length; i++) {
    if (fn(p.lat[i], p.lon[i])) sink++;
    if ((i & 63) === 0 && performance.now() > cap) break;
  }
  const n = Math.min(i + 1, p.lat.length);
  t.passes.push(n / ((performance.now() - t0) / 1000));
  t.done = Math.max(t.done, n);
  if (sink < 0) console.log(sink);
}

export const best = (t: Tally) => Math.max(...t.passes);

export function quantileOf(t: Tally, q: number): number {
  const s = [...t.times].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * t's time over base's, round by round (passes seconds apart, so a slow spell that hits one round
 * shifts both): lower quartile, median, upper quartile. Best against best can pair a lucky pass
 * with an unlucky one.
 */
export function perRound(base: Tally, t: Tally): [number, number, number] {
  const paired = base.passes.map((c, round) => c / t.passes[round]).sort((a, b) => a - b);
  const q = (f: number) => paired[Math.min(paired.length - 1, Math.floor(f * paired.length))];
  return [q(0.25), q(0.5), q(0.75)];
}

/** perRound as "median (quartiles)". */
export const fmtRound = ([lo, median, hi]: number[]) => `${median.toFixed(2)} (${lo.toFixed(2)}-${hi.toFixed(2)})`;

export const fmt = (v: number) =>
  v >= 1e5 ? `${(v / 1e6).toFixed(2)} M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)} k` : v.toFixed(0);
