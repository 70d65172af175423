// Worker thread of the playground's tiles: cutting a block takes a second or two and computing the
// world's overview a few seconds, which must never hold up a lookup on the server's thread.

import { parentPort, workerData } from 'node:worker_threads';
import { createGeoLookup } from 'geolookup';
import { readOverview } from './overview.js';
import { type TileSource, tileSource } from './tile-source.js';

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
  /** The prebuilt overview of that dataset (overview.ts), or null to compute it. */
  prebuilt: string | null;
}

const { data, overview, prebuilt } = workerData as TileWorkerData;
const lookup = createGeoLookup(data);
const computed = () => (overview === data ? lookup : createGeoLookup(overview));
let source: TileSource;
try {
  source = tileSource(lookup, prebuilt === null ? computed() : readOverview(prebuilt));
} catch {
  // An unreadable prebuilt file costs the seconds of computing the overview, never the map.
  source = tileSource(lookup, computed());
}
// The overview now, before the page asks for it: the map opens on the world. Should that fail, its
// tiles say why when asked, and the blocks' tiles still come.
try {
  source.warm();
} catch {}

parentPort!.on('message', ({ id, z, x, y }: TileJob) => {
  let done: TileDone;
  try {
    done = { id, bytes: source.tile(z, x, y) };
  } catch (e) {
    done = { id, bytes: null, error: (e as Error).message };
  }
  parentPort!.postMessage(done);
});
