// Part of npm run build-data (build-data/all.ts): geo-tz's time-zone data → packages/timezones/
// dist-data/timezones.geolookup through the custom-zone build (--dataset; skipped when nothing it
// reads changed, --force rebuilds), then timezones.COUNTRIES.md (--countries, countries.ts: it reads
// the world dataset, so it runs after that build). Neither flag: both.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import mapshaper from 'mapshaper';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceInfo } from '../../src/format/dataset.js';
import { createGeoLookupFromBytes } from '../../src/lookup/engine.js';
import { hashFolders } from '../../src/node/hash-folders.js';
import { countryReport, readTzTables } from './countries.js';
import { geoTzLeaves, geoTzVersion } from './geo-tz.js';
import { zoneFile } from './zones-file.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = join(root, 'packages/timezones/dist-data');
const NAME = 'timezones';

/**
 * The timezone-boundary-builder release each geo-tz version carries (its data has no such field;
 * geo-tz's release notes name it). A geo-tz upgrade stops the build until its row is added here.
 */
const TBB_RELEASE: Record<string, string> = { '8.1.9': '2026d' };

function sources(geoTz: string, tbb: string): SourceInfo[] {
  return [
    {
      name: 'timezone-boundary-builder',
      version: tbb,
      licence: 'ODbL-1.0',
      attribution: '© OpenStreetMap contributors; timezone-boundary-builder (Evan Siroky)',
      url: 'https://github.com/evansiroky/timezone-boundary-builder',
      role: `time-zone boundaries for tzdata ${tbb}, the "all" product (every zone, ocean zones by longitude)`,
    },
    {
      name: 'geo-tz',
      version: geoTz,
      licence: 'MIT',
      url: 'https://github.com/evansiroky/node-geo-tz',
      role: 'carries the boundaries as a geobuf quad tree, read at build time only',
    },
  ];
}

/** Vertices this close are one, so the pieces' shared edges match (geo-tz's quads overlap by up to 5e-7°). */
const SNAP_DEG = 2e-6;

/**
 * Each answer's pieces as one polygon. geo-tz cuts every zone along its quad lines; left so, the
 * cut lines ran through zone interiors, and every index cell they crossed needed a point-in-polygon
 * test where one zone answers it whole (Siberia 91 ns a lookup, the world dataset 20). mapshaper's
 * dissolve, after snapping vertices within SNAP_DEG (0.22 m), joins them: a few seconds, where
 * polygon-clipping's union took minutes.
 */
async function dissolve(from: string, to: string): Promise<void> {
  const argv = ['-quiet', '-i', from, 'snap', `snap-interval=${SNAP_DEG}`];
  await mapshaper.runCommands([...argv, '-dissolve', 'fields=name', 'copy-fields=code', '-o', to, 'format=geojson']);
}

async function buildDataset(force: boolean): Promise<void> {
  const geoTz = geoTzVersion();
  const tbb = TBB_RELEASE[geoTz];
  if (!tbb) throw new Error(`geo-tz ${geoTz}: add its timezone-boundary-builder release to TBB_RELEASE`);
  const stamp = join(outDir, `${NAME}.inputs-sha256`);
  const hash = hashFolders(createHash('sha256'), root, ['build-data', 'src/format', 'src/lookup'])
    .update(readFileSync(join(root, 'package-lock.json')))
    .update(geoTz)
    .digest('hex');
  const out = join(outDir, `${NAME}.geolookup`);
  if (!force && existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
    console.log(`build-data: ${NAME} is up to date (inputs unchanged); --force rebuilds`);
    return;
  }
  const t0 = Date.now();
  const file = zoneFile(geoTzLeaves());
  const overlaps = [...file.overlaps].map(([k, n]) => `${k} (${n})`).join(', ');
  console.log(
    `build-data: geo-tz ${geoTz} (tbb ${tbb}): ${file.leaves} leaves, ${file.zones.size} zones, ` +
      `${file.features.length} answers in ${Date.now() - t0} ms; overlaps: ${overlaps}`,
  );
  const work = mkdtempSync(join(tmpdir(), 'geolookup-tz-'));
  try {
    const zones = join(work, 'zones.geojson');
    const dissolved = join(work, 'dissolved.geojson');
    const features = file.features.map((f) => ({ type: 'Feature', ...f }));
    writeFileSync(zones, JSON.stringify({ type: 'FeatureCollection', features }));
    writeFileSync(join(work, 'sources.json'), JSON.stringify(sources(geoTz, tbb)));
    await dissolve(zones, dissolved);
    const args = ['--countries', dissolved, '--country-name-property', 'name'];
    args.push('--sources', join(work, 'sources.json'), '--name', NAME, '--out', outDir, '--force');
    const build = join(root, 'build-data/build.ts');
    const run = spawnSync(process.execPath, [...process.execArgv, build, ...args], { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`build-data: the ${NAME} build failed (exit ${run.status})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  writeFileSync(stamp, hash);
  console.log(`build-data: ${NAME} built in ${Date.now() - t0} ms`);
}

/** timezones.COUNTRIES.md from the two built datasets and tzdata's tables; skipped when none changed. */
function writeCountries(): void {
  const worldBytes = readFileSync(join(root, 'dist-data/world.geolookup'));
  const tzBytes = readFileSync(join(outDir, `${NAME}.geolookup`));
  const tables = readTzTables();
  const stamp = join(outDir, `${NAME}.COUNTRIES.inputs-sha256`);
  const hash = hashFolders(createHash('sha256'), root, ['build-data/timezones'])
    .update(worldBytes)
    .update(tzBytes)
    .update(tables?.version ?? 'none')
    .digest('hex');
  const report = join(outDir, `${NAME}.COUNTRIES.md`);
  if (existsSync(report) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
    console.log(`build-data: ${NAME}.COUNTRIES.md is up to date`);
    return;
  }
  const world = createGeoLookupFromBytes(worldBytes, 'world', 'full');
  const tz = createGeoLookupFromBytes(tzBytes, NAME, 'full');
  const names = new Map(tz.countries().map((c) => [c.code, c.name.split(' ')[0]]));
  const zoneAt = (lat: number, lon: number) => {
    const code = tz.tryCountryFromGps(lat, lon);
    return code === null ? null : names.get(code)!;
  };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(report, `# ${NAME}: country and zone\n\n${countryReport(world, zoneAt, tables)}`);
  writeFileSync(stamp, hash);
  console.log(`build-data: ${NAME}.COUNTRIES.md written`);
}

const flags = process.argv.slice(2);
const both = !flags.includes('--dataset') && !flags.includes('--countries');
if (both || flags.includes('--dataset')) await buildDataset(flags.includes('--force'));
if (both || flags.includes('--countries')) writeCountries();
