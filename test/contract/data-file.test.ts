// A truncated, corrupted or foreign dataset fails at load with a clear DataError.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGeoLookup, defaultDataPath, GeoLookupError } from '../../src/index.js';
import { prng } from '../support/sample-points.js';

const original = readFileSync(defaultDataPath());
const dir = mkdtempSync(join(tmpdir(), 'geolookup-'));

function loadError(bytes: Uint8Array, name = 'bad.geolookup'): GeoLookupError {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  try {
    createGeoLookup(file);
  } catch (e) {
    expect(e).toBeInstanceOf(GeoLookupError);
    expect((e as Error).name).toBe('DataError');
    expect((e as Error).message).toContain(file);
    return e as GeoLookupError;
  }
  throw new Error('expected the load to fail');
}

describe('dataset file checks', () => {
  it('loads from a path, a Buffer, a Uint8Array and an ArrayBuffer alike', () => {
    const ab = original.buffer.slice(original.byteOffset, original.byteOffset + original.byteLength);
    for (const data of [defaultDataPath(), original, new Uint8Array(ab), ab]) {
      expect(createGeoLookup({ data }).countryFromGps(48.8566, 2.3522)).toBe('FRA');
    }
  });
  it('a truncated file', () => {
    expect(loadError(original.subarray(0, original.length - 1000)).message).toMatch(/truncated/);
    expect(loadError(original.subarray(0, 10)).message).toMatch(/too short/);
  });
  it('an extended file', () => {
    expect(loadError(Buffer.concat([original, Buffer.alloc(8)])).message).toMatch(/extended/);
  });
  it('flipped bytes anywhere in the payload', () => {
    const r = prng(5);
    for (let k = 0; k < 20; k++) {
      const bad = Buffer.from(original);
      const at = 32 + Math.floor(r() * (bad.length - 32));
      bad[at] ^= 1 << Math.floor(r() * 8);
      expect(loadError(bad).message).toMatch(/checksum/);
    }
  });
  it('a foreign file and another format version', () => {
    expect(loadError(Buffer.from('{"type":"FeatureCollection","features":[]}'.padEnd(64))).message).toMatch(/magic/);
    const v2 = Buffer.from(original);
    v2.writeUInt32LE(99, 8);
    expect(loadError(v2).message).toMatch(/version 99/);
  });
  it('a missing file', () => {
    expect(() => createGeoLookup(join(dir, 'nope.geolookup'))).toThrow(/cannot read dataset \(ENOENT\)/);
  });
});
