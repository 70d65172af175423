// Loads every source through its reader, applies the reviewed policy and remap tables
// (../policy/), and returns the polygon parts ranked for overlap order, with what was decided.

import { join } from 'node:path';
import type { CountryInfo, DeFactoArea, SubdivisionInfo } from '../../src/format/dataset.js';
import { type BuildConfig, naturalEarthAdmin1Path } from '../config.js';
import { resolveAliases } from '../policy/aliases.js';
import { type DisputeLand, disputeLandFromSubdivisions } from '../policy/dispute-land.js';
import { applyDisputes } from '../policy/disputes.js';
import { type DeletedCodes, readDeletedCodes } from '../policy/deleted-codes.js';
import { type DuplicateLog, dropDuplicateParts } from '../policy/duplicates.js';
import type { FilledHoles } from '../policy/holes.js';
import { type LandFromAdmin1Log, landFromAdmin1 } from '../policy/land-from-admin1.js';
import { type Policy, readPolicy } from '../policy/policy.js';
import { rankByArea, rankPatchAfterSea, rankSeaAfterLand } from '../policy/ranking.js';
import type { PartialCountry } from '../policy/partial-subdivisions.js';
import { type RemapLog, remapApplied } from '../policy/remap.js';
import type { SourceChoice } from '../policy/subdivision-source.js';
import { type SeaReassigned, seaFollowsLand, territoryPairs } from '../policy/sea-follows-land.js';
import type { Simplified } from '../simplify.js';
import type { ReplacedSubdivisions } from './admin1.js';
import { type CodeTables, isoCodeTables, zoneCodeTables } from './code-tables.js';
import { type CountryTally, type DroppedCountry, readLand, readSea } from './country-layers.js';
import { type Feature, readGeoJSON } from './geojson.js';
import { readHansIsland } from './hans-island.js';
import { type OsmSkipped, readOsmExtract } from './osm-extract.js';
import { type Part, vertexCount } from './parts.js';
import { loadSubdivisionLayer, type SubdivisionLayer } from './subdivisions.js';

export interface Sources {
  countries: CountryInfo[];
  subdivisions: SubdivisionInfo[];
  aliases: Record<string, string>;
  countryParts: Part[];
  subdivisionParts: Part[];
  policy: Policy;
  /** ISO 3166-2 codes no longer current (policy/deleted-codes.json); null for a custom build. */
  deleted: DeletedCodes | null;
  remapApplied: RemapLog[];
  /** The OSM pack's codes brought to the reference (policy/osm-remap.json), or left out. */
  osmRemapApplied: RemapLog[];
  /** Per country with OSM outlines, the source chosen and its scores (policy/subdivision-source.ts). */
  subdivisionSources: SourceChoice[];
  osmFills: SubdivisionLayer['fills'];
  droppedCountries: DroppedCountry[];
  sourceVertices: { country: number; subdivision: number };
  filledHoles: FilledHoles;
  duplicates: DuplicateLog[];
  seaParts: number;
  /** Parts from data packs (sources/hans-island.ts), ranked after the sea: in countryParts, after the sea. */
  patchParts: number;
  /** Land taken from admin-1 outlines (policy landFromAdmin1). */
  landFromAdmin1: LandFromAdmin1Log[];
  /** Sea parts given to the country whose land they hold (policy seaFollowsLand). */
  seaReassigned: SeaReassigned[];
  /** Countries whose subdivision features came from another source (replacements.ts). */
  replacedSubdivisions: ReplacedSubdivisions[];
  /** The lite build's simplification (../simplify.ts), when it ran. */
  simplified?: Simplified;
  /** An --osm build: what the extract held and what was skipped (sources/osm-extract.ts). */
  osmExtract?: OsmExtractLog;
  /** Natural Earth admin-1 features the policy's de facto outlines name (policy/de-facto.ts). */
  deFactoAdmin1: DeFactoAdmin1 | null;
  /** The policy's de facto areas the built dataset answers as written, set by build.ts. */
  deFacto?: DeFactoArea[];
  /** The others, in words, for the report. */
  deFactoNotApplied?: string[];
}

export interface OsmExtractLog {
  objects: number;
  countries: number;
  subdivisions: number;
  skipped: OsmSkipped[];
  osmium: string;
  /** Policy disputes whose two claimants' outlines do not both hold the dispute's point in the extract. */
  disputesNotApplied: string[];
  /** Disputed areas the winner's subdivision outlines gave it as land (policy/dispute-land.ts). */
  disputeLand: DisputeLand[];
  /** Countries whose outlines in the extract hold less than half their GeoNames cities: no nearest-subdivision fill. */
  partial?: PartialCountry[];
}

interface CountryLayers {
  landParts: Part[];
  seaParts: Part[];
  patchParts: Part[];
  duplicates: DuplicateLog[];
  landFromAdmin1: LandFromAdmin1Log[];
  seaReassigned: SeaReassigned[];
  disputesNotApplied: string[];
  disputeLand: DisputeLand[];
  /** Natural Earth admin-1 features the policy's de facto outlines name; null when the build reads none. */
  deFactoAdmin1: DeFactoAdmin1 | null;
}

export interface DeFactoAdmin1 {
  features: Feature[];
  path: string;
}

/**
 * Land first (enclaves win by area), then the sea layer ranked after all land, so it only answers
 * where no land is; then the policy's disputes across both; last the data packs' patches, which
 * answer only where neither land nor sea does.
 */
function loadCountries(
  config: BuildConfig,
  policy: Policy,
  tables: CodeTables,
  features: { countries: Feature[]; subdivisions: Feature[] },
  tally: CountryTally,
): CountryLayers {
  const iso = config.codes === 'iso';
  const landParts = readLand(config, features.countries, tables, policy, tally);
  // An --osm build takes the policy's outlines from Natural Earth, which it reads for nothing else.
  const admin1 = config.osm
    ? { features: readGeoJSON(naturalEarthAdmin1Path()), path: naturalEarthAdmin1Path() }
    : { features: features.subdivisions, path: config.subdivisions?.path ?? '' };
  const naturalEarth = iso && admin1.path === naturalEarthAdmin1Path();
  const outlined = new Set((policy.deFacto ?? []).map((d) => d.where.naturalEarth));
  const deFactoAdmin1 = naturalEarth
    ? { features: admin1.features.filter((f) => outlined.has(String(f.properties?.adm0_a3))), path: admin1.path }
    : null;
  const fromAdmin1 =
    iso && (config.subdivisions || config.osm) && policy.landFromAdmin1
      ? landFromAdmin1(policy, admin1.features, admin1.path, tables)
      : { parts: [], log: [] };
  tally.vertices += vertexCount(fromAdmin1.parts);
  landParts.push(...fromAdmin1.parts);
  const disputeLand =
    iso && config.osm
      ? disputeLandFromSubdivisions(policy, landParts, features.subdivisions, tables, config.osm.path)
      : { parts: [], log: [] };
  tally.vertices += vertexCount(disputeLand.parts);
  landParts.push(...disputeLand.parts);
  const duplicates = dropDuplicateParts(landParts, tables.countries);
  rankByArea(landParts, (p) => tables.countries[p.country].code);
  const seaParts = readSea(config, tables, policy, tally);
  const seaReassigned: SeaReassigned[] = [];
  if (config.sea) {
    duplicates.push(...dropDuplicateParts(seaParts, tables.countries));
    if (iso && policy.seaFollowsLand) {
      const pairs = territoryPairs(policy, tables.countries, tables.alpha2Index);
      seaReassigned.push(...seaFollowsLand(seaParts, landParts, tables.countries, pairs));
    }
    rankSeaAfterLand(seaParts, landParts);
  }
  // An extract may lack either claimant (a regional one), or draw the area as one of them alone.
  const disputesNotApplied = iso ? applyDisputes([landParts, seaParts], policy, tables.countryIndex, !config.osm) : [];
  const pack = iso ? config.packs?.found.hansIsland.path : null;
  const patchParts = pack ? readHansIsland(pack, tables) : [];
  tally.vertices += vertexCount(patchParts);
  rankPatchAfterSea(patchParts, landParts.length + seaParts.length);
  return {
    landParts,
    seaParts,
    patchParts,
    duplicates,
    landFromAdmin1: fromAdmin1.log,
    seaReassigned,
    disputesNotApplied,
    disputeLand: disputeLand.log,
    deFactoAdmin1,
  };
}

export function loadSources(config: BuildConfig, here: string): Sources {
  const policyDir = join(here, 'policy');
  const policy = readPolicy(policyDir);
  const iso = config.codes === 'iso';
  const deleted = iso ? readDeletedCodes(policyDir) : null;
  const isoTables = iso ? isoCodeTables(policy.userAssigned, new Set(Object.keys(deleted!.deleted))) : null;
  const osm = config.osm && isoTables ? readOsmExtract(config.osm.path, isoTables) : null;
  const countryFeatures = osm ? osm.countries : readGeoJSON(config.countries.path);
  const tables =
    isoTables ??
    zoneCodeTables(
      countryFeatures,
      config.countries.path,
      config.countries.codeProperty,
      config.countries.nameProperty,
    );
  const { countries, subdivisions } = tables;
  const tally: CountryTally = { vertices: 0, dropped: [], filledHoles: { count: 0, vertices: 0 } };
  const subdivisionFeatures = osm ? osm.subdivisions : config.subdivisions ? readGeoJSON(config.subdivisions.path) : [];
  const layers = loadCountries(
    config,
    policy,
    tables,
    { countries: countryFeatures, subdivisions: subdivisionFeatures },
    tally,
  );

  const subdivisionLayer = config.subdivisions
    ? loadSubdivisionLayer(config, subdivisionFeatures, tables, policy, policyDir)
    : null;

  return {
    countries,
    subdivisions,
    aliases: iso ? resolveAliases(policy, tables) : {},
    countryParts: [...layers.landParts, ...layers.seaParts, ...layers.patchParts],
    subdivisionParts: subdivisionLayer?.parts ?? [],
    policy,
    deleted,
    remapApplied: subdivisionLayer ? remapApplied(subdivisionLayer.remap) : [],
    osmRemapApplied: subdivisionLayer?.osmRemap ?? [],
    subdivisionSources: subdivisionLayer?.choices ?? [],
    osmFills: subdivisionLayer?.fills ?? [],
    droppedCountries: tally.dropped,
    landFromAdmin1: layers.landFromAdmin1,
    sourceVertices: { country: tally.vertices, subdivision: subdivisionLayer?.vertices ?? 0 },
    filledHoles: tally.filledHoles,
    duplicates: layers.duplicates,
    seaReassigned: layers.seaReassigned,
    seaParts: layers.seaParts.length,
    patchParts: layers.patchParts.length,
    replacedSubdivisions: subdivisionLayer?.replaced ?? [],
    deFactoAdmin1: layers.deFactoAdmin1,
    ...(osm
      ? {
          osmExtract: {
            objects: osm.objects,
            countries: osm.countries.length,
            subdivisions: config.subdivisions ? osm.subdivisions.length : 0,
            skipped: osm.skipped,
            osmium: osm.osmium,
            disputesNotApplied: layers.disputesNotApplied,
            disputeLand: layers.disputeLand,
          },
        }
      : {}),
  };
}
