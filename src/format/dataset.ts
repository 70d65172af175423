// Reads a lookup dataset: checks the container, lays typed arrays over the
// payload (no copy, nothing decoded per cell) and builds the small code maps.

import { KIND_DATASET, toBytes, unwrapPayload, type BinaryInput } from './container.js';
import Flatbush from 'flatbush';
import { DataError } from '../lookup/errors.js';
import {
  BR8_SLOTS,
  QUANT_MAX,
  DEPTH1_BASE_WORDS,
  GRID_COLS,
  GRID_ROWS,
  type IndexParams,
  NO_SUBDIVISION16,
  SECTIONS,
  type SectionName,
  SLOT_WORDS,
} from './layout.js';
import {
  checkColumns,
  type CountryColumns,
  countryList,
  type SubdivisionColumns,
  subdivisionList,
} from './meta-tables.js';
import { type RecordPages, residentPages } from './record-pages.js';
import { verifyIndex } from './verify.js';

export interface CountryInfo {
  /** ISO 3166-1 alpha-3, or a documented user-assigned code such as XKX. */
  code: string;
  alpha2: string;
  name: string;
  /** True when the dataset holds land for it (false for Antarctica by policy). */
  covered: boolean;
}

export interface SubdivisionInfo {
  /** ISO 3166-2 code, e.g. FR-75C. */
  code: string;
  name: string;
  /** Parent code: another subdivision (FR-IDF) or the alpha-2 country code (FR). */
  parent: string;
  /** Alpha-2 country part of the code. */
  country: string;
  /** True when the dataset can answer for it: it is held, or an ancestor of a held one. */
  covered: boolean;
}

export interface SourceInfo {
  name: string;
  version: string;
  licence: string;
  attribution?: string;
  url?: string;
  role: string;
  /**
   * When the data was current, as precisely as the source says (YYYY, YYYY-MM or YYYY-MM-DD): a
   * snapshot's or edition's date, not the package's publication. Absent where unknown (a user's file).
   */
  date?: string;
  /** sha256 of a data pack file read by the build (not an npm package). */
  sha256?: string;
  /** ISO 3166-1 alpha-2 of the countries this source gives data for, where it is not all of them. */
  countries?: string[];
}

/** An ISO 3166-2 code ISO no longer lists, as the build's policy records it (deleted-codes.json). */
export interface DeletedSubdivision {
  name: string;
  /** The current code(s) that took its place; empty where none did. */
  successors: string[];
  /** What happened to it, and when. */
  change: string;
}

/**
 * The metadata. The file stores the code tables as columns (meta-tables.ts); `countries` and
 * `subdivisions` are made from them when first read.
 */
export interface DatasetMeta {
  name: string;
  /** 'iso': codes follow ISO 3166 shapes; 'custom': user zones with free-form codes. */
  codes: 'iso' | 'custom';
  params: IndexParams;
  sources: SourceInfo[];
  countries: CountryInfo[];
  subdivisions: SubdivisionInfo[];
  /** Subdivision codes that stand for a whole country (US-PR → PRI). */
  aliases: Record<string, string>;
  /** Maximum distance (km) at which a coastal point is given the nearest subdivision. */
  subdivisionGapKm: number;
  /** Countries (alpha-3) whose own reach replaces subdivisionGapKm (docs/POLICY.md, "Gap reach"). */
  subdivisionGapKmByCountry?: Record<string, number>;
  stats: Record<string, number>;
  /**
   * Areas the build's policy gave to one claimant over another (docs/POLICY.md): the area's name,
   * a point inside it ([lon, lat]), the code answered, the code not answered and why.
   */
  disputes?: { area: string; at: [number, number]; winner: string; over: string; reason: string }[];
  /**
   * Areas another party administers or claims, and what this dataset answers there (docs/POLICY.md,
   * "De facto answers"): informative, they change no answer. Each entry's `at` answers `answer`.
   */
  deFacto?: DeFactoArea[];
  /** A simplified dataset (the lite one): its tolerances and what they did (docs/LITE.md). */
  simplification?: Simplification;
  /**
   * ISO 3166-2 codes no longer current, by code: never answered, and refused by isInSubdivision with
   * a ValidationError naming the successor (docs/POLICY.md, "Deleted codes"). Absent from custom builds.
   */
  deletedSubdivisions?: Record<string, DeletedSubdivision>;
}

/** A de facto area (DatasetMeta.deFacto). */
export interface DeFactoArea {
  area: string;
  /** [lon, lat] inside the area, where the dataset answers `answer`. */
  at: [number, number];
  /** The ISO 3166-1 alpha-3 code (or user-assigned XKX) answered in the area. */
  answer: string;
  /**
   * Where the area is, where `answer` answers: everywhere (`countryWide`); within `withinKm` of `at`;
   * or in `outline` (GeoJSON MultiPolygon coordinates from `source`) or one of `subdivisions`.
   */
  where: DeFactoWhere;
  administeredBy: string;
  reason: string;
}

/** How a de facto area is told (DeFactoArea.where); policy.json writes `naturalEarth` for an outline. */
export interface DeFactoWhere {
  countryWide?: boolean;
  withinKm?: number;
  outline?: number[][][][];
  source?: string;
  subdivisions?: string[];
}

/** How a lite dataset's borders were simplified, in metres; absent from full-precision datasets. */
export interface Simplification {
  /** Douglas-Peucker tolerance of borders two countries share, two subdivisions share, and every other outline. */
  borderM: number;
  subdivisionBorderM: number;
  coastM: number;
  /** How far vertex rounding may move a vertex on top of that. */
  vertexBoundM: number;
  /** The farthest a source outline vertex lies from its simplified outline, and where ([lon, lat]). */
  largestDisplacementM: number;
  largestDisplacementAt: [number, number];
  vertices: { before: number; after: number };
  /** Polygon parts kept; `restored` came back unsimplified (enclaves, a code's last part). */
  parts: { before: number; after: number; restored: number };
}

export interface Dataset {
  meta: DatasetMeta;
  grid: Uint32Array;
  /** Per level-0 cell: single country + 2 (1 = none), 0 = several. */
  gridCountry: Uint8Array;
  /** Per depth-1 block: slot base, region base, wide base, slot count (layout.ts). */
  depth1Bases: Uint32Array;
  /** SLOT_WORDS per slot ordinal: palette, record offset, sub-cell codes (layout.ts). */
  slots: Uint32Array;
  /** Per mixed slot sub-cell, the index in subwords of its code word (layout.ts). */
  subcodes: Uint16Array;
  /** Distinct code words of mixed sub-cells: the 2-bit codes of SUB_GRID² sub-sub-cells (layout.ts). */
  subwords: Uint32Array;
  blocks: Uint32Array;
  /** Per block entry: the child's single country + 2 (1 = none), 0 = several. */
  blockCountry: Uint8Array;
  /** Per depth-1 child: a region, a record slot, no country, or a wide entry in blocks (layout.ts). */
  blockRegion8: Uint8Array;
  /** Read a record only after `recordPages` has it in memory (record-pages.ts). */
  records: Uint32Array;
  recordPages: RecordPages;
  fanouts: Int32Array;
  margin: number;
  /** Quantisation scale: window fraction → window units (meta.params.quant per side). */
  qscale: number;
  regionCountry: Int32Array;
  /** -1 where the region has no subdivision. */
  regionSubdivision: Int32Array;
  countryCodes: string[];
  subdivisionCodes: string[];
  countryByCode: Map<string, number>;
  subdivisionByCode: Map<string, number>;
  /** Parent subdivision index, -1 when the parent is the country. */
  subdivisionParent: Int32Array;
  /** 1 where the dataset can answer for the subdivision (it is held, or an ancestor of one). */
  subdivisionCovered: Uint8Array;
  /** Alias subdivision code → country index. */
  aliasCountry: Map<string, number>;
  alpha2ToAlpha3: Map<string, string>;
  /**
   * Flatbush over every polygon part's box (read in place), and each part's code: >= 0 country index,
   * < 0 is -1 - subdivision index.
   */
  parts: Flatbush;
  partCodes: Int32Array;
  byteLength: number;
}

function section(payload: Uint8Array, index: number, name: string): Uint8Array {
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload.byteLength < 8 + SECTIONS.length * 8 || dv.getUint32(0, true) !== SECTIONS.length) {
    throw new DataError(`${name}: malformed section table`);
  }
  const off = dv.getUint32(8 + index * 8, true);
  const len = dv.getUint32(12 + index * 8, true);
  if (off % 8 !== 0 || off + len > payload.byteLength)
    throw new DataError(`${name}: section ${SECTIONS[index]} out of bounds`);
  return payload.subarray(off, off + len);
}

function typed<T>(
  bytes: Uint8Array,
  Ctor: { new (b: ArrayBufferLike, o: number, l: number): T; BYTES_PER_ELEMENT: number },
  name: string,
  what: string,
): T {
  if (bytes.byteLength % Ctor.BYTES_PER_ELEMENT !== 0)
    throw new DataError(`${name}: section ${what} has a ragged length`);
  return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}

/**
 * How much of a dataset readDataset checks. 'full': the checksum and every pointer (any bytes
 * from outside). 'checksum': the checksum only, for the package's own dataset, whose seal
 * matches the one this build recorded (src/node/seal.ts): build-data ran the pointer checks on
 * these bytes before writing them. 'none': neither, for bytes that passed already and cannot
 * have changed since (the batch workers share the SharedArrayBuffer the main thread checked
 * before it sends them any row).
 */
export type Check = 'full' | 'checksum' | 'none';

/** `pages`: which record pages of `input` are in memory yet (src/node/lazy-records.ts); all, when absent. */
export function readDataset(input: BinaryInput, name = 'dataset', check: Check = 'full', pages?: RecordPages): Dataset {
  const payload = unwrapPayload(input, KIND_DATASET, name, check === 'none');
  // Pages count from the start of the buffer they were read into: the payload must not be a copy.
  if (pages && payload.buffer !== toBytes(input, name).buffer)
    throw new DataError(`${name}: a dataset read on demand must be 8-byte aligned in memory`);
  const { meta, countries, subdivisions } = readMeta(payload, name);
  const sections = readSections(payload, name, meta.params.fanouts[0]);
  const { grid, gridCountry, depth1Bases, slots, subcodes, subwords, blocks, blockCountry, blockRegion8 } = sections;
  const { records, regions, parts, partCodes } = sections;
  const countryCodes = countries.code;
  const subdivisionCodes = subdivisions.code;
  const countryByCode = positions(countryCodes);
  const subdivisionByCode = positions(subdivisionCodes);
  const subdivisionParent = new Int32Array(subdivisionCodes.length);
  const subdivisionCovered = new Uint8Array(subdivisionCodes.length);
  for (let i = 0; i < subdivisionCodes.length; i++) {
    const p = subdivisions.parent[i];
    subdivisionParent[i] = typeof p === 'number' ? p : -1;
    subdivisionCovered[i] = subdivisions.covered[i] === '1' ? 1 : 0;
  }
  const aliasCountry = new Map<string, number>();
  for (const [code, country] of Object.entries(meta.aliases ?? {})) {
    const idx = countryByCode.get(country);
    if (idx !== undefined) aliasCountry.set(code, idx);
  }
  const { regionCountry, regionSubdivision } = regionTables(
    regions,
    countryCodes.length,
    subdivisionCodes.length,
    name,
  );
  const margin = meta.params.margin;
  const ds: Dataset = {
    meta,
    grid,
    gridCountry,
    depth1Bases,
    slots,
    subcodes,
    subwords,
    blocks,
    blockCountry,
    blockRegion8,
    records,
    recordPages: pages ?? residentPages(records),
    fanouts: Int32Array.from(meta.params.fanouts),
    margin,
    qscale: meta.params.quant / (1 + 2 * margin),
    regionCountry,
    regionSubdivision,
    countryCodes,
    subdivisionCodes,
    countryByCode,
    subdivisionByCode,
    subdivisionParent,
    subdivisionCovered,
    aliasCountry,
    alpha2ToAlpha3: new Map(countries.alpha2.map((a2, i) => [a2, countryCodes[i]])),
    parts,
    partCodes,
    byteLength: payload.byteLength,
  };
  // Every entry must point inside its array: a corrupted pointer must fail here, not mid-lookup.
  if (check === 'full') verifyIndex(ds, name);
  return ds;
}

/**
 * Code → index. Plain loops for the thousands of subdivision codes rather than `new Map(list.map(…))`
 * or `TypedArray.from`, whose pairs and iterator steps were ~2 MB of garbage at every start
 * (docs/PERFORMANCE.md).
 */
function positions(codes: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < codes.length; i++) map.set(codes[i], i);
  return map;
}

/** The metadata as stored: DatasetMeta with the code tables as columns (meta-tables.ts). */
export type StoredMeta = Omit<DatasetMeta, 'countries' | 'subdivisions'> & {
  countries: CountryColumns;
  subdivisions: SubdivisionColumns;
};

/**
 * The metadata JSON, with what the pointer checks and every descent rely on checked: the
 * checksum cannot vouch for metadata in a re-sealed or hand-edited file.
 */
function readMeta(
  payload: Uint8Array,
  name: string,
): { meta: DatasetMeta; countries: CountryColumns; subdivisions: SubdivisionColumns } {
  let stored: StoredMeta;
  try {
    stored = JSON.parse(new TextDecoder().decode(section(payload, 0, name)));
  } catch (err) {
    if (err instanceof DataError) throw err;
    throw new DataError(`${name}: metadata is not valid JSON`, { cause: err });
  }
  if (!stored || typeof stored !== 'object' || !stored.params || !Array.isArray(stored.params.fanouts)) {
    throw new DataError(`${name}: metadata lacks code tables or index parameters`);
  }
  checkColumns(stored.countries, stored.subdivisions, name);
  const { fanouts, margin } = stored.params;
  if (
    fanouts.length === 0 ||
    fanouts.length > 32 ||
    !fanouts.every((f) => Number.isInteger(f) && f >= 1 && f <= 4096)
  ) {
    throw new DataError(`${name}: index fanouts are not small positive integers (corrupted metadata)`);
  }
  // A depth-1 block's children are named by one byte each (layout.ts).
  if (fanouts[0] * fanouts[0] > BR8_SLOTS)
    throw new DataError(`${name}: first index fanout ${fanouts[0]} above 8 (corrupted metadata)`);
  if (typeof margin !== 'number' || !(margin >= 0 && margin < 1))
    throw new DataError(`${name}: index margin out of range (corrupted metadata)`);
  if (!Number.isInteger(stored.params.quant) || stored.params.quant < 2 || stored.params.quant > QUANT_MAX)
    throw new DataError(`${name}: index window units out of range (corrupted metadata)`);
  checkDeleted((stored as { deletedSubdivisions?: unknown }).deletedSubdivisions, name);
  const { countries, subdivisions } = stored;
  const meta = stored as unknown as DatasetMeta;
  lazy(meta, 'countries', () => countryList(countries));
  lazy(meta, 'subdivisions', () => subdivisionList(subdivisions));
  return { meta, countries, subdivisions };
}

/** The deleted-code table, when present, is what isInSubdivision's errors quote: strings only. */
function checkDeleted(table: unknown, name: string): void {
  if (table === undefined) return;
  const str = (v: unknown) => typeof v === 'string';
  const ok = (e: unknown) => {
    const d = e as DeletedSubdivision | null;
    return !!d && str(d.name) && str(d.change) && Array.isArray(d.successors) && d.successors.every(str);
  };
  if (!table || typeof table !== 'object' || Array.isArray(table) || !Object.values(table).every(ok))
    throw new DataError(`${name}: malformed deleted-code table (corrupted metadata)`);
}

/** `target[key]` made by `make` when first read, then kept as a plain property. */
function lazy<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = make();
      Object.defineProperty(target, key, { value, configurable: true, enumerable: true, writable: true });
      return value;
    },
  });
}

/** The typed arrays over the sections after meta, their lengths checked against each other. */
function readSections(payload: Uint8Array, name: string, f0: number) {
  const at = (s: SectionName) => section(payload, SECTIONS.indexOf(s), name);
  const grid = typed(at('grid'), Uint32Array, name, 'grid');
  if (grid.length !== GRID_COLS * GRID_ROWS)
    throw new DataError(`${name}: grid has ${grid.length} cells, expected ${GRID_COLS * GRID_ROWS}`);
  const gridCountry = at('gridcountry');
  if (gridCountry.length !== grid.length)
    throw new DataError(`${name}: gridcountry has ${gridCountry.length} cells, expected ${grid.length}`);
  const blocks = typed(at('blocks'), Uint32Array, name, 'blocks');
  const blockCountry = at('blockcountry');
  if (blockCountry.length !== blocks.length)
    throw new DataError(`${name}: blockcountry has ${blockCountry.length} entries, expected ${blocks.length}`);
  const records = typed(at('records'), Uint32Array, name, 'records');
  const regions = typed(at('regions'), Uint16Array, name, 'regions');
  const fb = at('flatbush');
  let parts: Flatbush;
  try {
    // Laid over the section in place, no copy.
    parts = Flatbush.from(fb.buffer as ArrayBuffer, fb.byteOffset);
  } catch (err) {
    throw new DataError(`${name}: flatbush section is not a Flatbush index (${(err as Error).message})`, {
      cause: err,
    });
  }
  const partCodes = typed(at('boxcodes'), Int32Array, name, 'boxcodes');
  const depth1Bases = typed(at('depth1bases'), Uint32Array, name, 'depth1bases');
  if (depth1Bases.length % DEPTH1_BASE_WORDS !== 0) throw new DataError(`${name}: depth1bases has a ragged length`);
  const depth1Children = (depth1Bases.length / DEPTH1_BASE_WORDS) * f0 * f0;
  const slots = typed(at('slots'), Uint32Array, name, 'slots');
  if (slots.length % SLOT_WORDS !== 0) throw new DataError(`${name}: slots section has a ragged length`);
  const blockRegion8 = at('blockregion8');
  if (blockRegion8.length !== depth1Children)
    throw new DataError(`${name}: blockregion8 has ${blockRegion8.length} entries, expected ${depth1Children}`);
  const subcodes = typed(at('subcodes'), Uint16Array, name, 'subcodes');
  const subwords = typed(at('subwords'), Uint32Array, name, 'subwords');
  if (partCodes.length !== parts.numItems)
    throw new DataError(`${name}: boxcodes has ${partCodes.length} entries for ${parts.numItems} indexed parts`);
  return {
    grid,
    gridCountry,
    blocks,
    blockCountry,
    records,
    regions,
    parts,
    partCodes,
    depth1Bases,
    slots,
    blockRegion8,
    subcodes,
    subwords,
  };
}

/** Region id → country index (-1 for region 0) and subdivision index (-1 for none). */
function regionTables(regions: Uint16Array, countryCount: number, subdivisionCount: number, name: string) {
  const regionCount = regions.length >> 1;
  const regionCountry = new Int32Array(regionCount);
  const regionSubdivision = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const c = regions[2 * r];
    const s = regions[2 * r + 1];
    if (r > 0 && c >= countryCount)
      throw new DataError(`${name}: region ${r} names country ${c} beyond the code table`);
    if (s !== NO_SUBDIVISION16 && s >= subdivisionCount)
      throw new DataError(`${name}: region ${r} names subdivision ${s} beyond the code table`);
    regionCountry[r] = r === 0 ? -1 : c;
    regionSubdivision[r] = s === NO_SUBDIVISION16 ? -1 : s;
  }
  return { regionCountry, regionSubdivision };
}
