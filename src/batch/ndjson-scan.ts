// The fast path of an NDJSON row: a byte scanner that checks the row is one JSON object and reads
// its coordinates when they are plain numbers under the names looked for. Anything else returns
// -1 and the row goes to JSON.parse (ndjson-read.ts).

import { encoder, scanDecimal } from './rows.js';
import {
  BACKSLASH,
  CLOSE,
  OPEN,
  QUOTE,
  sameBytes,
  skipNumber,
  skipSpace,
  skipString,
  skipValue,
} from './json-bytes.js';

/** Where scanRow leaves the coordinates it found. */
export const scanned = new Float64Array(2);

/** scanRow's bit for a row with a member the answers replace. */
export const REPLACED = 4;

/** Names the scanner matches in any case: lower-case ASCII, and a bit per length (mod 32) to pass most keys at once. */
export interface NameSet {
  lengths: number;
  names: Uint8Array[];
}

export function nameSet(names: readonly string[]): NameSet {
  return { lengths: names.reduce((m, n) => m | (1 << n.length), 0), names: names.map((n) => encoder.encode(n)) };
}

/** Whether b[from, to) is one of `set`'s names in any case (the caller checked set.lengths). */
function oneOf(b: Uint8Array, from: number, to: number, set: NameSet): boolean {
  for (const name of set.names) {
    if (to - from !== name.length) continue;
    let k = 0;
    while (k < name.length && (b[from + k] | 0x20) === name[k]) k++;
    if (k === name.length) return true;
  }
  return false;
}

/** The members a run writes (its answers, its extensions', error), as UTF-8, and their lengths a bit each. */
export interface AnswerNames {
  bytes: Uint8Array[];
  lengths: number;
}

export function answerNames(names: readonly string[]): AnswerNames {
  return {
    bytes: names.map((n) => encoder.encode(n)),
    // A key's length n tests bit n mod 32 (>>>): a name of 32 bytes or more sets every bit.
    lengths: names.reduce((bits, n) => {
      const length = encoder.encode(n).length;
      return bits | (length < 32 ? 1 << length : -1);
    }, 0),
  };
}

/** The core's members: what a run without extensions writes. */
const CORE_ANSWERS = answerNames(['error', 'country', 'subdivision']);

/** Whether b[from, to) names a member the answers replace. */
function answerName(b: Uint8Array, from: number, to: number, answers: AnswerNames): boolean {
  for (const name of answers.bytes) if (sameBytes(b, from, to, name)) return true;
  return false;
}

/**
 * The number at b[i] when it is plain (-?int(.frac)?, exact by scanDecimal's rules: the double
 * JSON.parse gives, -0 as 0), into scanned[slot]; returns the index after it, or -1 for
 * anything else (invalid JSON numbers, exponents, long mantissas).
 */
function plainNumber(b: Uint8Array, i: number, end: number, slot: number): number {
  const stop = skipNumber(b, i, end);
  if (stop < 0 || scanDecimal(b, i, stop, scanned, slot) !== stop || scanned[slot] !== scanned[slot]) return -1;
  return stop;
}

/**
 * Checks that b[start, end) is one JSON object and picks its top-level members named
 * latKey and lonKey (the last of each, as JSON.parse keeps the last): returns -1 when the
 * line needs JSON.parse (not valid JSON, not an object, an escaped key, a coordinate that
 * is not a plain number, another member with one of latNames / lonNames in any case), else
 * bit 0 set when the latitude is in scanned[0], bit 1 when the longitude is in scanned[1]
 * (unset: the object has no such member) and bit 2 (REPLACED) when a member is named
 * one the run writes (`answers`: "country", "subdivision", an extension's, "error").
 */
export function scanRow(
  b: Uint8Array,
  start: number,
  end: number,
  latKey: Uint8Array,
  lonKey: Uint8Array,
  latNames: NameSet | null = null,
  lonNames: NameSet | null = null,
  answers: AnswerNames = CORE_ANSWERS,
): number {
  let i = skipSpace(b, start, end);
  if (i >= end || b[i] !== OPEN) return -1;
  const latLengths = latNames === null ? 0 : latNames.lengths;
  const lonLengths = lonNames === null ? 0 : lonNames.lengths;
  let found = 0;
  i = skipSpace(b, i + 1, end);
  if (i < end && b[i] === CLOSE) return skipSpace(b, i + 1, end) === end ? 0 : -1;
  for (;;) {
    if (i >= end || b[i] !== QUOTE) return -1;
    const keyStart = i + 1;
    const keyStop = skipString(b, i, end);
    if (keyStop < 0) return -1;
    const keyEnd = keyStop - 1;
    for (let k = keyStart; k < keyEnd; k++) if (b[k] === BACKSLASH) return -1;
    i = skipSpace(b, keyStop, end);
    if (i >= end || b[i] !== 58) return -1;
    i = skipSpace(b, i + 1, end);
    if (i >= end) return -1;
    const isLat = sameBytes(b, keyStart, keyEnd, latKey);
    const isLon = sameBytes(b, keyStart, keyEnd, lonKey);
    // Most keys differ in length from every name looked for: one bit test each, no call.
    const n = keyEnd - keyStart;
    if (
      (!isLat && ((latLengths >>> n) & 1) !== 0 && oneOf(b, keyStart, keyEnd, latNames!)) ||
      (!isLon && ((lonLengths >>> n) & 1) !== 0 && oneOf(b, keyStart, keyEnd, lonNames!))
    )
      return -1;
    if (((answers.lengths >>> n) & 1) !== 0 && answerName(b, keyStart, keyEnd, answers)) found |= REPLACED;
    if (isLat || isLon) {
      i = plainNumber(b, i, end, isLat ? 0 : 1);
      if (i < 0) return -1;
      if (isLat && isLon) scanned[1] = scanned[0];
      found |= (isLat ? 1 : 0) | (isLon ? 2 : 0);
    } else i = skipValue(b, i, end, 1);
    if (i < 0) return -1;
    i = skipSpace(b, i, end);
    if (i >= end) return -1;
    if (b[i] === CLOSE) return skipSpace(b, i + 1, end) === end ? found : -1;
    if (b[i] !== 44) return -1;
    i = skipSpace(b, i + 1, end);
  }
}
