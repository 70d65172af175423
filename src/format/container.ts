// The container every dist-data file shares: a 32-byte header, then the payload.
//
//   0  magic     8 bytes  "GEOLKUP\0"
//   8  version   u32      format version (FORMAT_VERSION)
//  12  kind      u32      1 = lookup dataset, 2 = geobuf features, 3 = borders
//  16  length    u32      payload byte length
//  20  checksum  u32      checksum32(payload)
//  24  reserved  8 bytes  zero
//
// The header lets a truncated, corrupted or foreign file fail at load with a
// clear DataError instead of silently answering wrong. The format is specified in
// docs/FORMAT.md: a change to these bytes or to layout.ts is a new FORMAT_VERSION.

import { DataError } from '../lookup/errors.js';
import { sumLanesInPlace } from './checksum-simd.js';

export const MAGIC = [0x47, 0x45, 0x4f, 0x4c, 0x4b, 0x55, 0x50, 0x00]; // "GEOLKUP\0"
export const FORMAT_VERSION = 20;
export const HEADER_BYTES = 32;
export const KIND_DATASET = 1;
export const KIND_FEATURES = 2;
/** The border lines an extension ships (kind 3: packages/borders/docs/FORMAT.md). */
export const KIND_BORDERS = 3;

const KIND_NAMES: Record<number, string> = {
  [KIND_DATASET]: 'lookup dataset',
  [KIND_FEATURES]: 'geobuf features',
  [KIND_BORDERS]: 'borders file',
};

/**
 * A Fletcher-style checksum in four interleaved lanes (word i feeds lane i mod 4):
 * any single flipped bit changes a lane's first sum, moved or swapped words change
 * the second sums (test/contract/corruption.test.ts). Independent lanes let the CPU
 * overlap the additions, cheap enough for every start-up. It guards against damage,
 * not against an adversary.
 */
export function checksum32(bytes: Uint8Array): number {
  const lanes = startLanes();
  const whole = bytes.byteLength & ~15;
  addLanes(bytes.subarray(0, whole), lanes);
  return finishLanes(lanes, bytes.subarray(whole), bytes.byteLength);
}

/** The lanes [a0..a3, b0..b3] before the first word. */
export function startLanes(): Int32Array {
  const lanes = new Int32Array(8);
  lanes[0] = 1;
  return lanes;
}

/**
 * Adds `bytes` (a multiple of 16 long) to `lanes`, as the next words of the payload: a payload
 * summed in pieces, in order, sums as in one (src/node/lazy-records.ts reads it so).
 */
export function addLanes(bytes: Uint8Array, lanes: Int32Array): void {
  const n = bytes.byteLength >>> 2;
  // In place by WebAssembly SIMD for bytes read into its memory, else in chunks by a small
  // function: V8 optimises it after a few chunks and every later chunk runs optimised, where one
  // loop over the whole file would run mostly unoptimised at start-up.
  if (sumLanesInPlace(bytes, n, lanes)) return;
  const view =
    (bytes.byteOffset & 3) === 0
      ? new Int32Array(bytes.buffer, bytes.byteOffset, n)
      : new Int32Array(bytes.slice().buffer);
  for (let from = 0; from < n; from += CHUNK_WORDS) sumLanes(view, from, Math.min(n, from + CHUNK_WORDS), lanes);
}

/** The checksum of a payload of `length` bytes whose lanes hold all but its last `tail` (under 16 bytes). */
export function finishLanes(lanes: Int32Array, tail: Uint8Array, length: number): number {
  let [a0, a1, , , b0, b1] = lanes;
  const words = tail.byteLength >>> 2;
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let i = 0; i < words; i++) {
    a0 = (a0 + view.getInt32(i * 4, true)) | 0;
    b0 = (b0 + a0) | 0;
  }
  for (let i = words * 4; i < tail.byteLength; i++) {
    a1 = (a1 + tail[i]) | 0;
    b1 = (b1 + a1) | 0;
  }
  const h1 =
    Math.imul(a0, 0x9e3779b1) ^
    Math.imul(a1, 0x85ebca6b) ^
    Math.imul(lanes[2], 0xc2b2ae35) ^
    Math.imul(lanes[3], 0x27d4eb2f);
  const h2 =
    Math.imul(b0, 0x165667b1) ^
    Math.imul(b1, 0xd3a2646c | 1) ^
    Math.imul(lanes[6], 0xfd7046c5) ^
    Math.imul(lanes[7], 0xb55a4f09);
  return (h1 ^ Math.imul(h2 ^ (h2 >>> 15), 0x2c1b3c6d) ^ length) >>> 0;
}

const CHUNK_WORDS = 1 << 14;

function sumLanes(view: Int32Array, from: number, to: number, lanes: Int32Array): void {
  let a0 = lanes[0],
    a1 = lanes[1],
    a2 = lanes[2],
    a3 = lanes[3];
  let b0 = lanes[4],
    b1 = lanes[5],
    b2 = lanes[6],
    b3 = lanes[7];
  for (let i = from; i < to; i += 4) {
    a0 = (a0 + view[i]) | 0;
    a1 = (a1 + view[i + 1]) | 0;
    a2 = (a2 + view[i + 2]) | 0;
    a3 = (a3 + view[i + 3]) | 0;
    b0 = (b0 + a0) | 0;
    b1 = (b1 + a1) | 0;
    b2 = (b2 + a2) | 0;
    b3 = (b3 + a3) | 0;
  }
  lanes[0] = a0;
  lanes[1] = a1;
  lanes[2] = a2;
  lanes[3] = a3;
  lanes[4] = b0;
  lanes[5] = b1;
  lanes[6] = b2;
  lanes[7] = b3;
}

export function wrapPayload(kind: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + payload.byteLength);
  out.set(MAGIC, 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, FORMAT_VERSION, true);
  dv.setUint32(12, kind, true);
  dv.setUint32(16, payload.byteLength, true);
  dv.setUint32(20, checksum32(payload), true);
  out.set(payload, HEADER_BYTES);
  return out;
}

/** Anything a dataset can be handed over as. */
export type BinaryInput = ArrayBuffer | SharedArrayBuffer | Uint8Array;

export function toBytes(input: BinaryInput, name: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (
    input instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)
  ) {
    return new Uint8Array(input);
  }
  throw new DataError(`${name}: expected a file path, Buffer, Uint8Array or ArrayBuffer`);
}

/** Whether typed arrays on this host read little-endian, as every dataset is written. */
export const hostLittleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The seal (src/node/seal.ts) in a file's header: version:length:checksum ('' when too short to have one). */
export function sealOf(bytes: Uint8Array): string {
  if (bytes.byteLength < HEADER_BYTES) return '';
  const dv = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  return `${dv.getUint32(8, true)}:${dv.getUint32(16, true)}:${dv.getUint32(20, true)}`;
}

/**
 * The runtime lays typed arrays over the file's bytes, which are little-endian; on a
 * big-endian host (Node runs on s390x) every word would read wrong, so loading stops there
 * with this error rather than with a misleading checksum mismatch or wrong answers.
 */
export function checkByteOrder(littleEndian: boolean, name: string): void {
  if (!littleEndian)
    throw new DataError(
      `${name}: this host is big-endian; geolookup datasets are little-endian and are read in place, so they cannot be used here`,
    );
}

/**
 * Checks the header and returns the payload as a view on an 8-byte aligned
 * buffer (copied once only when the caller's buffer is misaligned), so typed
 * arrays can be laid over it without copying. `verified` skips the checksum, for
 * bytes that already passed it (a batch worker reading what the main thread checked).
 */
export function unwrapPayload(input: BinaryInput, expectedKind: number, name: string, verified = false): Uint8Array {
  checkByteOrder(hostLittleEndian, name);
  const bytes = toBytes(input, name);
  if (bytes.byteLength < HEADER_BYTES) {
    throw new DataError(
      `${name}: file is ${bytes.byteLength} bytes, too short to be a geolookup ${KIND_NAMES[expectedKind]} (truncated?)`,
    );
  }
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i]) throw new DataError(`${name}: not a geolookup data file (bad magic bytes)`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = dv.getUint32(8, true);
  if (version !== FORMAT_VERSION) {
    throw new DataError(
      `${name}: format version ${version}, this library reads version ${FORMAT_VERSION}; rebuild the data with this version's build-data`,
    );
  }
  const kind = dv.getUint32(12, true);
  if (kind !== expectedKind) {
    throw new DataError(
      `${name}: holds ${KIND_NAMES[kind] ?? `unknown kind ${kind}`}, expected ${KIND_NAMES[expectedKind]}`,
    );
  }
  const length = dv.getUint32(16, true);
  if (bytes.byteLength !== HEADER_BYTES + length) {
    throw new DataError(
      `${name}: payload is ${bytes.byteLength - HEADER_BYTES} bytes, header says ${length} (truncated or extended file)`,
    );
  }
  let payload = bytes.subarray(HEADER_BYTES);
  if (payload.byteOffset % 8 !== 0) payload = payload.slice();
  if (!verified && checksum32(payload) !== dv.getUint32(20, true))
    throw new DataError(`${name}: checksum mismatch (corrupted file)`);
  return payload;
}
