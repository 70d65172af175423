// `geolookup serve` as a real process (the CLI run through tsx, as in development), for the tests
// and soak runs that drive it from outside: signals, restarts, exit statuses.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HOST } from './loopback.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `geolookup serve` with these arguments, started from the repository root. */
export function spawnServe(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], { cwd: root });
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
  const child = spawnServe(['--host', HOST, '--port', '0', '--keys', keys, ...extra]);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${out}`));
    }, startMs);
    child.stdout.on('data', () => {
      const m = /listening on http:\/\/[^\s:]+:(\d+)/.exec(out);
      if (!m) return;
      clearTimeout(t);
      resolve({ child, port: Number(m[1]), output: () => out, exited });
    });
    child.on('exit', () => {
      clearTimeout(t);
      reject(new Error(`serve exited: ${out}`));
    });
  });
}
