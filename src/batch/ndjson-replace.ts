// The members of an NDJSON row that the answer members replace: found in the row's bytes
// (answerCuts) and left out when the row is copied (copyCut), so what is left stays valid JSON.

import { BACKSLASH, CLOSE, sameBytes, skipSpace, skipString, skipValid } from './json-bytes.js';
import { decoder, encoder, extensionColumns, type RowSettings } from './rows.js';

/** Byte ranges of the current row that are left out: [cuts[2k], cuts[2k + 1]). */
const cuts: number[] = [];

/**
 * The top-level members of the object b[start, end) (valid JSON) that the answer members
 * replace ("country", "subdivision" and "timezone" when written, "error" always; every copy, whatever the
 * key's escapes), each with one separator so that what is left stays valid JSON: the comma
 * before it, or for members before the first kept one, the comma after. Returns the count of
 * ranges put in `cuts`, in order.
 */
export function answerCuts(b: Uint8Array, start: number, end: number, settings: RowSettings): number {
  let n = 0;
  let i = skipSpace(b, skipSpace(b, start, end) + 1, end);
  if (b[i] === CLOSE) return 0;
  let kept = false;
  let lead = -1; // the first of the members dropped before any is kept
  let prevEnd = -1;
  for (;;) {
    const keyStart = i;
    const keyStop = skipString(b, i, end);
    const drop = replaced(b, keyStart, keyStop, settings);
    i = skipSpace(b, skipSpace(b, keyStop, end) + 1, end);
    i = skipValid(b, i, end);
    if (!drop) {
      if (lead >= 0) {
        cuts[2 * n] = lead;
        cuts[2 * n++ + 1] = keyStart;
        lead = -1;
      }
      kept = true;
    } else if (kept) {
      cuts[2 * n] = prevEnd;
      cuts[2 * n++ + 1] = i;
    } else if (lead < 0) lead = keyStart;
    prevEnd = i;
    i = skipSpace(b, i, end);
    if (b[i] === CLOSE) break;
    i = skipSpace(b, i + 1, end);
  }
  if (lead >= 0) {
    cuts[2 * n] = lead;
    cuts[2 * n++ + 1] = prevEnd;
  }
  return n;
}

/** The members `settings` writes, which replace the row's own of those names: error always. */
export function writtenMembers(settings: RowSettings): string[] {
  return [
    'error',
    ...(settings.country ? ['country'] : []),
    ...(settings.subdivision ? ['subdivision'] : []),
    ...extensionColumns(settings),
  ];
}

const written = new WeakMap<RowSettings, Uint8Array[]>();

/** Whether the key b[keyStart, keyStop) (quotes included) names a member the answers replace. */
function replaced(b: Uint8Array, keyStart: number, keyStop: number, settings: RowSettings): boolean {
  const from = keyStart + 1;
  const to = keyStop - 1;
  if (b.subarray(from, to).includes(BACKSLASH))
    return writtenMembers(settings).includes(JSON.parse(decoder.decode(b.subarray(keyStart, keyStop))));
  let names = written.get(settings);
  if (names === undefined) written.set(settings, (names = writtenMembers(settings).map((n) => encoder.encode(n))));
  return names.some((name) => sameBytes(b, from, to, name));
}

/** b[start, close) into dst at o without the `count` ranges answerCuts put in `cuts`; returns the new o. */
export function copyCut(
  b: Uint8Array,
  start: number,
  close: number,
  count: number,
  dst: Uint8Array,
  o: number,
): number {
  let i = start;
  for (let k = 0; k <= count; k++) {
    const to = k < count ? cuts[2 * k] : close;
    for (; i < to; i++) dst[o++] = b[i];
    if (k < count) i = cuts[2 * k + 1];
  }
  return o;
}
