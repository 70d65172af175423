// The package's own dataset reads its records page by page on first use (src/node/lazy-records.ts):
// it answers as the whole file does, reads only what lookups reach, and a file changed after load
// fails with a DataError instead of answering from the new bytes.
import { copyFileSync, mkdtempSync, openSync, closeSync, readFileSync, writeSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEADER_BYTES } from '../../src/format/container.js';
import { SECTIONS } from '../../src/format/layout.js';
import { PAGE_BYTES } from '../../src/format/record-pages.js';
import { datasetOf, lookupOf } from '../../src/lookup/engine.js';
import { createGeoLookup, DataError, defaultDataPath, geometryOf } from '../../src/index.js';
import { readLazily } from '../../src/node/lazy-records.js';
import { cityPoints, spherePoints } from '../support/sample-points.js';

const trusted = () => true;
const dir = mkdtempSync(join(tmpdir(), 'geolookup-lazy-'));

function lazyLookup(path: string) {
  const file = readLazily(path, trusted);
  if (!file) throw new Error(`${path} was read whole`);
  return { lookup: lookupOf(file.bytes, path, 'none', file.pages), pages: file.pages };
}

/** The byte range of the records section in the file at `path`. */
function recordsRange(path: string): [number, number] {
  const table = readFileSync(path).subarray(HEADER_BYTES, HEADER_BYTES + 8 + SECTIONS.length * 8);
  const dv = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const i = SECTIONS.indexOf('records');
  const start = HEADER_BYTES + dv.getUint32(8 + i * 8, true);
  return [start, start + dv.getUint32(12 + i * 8, true)];
}

/** Pages of the records section (whole ones) whose `ready` flag is set. */
function readyShare(ready: Uint8Array, [start, end]: [number, number]): number {
  const from = Math.ceil(start / PAGE_BYTES);
  const to = Math.floor(end / PAGE_BYTES) - 1; // the last whole page's flag also needs the page after it
  let n = 0;
  for (let p = from; p < to; p++) n += ready[p];
  return n / (to - from);
}

describe('records read on demand', () => {
  const path = defaultDataPath();
  const whole = createGeoLookup(readFileSync(path));

  it('answers every operation as the whole file does', () => {
    const { lookup } = lazyLookup(path);
    for (const points of [spherePoints(200_000, 7), cityPoints(100_000, 7)]) {
      for (let i = 0; i < points.lat.length; i++) {
        const lat = points.lat[i];
        const lon = points.lon[i];
        const sub = whole.trySubdivisionFromGps(lat, lon);
        expect(lookup.trySubdivisionFromGps(lat, lon)).toBe(sub);
        expect(lookup.tryCountryFromGps(lat, lon)).toBe(whole.tryCountryFromGps(lat, lon));
        if (sub !== null) expect(lookup.isInSubdivision(sub, lat, lon)).toBe(true);
      }
    }
  });

  it('reads the records pages lookups reach, and all of them for readers of every record', () => {
    const range = recordsRange(path);
    const { lookup, pages } = lazyLookup(path);
    expect(readyShare(pages.ready, range)).toBe(0);
    lookup.tryCountryFromGps(48.8566, 2.3522);
    const cities = cityPoints(2_000, 3);
    for (let i = 0; i < cities.lat.length; i++) lookup.trySubdivisionFromGps(cities.lat[i], cities.lon[i]);
    const some = readyShare(pages.ready, range);
    expect(some).toBeGreaterThan(0);
    expect(some).toBeLessThan(0.5);
    expect(geometryOf('LUX', lookup)).toEqual(geometryOf('LUX', whole));
    expect(readyShare(pages.ready, range)).toBe(1);
  });

  it('sums the payload in pieces to the header checksum, and leaves a damaged file to the whole read', () => {
    const copy = join(dir, 'damaged.geolookup');
    copyFileSync(path, copy);
    const [start, end] = recordsRange(copy);
    const fd = openSync(copy, 'r+');
    writeSync(fd, Uint8Array.of(0x5a), 0, 1, Math.floor((start + end) / 2));
    closeSync(fd);
    expect(readLazily(copy, trusted)).toBeNull();
    expect(() => createGeoLookup(copy)).toThrow(/checksum mismatch/);
  });

  it('fails with a DataError, never an answer, when the file changes after load', () => {
    for (const change of ['overwrite', 'truncate'] as const) {
      const copy = join(dir, `${change}.geolookup`);
      copyFileSync(path, copy);
      const range = recordsRange(copy);
      const { lookup, pages } = lazyLookup(copy);
      if (change === 'truncate') truncateSync(copy, range[0] + (range[1] - range[0]) / 2);
      else {
        const fd = openSync(copy, 'r+');
        for (let at = range[0]; at < range[1]; at += PAGE_BYTES) writeSync(fd, Uint8Array.of(0xa5), 0, 1, at + 7);
        closeSync(fd);
      }
      expect(() => pages.needAll()).toThrow(DataError);
      expect(() => pages.needAll()).toThrow(/changed after it was loaded/);
      // Every lookup that reaches a record fails the same way; the others still answer.
      const points = cityPoints(5_000, 11);
      let failed = 0;
      for (let i = 0; i < points.lat.length; i++) {
        try {
          const code = lookup.trySubdivisionFromGps(points.lat[i], points.lon[i]);
          expect(code).toBe(whole.trySubdivisionFromGps(points.lat[i], points.lon[i]));
        } catch (e) {
          expect(e).toBeInstanceOf(DataError);
          failed++;
        }
      }
      expect(failed).toBeGreaterThan(0);
    }
  });

  it('reads a file whole unless its seal vouches for it', () => {
    // Source runs carry no seal (src/node/seal.ts): the package's own file is then read whole too.
    expect(readLazily(path)).toBeNull();
    expect(datasetOf(createGeoLookup(path)).recordPages.ready.every((r) => r === 1)).toBe(true);
    expect(readLazily(join(dir, 'missing.geolookup'), trusted)).toBeNull();
  });
});
