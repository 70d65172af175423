// Record slots answer most points from an 8×8 sub-cell table instead of testing rings
// (build-data/slots.ts). Each table answer must be what the record's own ring test gives
// anywhere in that sub-cell: checked here at sub-cell corners, one step either side of
// every sub-cell edge, and at random points, against the record evaluated directly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDataset } from '../src/dataset.js';
import { locator, evalRecord } from '../src/locate.js';
import { GRIDBASE_SLOT_MASK, NO_REGION16, SLOT_GRID, SLOT_MIXED, SLOT_WORDS } from '../src/layout.js';
import { rng } from '../bench/points.js';

const ds = readDataset(readFileSync(new URL('../dist-data/world.geolookup', import.meta.url)));
const { locate } = locator(ds);
const f0 = ds.fanouts[0];
const regionCount = ds.regionCountry.length;

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
    for (let k = 0; k < f0 * f0; k++) {
      const r = ds.blockRegion[(e & 0x3fffffff) + k];
      if (r === NO_REGION16 || r < regionCount) continue;
      out.push({ ordinal: (ds.gridBase[cell] & GRIDBASE_SLOT_MASK) + r - regionCount, west: (cell % 360) - 180 + (k % f0) / f0, south: Math.floor(cell / 360) - 90 + Math.floor(k / f0) / f0 });
    }
  }
  return out;
}

/** The region the slot's table gives for sub-cell (i, j), -1 where it sends the lookup to the record. */
function tableAnswer(ordinal: number, i: number, j: number): number {
  const w = ordinal * SLOT_WORDS;
  const c = j * SLOT_GRID + i;
  const code = (ds.slots[w + 4 + (c >>> 4)] >>> ((c & 15) << 1)) & 3;
  return code === SLOT_MIXED ? -1 : code === 2 ? ds.slots[w + 1] : (ds.slots[w] >>> (16 * code)) & 0xffff;
}

/** The slot's record evaluated at (lat, lon) with locate's own arithmetic, ignoring the sub-cell table. */
function byRings(ordinal: number, lat: number, lon: number): number {
  const x = lon + 180;
  const y = lat + 90;
  const sx = (x - (x | 0)) * f0;
  const sy = (y - (y | 0)) * f0;
  const px = sx - Math.min(sx | 0, f0 - 1);
  const py = sy - Math.min(sy | 0, f0 - 1);
  const q = Float64Array.of((px + ds.margin) * ds.qscale, (py + ds.margin) * ds.qscale);
  let e = 0x80000000 | ds.slots[ordinal * SLOT_WORDS + 2];
  do e = evalRecord(ds.records, ds.coords, e & 0x3fffffff, q);
  while (e >>> 30 === 2);
  return e;
}

describe('record slots', () => {
  const all = slots();

  it('cover the depth-1 record children, and most sub-cells have a table answer', () => {
    expect(all.length * SLOT_WORDS).toBe(ds.slots.length);
    let answered = 0;
    for (const { ordinal } of all) for (let c = 0; c < SLOT_GRID * SLOT_GRID; c++) if (tableAnswer(ordinal, c % SLOT_GRID, Math.floor(c / SLOT_GRID)) >= 0) answered++;
    expect(answered / (all.length * SLOT_GRID * SLOT_GRID)).toBeGreaterThan(0.5);
  });

  it('every table answer equals the ring test at corners, across edges and at random points of its sub-cell', () => {
    const r = rng(21);
    const step = 1 / f0 / SLOT_GRID;
    const tiny = 1e-9; // ~0.1 mm: either side of a sub-cell edge
    let checked = 0;
    const wrong: string[] = [];
    // Every 16th slot keeps the run to a few seconds (~9.5k slots, ~8 M points).
    for (let s = 0; s < all.length; s += 16) {
      const { ordinal, west, south } = all[s];
      for (let j = 0; j < SLOT_GRID; j++) {
        for (let i = 0; i < SLOT_GRID; i++) {
          const table = tableAnswer(ordinal, i, j);
          if (table < 0) continue;
          const x0 = west + i * step;
          const y0 = south + j * step;
          const xs = [x0 + tiny, x0 + step / 2, x0 + step - tiny, x0 + r() * step];
          const ys = [y0 + tiny, y0 + step / 2, y0 + step - tiny, y0 + r() * step];
          for (const lon of xs) {
            for (const lat of ys) {
              if (lon >= 180 || lat > 90) continue;
              checked++;
              const got = locate(lat, lon);
              const want = byRings(ordinal, lat, lon);
              if ((got !== want || table !== want) && wrong.length < 10) wrong.push(`${lat},${lon}: lookup ${got}, table ${table}, rings ${want}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(1_000_000);
  }, 120_000);
});
