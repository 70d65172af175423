// Reads a lookup dataset: checks the container, lays typed arrays over the
// payload (no copy, nothing decoded per cell) and builds the small code maps.

import { KIND_DATASET, unwrapPayload, type BinaryInput } from './container.js';
import type Flatbush from 'flatbush';
import { readParts } from '../lookup/boxes.js';
import { DataError } from '../lookup/errors.js';
import {
  BR8_NO_COUNTRY,
  BR8_SLOT,
  BR8_SLOTS,
  BR8_SPAN,
  BR8_WIDE,
  GRID_COLS,
  GRID_ROWS,
  GRIDBASE_SLOT_BITS,
  GRIDBASE_SLOT_MASK,
  NO_REGION16,
  NO_SUBDIVISION16,
  RECORD_HEADER,
  SECTIONS,
  SLOT_WORDS,
  mixedCodes,
  TAG_BLOCK,
  TABLE_WORDS,
  TAG_RECORD,
  TAG_SHIFT,
  TAG_TABLE,
  VALUE_MASK,
  type IndexParams,
} from './layout.js';

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
}

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
  stats: Record<string, number>;
}

export interface Dataset {
  meta: DatasetMeta;
  grid: Uint32Array;
  /** Per level-0 cell: single country + 2 (1 = none), 0 = several. */
  gridCountry: Uint16Array;
  /** Per level-0 cell with a block: the ordinal its depth-1 record slots count from (low bits), and its blockregion8 region base (layout.ts). */
  gridBase: Uint32Array;
  /** SLOT_WORDS per slot ordinal: palette, record offset, sub-cell codes (layout.ts). */
  slots: Uint32Array;
  /** Per mixed slot sub-cell, the 2-bit codes of its SUB_GRID² sub-sub-cells (layout.ts). */
  subcodes: Uint32Array;
  blocks: Uint32Array;
  /** Per block entry: the child's single country + 2 (1 = none), 0 = several. */
  blockCountry: Uint16Array;
  /** Per block entry: its region id, a record slot (depth 1), or NO_REGION16 (see layout.ts). */
  blockRegion: Uint16Array;
  /** One-byte mirror of blockRegion in the blocks hung from the grid (layout.ts). */
  blockRegion8: Uint8Array;
  records: Uint32Array;
  coords: Uint16Array;
  fanouts: Int32Array;
  margin: number;
  /** Quantisation scale: window fraction → Uint16 units. */
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
  /** Alias subdivision code → country index. */
  aliasCountry: Map<string, number>;
  alpha2ToAlpha3: Map<string, string>;
  /** Flatbush over every polygon part's box (read in place), and each part's code: >= 0 country index, < 0 is -1 - subdivision index. */
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
 * matches the one this build recorded (src/seal.ts): the pointer checks are most of the load
 * time, and build-data ran them on these bytes before writing them. 'none': neither, for bytes that
 * passed already and cannot have changed since (the batch workers share the SharedArrayBuffer
 * the main thread checked before it sends them any row).
 */
export type Check = 'full' | 'checksum' | 'none';

export function readDataset(input: BinaryInput, name = 'dataset', check: Check = 'full'): Dataset {
  const payload = unwrapPayload(input, KIND_DATASET, name, check === 'none');
  let meta: DatasetMeta;
  try {
    meta = JSON.parse(new TextDecoder().decode(section(payload, 0, name)));
  } catch (err) {
    if (err instanceof DataError) throw err;
    throw new DataError(`${name}: metadata is not valid JSON`, { cause: err });
  }
  if (
    !meta ||
    !Array.isArray(meta.countries) ||
    !Array.isArray(meta.subdivisions) ||
    !meta.params ||
    !Array.isArray(meta.params.fanouts)
  ) {
    throw new DataError(`${name}: metadata lacks code tables or index parameters`);
  }
  // The pointer checks below and every descent rely on these; the checksum cannot vouch for
  // metadata in a re-sealed or hand-edited file.
  const { fanouts, margin } = meta.params;
  if (
    fanouts.length === 0 ||
    fanouts.length > 32 ||
    !fanouts.every((f) => Number.isInteger(f) && f >= 1 && f <= 4096)
  ) {
    throw new DataError(`${name}: index fanouts are not small positive integers (corrupted metadata)`);
  }
  if (typeof margin !== 'number' || !(margin >= 0 && margin < 1))
    throw new DataError(`${name}: index margin out of range (corrupted metadata)`);
  const grid = typed(section(payload, 1, name), Uint32Array, name, 'grid');
  if (grid.length !== GRID_COLS * GRID_ROWS)
    throw new DataError(`${name}: grid has ${grid.length} cells, expected ${GRID_COLS * GRID_ROWS}`);
  const gridCountry = typed(section(payload, 2, name), Uint16Array, name, 'gridcountry');
  if (gridCountry.length !== grid.length)
    throw new DataError(`${name}: gridcountry has ${gridCountry.length} cells, expected ${grid.length}`);
  const blocks = typed(section(payload, 3, name), Uint32Array, name, 'blocks');
  const blockCountry = typed(section(payload, 4, name), Uint16Array, name, 'blockcountry');
  if (blockCountry.length !== blocks.length)
    throw new DataError(`${name}: blockcountry has ${blockCountry.length} entries, expected ${blocks.length}`);
  const blockRegion = typed(section(payload, 5, name), Uint16Array, name, 'blockregion');
  if (blockRegion.length !== blocks.length)
    throw new DataError(`${name}: blockregion has ${blockRegion.length} entries, expected ${blocks.length}`);
  const records = typed(section(payload, 6, name), Uint32Array, name, 'records');
  // Ring vertices live inside the records (x, y Uint16 halves of one word each).
  const coords = new Uint16Array(records.buffer, records.byteOffset, records.length * 2);
  const regions = typed(section(payload, 7, name), Uint16Array, name, 'regions');
  const fb = section(payload, 8, name);
  let parts: Flatbush;
  try {
    parts = readParts(fb);
  } catch (err) {
    throw new DataError(`${name}: flatbush section is not a Flatbush index (${(err as Error).message})`, {
      cause: err,
    });
  }
  const partCodes = typed(section(payload, 9, name), Int32Array, name, 'boxcodes');
  const gridBase = typed(section(payload, 10, name), Uint32Array, name, 'gridbase');
  if (gridBase.length !== grid.length)
    throw new DataError(`${name}: gridbase has ${gridBase.length} cells, expected ${grid.length}`);
  const slots = typed(section(payload, 11, name), Uint32Array, name, 'slots');
  if (slots.length % SLOT_WORDS !== 0) throw new DataError(`${name}: slots section has a ragged length`);
  const blockRegion8 = section(payload, 12, name);
  if (blockRegion8.length !== blocks.length)
    throw new DataError(`${name}: blockregion8 has ${blockRegion8.length} entries, expected ${blocks.length}`);
  const subcodes = typed(section(payload, 13, name), Uint32Array, name, 'subcodes');
  if (partCodes.length !== parts.numItems)
    throw new DataError(`${name}: boxcodes has ${partCodes.length} entries for ${parts.numItems} indexed parts`);

  const countryCodes = meta.countries.map((c) => c.code);
  const subdivisionCodes = meta.subdivisions.map((s) => s.code);
  const countryByCode = new Map(countryCodes.map((c, i) => [c, i]));
  const subdivisionByCode = new Map(subdivisionCodes.map((c, i) => [c, i]));
  const subdivisionParent = new Int32Array(subdivisionCodes.length);
  meta.subdivisions.forEach((s, i) => (subdivisionParent[i] = subdivisionByCode.get(s.parent) ?? -1));
  const aliasCountry = new Map<string, number>();
  for (const [code, country] of Object.entries(meta.aliases ?? {})) {
    const idx = countryByCode.get(country);
    if (idx !== undefined) aliasCountry.set(code, idx);
  }

  const regionCount = regions.length >> 1;
  const regionCountry = new Int32Array(regionCount);
  const regionSubdivision = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const c = regions[2 * r];
    const s = regions[2 * r + 1];
    if (r > 0 && c >= countryCodes.length)
      throw new DataError(`${name}: region ${r} names country ${c} beyond the code table`);
    if (s !== NO_SUBDIVISION16 && s >= subdivisionCodes.length)
      throw new DataError(`${name}: region ${r} names subdivision ${s} beyond the code table`);
    regionCountry[r] = r === 0 ? -1 : c;
    regionSubdivision[r] = s === NO_SUBDIVISION16 ? -1 : s;
  }
  if (check === 'full') {
    // Every entry must point inside its array: a corrupted pointer must fail here, not mid-lookup.
    checkEntries(
      grid,
      gridBase,
      slots,
      subcodes.length,
      blocks,
      blockRegion,
      blockRegion8,
      blockCountry,
      records,
      regionCount,
      countryCodes.length,
      meta.params.fanouts,
      name,
    );
    for (let i = 0; i < gridCountry.length; i++)
      if (gridCountry[i] > countryCodes.length + 1)
        throw new DataError(`${name}: gridcountry names country ${gridCountry[i] - 2} (corrupted index)`);
    for (let i = 0; i < partCodes.length; i++) {
      const c = partCodes[i];
      if (c >= countryCodes.length || -1 - c >= subdivisionCodes.length)
        throw new DataError(`${name}: boxcodes names code ${c} beyond the code tables (corrupted index)`);
    }
  }

  return {
    meta,
    grid,
    gridCountry,
    gridBase,
    slots,
    subcodes,
    blocks,
    blockCountry,
    blockRegion,
    blockRegion8,
    records,
    coords,
    fanouts: Int32Array.from(meta.params.fanouts),
    margin,
    qscale: 65535 / (1 + 2 * margin),
    regionCountry,
    regionSubdivision,
    countryCodes,
    subdivisionCodes,
    countryByCode,
    subdivisionByCode,
    subdivisionParent,
    aliasCountry,
    alpha2ToAlpha3: new Map(meta.countries.map((c) => [c.alpha2, c.code])),
    parts,
    partCodes,
    byteLength: payload.byteLength,
  };
}

/**
 * Linear passes over the arrays (no tree walk) so that no lookup can read out
 * of bounds or loop: records are parsed back to back, every pointer must land
 * on a record start or inside `blocks`, child blocks and the record pointers
 * found in records only point forward (the builder writes parents first), and
 * every record slot leads to the record its block entry names.
 */
function checkEntries(
  grid: Uint32Array,
  gridBase: Uint32Array,
  slotWords: Uint32Array,
  subcodeCount: number,
  blocks: Uint32Array,
  blockRegion: Uint16Array,
  blockRegion8: Uint8Array,
  blockCountry: Uint16Array,
  records: Uint32Array,
  regionCount: number,
  countryCount: number,
  fanouts: number[],
  name: string,
): void {
  const bad = (what: string): never => {
    throw new DataError(`${name}: ${what} (corrupted index)`);
  };
  const maxBlock = Math.max(...fanouts.map((f) => f * f));
  // A bit per record word (a byte each was 6.4 MB of fresh pages to fault in at every load).
  const starts = new Uint32Array((records.length >>> 5) + 1);
  const isStart = (v: number) => (starts[v >>> 5] >>> (v & 31)) & 1;
  /** One grid entry: a region in range, a child block, or a record start. */
  const entry = (e: number): void => {
    const tag = e >>> TAG_SHIFT;
    const v = e & VALUE_MASK;
    if (tag === 0) {
      if (v >= regionCount) bad(`region ${v} out of range`);
    } else if (tag === TAG_BLOCK) {
      if (v + maxBlock > blocks.length) bad(`child block at ${v} out of range`);
    } else if (tag === TAG_RECORD) {
      if (v >= records.length || !isStart(v)) bad(`record pointer ${v} invalid`);
    } else bad(`unknown entry tag ${tag}`);
  };
  // Records: structure and entries in one pass. Their record pointers must point forward (the
  // builder writes parents first), so no lookup can loop; whether each lands on a record start
  // is known only at the end of the pass, so they are kept until then (few: a country's
  // subdivisions inside a cell).
  const forward: number[] = [];
  for (let r = 0; r < records.length; ) {
    const next = scanRecords(
      records,
      r,
      Math.min(records.length, r + CHUNK),
      starts,
      regionCount,
      countryCount,
      forward,
    );
    if (next < 0) bad(`record at ${-1 - next} is malformed or holds an invalid entry`);
    r = next;
  }
  for (const v of forward) if (!isStart(v)) bad(`record pointer ${v} invalid`);
  for (let i = 0; i < grid.length; i++) entry(grid[i]);
  let slots = 0;
  for (let from = 0; from < blocks.length; from += CHUNK) {
    const scan = scanBlocks(
      blocks,
      from,
      Math.min(blocks.length, from + CHUNK),
      blockRegion,
      blockCountry,
      starts,
      records.length,
      regionCount,
      countryCount + 1,
      maxBlock,
    );
    if (scan >= 0)
      bad(
        `block entry ${scan} (${blocks[scan]}, blockregion ${blockRegion[scan]}, blockcountry ${blockCountry[scan]}) is invalid`,
      );
    slots += -1 - scan;
  }
  let subcodes = 0;
  for (let from = 0; from < slotWords.length; from += CHUNK) {
    subcodes = scanSlots(slotWords, from, Math.min(slotWords.length, from + CHUNK), regionCount, subcodes);
    if (subcodes < 0) bad(`slot ${-1 - subcodes} names a region out of range or misplaces its sub-cell codes`);
  }
  if (subcodes !== subcodeCount) bad(`the slots name ${subcodes} mixed sub-cells, subcodes holds ${subcodeCount}`);
  const seen = scanDepth1(
    grid,
    gridBase,
    slotWords,
    blocks,
    blockRegion,
    blockRegion8,
    regionCount,
    fanouts[0] * fanouts[0],
  );
  if (seen < 0) bad(`depth-1 block entry ${-1 - seen}: blockregion8 or its record slot disagrees with blocks`);
  // Only blocks hung from the grid may hold slots (the lookup reads them at depth 1 only).
  if (seen !== slots) bad('record slots outside the blocks hung from the grid');
}

/**
 * The record, block and slot checks are small functions called on chunks of their arrays:
 * V8 optimises a function after a few calls and every later chunk runs optimised, where one
 * loop over a whole array ran mostly unoptimised at start-up (the block pass took 35-40 ms
 * cold for 1.15 M entries inside checkEntries, ~5 ms warm).
 */
const CHUNK = 1 << 15;

/**
 * Index of the first invalid block entry in [from, to), or -1 − (record slots seen) when all are valid.
 * An entry must be a region in range, a child block further on, or a record start; its
 * blockregion must say exactly what it says (the lookup trusts the mirror instead), and its
 * blockcountry must name a country or 0 / 1.
 */
function scanBlocks(
  blocks: Uint32Array,
  from: number,
  to: number,
  blockRegion: Uint16Array,
  blockCountry: Uint16Array,
  starts: Uint32Array,
  recordWords: number,
  regionCount: number,
  countryMax: number,
  maxBlock: number,
): number {
  let slots = 0;
  for (let i = from; i < to; i++) {
    const e = blocks[i];
    const tag = e >>> TAG_SHIFT;
    const v = e & VALUE_MASK;
    const r = blockRegion[i];
    if (blockCountry[i] > countryMax) return i;
    if (tag === 0) {
      if (v >= regionCount || r !== (v < NO_REGION16 ? v : NO_REGION16)) return i;
    } else if (tag === TAG_BLOCK) {
      if (v + maxBlock > blocks.length || v <= i || r !== NO_REGION16) return i;
    } else if (tag === TAG_RECORD) {
      if (v >= recordWords || ((starts[v >>> 5] >>> (v & 31)) & 1) === 0) return i;
      if (r !== NO_REGION16) {
        if (r < regionCount) return i;
        slots++;
      }
    } else return i;
  }
  return -1 - slots;
}

/**
 * Checks the slots in words [from, to): palette regions in range, and the subcodes of each slot's
 * mixed sub-cells right after the previous slot's (`sub` of them so far). Returns the count after
 * the last slot, or -1 − the first bad slot.
 */
function scanSlots(words: Uint32Array, from: number, to: number, regionCount: number, sub: number): number {
  for (let w = from; w < to; w += SLOT_WORDS) {
    const a = words[w];
    if ((a & 0xffff) >= regionCount || a >>> 16 >= regionCount || words[w + 1] >= regionCount || words[w + 3] !== sub)
      return -1 - w / SLOT_WORDS;
    for (let k = 4; k < SLOT_WORDS; k++) sub += mixedCodes(words[w + k]);
  }
  return sub;
}

/**
 * The entries of the blocks hung from the grid, where lookups read blockregion8 and the record
 * slots: each byte must say what blockregion says (or defer to it), and each slot must lead to
 * exactly the record its entry points at. Returns the slots seen, or −1 − the first bad entry.
 */
function scanDepth1(
  grid: Uint32Array,
  gridBase: Uint32Array,
  words: Uint32Array,
  blocks: Uint32Array,
  blockRegion: Uint16Array,
  blockRegion8: Uint8Array,
  regionCount: number,
  children: number,
): number {
  const firstSlot = Math.min(regionCount, NO_REGION16);
  let seen = 0;
  for (let cell = 0; cell < grid.length; cell++) {
    if (grid[cell] >>> TAG_SHIFT !== TAG_BLOCK) continue;
    const off = grid[cell] & VALUE_MASK;
    const slotBase = gridBase[cell] & GRIDBASE_SLOT_MASK;
    const regionBase = gridBase[cell] >>> GRIDBASE_SLOT_BITS;
    for (let at = off; at < off + children; at++) {
      const r = blockRegion[at];
      const v = blockRegion8[at];
      const isSlot = r !== NO_REGION16 && r >= firstSlot;
      if (v < BR8_SPAN) {
        if (r !== regionBase + v || r >= firstSlot) return -1 - at;
      } else if (v < BR8_SLOT + BR8_SLOTS) {
        if (r !== regionCount + v - BR8_SLOT || !isSlot) return -1 - at;
      } else if (v === BR8_NO_COUNTRY) {
        if (r !== 0) return -1 - at;
      } else if (v !== BR8_WIDE || isSlot) return -1 - at;
      if (!isSlot) continue;
      const w = (slotBase + r - regionCount) * SLOT_WORDS;
      if (w >= words.length || words[w + 2] !== (blocks[at] & VALUE_MASK)) return -1 - at;
      seen++;
    }
  }
  return seen;
}

/**
 * Checks the records that start in [r, stop): marks each start in the bitset `starts`, collects
 * the record pointers they hold; returns where the next record starts, or -1 − the offset of
 * the first malformed record. A record is its header, its item
 * list, then every ring's vertices back to back in item order; rings must sit exactly there,
 * so no ring can reach into another record or past the array. Every entry (default and items)
 * must be a region in range or a record pointer further on.
 */
function scanRecords(
  records: Uint32Array,
  first: number,
  stop: number,
  starts: Uint32Array,
  regionCount: number,
  countryCount: number,
  forward: number[],
): number {
  const len = records.length;
  let r = first;
  while (r < stop) {
    starts[r >>> 5] |= 1 << (r & 31);
    if (r + RECORD_HEADER > len || records[r + 2] > countryCount) return -1 - r;
    const n = records[r];
    let p = r + RECORD_HEADER;
    for (let i = -1; i < n; i++) {
      let e = records[r + 1];
      if (i >= 0) {
        if (p + 2 > len) return -1 - r;
        e = records[p];
        p += 2 + 2 * records[p + 1];
        if (p > len) return -1 - r;
      }
      const v = e & VALUE_MASK;
      if (e >>> TAG_SHIFT === 0) {
        if (v >= regionCount) return -1 - r;
      } else if (e >>> TAG_SHIFT === TAG_RECORD && v > r && v < len) forward.push(v);
      // A default table only in a record of one country's subdivisions (country lookups stop
      // there); where it sits is checked below.
      else if (i >= 0 || e >>> TAG_SHIFT !== TAG_TABLE || records[r + 2] === 0) return -1 - r;
    }
    let v = p;
    p = r + RECORD_HEADER;
    for (let i = 0; i < n; i++) {
      const rings = records[p + 1];
      p += 2;
      for (let k = 0; k < rings; k++, p += 2) {
        const count = records[p + 1];
        if (records[p] !== v || count < 3 || v + count > len) return -1 - r;
        v += count;
      }
    }
    if (v <= r + 1) return -1 - r;
    const def = records[r + 1];
    if (def >>> TAG_SHIFT === TAG_TABLE) {
      // Right after the vertices, every entry a region in range.
      if ((def & VALUE_MASK) !== v || v + TABLE_WORDS > len) return -1 - r;
      for (let k = v; k < v + TABLE_WORDS; k++)
        if ((records[k] & 0xffff) >= regionCount || records[k] >>> 16 >= regionCount) return -1 - r;
      v += TABLE_WORDS;
    }
    r = v;
  }
  return r;
}
