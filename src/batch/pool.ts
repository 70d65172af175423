// The batch's worker threads: started over the shared dataset bytes, given the row settings
// and a sample of the first rows to warm up on.

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../node/worker.js';
import type { Framing } from './framing.js';
import type { RowSettings } from './rows.js';
import type { DatasetShare, RowSetup } from './worker.js';

/** Input bytes the workers warm up on before the first job. */
const WARM_BYTES = 256 << 10;

/** The worker: dist/batch-worker.js beside the bundled CLI, or src/batch/worker.ts from the sources. */
function startWorker(): Worker {
  return startModuleWorker(import.meta.url, './worker.ts', 'batch-worker');
}

/**
 * The rows the workers warm up on: the first WARM_BYTES of whole records when a core is spare,
 * else the first record alone, since with a worker on every core the warm-up would slow the
 * dataset check, which every row waits for, as much as it speeds the first jobs.
 */
function warmSample(rows: Uint8Array, workers: number, framing: Framing) {
  // Whole records within WARM_BYTES: a longer first record warms nothing (its row costs as much as the warm-up saves).
  const sample = rows.subarray(0, Math.min(rows.length, WARM_BYTES));
  return sample.subarray(0, workers < availableParallelism() ? framing.lastEnd(sample) : framing.firstEnd(sample));
}

export interface PoolSetup {
  workers: number;
  dataset: SharedArrayBuffer;
  dataPath: string;
  settings: RowSettings;
  /** The first job's rows, sampled for the warm-up. */
  rows: Uint8Array;
  framing: Framing;
  /** Called when a worker fails or exits. */
  fail: (e: Error) => void;
}

/**
 * Starts the workers into `pool` (the caller terminates them). Called once the input's columns
 * are known to be there: a worker stopped while it loads its modules can leave a file
 * descriptor open. Their start-up overlaps the caller's check of the dataset: they lay their
 * views over the shared bytes unchecked, and warm their row code up on the sample meanwhile
 * (output discarded; see worker.ts); rows go out only once the check passed.
 */
export function startPool(pool: Worker[], setup: PoolSetup): void {
  const warm = warmSample(setup.rows, setup.workers, setup.framing);
  for (let i = 0; i < setup.workers; i++) {
    const worker = startWorker();
    worker.on('error', setup.fail);
    worker.on('exit', (code) => code !== 0 && setup.fail(new Error(`batch worker ${i} exited with code ${code}`)));
    worker.postMessage({ dataset: setup.dataset, name: setup.dataPath } satisfies DatasetShare);
    // A copy of the sample: a view would clone its whole buffer.
    worker.postMessage({ settings: setup.settings, warm: new Uint8Array(warm) } satisfies RowSetup);
    pool.push(worker);
  }
}
