// Where records end, per format: the reader cuts jobs with it, skips records over the size
// limit with it, and the workers cut their warm-up sample with it, so all agree.

import { lastRecordEnd, nextRecordEnd, recordSkipper } from './csv.js';
import type { BatchFormat } from './rows.js';

const LF = 10;

export interface Framing {
  /** Index just past the first complete record of b (which starts at a record boundary), 0 when none. */
  firstEnd(b: Uint8Array): number;
  /** Index just past the last complete record of b, 0 when none. */
  lastEnd(b: Uint8Array): number;
  /** A scanner fed the rest of an over-long record chunk by chunk: index past its end in the chunk, or -1. */
  skipper(): (chunk: Uint8Array) => number;
}

/** NDJSON records are lines; CSV records follow src/batch/csv.ts's quoting rule. */
export function framingFor(format: BatchFormat, delimiter: number): Framing {
  if (format === 'ndjson')
    return {
      firstEnd: (b) => b.indexOf(LF) + 1,
      lastEnd: (b) => b.lastIndexOf(LF) + 1,
      skipper: () => (chunk) => chunk.indexOf(LF) + 1 || -1,
    };
  return {
    firstEnd: (b) => Math.max(0, nextRecordEnd(b, 0, delimiter)),
    lastEnd: (b) => lastRecordEnd(b, delimiter),
    skipper: () => recordSkipper(delimiter),
  };
}
