// Run by bench.ts in a process of its own: the lite dataset's try forms, timed as bench.ts times
// the world's. A second dataset in a process costs both of them speed (docs/PERFORMANCE.md, "One
// dataset per process"), so each dataset is timed alone. Prints one JSON line per row.
import { createGeoLookup } from '../src/index.js';
import {
  best,
  fmtRound,
  type OwnOp,
  ownRound,
  perRound,
  pointSets,
  quantileOf,
  roundsFor,
  tally,
  warmUp,
} from './passes.js';

const lite = createGeoLookup('lite');
const ops: [string, OwnOp][] = [
  ['countryFromGps (try form, lite)', (p, i) => lite.tryCountryFromGps(p.lat[i], p.lon[i])],
  ['subdivisionFromGps (try form, lite)', (p, i) => lite.trySubdivisionFromGps(p.lat[i], p.lon[i])],
];
for (const { name, points, warm } of pointSets()) {
  warmUp(ops, { points, codes: [], subs: [] });
  const tallies = ops.map(tally);
  for (let round = 0; round < roundsFor(points.lat.length); round++)
    ownRound(round, ops, { points, codes: [], subs: [] }, { points: warm, codes: [], subs: [] }, tallies);
  ops.forEach(([op], k) => {
    const t = tallies[k];
    const row = {
      op,
      set: name,
      rate: best(t),
      perRound: fmtRound(perRound(tallies[0], t)),
      median: quantileOf(t, 0.5),
      p99: quantileOf(t, 0.99),
    };
    console.log(JSON.stringify(row));
  });
}
