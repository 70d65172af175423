// The CLI's dispatch, separate from the bin so tests can drive it in-process: the first word
// names the command; anything else is a lookup (whose flags may come first).

import type { Print } from './args.js';
import { runBatch } from './batch.js';
import { runExport } from './export.js';
import { runKeys } from './keys.js';
import { runLookup } from './lookup.js';
import { runPlayground } from './playground.js';
import { runServe } from './serve.js';

export { EXIT } from './args.js';

const COMMANDS: Record<string, (argv: string[], out: Print, err: Print) => number> = {
  serve: runServe,
  keys: runKeys,
  batch: runBatch,
  export: runExport,
  playground: runPlayground,
};

/** Runs one command line; returns the exit status (serve, batch, export and playground finish in the background). */
export function run(argv: string[], out: Print, err: Print): number {
  const command = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? COMMANDS[argv[0]] : undefined;
  return command ? command(argv.slice(1), out, err) : runLookup(argv, out, err);
}
