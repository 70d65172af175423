// Worker thread of `geolookup playground`: outlines (geometryOf) from the map dataset, one code
// per message, so the seconds a large country takes on the full dataset never hold up a lookup.

import { parentPort, workerData } from 'node:worker_threads';
import { createGeoLookup } from 'geolookup';
import { geometryOf } from 'geolookup';
import { quantise } from './quantise.js';

export interface OutlineJob {
  key: string;
  code: string;
  /** Decimals kept (quantise.ts). */
  digits: number;
}

export interface OutlineDone {
  key: string;
  /** The MultiPolygon as JSON, or null when the code holds no area at this precision. */
  json: string | null;
  /** Why there is no outline (an unknown code in the map dataset). */
  error?: string;
}

const lookup = createGeoLookup(workerData as string);

parentPort!.on('message', ({ key, code, digits }: OutlineJob) => {
  let done: OutlineDone;
  try {
    const g = quantise(geometryOf(code, lookup), digits);
    done = { key, json: g.coordinates.length > 0 ? JSON.stringify(g) : null };
  } catch (e) {
    done = { key, json: null, error: (e as Error).message };
  }
  parentPort!.postMessage(done);
});
