// The server's commands, run by the core CLI's dispatch (`geolookup serve | keys | playground`,
// src/cli/run.ts in the geolookup package) once this package is installed beside it.

import type { Print } from 'geolookup/extend';
import { runExportPmtiles } from './export-pmtiles.js';
import { runKeys } from './keys.js';
import { runPlayground } from './playground.js';
import { runServe } from './serve.js';

const COMMANDS: Record<string, (argv: string[], out: Print, err: Print) => number> = {
  serve: runServe,
  keys: runKeys,
  playground: runPlayground,
  // The core's `export` hands `--format pmtiles` over (src/cli/run.ts).
  export: runExportPmtiles,
};

/** Runs `serve`, `keys`, `playground` or `export --format pmtiles` with their arguments; returns the exit status. */
export function run(argv: string[], out: Print, err: Print): number {
  const command = COMMANDS[argv[0]];
  if (!command) throw new TypeError(`@geolookup/server has no command "${argv[0]}"`);
  return command(argv.slice(1), out, err);
}
