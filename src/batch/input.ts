// The batch's input: the dataset read once into shared memory, the rows' file or stream, and
// its bytes cut into jobs of whole records.

import { fstatSync } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DataError, ValidationError } from '../lookup/errors.js';
import { readWhole } from '../node/data-path.js';
import type { Framing } from './framing.js';
import { MAX_RECORD_BYTES } from './rows.js';

/** Target job size: large enough that messaging costs nothing, small enough to keep every worker busy. */
export const JOB_BYTES = 1 << 20;
/** The first read: it decides the format and holds the CSV header. */
const HEAD_BYTES = 64 << 10;

/** Reads the dataset file once into memory every worker can see. */
export function readShared(path: string): SharedArrayBuffer {
  let bytes: Uint8Array;
  try {
    bytes = readWhole(path, (size) => new Uint8Array(new SharedArrayBuffer(size)));
  } catch (err) {
    if (err instanceof DataError) throw err;
    throw new DataError(`${path}: cannot read dataset (${(err as NodeJS.ErrnoException).code ?? String(err)})`, {
      cause: err,
    });
  }
  if (bytes.byteLength < bytes.buffer.byteLength) throw new DataError(`${path}: file shrank while being read`);
  return bytes.buffer as SharedArrayBuffer;
}

/** Reads input bytes into `target`; resolves with how many (0 at the end). */
export type ReadInto = (target: Uint8Array) => Promise<number>;

export interface Input {
  readInto: ReadInto;
  /** Bytes in all, 0 when unknown (a pipe). */
  size: number;
  /** The file's name, undefined for stdin. */
  name?: string;
}

/** A stream's chunks as a ReadInto (stdin): one copy, from the chunk into the job buffer. */
function streamReader(stream: Readable): ReadInto {
  const chunks = (stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  let chunk: Buffer | null = null;
  let at = 0;
  return async (target) => {
    while (chunk === null || at === chunk.length) {
      const next = await chunks.next();
      if (next.done) return 0;
      chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      at = 0;
    }
    const n = Math.min(target.length, chunk.length - at);
    target.set(chunk.subarray(at, at + n));
    at += n;
    return n;
  };
}

/**
 * Opens the input: the file `input` (kept in `opened` for the caller to close), or stdin when
 * it is '-' or absent. A ValidationError when `output` is the input file itself.
 */
export async function openInput(
  opts: { input?: string; output?: string; stdin?: Readable },
  opened: { file: FileHandle | null },
): Promise<Input> {
  if (opts.input === undefined || opts.input === '-') {
    let size = 0;
    if (opts.stdin === undefined) {
      try {
        const st = fstatSync(0);
        if (st.isFile()) size = st.size; // `< file`: percent and ETA work for redirected input too
      } catch {
        /* no stdin */
      }
    }
    return { readInto: streamReader(opts.stdin ?? process.stdin), size };
  }
  // Positionless reads straight into job buffers (no stream chunks to copy from).
  const fh = (opened.file = await open(opts.input, 'r'));
  const st = await fh.stat();
  if (opts.output !== undefined) {
    // Writing to the input would truncate it before it is read.
    const target = await stat(opts.output).catch(() => null);
    if (target && target.ino === st.ino && target.dev === st.dev) {
      throw new ValidationError(
        `The output ${opts.output} is the input file; writing it would destroy the input. Choose another output.`,
        { output: ['same file as the input'] },
      );
    }
  }
  const readInto: ReadInto = async (target) => (await fh.read(target, 0, target.length, null)).bytesRead;
  return { readInto, size: st.size, name: opts.input };
}

/** The input's first bytes (up to HEAD_BYTES, fewer only at its end). */
export async function readHead(readInto: ReadInto): Promise<Buffer> {
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;
  for (let n = -1; n !== 0 && headLength < head.length; headLength += n) n = await readInto(head.subarray(headLength));
  return Buffer.from(head.buffer, 0, headLength);
}

/** A record longer than MAX_RECORD_BYTES, skipped unread: it becomes one error row. */
export interface Oversize {
  oversize: true;
}

/**
 * The first bytes of the input, read on until `complete(bytes, atEnd)` says they hold what the
 * caller needs (the CSV header); a ValidationError past MAX_RECORD_BYTES.
 */
export async function readUntil(
  readInto: ReadInto,
  head: Uint8Array,
  complete: (b: Uint8Array, atEnd: boolean) => boolean,
): Promise<Uint8Array> {
  let bytes = head;
  for (;;) {
    if (complete(bytes, false)) return bytes;
    if (bytes.length > MAX_RECORD_BYTES)
      throw new ValidationError(`The header runs over ${MAX_RECORD_BYTES >> 20} MiB (an unbalanced quote?).`, {});
    const grown = new Uint8Array(2 * bytes.length + JOB_BYTES);
    grown.set(bytes);
    let total = bytes.length;
    for (let n = -1; n !== 0 && total < grown.length; total += n) n = await readInto(grown.subarray(total));
    if (total === bytes.length) return bytes; // the end of input
    bytes = grown.subarray(0, total);
  }
}

/**
 * Splits the input into jobs of whole records. Bytes are read straight into a job buffer
 * (one the workers handed back when there is one, so no fresh pages per job); only the
 * partial record after the last boundary is copied, into the next job's buffer. A record
 * over MAX_RECORD_BYTES is read past without being kept and yields an Oversize.
 */
export async function* readJobs(
  readInto: ReadInto,
  first: Uint8Array,
  framing: Framing,
  spare: ArrayBuffer[],
): AsyncGenerator<Uint8Array | Oversize> {
  let carry = first;
  for (;;) {
    // Room for the carried bytes plus a job's worth; a long record doubles it, so that holding
    // it costs linear time (every pass scans the buffer from its start), up to just past the
    // limit: a record whose end is not in sight then is over it (the workers check the others).
    const room = Math.min(carry.length + Math.max(JOB_BYTES, carry.length), MAX_RECORD_BYTES + 3);
    let buffer = spare.pop();
    while (buffer !== undefined && buffer.byteLength < room) buffer = spare.pop();
    buffer ??= new ArrayBuffer(Math.max(room, JOB_BYTES + (JOB_BYTES >> 1)));
    const view = new Uint8Array(buffer);
    view.set(carry);
    let total = carry.length;
    let ended = false;
    while (total < room) {
      const n = await readInto(view.subarray(total, room));
      if (n === 0) {
        ended = true;
        break;
      }
      total += n;
    }
    if (ended) {
      if (total > 0) yield new Uint8Array(buffer, 0, total);
      return;
    }
    const cut = framing.lastEnd(view.subarray(0, total));
    if (cut === 0 && total > MAX_RECORD_BYTES + 2) {
      yield { oversize: true };
      const rest = await skipRecord(readInto, view.subarray(0, total), framing.skipper());
      if (rest === null) return;
      carry = rest;
      continue;
    }
    carry = view.slice(cut, total); // a copy: the buffer goes to a worker
    if (cut > 0) yield new Uint8Array(buffer, 0, cut);
  }
}

/** Reads past the record that fills `held`; the bytes after it, null at the end of input. */
async function skipRecord(
  readInto: ReadInto,
  held: Uint8Array,
  skip: (chunk: Uint8Array) => number,
): Promise<Uint8Array | null> {
  let chunk = held;
  for (;;) {
    const end = skip(chunk);
    if (end >= 0) return chunk.slice(end);
    const n = await readInto(held.subarray(0, JOB_BYTES));
    if (n === 0) return null;
    chunk = held.subarray(0, n);
  }
}
