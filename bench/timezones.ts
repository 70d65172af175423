// Run by bench.ts in a process of its own: @geolookup/timezones against geo-tz 8.1.9 (the same
// timezone-boundary-builder release), warm, passes interleaved in rounds as bench.ts times the
// country rows; geo-tz's cache is filled by the untimed pass before each of its timed ones.
// Prints one JSON line per row.
import { createRequire } from 'node:module';
import { timeZoneFromGps, timeZonesFromGps } from '../packages/timezones/src/index.js';
import {
  best,
  type OwnOp,
  ownRound,
  peerPass,
  perRound,
  fmtRound,
  pointSets,
  quantileOf,
  roundsFor,
  tally,
  warmUp,
} from './passes.js';

const find: (lat: number, lon: number) => string[] = createRequire(import.meta.url)('geo-tz/all').find;
const ops: [string, OwnOp][] = [
  ['timeZoneFromGps', (p, i) => timeZoneFromGps(p.lat[i], p.lon[i])],
  ['timeZonesFromGps (every zone)', (p, i) => timeZonesFromGps(p.lat[i], p.lon[i])],
];
for (const { name, points, warm } of pointSets()) {
  const timed = { points, codes: [], subs: [] };
  warmUp(ops, timed);
  const peer = tally();
  const tallies = ops.map(tally);
  for (let round = 0; round < roundsFor(points.lat.length); round++) {
    peerPass(points, find, 60, tally()); // geo-tz warm: its leaf cache holds these points' leaves
    peerPass(points, find, 60, peer);
    ownRound(round, ops, timed, { points: warm, codes: [], subs: [] }, tallies);
  }
  console.log(
    JSON.stringify({ op: 'geo-tz find (all product)', set: name, rate: best(peer), vsPeer: 1, done: peer.done }),
  );
  ops.forEach(([op], k) => {
    const t = tallies[k];
    console.log(
      JSON.stringify({
        op,
        set: name,
        rate: best(t),
        vsPeer: best(t) / best(peer),
        perRound: fmtRound(
          perRound(peer, t)
            .map((x) => 1 / x)
            .reverse(),
        ),
        median: quantileOf(t, 0.5),
        p99: quantileOf(t, 0.99),
      }),
    );
  });
}
