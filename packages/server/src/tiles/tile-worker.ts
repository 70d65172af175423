// Worker thread of the playground's tiles: cutting a block takes a second or two and the world's
// overview tens of seconds, which must never hold up a lookup on the server's thread.

import { parentPort, workerData } from 'node:worker_threads';
import { createGeoLookup } from 'geolookup';
import { tileSource } from './tile-source.js';

export interface TileJob {
  id: number;
  z: number;
  x: number;
  y: number;
}

export interface TileDone {
  id: number;
  /** The tile's bytes, null when it has no feature. */
  bytes: Uint8Array | null;
  error?: string;
}

export interface TileWorkerData {
  /** The answering dataset file. */
  data: string;
  /** The dataset the overview (low zooms) is drawn from. */
  overview: string;
}

const { data, overview } = workerData as TileWorkerData;
const lookup = createGeoLookup(data);
const source = tileSource(lookup, overview === data ? lookup : createGeoLookup(overview));

parentPort!.on('message', ({ id, z, x, y }: TileJob) => {
  let done: TileDone;
  try {
    done = { id, bytes: source.tile(z, x, y) };
  } catch (e) {
    done = { id, bytes: null, error: (e as Error).message };
  }
  parentPort!.postMessage(done);
});
