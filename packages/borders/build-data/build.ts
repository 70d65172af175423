// node --import tsx packages/borders/build-data/build.ts [--dataset FILE] [--out FILE] [--force]
// @geolookup/borders' file: the border lines of a lookup dataset (the world's by default), with
// the far tables that let a point far from every border answer without a search.
// It reads the built dataset, never the sources, so its lines are the answers' own edges.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { FAR_COLS, FAR_ROWS, LAYERS, type Layer } from '../src/layout.js';
import { hashFolders, loadDatasetFile, sealOf } from 'geolookup/extend';
import { encodeLines } from './encode.js';
import { type cellBorders, sideBorders } from './extract.js';
import { bordersFile, regionCodes } from './file.js';
import type { Task } from './worker.js';

// The repository's root: the world dataset it draws from is the core's build (run from the root).
const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: join(root, 'dist-data/world.geolookup') },
    out: { type: 'string', default: join(root, 'packages/borders/dist-data/world.borders') },
    force: { type: 'boolean', default: false },
  },
});
const datasetPath = values.dataset!;
const out = values.out!;

const datasetBytes = readFileSync(datasetPath);
const stamp = `${out.replace(/\.borders$/, '')}.inputs-sha256`;
const hash = hashFolders(createHash('sha256'), root, [
  'packages/borders/build-data',
  'packages/borders/src',
  'src/export',
])
  .update(sealOf(datasetBytes))
  .digest('hex');
if (!values.force && existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
  console.log(`build-data: ${out} is up to date (inputs unchanged); --force rebuilds`);
  process.exit(0);
}

const t0 = Date.now();
const ds = loadDatasetFile(datasetPath);

/** Runs a task of worker.ts in a thread. tsx's hooks do not reach threads: the worker registers them. */
function inWorker<T>(task: Task): Promise<T> {
  const module = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${module}); })`;
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: task });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once(
      'exit',
      (code) => code !== 0 && reject(new Error(`borders: a ${task.kind} worker exited with ${code}`)),
    );
  });
}

// The lines: every other row of cells in each of two threads, then the lines along cell sides.
const halves = await Promise.all(
  [0, 1].map((parity) => inWorker<ReturnType<typeof cellBorders>>({ kind: 'cells', dataset: datasetPath, parity })),
);
const lines = [...halves[0].lines, ...halves[1].lines, ...sideBorders(ds, [halves[0].sides, halves[1].sides])];
const encoded = encodeLines(lines);
const t1 = Date.now();
console.log(
  `build-data: borders: ${encoded.lines} lines, ${encoded.vertices} vertices, ${encoded.sides.length / 2} chunks, ` +
    `${(encoded.stream.byteLength / 1e6).toFixed(1)} MB of deltas, in ${((t1 - t0) / 1000).toFixed(0)} s`,
);

// The far tables: each layer's rows split between two threads.
const regions = regionCodes(ds);
const half = FAR_ROWS / 2;
const far = {} as Record<Layer, Uint8Array>;
for (const layer of LAYERS) {
  const parts = await Promise.all(
    [[0, half] as [number, number], [half, FAR_ROWS] as [number, number]].map((rows) =>
      inWorker<Uint8Array>({ kind: 'far', lines: encoded, regions, layer, rows }),
    ),
  );
  far[layer] = new Uint8Array(FAR_ROWS * FAR_COLS);
  far[layer].set(parts[0]);
  far[layer].set(parts[1], parts[0].length);
}
console.log(`build-data: borders: far tables in ${((Date.now() - t1) / 1000).toFixed(0)} s`);

const file = bordersFile(ds, datasetBytes, encoded, far);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, file);
writeFileSync(stamp, hash);
console.log(
  `build-data: ${out}: ${(file.byteLength / 1e6).toFixed(1)} MB in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
