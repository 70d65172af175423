// The playground's vector tiles: cut in a worker thread (tiles/tile-worker.ts), one at a time in
// the order asked, and the last few thousand kept, so a map moved back and forth asks once.

import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from 'geolookup/extend';
import type { TileDone, TileJob, TileWorkerData } from '../tiles/tile-worker.js';

/** Tiles kept (a few kB each; a z16 screen is about twenty). */
const KEPT = 4096;

export interface Tiles {
  /** The tile's MVT bytes, null when it has no feature. */
  tile(z: number, x: number, y: number): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

export function startTiles(data: TileWorkerData): Tiles {
  const worker: Worker = startModuleWorker(import.meta.url, '../tiles/tile-worker.ts', 'tile-worker', {
    workerData: data,
  });
  const kept = new Map<string, Promise<Uint8Array | null>>();
  const pending = new Map<number, { resolve: (b: Uint8Array | null) => void; reject: (e: Error) => void }>();
  let ids = 0;
  let failed: Error | null = null;
  const fail = (e: Error) => {
    failed ??= e;
    for (const p of pending.values()) p.reject(failed);
    pending.clear();
  };
  worker.on('message', (done: TileDone) => {
    const p = pending.get(done.id);
    pending.delete(done.id);
    if (done.error !== undefined) p?.reject(new Error(done.error));
    else
      p?.resolve(done.bytes === null ? null : Buffer.from(done.bytes.buffer, done.bytes.byteOffset, done.bytes.length));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the tile worker stopped (exit status ${code})`)));
  return {
    tile(z, x, y) {
      const key = `${z}/${x}/${y}`;
      let p = kept.get(key);
      if (p !== undefined) kept.delete(key);
      else {
        p = new Promise<Uint8Array | null>((resolve, reject) => {
          if (failed !== null) return reject(failed);
          const id = ++ids;
          pending.set(id, { resolve, reject });
          worker.postMessage({ id, z, x, y } satisfies TileJob);
        });
        // A failed tile is asked again next time, not kept.
        p.catch(() => kept.delete(key));
        if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
      }
      kept.set(key, p);
      return p;
    },
    async close() {
      fail(new Error('the playground is closing'));
      await worker.terminate();
    },
  };
}
