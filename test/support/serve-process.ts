// `geolookup serve` (and `geolookup playground`) as a real process (the CLI run through tsx, as in
// development), for the tests and soak runs that drive it from outside: signals, restarts, exit
// statuses, browsers.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HOST } from './loopback.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The CLI from its sources, through tsx. */
export const SOURCE_CLI = ['--import', 'tsx', 'src/cli/main.ts'];
/** The CLI as the build bundled it (dist/cli.js, the packages' dist/), for what only the bundles do. */
export const BUILT_CLI = ['dist/cli.js'];

/** `geolookup <args>`, started from the repository root. */
export function spawnCli(args: string[], cli = SOURCE_CLI): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...cli, ...args], { cwd: root });
}

/** `geolookup serve` with these arguments, started from the repository root. */
export function spawnServe(args: string[]): ChildProcessWithoutNullStreams {
  return spawnCli(['serve', ...args]);
}

export interface Served {
  child: ChildProcessWithoutNullStreams;
  port: number;
  /** Everything the process has written so far, stdout and stderr as they came. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `geolookup serve` with the keys file on an ephemeral loopback port and waits for its
 * "listening" line; a server that exits or does not start in time is killed and rejects.
 */
export function serve(keys: string, extra: string[] = [], startMs = 30_000): Promise<Served> {
  return startCli(
    ['serve', '--host', HOST, '--port', '0', '--keys', keys, ...extra],
    /listening on http:\/\/[^\s:]+:(\d+)/,
    startMs,
  );
}

/**
 * Starts `geolookup <args>` and waits until its stdout shows `started`, whose first group is the
 * port; a process that exits or does not start in time is killed and rejects.
 */
export function startCli(args: string[], started: RegExp, startMs = 30_000, cli = SOURCE_CLI): Promise<Served> {
  const child = spawnCli(args, cli);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`geolookup ${args[0]} did not start: ${out}`));
    }, startMs);
    child.stdout.on('data', () => {
      const m = started.exec(out);
      if (!m) return;
      clearTimeout(t);
      resolve({ child, port: Number(m[1]), output: () => out, exited });
    });
    child.on('exit', () => {
      clearTimeout(t);
      reject(new Error(`geolookup ${args[0]} exited: ${out}`));
    });
  });
}
