// Worker thread of `geolookup batch`: lays the dataset over the shared bytes the
// main thread read once (no copy), then turns each job of whole rows into output
// bytes and hands them back, transferring the buffer. Its start-up overlaps the
// main thread's check of the dataset, which it does not repeat.

import { parentPort } from 'node:worker_threads';
import { readDataset, type Dataset } from './dataset.js';
import { csvCells, processCsv } from './batch-csv.js';
import { ndjsonCells, processNdjson } from './batch-ndjson.js';
import { spareBuffers, type ChunkResult, type RowSettings } from './batch-rows.js';

/**
 * The first message: the dataset bytes the main thread read into shared memory. The
 * main thread checks them (checksum, pointers) while this thread lays its views over
 * them unchecked, and sends rows only once they passed.
 */
export interface DatasetShare {
  dataset: SharedArrayBuffer;
  name: string;
}

/** The second message, once the input's header is read. */
export interface RowSetup {
  settings: RowSettings;
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
let run: ((b: Uint8Array) => ChunkResult) | null = null;

function failed(e: unknown): void {
  const report: InitFailed = { seq: -1, error: { name: (e as Error).name, message: (e as Error).message } };
  parentPort!.postMessage(report);
}

function setUp(settings: RowSettings, data: Dataset): void {
  if (settings.format === 'csv') {
    const cells = csvCells(data, settings);
    run = (b) => processCsv(data, settings, cells, b);
  } else {
    const cells = ndjsonCells(data, settings);
    run = (b) => processNdjson(data, settings, cells, b);
  }
}

parentPort!.on('message', (m: DatasetShare | RowSetup | Job | Recycle) => {
  if ('recycle' in m) {
    if (spareBuffers.length < 4) spareBuffers.push(m.recycle);
    return;
  }
  try {
    if ('dataset' in m) {
      ds = readDataset(new Uint8Array(m.dataset), m.name, true);
      return;
    }
    if ('settings' in m) {
      if (ds) setUp(m.settings, ds);
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
