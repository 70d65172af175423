// Which pages of the records section are in memory. Bytes handed over whole have every page; the
// package's own dataset file is read page by page as lookups reach its records
// (src/node/lazy-records.ts), so every reader of a record asks for its page first.

/** Pages of 4 KB, counted from the start of the buffer the records section lies in. */
export const PAGE_SHIFT = 12;
export const PAGE_BYTES = 1 << PAGE_SHIFT;
/**
 * A record with its default table spans at most a page's words, so the page it starts on and the
 * next hold it whole (build-data refuses a longer one: build-data/index/leaf.ts).
 */
export const MAX_RECORD_SPAN_WORDS = PAGE_BYTES / 4;

export interface RecordPages {
  /** Per page of the buffer: 1 when it and the next page are in memory, so a record starting on it reads whole. */
  readonly ready: Uint8Array;
  /** Brings the record at word `r` of the records section (and its default table) into memory. */
  need(r: number): void;
  /** Brings every record into memory, for readers that visit them all (export, the bench's record test). */
  needAll(): void;
}

/** Pages of records that are all in memory already. */
export function residentPages(records: Uint32Array): RecordPages {
  const ready = new Uint8Array(((records.byteOffset + records.byteLength) >>> PAGE_SHIFT) + 2).fill(1);
  return { ready, need() {}, needAll() {} };
}
