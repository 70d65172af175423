// Loading a dataset (src/index.ts createGeoLookup, src/format/dataset.ts readDataset): every form
// the bytes can come in answers alike, and the reader lays its tables over the file as the
// layout says. On the world dataset: test/contract/data-file.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEADER_BYTES } from '../../src/format/container.js';
import { readDataset } from '../../src/format/dataset.js';
import { GRID_COLS, GRID_ROWS, SECTIONS } from '../../src/format/layout.js';
import { createGeoLookup, DataError } from '../../src/index.js';
import { fixtureBytes, fixturePath, scratchPath, sectionOf } from '../fixtures/datasets.js';

const SMR: [number, number] = [43.95, 12.45];

describe('createGeoLookup', () => {
  it('takes a path, a Buffer, a Uint8Array, an ArrayBuffer, a SharedArrayBuffer, or any of them as { data }', () => {
    const file = readFileSync(fixturePath('iso'));
    const ab = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    const shared = new SharedArrayBuffer(file.byteLength);
    new Uint8Array(shared).set(file);
    for (const data of [fixturePath('iso'), file, new Uint8Array(ab), ab, shared]) {
      expect(createGeoLookup(data).countryFromGps(...SMR)).toBe('SMR');
      expect(createGeoLookup({ data }).countryFromGps(...SMR)).toBe('SMR');
    }
  });
  it('takes bytes at any offset in their buffer', () => {
    const file = fixtureBytes('iso');
    for (const shift of [1, 4, 8]) {
      const moved = new Uint8Array(file.byteLength + shift);
      moved.set(file, shift);
      expect(createGeoLookup(moved.subarray(shift)).countryFromGps(...SMR)).toBe('SMR');
    }
  });
  it('names a missing file and the reason', () => {
    const missing = scratchPath('missing.geolookup');
    expect(() => createGeoLookup(missing)).toThrow(DataError);
    expect(() => createGeoLookup(missing)).toThrow(`${missing}: cannot read dataset (ENOENT)`);
  });
  it('names bytes handed over without a path "dataset"', () => {
    expect(() => createGeoLookup(new Uint8Array(10))).toThrow(/^dataset: file is 10 bytes, too short/);
  });
});

describe('readDataset on the fixture', () => {
  const file = fixtureBytes('iso');
  const ds = readDataset(file, 'iso.geolookup');
  it('lays the grid, blocks and records over the file without copying', () => {
    expect(ds.grid.length).toBe(GRID_COLS * GRID_ROWS);
    expect(ds.gridCountry.length).toBe(ds.grid.length);
    expect(ds.blockCountry.length).toBe(ds.blocks.length);
    expect(ds.blockRegion8.length).toBe((ds.depth1Bases.length / 4) * ds.fanouts[0] ** 2);
    for (const [name, array] of [
      ['grid', ds.grid],
      ['blocks', ds.blocks],
      ['records', ds.records],
    ] as const) {
      expect(array.buffer).toBe(file.buffer);
      expect(array.byteOffset).toBe(sectionOf(file, name).offset);
    }
    expect(ds.byteLength).toBe(file.byteLength - HEADER_BYTES);
  });
  it('lists its sections in payload order, each 8-byte aligned and inside the payload', () => {
    const sections = SECTIONS.map((name) => sectionOf(file, name));
    for (const s of sections) {
      expect((s.offset - HEADER_BYTES) % 8).toBe(0);
      expect(s.offset + s.length).toBeLessThanOrEqual(file.byteLength);
    }
    for (let i = 1; i < sections.length; i++)
      expect(sections[i].offset).toBeGreaterThanOrEqual(sections[i - 1].offset + sections[i - 1].length);
  });
  it('reads the code tables and the regions from the metadata and the region table', () => {
    expect(ds.countryCodes).toEqual(ds.meta.countries.map((c) => c.code));
    expect(ds.countryByCode.get('UKR')).toBe(ds.countryCodes.indexOf('UKR'));
    expect(ds.alpha2ToAlpha3.get('UA')).toBe('UKR');
    expect(ds.aliasCountry.get('FI-01')).toBe(ds.countryCodes.indexOf('ALA'));
    expect(ds.subdivisionParent[ds.subdivisionByCode.get('FJ-05')!]).toBe(ds.subdivisionByCode.get('FJ-E'));
    expect(ds.subdivisionParent[ds.subdivisionByCode.get('FJ-E')!]).toBe(-1);
    expect(ds.regionCountry[0]).toBe(-1); // region 0 is "no country"
    expect(ds.regionSubdivision[0]).toBe(-1);
    expect(ds.fanouts).toEqual(Int32Array.from(ds.meta.params.fanouts));
    expect(ds.parts.numItems).toBe(ds.partCodes.length);
  });
});
