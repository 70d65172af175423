// Worker thread of `geolookup batch`: lays the dataset over the shared bytes the
// main thread read once (no copy), then turns each job of whole rows into output
// bytes and hands them back, transferring the buffer.

import { parentPort, workerData } from 'node:worker_threads';
import { readDataset } from './dataset.js';
import { csvCells, processCsv } from './batch-csv.js';
import { ndjsonCells, processNdjson } from './batch-ndjson.js';
import { spareBuffers, type ChunkResult, type RowSettings } from './batch-rows.js';

export interface WorkerInit {
  dataset: SharedArrayBuffer;
  name: string;
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

const { dataset, name, settings } = workerData as WorkerInit;
let run: ((b: Uint8Array) => ChunkResult) | null = null;
try {
  // The main thread does not read the dataset itself; a damaged file is reported from here.
  const ds = readDataset(new Uint8Array(dataset), name);
  if (settings.format === 'csv') {
    const cells = csvCells(ds, settings);
    run = (b) => processCsv(ds, settings, cells, b);
  } else {
    const cells = ndjsonCells(ds);
    run = (b) => processNdjson(ds, settings, cells, b);
  }
} catch (e) {
  const failed: InitFailed = { seq: -1, error: { name: (e as Error).name, message: (e as Error).message } };
  parentPort!.postMessage(failed);
}

parentPort!.on('message', (m: Job | Recycle) => {
  if ('recycle' in m) {
    if (spareBuffers.length < 4) spareBuffers.push(m.recycle);
    return;
  }
  if (!run) return;
  const r = run(m.bytes);
  const done: JobDone = { ...r, seq: m.seq, input: m.bytes };
  parentPort!.postMessage(done, [r.out.buffer as ArrayBuffer, m.bytes.buffer as ArrayBuffer]);
});
