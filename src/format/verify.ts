// Load-time checks of what the checksum cannot vouch for (a re-sealed or hand-edited file): a walk
// over every pointer of the index so that no lookup can read out of bounds or loop (the metadata's
// own checks are in meta-tables.ts). A damaged file fails here with a DataError: test/contract/corruption.test.ts.

import { DataError } from '../lookup/errors.js';
import type { Dataset } from './dataset.js';
import {
  readArcs,
  ITEM_MASK,
  itemEntry,
  BR8_NO_COUNTRY,
  BR8_SLOT,
  BR8_SLOTS,
  BR8_SPAN,
  DEPTH1_BASE_WORDS,
  mixedCodes,
  MAX_RECORD_ITEMS,
  RECORD_HALF_ITEMS,
  RECORD_HEADER,
  RECORD_SUBDIVISIONS,
  RECORD_WORDS_AT,
  SLOT_WORDS,
  streamStart,
  TABLE_FULL_WORDS,
  TABLE_PALETTE,
  tableWords,
  TAG_BLOCK,
  TAG_RECORD,
  TAG_SHIFT,
  TAG_TABLE,
  VALUE_MASK,
} from './layout.js';

/**
 * readDataset's 'full' check, linear passes over the arrays (no tree walk): records are parsed
 * back to back, every pointer must land on a record start or inside `blocks`, child blocks and
 * the record pointers found in records only point forward (the builder writes parents first),
 * every record slot leads to the record its block entry names, and the country and code
 * indexes beside the entries name entries of the code tables.
 */
export function verifyIndex(ds: Dataset, name: string): void {
  const bad: (what: string) => never = (what) => {
    throw new DataError(`${name}: ${what} (corrupted index)`);
  };
  const { grid, depth1Bases, slots: slotWords, blocks, blockCountry, records } = ds;
  const depth1Count = depth1Bases.length / DEPTH1_BASE_WORDS;
  const regionCount = ds.regionCountry.length;
  const countryCount = ds.countryCodes.length;
  const fanouts = ds.meta.params.fanouts;
  const maxBlock = Math.max(...fanouts.map((f) => f * f));
  const starts = recordStarts(records, regionCount, ds.meta.params.quant, bad);
  for (let i = 0; i < grid.length; i++) {
    const e = grid[i];
    const tag = e >>> TAG_SHIFT;
    const v = e & VALUE_MASK;
    if (tag === 0) {
      if (v >= regionCount) bad(`region ${v} out of range`);
    } else if (tag === TAG_BLOCK) {
      if (v >= depth1Count) bad(`depth-1 block ${v} out of range`);
    } else if (tag === TAG_RECORD) {
      if (v >= records.length || !isStart(starts, v)) bad(`record pointer ${v} invalid`);
    } else bad(`unknown entry tag ${tag}`);
  }
  for (let from = 0; from < blocks.length; from += CHUNK) {
    const to = Math.min(blocks.length, from + CHUNK);
    const scan = scanBlocks(
      blocks,
      from,
      to,
      blockCountry,
      starts,
      records.length,
      regionCount,
      countryCount + 1,
      maxBlock,
    );
    if (scan >= 0) bad(`block entry ${scan} (${blocks[scan]}, blockcountry ${blockCountry[scan]}) is invalid`);
  }
  let subcodes = 0;
  for (let from = 0; from < slotWords.length; from += CHUNK) {
    const to = Math.min(slotWords.length, from + CHUNK);
    subcodes = scanSlots(slotWords, from, to, regionCount, countryCount + 1, subcodes);
    if (subcodes < 0) bad(`slot ${-1 - subcodes} names a region out of range or misplaces its sub-cell codes`);
  }
  const subcodeCount = ds.subcodes.length;
  if (subcodes !== subcodeCount) bad(`the slots name ${subcodes} mixed sub-cells, subcodes holds ${subcodeCount}`);
  const { subcodes: indexes, subwords } = ds;
  for (let i = 0; i < indexes.length; i++)
    if (indexes[i] >= subwords.length)
      bad(`subcodes entry ${i} names word ${indexes[i]} of ${subwords.length} subwords`);
  const depth1 = scanDepth1(ds, starts, fanouts[0] * fanouts[0]);
  if (typeof depth1 === 'string') bad(depth1);
  // Every slot is the slot of one depth-1 record child (the lookup reads them at depth 1 only).
  if (depth1.slots !== slotWords.length / SLOT_WORDS) bad('record slots outside the depth-1 blocks');
  if (depth1.wides > blocks.length) bad('depth-1 wide entries past the blocks');
  checkCodeIndexes(ds, bad);
}

/** gridcountry names a country or 0 / 1, and boxcodes a country or a subdivision. */
function checkCodeIndexes(ds: Dataset, bad: (what: string) => never): void {
  const { gridCountry, partCodes } = ds;
  const countryCount = ds.countryCodes.length;
  for (let i = 0; i < gridCountry.length; i++)
    if (gridCountry[i] > countryCount + 1) bad(`gridcountry names country ${gridCountry[i] - 2}`);
  for (let i = 0; i < partCodes.length; i++) {
    const c = partCodes[i];
    if (c >= countryCount || -1 - c >= ds.subdivisionCodes.length)
      bad(`boxcodes names code ${c} beyond the code tables`);
  }
}

function isStart(starts: Uint32Array, v: number): boolean {
  return ((starts[v >>> 5] >>> (v & 31)) & 1) === 1;
}

/**
 * Checks every record, in one pass, and returns the bitset of record starts (a bit, not a byte,
 * per word: fewer fresh pages to fault in at every load). Record pointers found in records must
 * point forward, so no lookup can loop; whether each lands on a record start is known only at
 * the end of the pass, so they are kept until then (few: a country's subdivisions inside a cell).
 */
function recordStarts(
  records: Uint32Array,
  regionCount: number,
  quant: number,
  bad: (what: string) => never,
): Uint32Array {
  const starts = new Uint32Array((records.length >>> 5) + 1);
  const forward: number[] = [];
  for (let r = 0; r < records.length; ) {
    const next = scanRecords(records, r, Math.min(records.length, r + CHUNK), starts, regionCount, quant, forward);
    if (next < 0) bad(`record at ${-1 - next} is malformed or holds an invalid entry`);
    r = next;
  }
  for (const v of forward) if (!isStart(starts, v)) bad(`record pointer ${v} invalid`);
  return starts;
}

/**
 * The record, block and slot checks are small functions called on chunks of their arrays: V8
 * optimises a function after a few calls and every later chunk runs optimised, where one loop
 * over a whole array would run mostly unoptimised at start-up (load time: npm run bench).
 */
const CHUNK = 1 << 15;

/**
 * Index of the first invalid block entry in [from, to), or -1 when all are valid. An entry must be
 * a region in range, a child block further on, or a record start, and its blockcountry must name
 * a country or 0 / 1.
 */
function scanBlocks(
  blocks: Uint32Array,
  from: number,
  to: number,
  blockCountry: Uint8Array,
  starts: Uint32Array,
  recordWords: number,
  regionCount: number,
  countryMax: number,
  maxBlock: number,
): number {
  for (let i = from; i < to; i++) {
    const e = blocks[i];
    const tag = e >>> TAG_SHIFT;
    const v = e & VALUE_MASK;
    if (blockCountry[i] > countryMax) return i;
    if (tag === 0) {
      if (v >= regionCount) return i;
    } else if (tag === TAG_BLOCK) {
      if (v + maxBlock > blocks.length || v <= i) return i;
    } else if (tag === TAG_RECORD) {
      if (v >= recordWords || ((starts[v >>> 5] >>> (v & 31)) & 1) === 0) return i;
    } else return i;
  }
  return -1;
}

/**
 * Checks the slots in words [from, to): palette regions in range, the country byte a country or
 * 0 / 1, and the subcodes of each slot's mixed sub-cells right after the previous slot's (`sub` of
 * them so far). Returns the count after the last slot, or -1 − the first bad slot.
 */
function scanSlots(
  words: Uint32Array,
  from: number,
  to: number,
  regionCount: number,
  countryMax: number,
  sub: number,
): number {
  for (let w = from; w < to; w += SLOT_WORDS) {
    const a = words[w];
    const b = words[w + 1];
    if ((a & 0xffff) >= regionCount || a >>> 16 >= regionCount || (b & 0xffff) >= regionCount)
      return -1 - w / SLOT_WORDS;
    if (b >>> 16 > countryMax || words[w + 3] !== sub) return -1 - w / SLOT_WORDS;
    for (let k = 4; k < SLOT_WORDS; k++) sub += mixedCodes(words[w + k]);
  }
  return sub;
}

/**
 * The depth-1 blocks, in order: each one's slot and wide bases continue the previous block's, its
 * bytes name regions in range, its slots (each a record start) and wide entries in child order,
 * exactly as many slots as its count. Returns the slots and wide entries named, or what is wrong.
 */
function scanDepth1(ds: Dataset, starts: Uint32Array, children: number): { slots: number; wides: number } | string {
  const { depth1Bases: bases, blockRegion8, slots: words, records } = ds;
  const regionCount = ds.regionCountry.length;
  let slots = 0;
  let wides = 0;
  for (let d = 0; d < bases.length / DEPTH1_BASE_WORDS; d++) {
    const b = d * DEPTH1_BASE_WORDS;
    const [slotBase, regionBase, wideBase, n] = [bases[b], bases[b + 1], bases[b + 2], bases[b + 3]];
    if (slotBase !== slots || wideBase !== wides || n > BR8_SLOTS) return `depth-1 block ${d}: bases out of order`;
    for (let at = d * children; at < (d + 1) * children; at++) {
      const v = blockRegion8[at];
      if (v < BR8_SPAN) {
        if (regionBase + v >= regionCount) return `depth-1 child ${at}: region ${regionBase + v} out of range`;
      } else if (v < BR8_NO_COUNTRY) {
        const j = v - BR8_SLOT;
        if (j < n) {
          const w = (slotBase + j) * SLOT_WORDS;
          if (j !== slots - slotBase || w + SLOT_WORDS > words.length)
            return `depth-1 child ${at}: slot ${j} misplaced`;
          if (words[w + 2] >= records.length || !isStart(starts, words[w + 2]))
            return `slot ${slots}: record pointer ${words[w + 2]} invalid`;
          slots++;
        } else {
          if (j - n !== wides - wideBase) return `depth-1 child ${at}: wide entry ${j - n} misplaced`;
          wides++;
        }
      } else if (v !== BR8_NO_COUNTRY) return `depth-1 child ${at}: blockregion8 byte ${v} invalid`;
    }
    if (slots - slotBase !== n) return `depth-1 block ${d}: ${slots - slotBase} slots named, count ${n}`;
  }
  return { slots, wides };
}

/**
 * Checks the records that start in [r, stop): marks each start in the bitset `starts`, collects
 * the record pointers they hold; returns where the next record starts, or -1 − the offset of
 * the first malformed record. A record is its header, its item entries, then its arcs (a header
 * word and the vertices each), which must fill exactly the arc words the header gives, so no arc
 * can reach into another record or past the array. Every entry (default and items) must be a
 * region in range or a record pointer further on.
 */
function scanRecords(
  records: Uint32Array,
  first: number,
  stop: number,
  starts: Uint32Array,
  regionCount: number,
  quant: number,
  forward: number[],
): number {
  const len = records.length;
  let r = first;
  while (r < stop) {
    starts[r >>> 5] |= 1 << (r & 31);
    if (r + RECORD_HEADER > len) return -1 - r;
    const head = records[r];
    const n = head & ITEM_MASK;
    const arcsAt = streamStart(records, r);
    const v = arcsAt + (head >>> RECORD_WORDS_AT);
    if (n > MAX_RECORD_ITEMS || v > len) return -1 - r;
    // Halves: the spare half of an odd count is zero (every item is checked below).
    if (head & RECORD_HALF_ITEMS && n & 1 && records[arcsAt - 1] >>> 16 !== 0) return -1 - r;
    for (let i = -1; i < n; i++) {
      const e = i < 0 ? records[r + 1] : itemEntry(records, r, i);
      const x = e & VALUE_MASK;
      if (e >>> TAG_SHIFT === 0) {
        if (x >= regionCount) return -1 - r;
      } else if (e >>> TAG_SHIFT === TAG_RECORD && x > r && x < len) forward.push(x);
      // A default table only in a record of one country's subdivisions (country lookups stop
      // there); where it sits is checked below.
      else if (i >= 0 || e >>> TAG_SHIFT !== TAG_TABLE || (head & RECORD_SUBDIVISIONS) === 0) return -1 - r;
    }
    // Whole arcs fill the record's stream, each vertex inside the window.
    if (readArcs(records, r, quant) !== null) return -1 - r;
    const def = records[r + 1];
    if (def >>> TAG_SHIFT === TAG_TABLE) {
      // Right after the arcs; its regions (the palette, or every id of a full table) in range.
      const size = v < len ? tableWords(records[v]) : TABLE_FULL_WORDS;
      const full = size === TABLE_FULL_WORDS;
      if ((def & VALUE_MASK) !== v || v + size > len) return -1 - r;
      for (let k = full ? v + 1 : v; k < (full ? v + size : v + TABLE_PALETTE / 2); k++)
        if ((records[k] & 0xffff) >= regionCount || records[k] >>> 16 >= regionCount) return -1 - r;
      r = v + size;
    } else r = v;
  }
  return r;
}
