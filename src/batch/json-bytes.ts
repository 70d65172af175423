// JSON (RFC 8259) grammar at byte level, for the NDJSON scanner (ndjson-scan.ts) and the cutting
// of replaced members (ndjson-replace.ts): each function returns the index after what it skips.

export const OPEN = 123;
export const CLOSE = 125;
export const QUOTE = 34;
export const BACKSLASH = 92;
const MAX_DEPTH = 64;

export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Index after the string that opens at b[i], or -1 when it is not valid JSON. */
export function skipString(b: Uint8Array, i: number, end: number): number {
  for (i++; i < end; ) {
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c < 32) return -1;
    if (c !== BACKSLASH) {
      i++;
      continue;
    }
    if (i + 1 >= end) return -1;
    const e = b[i + 1];
    if (e === 117) {
      if (i + 5 >= end || !isHex(b[i + 2]) || !isHex(b[i + 3]) || !isHex(b[i + 4]) || !isHex(b[i + 5])) return -1;
      i += 6;
    } else if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === 47 ||
      e === 98 ||
      e === 102 ||
      e === 110 ||
      e === 114 ||
      e === 116
    )
      i += 2;
    else return -1;
  }
  return -1;
}

/** Index after the digits from i. */
function skipDigits(b: Uint8Array, i: number, end: number): number {
  while (i < end && b[i] >= 48 && b[i] <= 57) i++;
  return i;
}

/** Index after the number that starts at b[i] (-?int frac? exp?), or -1. */
export function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 45) i++;
  if (i >= end) return -1;
  if (b[i] === 48) i++;
  else if (b[i] >= 49 && b[i] <= 57) i = skipDigits(b, i, end);
  else return -1;
  if (i < end && b[i] === 46) {
    const j = skipDigits(b, i + 1, end);
    if (j === i + 1) return -1;
    i = j;
  }
  if (i < end && (b[i] === 101 || b[i] === 69)) {
    i++;
    if (i < end && (b[i] === 43 || b[i] === 45)) i++;
    const j = skipDigits(b, i, end);
    if (j === i) return -1;
    i = j;
  }
  return i;
}

export function skipSpace(b: Uint8Array, i: number, end: number): number {
  while (i < end && isSpace(b[i])) i++;
  return i;
}

function literal(b: Uint8Array, i: number, end: number, word: string): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

/** Index after the value at b[i] (whitespace before it already skipped), or -1. */
export function skipValue(b: Uint8Array, i: number, end: number, depth: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i, end);
  if (c === 45 || (c >= 48 && c <= 57)) return skipNumber(b, i, end);
  if (c === 116) return literal(b, i, end, 'true');
  if (c === 102) return literal(b, i, end, 'false');
  if (c === 110) return literal(b, i, end, 'null');
  if (c !== OPEN && c !== 91) return -1;
  if (depth >= MAX_DEPTH) return -1;
  const close = c === OPEN ? CLOSE : 93;
  i = skipSpace(b, i + 1, end);
  if (i < end && b[i] === close) return i + 1;
  for (;;) {
    if (i >= end) return -1;
    if (c === OPEN) {
      if (b[i] !== QUOTE) return -1;
      i = skipString(b, i, end);
      if (i < 0) return -1;
      i = skipSpace(b, i, end);
      if (i >= end || b[i] !== 58) return -1;
      i = skipSpace(b, i + 1, end);
      if (i >= end) return -1;
    }
    i = skipValue(b, i, end, depth + 1);
    if (i < 0) return -1;
    i = skipSpace(b, i, end);
    if (i >= end) return -1;
    if (b[i] === close) return i + 1;
    if (b[i] !== 44) return -1;
    i = skipSpace(b, i + 1, end);
  }
}

/** Index after the value at b[i] of a line known to be valid JSON (any depth, no recursion). */
export function skipValid(b: Uint8Array, i: number, end: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i, end);
  if (c !== OPEN && c !== 91) {
    // A number or literal ends where a separator, a closing bracket or white space starts.
    while (i < end && !isSpace(b[i]) && b[i] !== 44 && b[i] !== CLOSE && b[i] !== 93) i++;
    return i;
  }
  for (let depth = 0; ; ) {
    const d = b[i];
    if (d === QUOTE) {
      i = skipString(b, i, end);
      continue;
    }
    i++;
    if (d === OPEN || d === 91) depth++;
    else if ((d === CLOSE || d === 93) && --depth === 0) return i;
  }
}

/** Whether b[from, to) holds exactly the bytes of `key`. */
export function sameBytes(b: Uint8Array, from: number, to: number, key: Uint8Array): boolean {
  if (to - from !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[from + k] !== key[k]) return false;
  return true;
}
