// The batch's main loop: jobs go to the least busy worker (the buffer transferred) and their
// results are written back in input order. At most JOBS_PER_WORKER jobs per worker are in
// flight or waiting to be written, and no job is sent while the output asks to drain, so
// memory stays bounded whatever the input size or output speed.

import type { Writable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { DataError } from '../lookup/errors.js';
import type { Oversize } from './input.js';
import type { InitFailed, Job, JobDone, Recycle } from './worker.js';

const JOBS_PER_WORKER = 2;

/** What the main loop waits on: the next event, or the first failure, which ends the run. */
export interface Events {
  readonly failure: Error | null;
  fail(e: Error): void;
  /** Wakes the loop waiting in turn(). */
  signal(): void;
  /** Resolves at the next signal. */
  turn(): Promise<void>;
}

export function createEvents(): Events {
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  return {
    get failure() {
      return failure;
    },
    fail(e) {
      failure ??= e;
      signal();
    },
    signal,
    turn: () => new Promise<void>((resolve) => (wake = resolve)),
  };
}

/**
 * Wakes the loop when the output drains and fails the run when it errors; returns the function
 * that stops the former (the error listener stays, so a late error is never unhandled).
 */
export function watchOutput(output: Writable, events: Events): () => void {
  output.on('drain', events.signal);
  // A reader that stops early (`| head`) ends the run with one line, not a stack trace (the code marks it as expected).
  output.on('error', (e: NodeJS.ErrnoException) =>
    events.fail(
      e.code === 'EPIPE'
        ? Object.assign(new Error('the output was closed before the end (EPIPE)'), { code: 'EPIPE' })
        : e,
    ),
  );
  return () => output.off('drain', events.signal);
}

export interface JobRun {
  pool: Worker[];
  output: Writable;
  events: Events;
  /** The first job, already read (the CSV header taken off). */
  first: Uint8Array | Oversize;
  jobs: AsyncGenerator<Uint8Array | Oversize>;
  /** Once aborted, no further job is read or sent; those in flight are still written. */
  signal?: AbortSignal;
  /** The row, terminator included, that a record over the size limit becomes. */
  oversize: Uint8Array;
  /** Input buffers handed back, for readJobs to fill again. */
  spareInputs: ArrayBuffer[];
  /** Called for each job once its output is handed to the stream, in input order. */
  onWritten: (done: JobDone) => void;
}

/** Runs every job through the pool; resolves with the time the first was sent (performance.now()). */
export async function runJobs(run: JobRun): Promise<number> {
  const { pool, output, events } = run;
  const load = pool.map(() => 0);
  const ready = new Map<number, JobDone>();
  let nextOut = 0;
  let inFlight = 0;
  const onDone = (w: number, done: JobDone) => {
    if (w >= 0) load[w]--;
    ready.set(done.seq, done);
    for (let r = ready.get(nextOut); r !== undefined; r = ready.get(nextOut)) {
      ready.delete(nextOut++);
      inFlight--;
      // A record over the size limit was never sent: its error row is run.oversize itself.
      if (r.out === run.oversize) {
        output.write(r.out);
        run.onWritten(r);
        continue;
      }
      const worker = pool[w];
      const outBuffer = r.out.buffer as ArrayBuffer;
      // Once written, the output buffer goes back for reuse (to the worker that just reported:
      // any worker can fill any buffer).
      output.write(Buffer.from(outBuffer, r.out.byteOffset, r.length), () =>
        worker.postMessage({ recycle: outBuffer } satisfies Recycle, [outBuffer]),
      );
      if (run.spareInputs.length < 2 * pool.length * JOBS_PER_WORKER)
        run.spareInputs.push(r.input.buffer as ArrayBuffer);
      run.onWritten(r);
    }
    events.signal();
  };
  pool.forEach((worker, i) => {
    worker.on('message', (m: JobDone | InitFailed) => {
      if ('error' in m)
        events.fail(m.error.name === 'DataError' ? new DataError(m.error.message) : new Error(m.error.message));
      else onDone(i, m);
    });
  });
  const send = (job: Uint8Array | Oversize, seq: number) => {
    if (!(job instanceof Uint8Array)) {
      inFlight++;
      const out = run.oversize;
      const empty = new Uint8Array(0);
      onDone(-1, { seq, out, length: out.length, input: empty, rows: 1, found: 0, notFound: 0, errors: 1 });
      return;
    }
    const bytes = job;
    let w = 0;
    for (let i = 1; i < pool.length; i++) if (load[i] < load[w]) w = i;
    load[w]++;
    inFlight++;
    pool[w].postMessage({ seq, bytes } satisfies Job, [bytes.buffer as ArrayBuffer]);
  };
  const busy = () => inFlight >= pool.length * JOBS_PER_WORKER || output.writableNeedDrain === true;
  let seq = 0;
  const firstJobAt = performance.now();
  send(run.first, seq++);
  // An abort must not wait for input that may never come (a terminal on stdin): it wins the race.
  const { signal } = run;
  const stopped = new Promise<null>((resolve) => {
    if (signal?.aborted) resolve(null);
    signal?.addEventListener('abort', () => {
      resolve(null);
      events.signal();
    });
  });
  const next = () => (signal ? Promise.race([run.jobs.next(), stopped]) : run.jobs.next());
  for (let job = await next(); job !== null && !job.done; job = await next()) {
    while (events.failure === null && busy() && !signal?.aborted) await events.turn();
    if (events.failure) throw events.failure;
    if (signal?.aborted) break;
    send(job.value, seq++);
  }
  while (events.failure === null && inFlight > 0) await events.turn();
  if (events.failure) throw events.failure;
  return firstJobAt;
}

/** Ends an output file (resolving once it is flushed), or waits for stdout to drain. */
export async function finishOutput(output: Writable, ownsOutput: boolean): Promise<void> {
  if (ownsOutput) {
    await new Promise<void>((resolve, reject) => {
      output.once('error', reject);
      output.end(resolve);
    });
  } else if (output.writableNeedDrain) await new Promise((resolve) => output.once('drain', resolve));
}
