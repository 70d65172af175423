// Run by bench.ts in a process of its own: @geolookup/borders' operations, timed beside
// countryFromGps in the same rounds. Far points (no change of country within 50 km) take
// distanceToBorder's far-table path, whose cost is compared with countryFromGps round by round;
// near points (a border within 5 km) and regionsWithin at 50 m are timed per query, for p99.
// Prints one JSON line per row.
import { distanceToBorder, nearestCountry, regionsWithin } from '../packages/borders/src/index.js';
import { tryCountryFromGps } from '../src/index.js';
import { type PointSet, prng, spherePoints } from '../test/support/sample-points.js';
import { best, fmtRound, type OwnOp, ownRound, perRound, quantileOf, tally, warmUp } from './passes.js';

const FAR = 200_000;
const NEAR = 20_000;

/** Points on the sphere that `keep` accepts, from seed `seed`. */
function sample(n: number, seed: number, keep: (lat: number, lon: number) => boolean): PointSet {
  const rnd = prng(seed);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let k = 0; k < n; ) {
    const p = spherePoints(1, rnd);
    if (keep(p.lat[0], p.lon[0])) {
      lat[k] = p.lat[0];
      lon[k++] = p.lon[0];
    }
  }
  return { lat, lon };
}

const fifty = { maxKm: 50 };
const five = { maxKm: 5 };
// Far: in a country or at sea, no change of country within 50 km; countryFromGps answers there
// (or throws NotFoundError at sea), so the comparison uses tryCountryFromGps.
const far = sample(FAR, 45, (lat, lon) => distanceToBorder(lat, lon, fifty) === null);
const farWarm = sample(FAR / 4, 46, (lat, lon) => distanceToBorder(lat, lon, fifty) === null);
// Near: uniform on the sphere among points within 5 km of a change of country.
const near = sample(NEAR, 48, (lat, lon) => distanceToBorder(lat, lon, five) !== null);

const ops: [string, OwnOp][] = [
  ['tryCountryFromGps (far points)', (p, i) => tryCountryFromGps(p.lat[i], p.lon[i])],
  ['distanceToBorder, maxKm 50 (far points)', (p, i) => distanceToBorder(p.lat[i], p.lon[i], fifty) === null],
];
const timed = { points: far, codes: [], subs: [] };
warmUp(ops, timed);
const tallies = ops.map(tally);
for (let round = 0; round < 10; round++) ownRound(round, ops, timed, { points: farWarm, codes: [], subs: [] }, tallies);
const [base, dist] = tallies;
console.log(
  JSON.stringify({
    op: ops[1][0],
    set: `no border within 50 km (${FAR / 1e3}k)`,
    rate: best(dist),
    vsCountry: fmtRound(perRound(base, dist)),
    median: quantileOf(dist, 0.5),
    p99: quantileOf(dist, 0.99),
  }),
);

/** Each query timed alone: median and p99 in µs over `rounds` passes. */
function perQuery(name: string, points: PointSet, fn: (lat: number, lon: number) => unknown, rounds = 3): void {
  const n = points.lat.length;
  for (let i = 0; i < Math.min(n, 5_000); i++) fn(points.lat[i], points.lon[i]);
  const times = new Float64Array(n * rounds);
  let sink = 0;
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      if (fn(points.lat[i], points.lon[i])) sink++;
      times[r * n + i] = Number(process.hrtime.bigint() - t0) / 1000;
    }
  times.sort();
  const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))];
  console.log(
    JSON.stringify({ op: name, set: `a border within 5 km (${n / 1e3}k)`, medianUs: q(0.5), p99Us: q(0.99), sink }),
  );
}

perQuery('distanceToBorder, maxKm 50', near, (lat, lon) => distanceToBorder(lat, lon, fifty));
perQuery('distanceToBorder, maxKm 50, subdivision layer', near, (lat, lon) =>
  distanceToBorder(lat, lon, { maxKm: 50, layer: 'subdivision' }),
);
perQuery('regionsWithin 50 m', near, (lat, lon) => regionsWithin(lat, lon, 50));
perQuery('nearestCountry, maxKm 50', near, (lat, lon) => nearestCountry(lat, lon, fifty));
perQuery('tryCountryFromGps (same points, for scale)', near, (lat, lon) => tryCountryFromGps(lat, lon));
