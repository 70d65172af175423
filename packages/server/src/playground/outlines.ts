// Outlines computed once each, in a worker thread, and kept: jobs wait in three queues so that
// what the page shows now (the answer's highlight) goes before a country's subdivisions, and
// those before the world's countries computed in the background at start.

import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../../../src/node/worker.js';
import type { OutlineDone, OutlineJob } from './outline-worker.js';

export const PRIORITY = { highlight: 0, subdivisions: 1, countries: 2 } as const;

export interface Outlines {
  /** The code's MultiPolygon as JSON (null: no area), computed once per code and precision. */
  geometry(code: string, digits: number, priority: number): Promise<string | null>;
  /** Stops the worker; pending outlines reject. */
  close(): Promise<void>;
}

interface Job extends OutlineJob {
  resolve: (json: string | null) => void;
  reject: (e: Error) => void;
}

/** Outlines from the dataset file at `dataPath`. */
export function startOutlines(dataPath: string): Outlines {
  const worker: Worker = startModuleWorker(import.meta.url, './outline-worker.ts', 'playground-worker', {
    workerData: dataPath,
  });
  const cache = new Map<string, Promise<string | null>>();
  const waiting = new Map<string, Job>();
  const queues: string[][] = [[], [], []];
  let running: Job | null = null;
  let failed: Error | null = null;

  const next = () => {
    if (running !== null || failed !== null) return;
    for (const queue of queues) {
      // A key raised to a higher queue is still in its old one: skipped there once sent.
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const job = waiting.get(key);
        if (job === undefined) continue;
        waiting.delete(key);
        running = job;
        worker.postMessage({ key: job.key, code: job.code, digits: job.digits } satisfies OutlineJob);
        return;
      }
    }
  };
  const fail = (e: Error) => {
    failed ??= e;
    for (const job of [...waiting.values(), ...(running ? [running] : [])]) job.reject(failed);
    waiting.clear();
    running = null;
  };
  worker.on('message', (done: OutlineDone) => {
    const job = running;
    running = null;
    if (job !== null && job.key === done.key) {
      if (done.error !== undefined) job.reject(new Error(done.error));
      else job.resolve(done.json);
    }
    next();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the outline worker stopped (exit status ${code})`)));

  return {
    geometry(code, digits, priority) {
      const key = `${code}@${digits}`;
      const job = waiting.get(key);
      if (job !== undefined) queues[priority].push(key);
      let promise = cache.get(key);
      if (promise === undefined) {
        promise = new Promise<string | null>((resolve, reject) => {
          if (failed !== null) return reject(failed);
          waiting.set(key, { key, code, digits, resolve, reject });
          queues[priority].push(key);
        });
        // A failure is reported to each caller; an unhandled copy would end the process.
        promise.catch(() => {});
        cache.set(key, promise);
      }
      next();
      return promise;
    },
    async close() {
      fail(new Error('the playground is closing'));
      await worker.terminate();
    },
  };
}
