// The CLI's dispatch, separate from the bin so tests can drive it in-process: the first word
// names the command; anything else is a lookup (whose flags may come first). The server's
// commands live in @geolookup/server, loaded only when named (docs/ARCHITECTURE.md).

import type { Print } from './args.js';
import { EXIT } from './args.js';
import { runBatch } from './batch.js';
import { runDiff } from './diff.js';
import { runExport } from './export.js';
import { runLookup } from './lookup.js';

export { EXIT } from './args.js';

type Command = (argv: string[], out: Print, err: Print) => number;

const COMMANDS: Record<string, Command> = { batch: runBatch, diff: runDiff, export: runExport };

/** Commands of other packages: the package that has them, for `geolookup <command>`. */
export const PACKAGE_COMMANDS: Record<string, string> = {
  serve: '@geolookup/server',
  keys: '@geolookup/server',
  playground: '@geolookup/server',
};

// A variable specifier: bundlers leave the import alone, and the core builds without the server.
const SERVER_CLI = '@geolookup/server/cli';

/**
 * Runs one command line; returns the exit status (serve, batch, export and playground finish in the
 * background). A command of another package returns a promise of it.
 */
export function run(argv: string[], out: Print, err: Print): number | Promise<number> {
  const name = argv[0];
  // Vector tiles need a tiler and a PMTiles layout: @geolookup/server has both (docs/ARCHITECTURE.md).
  if (name === 'export' && formatOf(argv) === 'pmtiles') return runFromPackage(argv, out, err, '@geolookup/server');
  if (name !== undefined && Object.hasOwn(COMMANDS, name)) return COMMANDS[name](argv.slice(1), out, err);
  if (name !== undefined && Object.hasOwn(PACKAGE_COMMANDS, name)) return runFromPackage(argv, out, err);
  return runLookup(argv, out, err);
}

/** The value of --format in an argument list ("--format X" or "--format=X"), if any. */
function formatOf(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === '--format') return argv[i + 1];
    if (argv[i].startsWith('--format=')) return argv[i].slice('--format='.length);
  }
  return undefined;
}

async function runFromPackage(
  argv: string[],
  out: Print,
  err: Print,
  pkg = PACKAGE_COMMANDS[argv[0]],
): Promise<number> {
  let cli: { run(argv: string[], out: Print, err: Print): number };
  try {
    cli = await import(/* @vite-ignore */ /* webpackIgnore: true */ SERVER_CLI);
  } catch (e) {
    // Only the package itself missing; a dependency of it missing is its own error, shown as it is.
    const missing = (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(e).includes(`'${pkg}`);
    if (!missing) throw e;
    const what = argv[0] === 'export' ? 'this format' : 'this command';
    err(`geolookup ${argv[0]}: ${what} is in ${pkg}; install it beside geolookup: npm install ${pkg}`);
    return EXIT.error;
  }
  return cli.run(argv, out, err);
}
