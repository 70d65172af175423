// Record slots answer most points from an 8×8 sub-cell table, and a 4×4 table in each mixed
// sub-cell, instead of testing rings (build-data/index/slots.ts). Each table answer must be what the
// record's own ring test gives anywhere in its (sub-)sub-cell: checked here at corners, one step
// either side of every edge, and at random points, against the record evaluated directly (its
// default table, where it has one, read at the point).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/format/dataset.js';
import { locator, evalRecord, tableRegion } from '../../src/lookup/locate.js';
import {
  BR8_NO_COUNTRY,
  BR8_SLOT,
  DEPTH1_BASE_WORDS,
  mixedCodes,
  SLOT_GRID,
  SLOT_MIXED,
  SLOT_WORDS,
  SUB_GRID,
} from '../../src/format/layout.js';
import { prng } from '../support/sample-points.js';

const ds = readDataset(readFileSync(new URL('../../dist-data/world.geolookup', import.meta.url)));
const { locate } = locator(ds);
const f0 = ds.fanouts[0];

interface Slot {
  ordinal: number;
  west: number;
  south: number;
}

/** Every record slot with the south-west corner of its child cell. */
function slots(): Slot[] {
  const out: Slot[] = [];
  for (let cell = 0; cell < ds.grid.length; cell++) {
    const e = ds.grid[cell];
    if (e >>> 30 !== 1) continue;
    const d = e & 0x3fffffff;
    const [slotBase, , , n] = ds.depth1Bases.subarray(d * DEPTH1_BASE_WORDS);
    for (let k = 0; k < f0 * f0; k++) {
      const v = ds.blockRegion8[d * f0 * f0 + k];
      if (v < BR8_SLOT || v >= BR8_NO_COUNTRY || v - BR8_SLOT >= n) continue;
      out.push({
        ordinal: slotBase + v - BR8_SLOT,
        west: (cell % 360) - 180 + (k % f0) / f0,
        south: Math.floor(cell / 360) - 90 + Math.floor(k / f0) / f0,
      });
    }
  }
  return out;
}

const palette = (w: number, code: number) =>
  code === 2 ? ds.slots[w + 1] & 0xffff : (ds.slots[w] >>> (16 * code)) & 0xffff;

/** The region the slot's table gives for sub-cell (i, j), -1 where it sends the lookup to the sub-sub-cells. */
function tableAnswer(ordinal: number, i: number, j: number): number {
  const w = ordinal * SLOT_WORDS;
  const c = j * SLOT_GRID + i;
  const code = (ds.slots[w + 4 + (c >>> 4)] >>> ((c & 15) << 1)) & 3;
  return code === SLOT_MIXED ? -1 : palette(w, code);
}

/**
 * Sub-sub-cell (i, j) of a slot's SLOT_GRID·SUB_GRID split, in a mixed sub-cell: its table's region,
 * or -1 (test the record).
 */
function subTableAnswer(ordinal: number, i: number, j: number): number {
  const w = ordinal * SLOT_WORDS;
  const c = Math.floor(j / SUB_GRID) * SLOT_GRID + Math.floor(i / SUB_GRID);
  let k = ds.slots[w + 3];
  for (let m = 0; m < c; m++) if (((ds.slots[w + 4 + (m >>> 4)] >>> ((m & 15) << 1)) & 3) === SLOT_MIXED) k++;
  const b = (j % SUB_GRID) * SUB_GRID + (i % SUB_GRID);
  const code = (ds.subwords[ds.subcodes[k]] >>> (b << 1)) & 3;
  return code === SLOT_MIXED ? -1 : palette(w, code);
}

/** The slot's record evaluated at (lat, lon) with locate's own arithmetic, ignoring the sub-cell table. */
function byRings(ordinal: number, lat: number, lon: number): number {
  const x = lon + 180;
  const y = lat + 90;
  const sx = (x - (x | 0)) * f0;
  const sy = (y - (y | 0)) * f0;
  const px = sx - Math.min(sx | 0, f0 - 1);
  const py = sy - Math.min(sy | 0, f0 - 1);
  const q = Float64Array.of((px + ds.margin) * ds.qscale, (py + ds.margin) * ds.qscale, ds.margin, ds.qscale);
  let e = 0x80000000 | ds.slots[ordinal * SLOT_WORDS + 2];
  do e = evalRecord(ds.records, e & 0x3fffffff, q);
  while (e >>> 30 === 2);
  return e >>> 30 === 3 ? tableRegion(ds.records, e, q) : e;
}

describe('record slots', () => {
  const all = slots();

  it("cover the depth-1 record children, and most sub-cells and mixed sub-cells' parts have a table answer", () => {
    expect(all.length * SLOT_WORDS).toBe(ds.slots.length);
    let answered = 0;
    let mixed = 0;
    for (const { ordinal } of all)
      for (let c = 0; c < SLOT_GRID * SLOT_GRID; c++)
        if (tableAnswer(ordinal, c % SLOT_GRID, Math.floor(c / SLOT_GRID)) >= 0) answered++;
    for (let w = 0; w < ds.slots.length; w += SLOT_WORDS)
      for (let k = 4; k < SLOT_WORDS; k++) mixed += mixedCodes(ds.slots[w + k]);
    expect(answered / (all.length * SLOT_GRID * SLOT_GRID)).toBeGreaterThan(0.5);
    expect(mixed).toBe(ds.subcodes.length);
    let subAnswered = 0;
    for (const k of ds.subcodes) subAnswered += SUB_GRID * SUB_GRID - mixedCodes(ds.subwords[k]);
    expect(subAnswered / (mixed * SUB_GRID * SUB_GRID)).toBeGreaterThan(0.5);
  });

  it('every table answer equals the ring test at corners, across edges and at random points of its cell', () => {
    const r = prng(21);
    const tiny = 1e-9; // ~0.1 mm: either side of a cell edge
    let checked = 0;
    let subChecked = 0;
    const wrong: string[] = [];
    const check = (ordinal: number, west: number, south: number, step: number, table: number) => {
      const xs = [west + tiny, west + step / 2, west + step - tiny, west + r() * step];
      const ys = [south + tiny, south + step / 2, south + step - tiny, south + r() * step];
      for (const lon of xs) {
        for (const lat of ys) {
          if (lon >= 180 || lat > 90) continue;
          checked++;
          const got = locate(lat, lon);
          const want = byRings(ordinal, lat, lon);
          if ((got !== want || table !== want) && wrong.length < 10)
            wrong.push(`${lat},${lon}: lookup ${got}, table ${table}, rings ${want}`);
        }
      }
    };
    const step = 1 / f0 / SLOT_GRID;
    const subStep = step / SUB_GRID;
    // Every 16th slot keeps the run to a few seconds (~9.5k slots, ~8 M points).
    for (let s = 0; s < all.length; s += 16) {
      const { ordinal, west, south } = all[s];
      for (let j = 0; j < SLOT_GRID; j++) {
        for (let i = 0; i < SLOT_GRID; i++) {
          const table = tableAnswer(ordinal, i, j);
          if (table >= 0) {
            check(ordinal, west + i * step, south + j * step, step, table);
            continue;
          }
          for (let b = 0; b < SUB_GRID * SUB_GRID; b++) {
            const si = i * SUB_GRID + (b % SUB_GRID);
            const sj = j * SUB_GRID + Math.floor(b / SUB_GRID);
            const sub = subTableAnswer(ordinal, si, sj);
            if (sub < 0) continue;
            subChecked++;
            check(ordinal, west + si * subStep, south + sj * subStep, subStep, sub);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(1_000_000);
    expect(subChecked).toBeGreaterThan(10_000);
  }, 180_000);
});
