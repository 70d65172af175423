// A worker thread over one of this package's modules, wherever the caller runs from: the bundle
// beside dist/cli.js (the CLI, an ES module, alone starts workers), or the TypeScript source
// through tsx's loader API, since a worker does not inherit the parent's module hooks.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts `source` (relative to `callerUrl`, the caller's import.meta.url) when the caller is a .ts
 * source, else the bundle `<bundle>.js` that tsup built beside the caller's bundle.
 */
export function startModuleWorker(
  callerUrl: string,
  source: string,
  bundle: string,
  options: WorkerOptions = {},
): Worker {
  if (callerUrl.endsWith('.ts')) {
    const api = createRequire(callerUrl).resolve('tsx/cjs/api');
    const script = fileURLToPath(new URL(source, callerUrl));
    const boot = `require(${JSON.stringify(api)}).require(${JSON.stringify(script)}, ${JSON.stringify(script)})`;
    return new Worker(boot, { ...options, eval: true });
  }
  return new Worker(new URL(`./${bundle}.js`, callerUrl), options);
}
