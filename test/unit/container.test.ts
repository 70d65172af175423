// The container every dataset file shares (src/format/container.ts): the 32-byte header, the
// checksum, the kinds, and the DataError each kind of damage gives, naming the file. The same
// damage drawn at random over the world dataset: test/contract/corruption.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checksum32,
  FORMAT_VERSION,
  HEADER_BYTES,
  KIND_DATASET,
  KIND_FEATURES,
  MAGIC,
  sealOf,
  toBytes,
  unwrapPayload,
  wrapPayload,
} from '../../src/format/container.js';
import { createGeoLookup, DataError } from '../../src/index.js';
import { prng } from '../support/sample-points.js';
import { fixtureBytes, fixturePath, scratchPath } from '../fixtures/datasets.js';
import { thrown } from '../support/thrown.js';

/** The DataError `f` throws. */
const dataError = (f: () => unknown) => thrown(f, DataError);

const header = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
/** A damage that edits the bytes where they are. */
const inPlace = (edit: (file: Uint8Array) => void) => (file: Uint8Array) => {
  edit(file);
  return file;
};

describe('the header of a built dataset', () => {
  it('holds the magic, this version, the kind, the payload length and its checksum', () => {
    const file = fixtureBytes('iso');
    const dv = header(file);
    expect([...file.subarray(0, 8)]).toEqual(MAGIC);
    expect(new TextDecoder().decode(file.subarray(0, 7))).toBe('GEOLKUP');
    expect(dv.getUint32(8, true)).toBe(FORMAT_VERSION);
    expect(dv.getUint32(12, true)).toBe(KIND_DATASET);
    expect(dv.getUint32(16, true)).toBe(file.byteLength - HEADER_BYTES);
    expect(dv.getUint32(20, true)).toBe(checksum32(file.subarray(HEADER_BYTES)));
    expect([...file.subarray(24, HEADER_BYTES)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(sealOf(file)).toBe(`${FORMAT_VERSION}:${file.byteLength - HEADER_BYTES}:${dv.getUint32(20, true)}`);
  });
  it('of the geobuf beside it says features', () => {
    const geobuf = readFileSync(fixturePath('iso').replace(/\.geolookup$/, '.geobuf'));
    expect(header(geobuf).getUint32(12, true)).toBe(KIND_FEATURES);
    expect(unwrapPayload(geobuf, KIND_FEATURES, 'iso.geobuf').byteLength).toBe(geobuf.byteLength - HEADER_BYTES);
    expect(dataError(() => unwrapPayload(geobuf, KIND_DATASET, 'iso.geobuf')).message).toBe(
      'iso.geobuf: holds geobuf features, expected lookup dataset',
    );
  });
});

describe('wrapPayload and unwrapPayload', () => {
  it('round-trip any payload, on an 8-byte aligned view', () => {
    for (const n of [0, 1, 3, 4, 7, 8, 1000]) {
      const payload = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 255);
      const file = wrapPayload(KIND_FEATURES, payload);
      expect(file.byteLength).toBe(HEADER_BYTES + n);
      const back = unwrapPayload(file, KIND_FEATURES, 'f');
      expect([...back]).toEqual([...payload]);
      expect(back.byteOffset % 8).toBe(0);
    }
  });
  it('copy a payload that is not 8-byte aligned, and leave an aligned one in place', () => {
    const file = wrapPayload(KIND_DATASET, new Uint8Array(64).fill(7));
    const shifted = new Uint8Array(file.byteLength + 4);
    shifted.set(file, 4);
    const misaligned = unwrapPayload(shifted.subarray(4), KIND_DATASET, 'f');
    expect(misaligned.byteOffset % 8).toBe(0);
    expect(misaligned.buffer).not.toBe(shifted.buffer);
    const aligned = unwrapPayload(file, KIND_DATASET, 'f');
    expect(aligned.buffer).toBe(file.buffer);
  });
  it('skip the checksum only when told the bytes were verified', () => {
    const file = wrapPayload(KIND_DATASET, new Uint8Array(64).fill(1));
    file[HEADER_BYTES + 5] ^= 0xff;
    expect(dataError(() => unwrapPayload(file, KIND_DATASET, 'f')).message).toBe(
      'f: checksum mismatch (corrupted file)',
    );
    expect(unwrapPayload(file, KIND_DATASET, 'f', true).byteLength).toBe(64);
  });
});

describe('damage to a dataset → DataError naming the file and the problem', () => {
  const name = 'fixture.geolookup';
  const cases: [string, (file: Uint8Array) => Uint8Array, string][] = [
    ['empty', () => new Uint8Array(0), 'file is 0 bytes, too short to be a geolookup lookup dataset (truncated?)'],
    [
      'shorter than a header',
      (f) => f.subarray(0, HEADER_BYTES - 1),
      'file is 31 bytes, too short to be a geolookup lookup dataset (truncated?)',
    ],
    ['foreign', () => new TextEncoder().encode('{"type":"FeatureCollection"}'.padEnd(64)), 'not a geolookup data file'],
    ['a flipped magic byte', inPlace((f) => void (f[3] ^= 0x20)), 'not a geolookup data file (bad magic bytes)'],
    [
      'another format version',
      inPlace((f) => header(f).setUint32(8, FORMAT_VERSION + 1, true)),
      `format version ${FORMAT_VERSION + 1}, this library reads version ${FORMAT_VERSION}`,
    ],
    [
      'an unknown kind',
      inPlace((f) => header(f).setUint32(12, 7, true)),
      'holds unknown kind 7, expected lookup dataset',
    ],
    ['features', inPlace((f) => header(f).setUint32(12, KIND_FEATURES, true)), 'holds geobuf features'],
    ['truncated by a byte', (f) => f.subarray(0, f.byteLength - 1), '(truncated or extended file)'],
    ['truncated to its header', (f) => f.subarray(0, HEADER_BYTES), '(truncated or extended file)'],
    ['extended by a byte', (f) => extend(f, 1), '(truncated or extended file)'],
    ['a wrong length field', inPlace((f) => header(f).setUint32(16, 8, true)), 'header says 8'],
    [
      'a wrong checksum field',
      inPlace((f) => header(f).setUint32(20, header(f).getUint32(20, true) ^ 1, true)),
      'checksum',
    ],
    [
      'a flipped payload bit',
      inPlace((f) => void (f[f.byteLength >> 1] ^= 0x10)),
      'checksum mismatch (corrupted file)',
    ],
    ['a flipped last byte', inPlace((f) => void (f[f.byteLength - 1] ^= 1)), 'checksum mismatch (corrupted file)'],
  ];
  it.each(cases)('%s', (_case, damage, problem) => {
    const bad = damage(fixtureBytes('iso'));
    const e = dataError(() => unwrapPayload(bad, KIND_DATASET, name));
    expect(e.message.startsWith(`${name}: `)).toBe(true);
    expect(e.message).toContain(problem);
    expect(e.toProblem()).toMatchObject({ status: 500, type: 'https://geolookup.dev/problems/data' });
  });
  it('through a file path, the message names that path', () => {
    const file = scratchPath('container-truncated.geolookup');
    const whole = fixtureBytes('iso');
    writeFileSync(file, whole.subarray(0, 1000));
    const says = whole.byteLength - HEADER_BYTES;
    expect(dataError(() => createGeoLookup(file)).message).toBe(
      `${file}: payload is ${1000 - HEADER_BYTES} bytes, header says ${says} (truncated or extended file)`,
    );
  });
  it('the reserved header bytes are not checked', () => {
    const file = fixtureBytes('zones');
    file.fill(0xee, 24, HEADER_BYTES);
    expect(unwrapPayload(file, KIND_DATASET, name).byteLength).toBe(file.byteLength - HEADER_BYTES);
  });
});

describe('checksum32', () => {
  const r = prng(3);
  const bytes = Uint8Array.from({ length: 4099 }, () => Math.floor(r() * 256));
  const sum = checksum32(bytes);
  it('changes with any single flipped bit, in the words and in the ragged tail', () => {
    for (const at of [0, 1, 2, 3, 4, 1234, 4095, 4096, 4097, 4098]) {
      for (const bit of [0, 7]) {
        const copy = bytes.slice();
        copy[at] ^= 1 << bit;
        expect(checksum32(copy), `byte ${at} bit ${bit}`).not.toBe(sum);
      }
    }
  });
  it('changes when two words are swapped, or moved by four lanes', () => {
    const swapped = bytes.slice();
    swapped.set(bytes.subarray(0, 4), 16);
    swapped.set(bytes.subarray(16, 20), 0);
    expect(checksum32(swapped)).not.toBe(sum);
    const moved = bytes.slice();
    moved.set(bytes.subarray(0, 16), 16);
    moved.set(bytes.subarray(16, 32), 0);
    expect(checksum32(moved)).not.toBe(sum);
  });
  it('depends on the length: trailing zero bytes change it', () => {
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(checksum32(longer)).not.toBe(sum);
    expect(checksum32(new Uint8Array(0))).not.toBe(checksum32(new Uint8Array(4)));
  });
  it('reads a misaligned view as the same bytes', () => {
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(checksum32(shifted.subarray(1))).toBe(sum);
  });
  it('is an unsigned 32-bit number and the same on every call', () => {
    expect(Number.isInteger(sum) && sum >= 0 && sum < 2 ** 32).toBe(true);
    expect(checksum32(bytes.slice())).toBe(sum);
  });
  it('sums chunk after chunk as one pass would (a payload longer than a chunk)', () => {
    const big = new Uint8Array(1 << 18);
    for (let i = 0; i < big.length; i += 997) big[i] = i & 255;
    const s = checksum32(big);
    big[(1 << 17) + 4] ^= 1;
    expect(checksum32(big)).not.toBe(s);
  });
});

describe('toBytes and sealOf', () => {
  it('take a Uint8Array as it is, and an ArrayBuffer or a SharedArrayBuffer as a view', () => {
    const u8 = new Uint8Array(8);
    expect(toBytes(u8, 'x')).toBe(u8);
    expect(toBytes(u8.buffer, 'x').byteLength).toBe(8);
    expect(toBytes(new SharedArrayBuffer(16), 'x').byteLength).toBe(16);
  });
  it.each([
    ['a string', 'path'],
    ['an array', [1, 2]],
    ['null', null],
    ['a DataView', new DataView(new ArrayBuffer(4))],
  ])('refuse %s with a DataError naming the input', (_name, value) => {
    expect(dataError(() => toBytes(value as never, 'input')).message).toBe(
      'input: expected a file path, Buffer, Uint8Array or ArrayBuffer',
    );
  });
  it('give no seal for bytes shorter than a header', () => {
    expect(sealOf(new Uint8Array(HEADER_BYTES - 1))).toBe('');
  });
});

function extend(file: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(file.byteLength + n);
  out.set(file);
  return out;
}
