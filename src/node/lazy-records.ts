// The package's own dataset file with its records read by 4 KB page as lookups reach them, as a
// memory-mapped file would be (docs/ARCHITECTURE.md, "Records on demand"); a page that no longer
// sums to what it summed to at load is a DataError, never an answer: test/contract/lazy-records.test.ts.

import { closeSync, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { simdBytes } from '../format/checksum-simd.js';
import { addLanes, checksum32, finishLanes, HEADER_BYTES, startLanes } from '../format/container.js';
import { SECTIONS } from '../format/layout.js';
import { PAGE_BYTES, PAGE_SHIFT, type RecordPages } from '../format/record-pages.js';
import { DataError } from '../lookup/errors.js';
import { checkFor } from './data-path.js';

const RECORDS = SECTIONS.indexOf('records');
const TABLE_END = HEADER_BYTES + 8 + SECTIONS.length * 8;
/** Pages summed per read while the payload is checked at load. */
const SCRATCH_PAGES = 64;
/** Below this many whole pages of records, reading them at load costs less than the bookkeeping. */
const MIN_LAZY_PAGES = 64;

const closeFd = new FinalizationRegistry<number>((fd) => closeSync(fd));

export interface LazyFile {
  /** The file, in memory where the whole file would be; the records' whole pages zero until read. */
  bytes: Uint8Array;
  pages: RecordPages;
  /** The file as read (fileIdentity): another identity at the path is another file or version. */
  identity: string;
}

/** Device, inode, size and times of a file, or null where there is none. */
export function fileIdentity(path: string): string | null {
  try {
    return identityOf(statSync(path));
  } catch {
    return null;
  }
}

const identityOf = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

/**
 * The file with its records' whole pages unread and its checksum verified, or null where the caller
 * should read it whole and meet that path's errors (no regular file, a header `sealed` does not
 * vouch for, a bad section table or checksum, too few pages to gain). No check here walks records.
 */
export function readLazily(
  path: string,
  sealed: (header: Uint8Array) => boolean = (header) => checkFor(path, header) === 'checksum',
): LazyFile | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  let file: LazyFile | null = null;
  try {
    file = lazyFile(path, fd, sealed);
    return file;
  } finally {
    if (file === null) closeSync(fd);
  }
}

function lazyFile(path: string, fd: number, sealed: (header: Uint8Array) => boolean): LazyFile | null {
  const stat = fstatSync(fd);
  const size = stat.size;
  if (!stat.isFile() || size < TABLE_END) return null;
  // Header and section table first: a file read whole gets no memory allocated here.
  const head = new Uint8Array(TABLE_END);
  if (!readAt(fd, head, 0, TABLE_END) || !sealed(head.subarray(0, HEADER_BYTES))) return null;
  const dv = new DataView(head.buffer);
  if (dv.getUint32(16, true) !== size - HEADER_BYTES || dv.getUint32(HEADER_BYTES, true) !== SECTIONS.length)
    return null;
  const start = HEADER_BYTES + dv.getUint32(HEADER_BYTES + 8 + RECORDS * 8, true);
  const end = start + dv.getUint32(HEADER_BYTES + 12 + RECORDS * 8, true);
  // Lanes run over payload words; a page boundary less the header is a whole step of four.
  const lazyFrom = Math.ceil(start / PAGE_BYTES) * PAGE_BYTES;
  const lazyTo = Math.floor(end / PAGE_BYTES) * PAGE_BYTES;
  const summed = HEADER_BYTES + ((size - HEADER_BYTES) & ~15);
  if (end > size || lazyTo > summed || lazyTo - lazyFrom < MIN_LAZY_PAGES * PAGE_BYTES) return null;
  const bytes = simdBytes(size) ?? new Uint8Array(size);
  bytes.set(head);
  if (!readAt(fd, bytes, TABLE_END, lazyFrom - TABLE_END) || !readAt(fd, bytes, lazyTo, size - lazyTo)) return null;

  const lanes = startLanes();
  addLanes(bytes.subarray(HEADER_BYTES, lazyFrom), lanes);
  const first = lazyFrom >>> PAGE_SHIFT;
  const digests = new Uint32Array((lazyTo - lazyFrom) >>> PAGE_SHIFT);
  const scratch = simdBytes(SCRATCH_PAGES * PAGE_BYTES) ?? new Uint8Array(SCRATCH_PAGES * PAGE_BYTES);
  for (let at = lazyFrom; at < lazyTo; at += scratch.byteLength) {
    const n = Math.min(scratch.byteLength, lazyTo - at);
    if (!readAt(fd, scratch, 0, n, at)) return null;
    for (let o = 0; o < n; o += PAGE_BYTES)
      digests[((at + o) >>> PAGE_SHIFT) - first] = checksum32(scratch.subarray(o, o + PAGE_BYTES));
    addLanes(scratch.subarray(0, n), lanes);
  }
  addLanes(bytes.subarray(lazyTo, summed), lanes);
  if (finishLanes(lanes, bytes.subarray(summed), size - HEADER_BYTES) !== dv.getUint32(20, true)) return null;

  const pages = pagesOf(path, fd, bytes, start, first, digests);
  closeFd.register(pages, fd);
  return { bytes, pages, identity: identityOf(stat) };
}

/**
 * Reads `length` bytes at file offset `at` (default: `offset`) into `into` at `offset`; false when
 * the file ends first.
 */
function readAt(fd: number, into: Uint8Array, offset: number, length: number, at = offset): boolean {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, into, offset + done, length - done, at + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/**
 * Pages [first, first + digests.length) of `bytes` (the file, from the start of its buffer, so a
 * page of the file is a page of the buffer) read from `fd` when first needed; the records section
 * starts at byte `start`.
 */
function pagesOf(
  path: string,
  fd: number,
  bytes: Uint8Array,
  start: number,
  first: number,
  digests: Uint32Array,
): RecordPages {
  const total = Math.ceil(bytes.byteLength / PAGE_BYTES);
  const loaded = new Uint8Array(total).fill(1);
  loaded.fill(0, first, first + digests.length);
  const ready = new Uint8Array(total + 1);
  const settle = (p: number) => {
    if (p >= 0 && p < total) ready[p] = loaded[p] & (p + 1 < total ? loaded[p + 1] : 1);
  };
  for (let p = 0; p < total; p++) settle(p);
  const changed = (p: number): never => {
    throw new DataError(
      `${path}: the file changed after it was loaded (page ${p} of its records no longer matches); restart the process to load it again`,
    );
  };
  let missing = digests.length;
  /** Reads pages [p, q), all unread, in one call, and checks each against its digest. */
  const read = (p: number, q: number) => {
    if (!readAt(fd, bytes, p * PAGE_BYTES, (q - p) * PAGE_BYTES)) changed(p);
    for (let k = p; k < q; k++) {
      if (checksum32(bytes.subarray(k * PAGE_BYTES, (k + 1) * PAGE_BYTES)) !== digests[k - first]) changed(k);
      loaded[k] = 1;
      missing--;
      settle(k - 1);
      settle(k);
    }
  };
  const readOne = (p: number) => {
    if (p < total && loaded[p] === 0) read(p, p + 1);
  };
  return {
    ready,
    need(r: number) {
      const p = ((start >>> 2) + r) >>> (PAGE_SHIFT - 2);
      readOne(p);
      readOne(p + 1);
    },
    needAll() {
      for (let p = first; missing > 0 && p < first + digests.length; ) {
        if (loaded[p]) {
          p++;
          continue;
        }
        let q = p;
        while (q < first + digests.length && loaded[q] === 0) q++;
        read(p, q);
        p = q;
      }
    },
  };
}
