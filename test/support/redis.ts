// A throwaway redis-server for tests and the server bench: no config file, loopback only, a free
// port, its files in a temp dir. It can be killed (SIGKILL, as a crash), paused (SIGSTOP: a Redis
// that no longer answers) and started again on the same port and dir. CI installs the binary
// (scripts/system-deps.sh, Debian package redis-server); elsewhere the tests skip.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { programMissing } from './system.js';

// Not loopback.ts's HOST: that module registers test hooks, and the bench imports this one.
const HOST = '127.0.0.1';

/** Null when redis-server can be run, else a sentence saying what is missing. */
export function redisMissing(): string | null {
  return programMissing(
    'redis-server',
    'redis-server is not installed (Debian package redis-server; scripts/system-deps.sh installs it)',
  );
}

export interface RedisServer {
  port: number;
  url: string;
  /** The running process's id (undefined while stopped). */
  pid(): number | undefined;
  /** Stops it with `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and dir (after stop). */
  restart(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Runs one command through redis-cli and returns its output. */
  cli(...args: string[]): string;
  /** Stops it and removes its dir. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string, aof: boolean): Promise<ChildProcess> {
  const persistence = aof ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', HOST, '--save', '', '--dir', dir, ...persistence];
  const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`redis-server did not start: ${out}`));
    }, 15_000);
    proc.stdout!.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(t);
        resolve(proc);
      }
    });
    proc.stderr!.setEncoding('utf8').on('data', (d) => (out += d));
    proc.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });
}

/**
 * Starts redis-server on a free loopback port. `aof`: append-only file fsynced on every write,
 * so a SIGKILL loses nothing (docs/SERVER.md); otherwise no persistence at all.
 */
export async function startRedis(options: { aof?: boolean } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-redis-'));
  const port = await freePort();
  let proc: ChildProcess | null = await launch(port, dir, options.aof === true);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const p = proc;
    proc = null;
    if (p === null || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((resolve) => p.once('exit', resolve));
    if (signal !== 'SIGKILL') p.kill('SIGCONT'); // a paused server cannot act on SIGTERM
    p.kill(signal);
    await exited;
  };
  return {
    port,
    url: `redis://${HOST}:${port}`,
    pid: () => proc?.pid,
    stop,
    async restart() {
      await stop();
      proc = await launch(port, dir, options.aof === true);
    },
    pause: () => proc?.kill('SIGSTOP'),
    resume: () => proc?.kill('SIGCONT'),
    cli: (...args) => execFileSync('redis-cli', ['-h', HOST, '-p', String(port), ...args], { encoding: 'utf8' }),
    async close() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
