// The borders build's two kinds of work, in worker threads so both cores take part (build.ts):
// the border lines of every other row of level-0 cells, and rows of a layer's far table.

import { parentPort, workerData } from 'node:worker_threads';
import Flatbush from 'flatbush';
import type { Layer } from '../src/layout.js';
import { borderSearch } from '../src/search.js';
import { loadDatasetFile } from 'geolookup/extend';
import type { EncodedLines } from './encode.js';
import { cellBorders } from './extract.js';
import { farRows } from './far-table.js';

export type Task =
  | { kind: 'cells'; dataset: string; parity: number }
  | {
      kind: 'far';
      lines: EncodedLines;
      regions: { country: Int32Array; subdivision: Int32Array; countries: number; subdivisions: number };
      layer: Layer;
      rows: [number, number];
    };

const task = workerData as Task;
if (task.kind === 'cells') {
  const ds = loadDatasetFile(task.dataset);
  parentPort!.postMessage(cellBorders(ds, (_c, r) => r % 2 === task.parity));
} else {
  const { lines, regions } = task;
  const index = Flatbush.from(lines.flatbush.buffer as ArrayBuffer, lines.flatbush.byteOffset);
  const search = borderSearch(
    { ...lines, index, regionCountry: regions.country, regionSubdivision: regions.subdivision },
    regions.countries,
    regions.subdivisions,
  );
  const far = farRows(search, task.layer, task.rows[0], task.rows[1]);
  parentPort!.postMessage(far, [far.buffer as ArrayBuffer]);
}
