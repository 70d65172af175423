// Record slots answer most points from a 4×4 sub-cell table instead of testing rings
// (build-data/slots.ts). Each table answer must be what the record's own ring test gives
// anywhere in that sub-cell: checked here at sub-cell corners, one step either side of
// every sub-cell edge, and at random points, against the record evaluated directly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDataset } from '../src/dataset.js';
import { locator, evalRecord } from '../src/locate.js';
import { NO_REGION16, SLOT_GRID } from '../src/layout.js';
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
      out.push({ ordinal: ds.gridBase[cell] + r - regionCount, west: (cell % 360) - 180 + (k % f0) / f0, south: Math.floor(cell / 360) - 90 + Math.floor(k / f0) / f0 });
    }
  }
  return out;
}

/** The slot's record evaluated at (lat, lon) with locate's own arithmetic, ignoring the sub-cell table. */
function byRings(ordinal: number, lat: number, lon: number): number {
  const x = lon + 180;
  const y = lat + 90;
  const sx = (x - (x | 0)) * f0;
  const sy = (y - (y | 0)) * f0;
  const px = sx - Math.min(sx | 0, f0 - 1);
  const py = sy - Math.min(sy | 0, f0 - 1);
  const qx = (px + ds.margin) * ds.qscale;
  const qy = (py + ds.margin) * ds.qscale;
  let e = 0x80000000 | ds.slotRecords[ordinal];
  do e = evalRecord(ds.records, ds.coords, e & 0x3fffffff, qx, qy);
  while (e >>> 30 === 2);
  return e;
}

describe('record slots', () => {
  const all = slots();

  it('cover the depth-1 record children, and most sub-cells have a table answer', () => {
    expect(all.length).toBe(ds.slotRecords.length);
    const answered = ds.slotGrid.filter((v) => v !== NO_REGION16).length;
    expect(answered / ds.slotGrid.length).toBeGreaterThan(0.5);
  });

  it('every table answer equals the ring test at corners, across edges and at random points of its sub-cell', () => {
    const r = rng(21);
    const step = 1 / f0 / SLOT_GRID;
    const tiny = 1e-9; // ~0.1 mm: either side of a sub-cell edge
    let checked = 0;
    const wrong: string[] = [];
    // Every 7th slot keeps the run to a few seconds (~22k slots, ~2.6 M points).
    for (let s = 0; s < all.length; s += 7) {
      const { ordinal, west, south } = all[s];
      for (let j = 0; j < SLOT_GRID; j++) {
        for (let i = 0; i < SLOT_GRID; i++) {
          if (ds.slotGrid[ordinal * SLOT_GRID * SLOT_GRID + j * SLOT_GRID + i] === NO_REGION16) continue;
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
              if (got !== want && wrong.length < 10) wrong.push(`${lat},${lon}: table ${got}, rings ${want}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(1_000_000);
  }, 120_000);
});
