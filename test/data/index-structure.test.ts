// The built index against itself: every cell the lookups can reach must say the same thing
// through both descents. A region entry's country (read by subdivision lookups) and the
// gridcountry / blockcountry value beside it (read by country lookups, which stop there)
// must agree. A child entry lost while the index was written (it stays 0, "no country",
// while its neighbour table says several countries) fails here wherever it is, which random
// points find only by luck (a lost 1/8° cell on a border, say between Mexico and Texas).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/format/dataset.js';
import { countryByte, GRID_COLS } from '../../src/format/layout.js';

const ds = readDataset(readFileSync(new URL('../../dist-data/world.geolookup', import.meta.url)));

/** What gridcountry / blockcountry must hold beside a region entry. */
const uniformOf = (region: number) => countryByte(region === 0 ? 1 : ds.regionCountry[region] + 2);

describe('index structure', () => {
  it('every reachable region entry has the single-country value its country gives', () => {
    const bad: string[] = [];
    let entries = 0;
    const walk = (off: number, depth: number, where: string) => {
      const f = ds.fanouts[depth];
      for (let k = 0; k < f * f; k++) {
        const e = ds.blocks[off + k];
        if (e >>> 30 === 1) walk(e & 0x3fffffff, depth + 1, `${where}/${k}`);
        else if (e >>> 30 === 0) {
          entries++;
          if (ds.blockCountry[off + k] !== uniformOf(e))
            bad.push(`${where}/${k}: region ${e}, blockcountry ${ds.blockCountry[off + k]}`);
        }
      }
    };
    for (let cell = 0; cell < ds.grid.length; cell++) {
      const e = ds.grid[cell];
      const where = `cell ${Math.floor(cell / GRID_COLS) - 90},${(cell % GRID_COLS) - 180}`;
      if (e >>> 30 === 1) walk(e & 0x3fffffff, 0, where);
      else if (e >>> 30 === 0) {
        entries++;
        if (ds.gridCountry[cell] !== uniformOf(e))
          bad.push(`${where}: region ${e}, gridcountry ${ds.gridCountry[cell]}`);
      }
    }
    expect(entries).toBeGreaterThan(900_000);
    expect(bad).toEqual([]);
  });
});
