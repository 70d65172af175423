// Leaf records (layout.ts): a header, the item entries, then the record's edges as arcs, each
// edge stored once with the mask of the items whose boundary it is.

import {
  ARC_MAX_VERTICES,
  DELTA_WIDTH_BITS,
  MAX_RECORD_ITEMS,
  METRES_PER_DEGREE,
  QUANT_MAX,
  RECORD_COUNT_BITS_AT,
  HALF_RECORD,
  itemWords,
  RECORD_HALF_ITEMS,
  RECORD_HEADER,
  RECORD_SHIFT_AT,
  RECORD_SUBDIVISIONS,
  RECORD_WORDS_AT,
  TABLE_FULL,
  TABLE_PALETTE,
  TAG_RECORD,
  TAG_SHIFT,
  VALUE_MASK,
  VERTEX_BOUND_M,
} from '../../src/format/layout.js';
import type { Box, Ring } from './clip.js';
import type { Piece } from './partition.js';

/** One record item: the entry a point inside its rings answers, and the rings, quantised. */
export type RecordItem = [entry: number, rings: number[][]];

/**
 * Window units per side (layout.ts IndexParams quant): the fewest, at most QUANT_MAX, at which 2^s
 * of them (s >= 1) span a square whose half diagonal is within `boundM` in a depth-1 leaf (a degree
 * as METRES_PER_DEGREE). With power-of-two fanouts every deeper leaf gets the same unit; with 65535
 * units the world's was 0.62 m where 1 m is allowed, and bits went to precision nobody asked for.
 */
export function windowUnits(fanout0: number, margin: number, boundM: number = VERTEX_BOUND_M): number {
  const perUnit = (((1 + 2 * margin) / fanout0) * METRES_PER_DEGREE * Math.SQRT1_2) / boundM;
  let s = 1;
  while (perUnit * 2 ** s < (QUANT_MAX + 1) / 2) s++;
  return Math.min(QUANT_MAX, Math.ceil(perUnit * 2 ** s));
}

/**
 * The shift of a leaf's records: its vertices are rounded to 2^shift window units, the coarsest
 * unit whose half diagonal stays within `boundM` (VERTEX_BOUND_M, coarser in the lite build; powers
 * of two, so the choice is exact), and at least 2 units (layout.ts DELTA_WIDTH_MAX; only leaves
 * wider than about 0.8° need it).
 */
export function quantShift(cell: Box, margin: number, quant: number, boundM: number = VERTEX_BOUND_M): number {
  const unit = (Math.max(cell.x1 - cell.x0, cell.y1 - cell.y0) * (1 + 2 * margin)) / quant;
  const step = boundM / (0.5 * Math.SQRT2 * METRES_PER_DEGREE);
  let shift = 1;
  while (shift < 15 && unit * 2 ** (shift + 1) <= step) shift++;
  return shift;
}

/** The ring in coarse units (2^shift window units), rounded and clamped; null when fewer than three distinct vertices are left. */
function quantiseRing(r: Ring, win: Box, shift: number, quant: number): number[] | null {
  const top = quant >>> shift;
  const sx = quant / 2 ** shift / (win.x1 - win.x0);
  const sy = quant / 2 ** shift / (win.y1 - win.y0);
  const out: number[] = [];
  const n = r.length >> 1;
  for (let i = 0; i < n; i++) {
    const qx = Math.min(top, Math.max(0, Math.round((r[2 * i] - win.x0) * sx)));
    const qy = Math.min(top, Math.max(0, Math.round((r[2 * i + 1] - win.y0) * sy)));
    const m = out.length;
    if (m >= 2 && out[m - 2] === qx && out[m - 1] === qy) continue;
    out.push(qx, qy);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return out.length >= 6 ? out : null;
}

/** The pieces as record items, in order; a piece no ring of which survives quantisation is left out. */
export function quantiseItems(
  pieces: Piece[],
  entryOf: (p: Piece) => number,
  win: Box,
  shift: number,
  quant: number,
): RecordItem[] {
  const items: RecordItem[] = [];
  for (const p of pieces) {
    const rings = p.rings.map((r) => quantiseRing(r, win, shift, quant)).filter((r): r is number[] => r !== null);
    if (rings.length) items.push([entryOf(p), rings]);
  }
  return items;
}

/**
 * The cell inside its window, in coarse units, widened to whole units: [lo, hi] on both axes.
 * Points a record is evaluated at lie in it.
 */
export function cellSpan(margin: number, shift: number, quant: number): [lo: number, hi: number] {
  const qscale = quant / 2 ** shift / (1 + 2 * margin);
  return [Math.floor(margin * qscale), Math.ceil((1 + margin) * qscale)];
}

/**
 * Whether the edge can change an answer in the cell [lo, hi]²: a +x ray from a point of the cell
 * can cross it (not left of the cell, not wholly above or below it, not horizontal), or it lies
 * on the cell (a horizontal edge there: the slot tables and the export find a cell's borders
 * among the stored edges, test/data/slots.test.ts and the export oracle).
 */
function edgeMatters(ax: number, ay: number, bx: number, by: number, lo: number, hi: number): boolean {
  if (Math.max(ax, bx) < lo || Math.max(ay, by) < lo || Math.min(ay, by) > hi) return false;
  return ay !== by || Math.min(ax, bx) <= hi;
}

/**
 * The arcs of some items: every edge of their rings that matters in the cell, stored once with the
 * mask of the items holding it an odd number of times (an edge two rings of one item share cancels,
 * as it does under the even-odd rule), chained where a vertex joins exactly two edges of one mask.
 * Each arc is [mask, vertex words...]; its edges join consecutive vertices.
 */
export function arcsOf(items: RecordItem[], lo: number, hi: number): number[][] {
  const masks = new Map<string, number>();
  const ends = new Map<string, [number, number]>();
  items.forEach(([, rings], i) => {
    for (const r of rings) {
      for (let k = 0, j = r.length - 2; k < r.length; j = k, k += 2) {
        if (!edgeMatters(r[j], r[j + 1], r[k], r[k + 1], lo, hi)) continue;
        const a = (r[j] | (r[j + 1] << 16)) >>> 0;
        const b = (r[k] | (r[k + 1] << 16)) >>> 0;
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        if (!ends.has(key)) ends.set(key, [a, b]);
        masks.set(key, (masks.get(key) ?? 0) ^ (1 << i));
      }
    }
  });
  // Edges per (mask, vertex), in first-seen order, for the chaining.
  const at = new Map<string, string[]>();
  for (const [key, [a, b]] of ends) {
    const m = masks.get(key)!;
    if (m === 0) continue;
    for (const v of [a, b]) {
      const list = at.get(`${m}:${v}`);
      if (list) list.push(key);
      else at.set(`${m}:${v}`, [key]);
    }
  }
  const used = new Set<string>();
  const next = (m: number, v: number, from: string): string | null => {
    const list = at.get(`${m}:${v}`)!;
    if (list.length !== 2) return null;
    const other = list[0] === from ? list[1] : list[0];
    return used.has(other) ? null : other;
  };
  /** The vertices reached from v along unused edges of mask m, the edge `from` left behind. */
  const walk = (m: number, v: number, from: string): number[] => {
    const out: number[] = [];
    for (let e = next(m, v, from); e; e = next(m, v, e)) {
      used.add(e);
      const [u, w] = ends.get(e)!;
      v = u === v ? w : u;
      out.push(v);
    }
    return out;
  };
  const arcs: number[][] = [];
  for (const [key, [a, b]] of ends) {
    const m = masks.get(key)!;
    if (m === 0 || used.has(key)) continue;
    used.add(key);
    const tail = walk(m, b, key);
    const line = [...walk(m, a, key).reverse(), a, b, ...tail];
    // One edge shared between arcs: cut lines longer than an arc header can count.
    for (let s = 0; s < line.length - 1; s += ARC_MAX_VERTICES - 1)
      arcs.push([m, ...line.slice(s, s + ARC_MAX_VERTICES)]);
  }
  return arcs;
}

/** A record's words, its default table aside: items beyond MAX_RECORD_ITEMS go to the next record. */
export interface RecordWords {
  /** Entries of the record's items, at most MAX_RECORD_ITEMS. */
  entries: number[];
  /** The arc stream (layout.ts). */
  stream: number[];
  /** Head bits of the shift and the count width. */
  info: number;
  /** Items as Uint16 halves (layout.ts RECORD_HALF_ITEMS): regions, and records close after this one. */
  half: boolean;
  vertices: number;
}

/**
 * The items as records of at most MAX_RECORD_ITEMS items, each one's default the next. A country's
 * subdivision records (`subdivisions`) list region ids, stored as halves when they fit; a country
 * record's halves are decided once its items' targets are placed (leaf.ts).
 */
export function packRecords(
  items: RecordItem[],
  lo: number,
  hi: number,
  shift: number,
  subdivisions: boolean,
): RecordWords[] {
  const out: RecordWords[] = [];
  for (let s = 0; s === 0 || s < items.length; s += MAX_RECORD_ITEMS) {
    const part = items.slice(s, s + MAX_RECORD_ITEMS);
    const entries = part.map(([e]) => e);
    const half = subdivisions && entries.every((e) => e < HALF_RECORD);
    out.push({ entries, half, ...packArcs(arcsOf(part, lo, hi), part.length, shift) });
  }
  return out;
}

const bitLength = (v: number) => 32 - Math.clz32(v);
const zigzag = (d: number) => (d >= 0 ? 2 * d : -2 * d - 1);

/** Arcs ([mask, vertex words...]) as the record's bit stream, each arc with the narrowest delta widths. */
function packArcs(arcs: number[][], items: number, shift: number): Omit<RecordWords, 'entries' | 'half'> {
  let countBits = 2;
  for (const a of arcs) countBits = Math.max(countBits, bitLength(a.length - 1));
  const stream: number[] = [];
  let cur = 0;
  let used = 0;
  const put = (v: number, bits: number): void => {
    while (bits > 0) {
      const take = Math.min(bits, 32 - used);
      cur |= (v & ((1 << take) - 1)) << used;
      v >>>= take;
      bits -= take;
      used += take;
      if (used === 32) {
        stream.push(cur >>> 0);
        cur = 0;
        used = 0;
      }
    }
  };
  let vertices = 0;
  for (const [mask, ...vs] of arcs) {
    const dx: number[] = [];
    const dy: number[] = [];
    for (let k = 1; k < vs.length; k++) {
      dx.push(zigzag((vs[k] & 0xffff) - (vs[k - 1] & 0xffff)));
      dy.push(zigzag((vs[k] >>> 16) - (vs[k - 1] >>> 16)));
    }
    // Widths of at least one bit: every field of a valid stream lies inside it (locate.ts reads ahead).
    const wx = Math.max(1, bitLength(dx.reduce((m, d) => Math.max(m, d), 0)));
    const wy = Math.max(1, bitLength(dy.reduce((m, d) => Math.max(m, d), 0)));
    put(vs.length, countBits);
    put(mask, items);
    put(wx - 1, DELTA_WIDTH_BITS);
    put(wy - 1, DELTA_WIDTH_BITS);
    put(vs[0] & 0xffff, 16 - shift);
    put(vs[0] >>> 16, 16 - shift);
    for (let k = 0; k < dx.length; k++) {
      put(dx[k], wx);
      put(dy[k], wy);
    }
    vertices += vs.length;
  }
  if (used > 0) stream.push(cur >>> 0);
  return { stream, info: (shift << RECORD_SHIFT_AT) | (countBits << RECORD_COUNT_BITS_AT), vertices };
}

/** An item entry as a half (layout.ts RECORD_HALF_ITEMS): a region below HALF_RECORD, or HALF_RECORD + k for the record k words after `at`. */
function half(e: number, at: number): number {
  const k = e >>> TAG_SHIFT === TAG_RECORD ? (e & VALUE_MASK) - at : -1;
  if (k < 0 ? e >= HALF_RECORD : k < 1 || k >= HALF_RECORD)
    throw new Error(`item entry ${e} of the record at ${at} does not fit a half`);
  return k < 0 ? e : HALF_RECORD + k;
}

/** Words the record's items take (layout.ts itemWords, from the head's count and flag). */
function itemsSize(r: RecordWords): number {
  return itemWords(r.entries.length | (r.half ? RECORD_HALF_ITEMS : 0));
}

/** Words the record takes, its default table aside. */
export function recordSize(r: RecordWords): number {
  return RECORD_HEADER + itemsSize(r) + r.stream.length;
}

/**
 * Writes a record at `at` (recordSize words reserved), marked RECORD_SUBDIVISIONS when it lists a
 * country's subdivisions. Returns the vertices written.
 */
export function writeRecord(
  data: Uint32Array,
  defaultEntry: number,
  r: RecordWords,
  at: number,
  subdivisions: boolean,
): number {
  if (r.stream.length >= 2 ** (32 - RECORD_WORDS_AT))
    throw new Error(`a leaf of ${r.vertices} vertices: use deeper fanouts`);
  const flags = (subdivisions ? RECORD_SUBDIVISIONS : 0) | (r.half ? RECORD_HALF_ITEMS : 0);
  data[at] = (r.entries.length | flags | r.info | (r.stream.length << RECORD_WORDS_AT)) >>> 0;
  data[at + 1] = defaultEntry;
  const items = at + RECORD_HEADER;
  if (!r.half) data.set(r.entries, items);
  else for (let i = 0; i < r.entries.length; i++) data[items + (i >>> 1)] |= half(r.entries[i], at) << ((i & 1) << 4);
  data.set(r.stream, items + itemsSize(r));
  return r.vertices;
}

/** A default table's words (layout.ts): a palette of its regions and 2-bit indexes, or every id. */
export function packTable(table: number[]): number[] {
  const palette = [...new Set(table)];
  const pair = (a: number, b: number) => (a | (b << 16)) >>> 0;
  if (palette.length > TABLE_PALETTE) {
    const words = [TABLE_FULL];
    for (let k = 0; k < table.length; k += 2) words.push(pair(table[k], table[k + 1]));
    return words;
  }
  // Unused palette entries repeat the first region, so the first word is never TABLE_FULL.
  while (palette.length < TABLE_PALETTE) palette.push(palette[0]);
  const words: number[] = [];
  for (let p = 0; p < TABLE_PALETTE; p += 2) words.push(pair(palette[p], palette[p + 1]));
  for (let k = 0; k < table.length; k += 16) {
    let w = 0;
    for (let c = 0; c < 16; c++) w |= palette.indexOf(table[k + c]) << (c << 1);
    words.push(w >>> 0);
  }
  return words;
}
