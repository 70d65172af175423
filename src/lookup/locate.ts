// The hot path: coordinates → region id (or country index). Reads typed arrays only and
// allocates nothing (test/contract/allocation.test.ts).

import type { Dataset } from '../format/dataset.js';
import {
  BR8_NO_COUNTRY,
  BR8_SLOT,
  BR8_SPAN,
  mixedCodes,
  DELTA_WIDTH_BITS,
  DELTA_WIDTH_MASK,
  HALF_RECORD,
  ITEM_MASK,
  RECORD_COUNT_BITS_AT,
  RECORD_HALF_ITEMS,
  RECORD_HEADER,
  RECORD_SHIFT_AT,
  RECORD_SUBDIVISIONS,
  RECORD_WORDS_AT,
  SLOT_GRID,
  SLOT_WORDS,
  SUB_GRID,
  TABLE_GRID,
  tableEntry,
} from '../format/layout.js';
import { PAGE_SHIFT } from '../format/record-pages.js';

/** Words of a record → its page in RecordPages.ready. */
const WORD_PAGE_SHIFT = PAGE_SHIFT - 2;

export interface Locator {
  /** Region id at (lat, lon), 0 when no country holds the point. */
  locate(lat: number, lon: number): number;
  /** Country index at (lat, lon), -1 when none. */
  locateCountry(lat: number, lon: number): number;
  /**
   * The point the descents read (lat, lon): callers that keep a point in it call locateHere /
   * locateCountryHere, and no double crosses a call.
   */
  here: Float64Array;
  /** As locate, at (here[0], here[1]). */
  locateHere(): number;
  /** As locateCountry, at (here[0], here[1]). */
  locateCountryHere(): number;
}

const locators = new WeakMap<Dataset, Locator>();

/** The dataset's locator (one per dataset; hoist it out of loops). */
export function locator(ds: Dataset): Locator {
  let l = locators.get(ds);
  if (l === undefined) locators.set(ds, (l = createLocator(ds)));
  return l;
}

/**
 * Inputs must be validated finite numbers in range. Longitude 180 folds onto -180 and
 * latitude 90 lands in the top row, so both edges of the map answer.
 *
 * Closures over the arrays, which the JIT treats as constants, and two descents that keep the
 * cell position in locals: the region descent reads the one-byte blockregion8 and the slots at
 * depth 1, the country descent blockcountry beside each entry (speed: npm run bench).
 *
 * No double crosses a call V8 does not inline, or it is boxed (test/contract/allocation.test.ts):
 * the descents are too large to inline, so `locate` and `locateCountry`, small enough to inline,
 * store the coordinates in `here` and call them with no arguments; they return small integers,
 * never boxed. The ring test gets its position the same way, in `q`.
 */
function createLocator(ds: Dataset): Locator {
  const {
    grid,
    gridCountry,
    depth1Bases,
    slots,
    subcodes,
    subwords,
    blocks,
    blockRegion8,
    blockCountry,
    fanouts,
    records,
    regionCountry,
    margin,
    qscale,
  } = ds;
  // A record is read only once its page is in memory: test/contract/lazy-records.test.ts.
  const { ready, need } = ds.recordPages;
  const firstWord = records.byteOffset >>> 2;
  function bring(r: number): void {
    if (ready[(firstWord + r) >>> WORD_PAGE_SHIFT] === 0) need(r);
  }
  const maxDepth = fanouts.length;
  const f0 = fanouts[0];
  const children0 = f0 * f0;
  const here = new Float64Array(2); // lat, lon
  // The point in a record's quantised units, then the window's margin and scale for tableRegion:
  // doubles, which a call V8 does not inline would box (test/contract/allocation.test.ts).
  const q = Float64Array.of(0, 0, margin, qscale);

  function locate(lat: number, lon: number): number {
    here[0] = lat;
    here[1] = lon;
    return regionHere();
  }

  function locateCountry(lat: number, lon: number): number {
    here[0] = lat;
    here[1] = lon;
    return countryHere();
  }

  function regionHere(): number {
    let x = here[1] + 180;
    if (x >= 360) x -= 360;
    const y = here[0] + 90;
    const col = x | 0;
    let row = y | 0;
    if (row === 180) row = 179;
    const cell = row * 360 + col;
    let e = grid[cell];
    let px = x - col;
    let py = y - row;
    if (e >>> 30 === 1) {
      // Depth 1 reads the one-byte form (layout.ts): a region, a record slot, or "read blocks".
      let sx = px * f0;
      let sy = py * f0;
      let cx = sx | 0;
      let cy = sy | 0;
      if (cx === f0) cx--;
      if (cy === f0) cy--;
      px = sx - cx;
      py = sy - cy;
      const d = e & 0x3fffffff;
      const v = blockRegion8[d * children0 + cy * f0 + cx];
      const bases = d << 2;
      if (v < BR8_SPAN) return depth1Bases[bases + 1] + v;
      if (v === BR8_NO_COUNTRY) return 0;
      const j = v - BR8_SLOT;
      const n = depth1Bases[bases + 3];
      if (j < n) {
        // The sub-cell's palette region, else the record the slot names.
        const w = (depth1Bases[bases] + j) * SLOT_WORDS;
        let gx = (px * SLOT_GRID) | 0;
        let gy = (py * SLOT_GRID) | 0;
        if (gx === SLOT_GRID) gx--;
        if (gy === SLOT_GRID) gy--;
        const c = gy * SLOT_GRID + gx;
        // Code words as int32 (| 0): a Uint32 load of 2^31 or more (the top code 2 or 3) does not
        // fit a small integer and is boxed (test/contract/allocation.test.ts).
        const word = slots[w + 4 + (c >>> 4)] | 0;
        let code = (word >>> ((c & 15) << 1)) & 3;
        if (code === 3) {
          // A mixed sub-cell: its sub-sub-cell codes are the word the k-th index from the slot's first names.
          let k = mixedCodes(word & ((1 << ((c & 15) << 1)) - 1));
          for (let t = w + 4; t < w + 4 + (c >>> 4); t++) k += mixedCodes(slots[t] | 0);
          let hx = ((px * SLOT_GRID - gx) * SUB_GRID) | 0;
          let hy = ((py * SLOT_GRID - gy) * SUB_GRID) | 0;
          if (hx === SUB_GRID) hx--;
          if (hy === SUB_GRID) hy--;
          code = (subwords[subcodes[slots[w + 3] + k]] >>> ((hy * SUB_GRID + hx) << 1)) & 3;
        }
        if (code === 0) return slots[w] & 0xffff;
        if (code === 1) return slots[w] >>> 16;
        if (code === 2) return slots[w + 1] & 0xffff;
        q[0] = (px + margin) * qscale;
        q[1] = (py + margin) * qscale;
        return evalRecords(slots[w + 2]);
      }
      e = blocks[depth1Bases[bases + 2] + j - n];
      for (let depth = 1; e >>> 30 === 1; ) {
        if (depth === maxDepth) return 0; // only a damaged file gets here; verifyIndex rules it out
        const f = fanouts[depth++];
        sx = px * f;
        sy = py * f;
        cx = sx | 0;
        cy = sy | 0;
        if (cx === f) cx--;
        if (cy === f) cy--;
        px = sx - cx;
        py = sy - cy;
        e = blocks[(e & 0x3fffffff) + cy * f + cx];
      }
    }
    if (e >>> 30 === 0) return e;
    q[0] = (px + margin) * qscale;
    q[1] = (py + margin) * qscale;
    return evalRecords(e & 0x3fffffff);
  }

  /** The region record r (and the records it leads to) gives at the point in q. */
  function evalRecords(r: number): number {
    bring(r);
    let e = evalRecord(records, r, q);
    while (e >>> 30 === 2) {
      const next = e & 0x3fffffff;
      bring(next);
      e = evalRecord(records, next, q);
    }
    // A default table (tag 3; as an int32, negative like a record entry).
    return e < 0 ? tableRegion(records, e, q) : e;
  }

  // Stops early where gridcountry / blockcountry name a cell's single country, and at a record
  // that lists one country's subdivisions (its header names the country), so country lookups
  // never test subdivision borders.
  function countryHere(): number {
    let x = here[1] + 180;
    if (x >= 360) x -= 360;
    const y = here[0] + 90;
    const col = x | 0;
    let row = y | 0;
    if (row === 180) row = 179;
    const cell = row * 360 + col;
    const u = gridCountry[cell];
    if (u !== 0) return u - 2;
    let e = grid[cell];
    let px = x - col;
    let py = y - row;
    if (e >>> 30 === 1) {
      let sx = px * f0;
      let sy = py * f0;
      let cx = sx | 0;
      let cy = sy | 0;
      if (cx === f0) cx--;
      if (cy === f0) cy--;
      px = sx - cx;
      py = sy - cy;
      // The child's country: its region's, or the byte beside its slot or wide entry (layout.ts).
      const d = e & 0x3fffffff;
      const v = blockRegion8[d * children0 + cy * f0 + cx];
      const bases = d << 2;
      if (v < BR8_SPAN) return regionCountry[depth1Bases[bases + 1] + v];
      if (v === BR8_NO_COUNTRY) return -1;
      const j = v - BR8_SLOT;
      const n = depth1Bases[bases + 3];
      if (j < n) {
        const w = (depth1Bases[bases] + j) * SLOT_WORDS;
        const c = slots[w + 1] >>> 16;
        if (c !== 0) return c - 2;
        e = 0x80000000 | slots[w + 2];
      } else {
        const k = depth1Bases[bases + 2] + j - n;
        const c = blockCountry[k];
        if (c !== 0) return c - 2;
        e = blocks[k] | 0;
      }
      for (let depth = 1; e >>> 30 === 1; ) {
        if (depth === maxDepth) return -1; // only a damaged file gets here; verifyIndex rules it out
        const f = fanouts[depth++];
        sx = px * f;
        sy = py * f;
        cx = sx | 0;
        cy = sy | 0;
        if (cx === f) cx--;
        if (cy === f) cy--;
        px = sx - cx;
        py = sy - cy;
        const at = (e & 0x3fffffff) + cy * f + cx;
        const c = blockCountry[at];
        if (c !== 0) return c - 2;
        e = blocks[at];
      }
    }
    if (e >>> 30 === 0) return regionCountry[e];
    q[0] = (px + margin) * qscale;
    q[1] = (py + margin) * qscale;
    do {
      const r = e & 0x3fffffff;
      bring(r);
      if (records[r] & RECORD_SUBDIVISIONS) {
        // Its country is that of the region its defaults end at (layout.ts defaultRegion).
        let d = records[r + 1] | 0;
        while (d >>> 30 === 2) {
          const next = d & 0x3fffffff;
          bring(next);
          d = records[next + 1] | 0;
        }
        return regionCountry[d >>> 30 === 3 ? tableEntry(records, d, 0) : d];
      }
      e = evalRecord(records, r, q);
    } while (e >>> 30 === 2);
    return regionCountry[e];
  }

  return { locate, locateCountry, here, locateHere: regionHere, locateCountryHere: countryHere };
}

/**
 * The region a default table entry `e` (layout.ts) gives at the point (q[0], q[1]) (quantised
 * units over the cell window: the cell spans margin·qscale to (1 + margin)·qscale on each axis,
 * with margin = q[2] and qscale = q[3]).
 */
export function tableRegion(rec: Uint32Array, e: number, q: Float64Array): number {
  let i = ((q[0] / q[3] - q[2]) * TABLE_GRID) | 0;
  let j = ((q[1] / q[3] - q[2]) * TABLE_GRID) | 0;
  // Rounding can put a point on the cell's edge a hair outside it.
  i = i < 0 ? 0 : i >= TABLE_GRID ? TABLE_GRID - 1 : i;
  j = j < 0 ? 0 : j >= TABLE_GRID ? TABLE_GRID - 1 : j;
  return tableEntry(rec, e, j * TABLE_GRID + i);
}

if (DELTA_WIDTH_BITS !== 4 || DELTA_WIDTH_MASK !== 15) throw new Error('locate.ts: delta width literals out of date');

/**
 * `bits` bits (at most 16) of a record's arc stream (layout.ts streamField), read without a branch
 * as in evalRecord's vertex loop. This module's own copy: imported, V8 did not inline it here, and
 * a record test took 2.5 times as long (docs/PERFORMANCE.md, format 14).
 */
function field(rec: Uint32Array, from: number, b: number, bits: number): number {
  const w = from + (b >>> 5);
  const o = b & 31;
  const next = w + 1 < rec.length ? rec[w + 1] | 0 : 0;
  return (((rec[w] | 0) >>> o) | ((next << 1) << (31 - o))) & ((1 << bits) - 1);
}

/**
 * First item that holds the point (q[0], q[1]) (window units) under the even-odd rule, else the
 * record's default (a region, a record, or a default table: see tableRegion); as an int32, so that
 * a record entry (top bit set) is not boxed. One pass over the arc stream, decoding as it goes: a
 * crossed edge flips the parity bits of its items' mask. The point is scaled to the record's
 * coarse units by a power of two, so the test is the one the window units would give.
 */
export function evalRecord(rec: Uint32Array, r: number, q: Float64Array): number {
  const head = rec[r] | 0;
  const n = head & ITEM_MASK;
  const half = head & RECORD_HALF_ITEMS;
  const shift = (head >>> RECORD_SHIFT_AT) & 15;
  const countBits = (head >>> RECORD_COUNT_BITS_AT) & 15;
  const unit = 1 << shift;
  const px = q[0] / unit;
  const py = q[1] / unit;
  // Vertices are integers, so y > py exactly when y > floor(py): an integer compare per vertex.
  const pyi = Math.floor(py);
  // Bit positions count from the stream's first word, so they stay small integers.
  const items = r + RECORD_HEADER;
  const from = items + (half ? (n + 1) >>> 1 : n);
  const end = (head >>> RECORD_WORDS_AT) << 5;
  let b = 0;
  let odd = 0;
  while (b < end) {
    // The zero padding of the last word: a count is never zero, and no arc reaches past it.
    if (end - b < 32 && (rec[from + (b >>> 5)] | 0) >>> (b & 31) === 0) break;
    const count = field(rec, from, b, countBits);
    b += countBits;
    const mask = field(rec, from, b, n);
    b += n;
    // Literal widths (DELTA_WIDTH_BITS, checked below): an imported constant read per arc made
    // a record test 1.6 times as long (docs/PERFORMANCE.md, format 14).
    const widths = field(rec, from, b, 8);
    b += 8;
    const wx = (widths & 15) + 1;
    const wxy = wx + (widths >>> 4) + 1;
    const mx = (1 << wx) - 1;
    let xj = field(rec, from, b, 16 - shift);
    b += 16 - shift;
    let yj = field(rec, from, b, 16 - shift);
    b += 16 - shift;
    const mxy = -1 >>> (32 - wxy);
    for (let k = 1; k < count; k++) {
      // Both deltas in one read (wx + wy <= 32: layout.ts DELTA_WIDTH_MAX), inline (a call's 32-bit
      // result is boxed: test/contract/allocation.test.ts), with no branch on a spill: the next word
      // joins shifted in two steps (by 32, so not at all, when o is 0) (docs/PERFORMANCE.md).
      const w = from + (b >>> 5);
      const o = b & 31;
      const next = w + 1 < rec.length ? rec[w + 1] | 0 : 0;
      const d = (((rec[w] | 0) >>> o) | ((next << 1) << (31 - o))) & mxy;
      b += wxy;
      const dx = d & mx;
      const dy = d >>> wx;
      const xk = xj + ((dx >>> 1) ^ -(dx & 1));
      const yk = yj + ((dy >>> 1) ^ -(dy & 1));
      if (yk > pyi !== yj > pyi && px < ((xj - xk) * (py - yk)) / (yj - yk) + xk) odd ^= mask;
      xj = xk;
      yj = yk;
    }
  }
  // The lowest odd item: 31 - clz32 of the lowest set bit.
  if (odd === 0) return rec[r + 1] | 0;
  const i = 31 - Math.clz32(odd & -odd);
  if (!half) return rec[items + i] | 0;
  // A half: a region, or a record a little further on (layout.ts HALF_RECORD).
  const h = (rec[items + (i >>> 1)] >>> ((i & 1) << 4)) & 0xffff;
  return h < HALF_RECORD ? h : 0x80000000 | (r + h - HALF_RECORD);
}
