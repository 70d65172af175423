// Worker thread of `geolookup batch`: lays the dataset over the shared bytes the
// main thread read once (no copy), then turns each job of whole rows into output
// bytes and hands them back, transferring the buffer. Its start-up overlaps the
// main thread's check of the dataset, which it does not repeat.

import { parentPort } from 'node:worker_threads';
import { readDataset, type Dataset } from '../format/dataset.js';
import { csvCells, processCsv } from './csv.js';
import { type Framing, framingFor } from './framing.js';
import { ndjsonCells, processNdjson } from './ndjson.js';
import { spareBuffers, type ChunkResult, type RowSettings } from './rows.js';
import { extensionRow } from './extension-cells.js';
import { lookupOf } from '../lookup/engine.js';

/**
 * The first message: the dataset bytes the main thread read into shared memory. The
 * main thread checks them (checksum, pointers) while this thread lays its views over
 * them unchecked, and sends rows only once they passed.
 */
export interface DatasetShare {
  dataset: SharedArrayBuffer;
  name: string;
}

/**
 * The second message, once the input's header is read: the settings, and the first rows of the
 * input to warm the row code up on while the main thread still checks the dataset.
 */
export interface RowSetup {
  settings: RowSettings;
  warm?: Uint8Array;
}

export interface Job {
  seq: number;
  bytes: Uint8Array;
}

export interface JobDone extends Omit<ChunkResult, 'out'> {
  seq: number;
  out: Uint8Array;
  /** The job's bytes, handed back for the next job to reuse. */
  input: Uint8Array;
}

/** An output buffer handed back once written. */
export interface Recycle {
  recycle: ArrayBuffer;
}

export interface InitFailed {
  seq: -1;
  error: { name: string; message: string };
}

let ds: Dataset | null = null;
let dsBytes: Uint8Array | null = null;
let dsName = 'dataset';
let run: ((b: Uint8Array) => ChunkResult) | null = null;
let framing: Framing;

function failed(e: unknown): void {
  const report: InitFailed = { seq: -1, error: { name: (e as Error).name, message: (e as Error).message } };
  parentPort!.postMessage(report);
}

function setUp(settings: RowSettings, data: Dataset, name: string): void {
  framing = framingFor(settings.format, settings.delimiter);
  // The extensions open here, over this thread's view of the dataset (a DataError fails the run
  // before any row goes out; the main thread opened them once to report it before reading input).
  const row = extensionRow(settings, () => lookupOf(dsBytes!, name, 'none'));
  if (settings.format === 'csv') {
    const cells = csvCells(data, settings, row);
    run = (b) => processCsv(data, settings, cells, b);
  } else {
    const cells = ndjsonCells(data, settings, row);
    run = (b) => processNdjson(data, settings, cells, b);
  }
}

/** Keeps a written-out output buffer for the next job (a few at most). */
function keepSpare(buffer: ArrayBuffer): void {
  if (spareBuffers.length < 4) spareBuffers.push(buffer);
}

/**
 * Runs the row code over a sample of the input, results discarded, while this thread would
 * otherwise wait for the dataset check. Cold, V8 compiles the row loop on-stack, drops it at
 * the first loop exit and again at the first transfer (below), and compiles it again. Short
 * slices, several times over, give the loop feedback for every path and enough calls to be
 * compiled whole. The sample is the first line alone when no core is spare (see pool.ts).
 * Best effort: the sample is only rows, and nothing of it is written.
 */
function warmUp(sample: Uint8Array): void {
  if (!run || sample.length === 0) return;
  // The first buffer this thread transfers (its first job's output) detaches an ArrayBuffer,
  // which makes V8 drop every optimised function that reads typed arrays, the row loop and the
  // lookups among them (they then need a detach check). Detach a throwaway one first, so
  // the code optimised from here on is the code that stays.
  const scrap = new ArrayBuffer(8);
  structuredClone(scrap, { transfer: [scrap] });
  try {
    // One line first, so the code after the row loop has run (and has type feedback) before
    // V8 compiles the loop on-stack; optimised code without that feedback is dropped at every loop exit.
    const first = framing.firstEnd(sample);
    if (first > 0) keepSpare(run(sample.subarray(0, first)).out.buffer as ArrayBuffer);
    if (first <= 0 || first === sample.length) return;
    const step = Math.ceil(sample.length / 8);
    for (let round = 0; round < 4; round++) {
      for (let at = 0; at < sample.length; ) {
        // Whole records only, as the reader cuts them (a record longer than a step is one slice).
        let end = at + framing.lastEnd(sample.subarray(at, Math.min(sample.length, at + step)));
        if (end === at) {
          const whole = framing.firstEnd(sample.subarray(at));
          end = whole > 0 ? at + whole : sample.length;
        }
        keepSpare(run(sample.subarray(at, end)).out.buffer as ArrayBuffer);
        at = end;
      }
    }
  } catch {
    /* a warm-up that fails costs nothing: the real jobs report their own errors */
  }
}

parentPort!.on('message', (m: DatasetShare | RowSetup | Job | Recycle) => {
  if ('recycle' in m) {
    keepSpare(m.recycle);
    return;
  }
  try {
    if ('dataset' in m) {
      dsBytes = new Uint8Array(m.dataset);
      dsName = m.name;
      ds = readDataset(dsBytes, m.name, 'none');
      return;
    }
    if ('settings' in m) {
      if (ds) setUp(m.settings, ds, dsName);
      if (m.warm) warmUp(m.warm);
      return;
    }
  } catch (e) {
    failed(e);
    return;
  }
  if (!run) return;
  const r = run(m.bytes);
  const done: JobDone = { ...r, seq: m.seq, input: m.bytes };
  parentPort!.postMessage(done, [r.out.buffer as ArrayBuffer, m.bytes.buffer as ArrayBuffer]);
});
