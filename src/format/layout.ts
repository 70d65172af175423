// Layout of the lookup dataset payload, shared by build-data (writer) and the runtime (reader).
// The format is specified in docs/FORMAT.md: a change here is a change of FORMAT_VERSION
// (container.ts) and of that document.

/** Sections in payload order; the section table holds [offset, length] per entry. */
export const SECTIONS = [
  'meta',
  'grid',
  'gridcountry',
  'blocks',
  'blockcountry',
  'records',
  'regions',
  'flatbush',
  'boxcodes',
  'depth1bases',
  'slots',
  'blockregion8',
  'subcodes',
  'subwords',
] as const;
export type SectionName = (typeof SECTIONS)[number];

/** Level-0 grid: 1° cells, 360 columns from -180° eastwards, 180 rows from -90° northwards. */
export const GRID_COLS = 360;
export const GRID_ROWS = 180;

/**
 * A cell entry is a Uint32. The top two bits say what the low 30 bits are:
 *   0: a region id (0 = no country here)
 *   1: in `grid`, the number d of a depth-1 block, whose children (fanout[0]², row-major from
 *      the south-west) are bytes at d · fanout[0]² in blockregion8 (below);
 *      in `blocks`, the offset of a child block: fanout² entries, row-major from the south-west,
 *      with `blockcountry` holding, at the same offsets, each child's single country + 2
 *      (1 = no country, 0 = several), so country lookups stop a level early
 *   2: offset of a geometry record in `records`
 *   3: (a record's default only) offset of the record's default table in `records`
 */
export const TAG_SHIFT = 30;
export const TAG_BLOCK = 1;
export const TAG_RECORD = 2;
export const TAG_TABLE = 3;
export const VALUE_MASK = 0x3fffffff;

/**
 * Record: [head, defaultEntry, items, arc stream (streamWords words)], the head holding the item
 * count n (ITEM_BITS), the flags RECORD_SUBDIVISIONS and RECORD_HALF_ITEMS, the shift (4 bits at
 * RECORD_SHIFT_AT), the count width (4 bits at RECORD_COUNT_BITS_AT) and streamWords (the rest, at
 * RECORD_WORDS_AT). Items are n entries, or with RECORD_HALF_ITEMS n Uint16 halves, two per word
 * (low half first; a last odd half is zero): h < HALF_RECORD is region h, else the record at
 * r + (h - HALF_RECORD), r the record's own offset (1 to 32,767 words on).
 * RECORD_SUBDIVISIONS marks a record that lists one country's subdivisions, so a country-only lookup
 * can stop there without testing them: its country is that of the region its defaults end at.
 * Vertices are quantised over the cell window, 0..quant (IndexParams) per axis, then rounded to multiples of
 * 2^shift units (the build picks the shift that keeps a vertex within VERTEX_BOUND_M of its source);
 * the stream holds them in those coarse units. It is a bit stream, each word read from its low bit
 * up, of arcs back to back: a vertex count (countBits bits, at least 2; 0 ends the stream: the rest
 * of the last word is zero), the item mask (n bits, non-zero), the widths wx and wy
 * (DELTA_WIDTH_BITS each, the width minus one: 1 to DELTA_WIDTH_MAX), the first vertex (16 − shift bits for x, then
 * for y), then each further vertex as zigzag deltas from the one before (wx bits for x, wy for y).
 * An arc's edges join consecutive vertices; an edge belongs to the items of its mask, and each is
 * stored once however many items it bounds.
 * Item i holds a point when a +x ray from it crosses an odd number of item i's edges (even-odd);
 * the first item that holds the point gives its entry, else the default entry applies. An entry
 * may itself be a record (country first, then its subdivisions).
 * Edges no +x ray from a point of the cell can cross (left of, above or below the cell;
 * horizontal ones outside it) are not stored, so arcs are open lines.
 */
/** The most window units per side (IndexParams quant): a coarse coordinate fits 15 bits. */
export const QUANT_MAX = 65535;
export const RECORD_HEADER = 2;
export const ITEM_BITS = 5;
export const ITEM_MASK = (1 << ITEM_BITS) - 1;
export const RECORD_SUBDIVISIONS = 1 << 5;
export const RECORD_HALF_ITEMS = 1 << 6;
export const RECORD_SHIFT_AT = 7;
export const RECORD_COUNT_BITS_AT = 11;
export const RECORD_WORDS_AT = 15;
export const HALF_RECORD = 0x8000;
/** Items per record (bits of an arc's mask); a leaf with more chains records through their defaults. */
export const MAX_RECORD_ITEMS = 16;
/** Vertices per arc: a count fits 15 bits. */
export const ARC_MAX_VERTICES = 0x7fff;
/**
 * Bits of each delta width field, which holds the width minus one. The shift is at least 1, so
 * coordinates fit 15 bits, a zigzag delta 16, and a vertex's two deltas one 32-bit field
 * (locate.ts reads them at once).
 */
export const DELTA_WIDTH_BITS = 4;
export const DELTA_WIDTH_MASK = (1 << DELTA_WIDTH_BITS) - 1;
export const DELTA_WIDTH_MAX = 16;
/**
 * How far rounding may move a vertex from its source, in metres (half the diagonal of a coarse
 * unit, a degree of latitude taken as METRES_PER_DEGREE); test/data/exactness.test.ts and the
 * PostGIS oracle hold the answers to it.
 */
export const VERTEX_BOUND_M = 1;
export const METRES_PER_DEGREE = 111_195;

/** Words the items of a record with head word `head` take. */
export function itemWords(head: number): number {
  const n = head & ITEM_MASK;
  return head & RECORD_HALF_ITEMS ? (n + 1) >>> 1 : n;
}

/** Entry of item i of the record at r. */
export function itemEntry(rec: Uint32Array, r: number, i: number): number {
  if ((rec[r] & RECORD_HALF_ITEMS) === 0) return rec[r + RECORD_HEADER + i];
  const h = (rec[r + RECORD_HEADER + (i >>> 1)] >>> ((i & 1) << 4)) & 0xffff;
  return h < HALF_RECORD ? h : ((TAG_RECORD << TAG_SHIFT) | (r + h - HALF_RECORD)) >>> 0;
}

/** Offset of the record's arc stream. */
export function streamStart(rec: Uint32Array, r: number): number {
  return r + RECORD_HEADER + itemWords(rec[r]);
}

/**
 * The region the defaults of the record at r end at (a default table's first cell): for a
 * RECORD_SUBDIVISIONS record, a region of its country. Defaults point forward, so this ends.
 */
export function defaultRegion(rec: Uint32Array, r: number): number {
  let e = rec[r + 1];
  while (e >>> TAG_SHIFT === TAG_RECORD) e = rec[(e & VALUE_MASK) + 1];
  return e >>> TAG_SHIFT === TAG_TABLE ? tableEntry(rec, e, 0) : e & VALUE_MASK;
}

/** `bits` bits (0 to 30: a small integer) of the arc stream that starts at word `from`, from its bit `b`. */
export function streamField(rec: Uint32Array, from: number, b: number, bits: number): number {
  const w = from + (b >>> 5);
  const o = b & 31;
  // Words as int32 (| 0): a Uint32 load of 2^31 or more is a heap number, here as in tableEntry.
  let v = (rec[w] | 0) >>> o;
  if (o + bits > 32) v |= (rec[w + 1] | 0) << (32 - o);
  return v & ((1 << bits) - 1);
}

/**
 * Reads the arcs of the record at r, checking that they fit its stream exactly and every vertex
 * its window of `quant` units per side; calls `vertex(arc, mask, x, y)` for each vertex in window
 * units. Returns null, or what is malformed.
 */
export function readArcs(
  rec: Uint32Array,
  r: number,
  quant: number,
  vertex?: (arc: number, mask: number, x: number, y: number) => void,
): string | null {
  const head = rec[r];
  const n = head & ITEM_MASK;
  const from = streamStart(rec, r);
  const to = from + (head >>> RECORD_WORDS_AT);
  if (to > rec.length) return 'arc stream past the records';
  const shift = (head >>> RECORD_SHIFT_AT) & 15;
  if (shift === 0) return 'shift 0';
  const countBits = (head >>> RECORD_COUNT_BITS_AT) & 15;
  const unit = 2 ** shift;
  const top = quant >>> shift;
  const end = (to - from) * 32;
  const header = countBits + n + 2 * DELTA_WIDTH_BITS + 2 * (16 - shift);
  if (n > MAX_RECORD_ITEMS) return 'too many items';
  let b = 0;
  for (let arc = 0; ; arc++) {
    // The end, or the zero padding of the last word (a count is never zero).
    if (b === end || (end - b < 32 && (rec[from + (b >>> 5)] | 0) >>> (b & 31) === 0)) break;
    // Fields are read in order, so checking each arc's extent keeps every read inside the stream.
    if (b + header > end) return 'arc past its stream';
    const count = streamField(rec, from, b, countBits);
    b += countBits;
    const mask = streamField(rec, from, b, n);
    b += n;
    const wx = streamField(rec, from, b, DELTA_WIDTH_BITS) + 1;
    b += DELTA_WIDTH_BITS;
    const wy = streamField(rec, from, b, DELTA_WIDTH_BITS) + 1;
    b += DELTA_WIDTH_BITS;
    let x = streamField(rec, from, b, 16 - shift);
    b += 16 - shift;
    let y = streamField(rec, from, b, 16 - shift);
    b += 16 - shift;
    if (count < 2 || mask === 0) return 'bad arc header';
    if (b + (count - 1) * (wx + wy) > end) return 'arc past its stream';
    for (let k = 0; ; k++) {
      if (x < 0 || y < 0 || x > top || y > top) return 'vertex outside the window';
      vertex?.(arc, mask, x * unit, y * unit);
      if (k === count - 1) break;
      const dx = streamField(rec, from, b, wx);
      b += wx;
      const dy = streamField(rec, from, b, wy);
      b += wy;
      x += (dx >>> 1) ^ -(dx & 1);
      y += (dy >>> 1) ^ -(dy & 1);
    }
  }
  return null;
}

/**
 * Default table: a record that lists one country's subdivisions may give, instead of one
 * default region, one per cell of a TABLE_GRID × TABLE_GRID split of its leaf cell (the
 * default answers where none of the record's subdivision polygons holds the point: coastal
 * and river-bank gaps between the two sources; see build-data/index/build-index.ts gapTable).
 * The table follows the record's arcs, in one of two forms:
 *   palette (at most TABLE_PALETTE regions): TABLE_PALETTE / 2 words of Uint16 region ids (low
 *     half first), then TABLE_GRID² 2-bit palette indexes, row-major from the south-west, 16 per
 *     word from the low bits; TABLE_PALETTE_WORDS words in all;
 *   full: the word TABLE_FULL, then TABLE_GRID² Uint16 region ids, two per word (low half first);
 *     TABLE_FULL_WORDS words in all.
 * A palette's first word never equals TABLE_FULL: region ids stay below 0xFFFF. Its grid is the
 * record slots' SLOT_GRID, so a slot sub-cell lies in exactly one table cell.
 */
export const TABLE_GRID = 8;
export const TABLE_PALETTE = 4;
export const TABLE_PALETTE_WORDS = TABLE_PALETTE / 2 + (TABLE_GRID * TABLE_GRID) / 16;
export const TABLE_FULL = 0xffffffff;
export const TABLE_FULL_WORDS = 1 + (TABLE_GRID * TABLE_GRID) / 2;

/** Words of the default table whose first word is `first`. */
export function tableWords(first: number): number {
  return first === TABLE_FULL ? TABLE_FULL_WORDS : TABLE_PALETTE_WORDS;
}
/**
 * gridcountry / blockcountry / a slot's country byte (one byte per cell, entry or depth-1 child): country index + 2; 1 = no country;
 * 0 = several countries, or one whose index + 2 does not fit a byte (keep descending: exact,
 * only slower, for datasets of more than 253 countries).
 */
export function countryByte(uniform: number): number {
  return uniform > 0xff ? 0 : uniform;
}
// Flatbush items are polygon parts; boxcodes (Int32) names each: >= 0 country index, < 0 is -1 - subdivision index.

/**
 * Depth-1 blocks keep no `blocks` entry per child. Per child, blockregion8 holds a byte v;
 * `depth1bases` holds DEPTH1_BASE_WORDS words per block d:
 * [slot base, region base, wide base, slot count n]. Near populated places most lookups end at
 * depth 1, and one byte there keeps four times as many cells in the CPU cache as an entry.
 *   v < BR8_SPAN: region (region base) + v
 *   BR8_SLOT + j, j < n: record slot j of the block, ordinal (slot base) + j
 *   BR8_SLOT + j, n <= j < BR8_SLOTS: the entry blocks[(wide base) + j - n] (a child block, a
 *     region outside the span, or a record without a slot): "wide" children
 *   BR8_NO_COUNTRY: region 0
 * Slots and wide entries are numbered in child order; wide entries fill the front of `blocks`.
 *
 * Record slots: ordinals number the record children of depth-1 blocks in grid order, at most
 * BR8_SLOTS per block. `slots` holds SLOT_WORDS words per ordinal (32 bytes, so one never
 * straddles a cache line when the dataset is 32-byte aligned in memory):
 *   word 0: palette regions 0 (low half) and 1 (high half); word 1: palette region 2 (low half)
 *     and the child's country byte (high half, as blockcountry: country lookups stop there)
 *   word 2: the record's offset in `records`; word 3: the index in `subcodes` of the entry of the
 *     slot's first mixed sub-cell (code 3)
 *   words 4-7: SLOT_GRID² 2-bit codes, sub-cells row-major from the south-west, 16 per word
 *     from the low bits: 0-2 a palette region answers the whole closed sub-cell, 3 mixed.
 * `subcodes` holds one Uint16 per mixed sub-cell, slots in ordinal order, a slot's mixed sub-cells
 * in code order (so the k-th mixed sub-cell of slot s is entry slots[s·8 + 3] + k): the index in
 * `subwords` of its code word. `subwords` holds each distinct code word once (most used first):
 * SUB_GRID² 2-bit codes of the sub-sub-cells, row-major from the south-west: 0-2 the slot's
 * palette region answers the whole closed sub-sub-cell, 3 test the record.
 * See build-data/index/depth1.ts and slots.ts.
 */
export const BR8_SPAN = 190;
export const BR8_SLOT = 190;
export const BR8_SLOTS = 64;
export const BR8_NO_COUNTRY = 254;
export const DEPTH1_BASE_WORDS = 4;
/** Sub-cells per side of a record slot's answer grid, and words per slot. */
export const SLOT_GRID = 8;
export const SLOT_WORDS = 8;
/** The 2-bit code of a mixed sub-cell (in a slot: read its subcodes word; in subcodes: test the rings). */
export const SLOT_MIXED = 3;
/** Sub-sub-cells per side of a mixed sub-cell (SUB_GRID² 2-bit codes fill one Uint32). */
export const SUB_GRID = 4;

/** Region table: Uint16 pairs [countryIndex, subdivisionIndex]; this subdivision index means none. */
export const NO_SUBDIVISION16 = 0xffff;

export interface IndexParams {
  /** Children per side at depth 1, 2, …; fanouts.length is the maximum depth. */
  fanouts: number[];
  /** Clip-window margin as a fraction of the cell side, on every side. */
  margin: number;
  /**
   * Window units per side of a record's window, at most QUANT_MAX: the build picks the number at
   * which a coarse unit comes just within its vertex bound (build-data/index/records.ts windowUnits).
   */
  quant: number;
}

/** How many of the 16 two-bit codes in `word` are SLOT_MIXED (3): a popcount of the both-bits-set pairs. */
export function mixedCodes(word: number): number {
  let x = word & (word >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Cell k (row-major from the south-west) of the default table entry `e` points at. */
export function tableEntry(rec: Uint32Array, e: number, k: number): number {
  const t = e & VALUE_MASK;
  // Words as int32 (| 0): a Uint32 load of 2^31 or more is boxed (test/contract/allocation.test.ts).
  if ((rec[t] | 0) === (TABLE_FULL | 0)) return ((rec[t + 1 + (k >>> 1)] | 0) >>> ((k & 1) << 4)) & 0xffff;
  const code = ((rec[t + TABLE_PALETTE / 2 + (k >>> 4)] | 0) >>> ((k & 15) << 1)) & 3;
  return ((rec[t + (code >>> 1)] | 0) >>> ((code & 1) << 4)) & 0xffff;
}
