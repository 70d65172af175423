// The setting the server test files share: a keys file with a free, a revoked and a small-quota
// key, made before their tests, and the in-process servers they start on it, shut down after.
// The keys are live exports, set by the beforeAll that useServerFixture registers.
import { spawn } from 'node:child_process';
import type http from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { preload } from '../../src/index.js';
import { createKey, revokeKey } from '../../packages/server/src/server/keys.js';
import { createServer, type GeoLookupServer, type ServerOptions } from '../../packages/server/src/server/server.js';
import { type HttpAnswer, listenOnLoopback, request } from './loopback.js';

/** Stands for the valid key in raw-socket cases (the key is made in beforeAll). */
export const K = '<KEY>';
export let dir: string;
export let keysFile: string;
/** Free plan. */
export let KEY: string;
export let KEY_ID: string;
export let REVOKED: string;
/** Monthly quota 2. */
export let SMALL: string;
export const logs: string[] = [];
const servers: GeoLookupServer[] = [];

/** Registers the hooks that make the keys before the file's tests and clean up after them. */
export function useServerFixture(): void {
  beforeAll(() => {
    preload();
    dir = mkdtempSync(join(tmpdir(), 'geolookup-server-'));
    keysFile = join(dir, 'keys.json');
    ({
      key: KEY,
      record: { id: KEY_ID },
    } = createKey(keysFile, 'free'));
    REVOKED = createKey(keysFile, 'pro').key;
    revokeKey(keysFile, REVOKED.slice(4, 16));
    SMALL = createKey(keysFile, 'free', { monthlyQuota: 2 }).key;
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.shutdown(100)));
    rmSync(dir, { recursive: true, force: true });
    // Never a key in anything the server logged.
    for (const line of logs) for (const k of [KEY, REVOKED, SMALL]) expect(line).not.toContain(k);
  });
}

/** A server on the fixture's keys file, no quota file, logging into `logs`, on a loopback port. */
export async function start(options: ServerOptions = {}): Promise<{ server: GeoLookupServer; port: number }> {
  const server = createServer({ keys: keysFile, quotaFile: null, log: (l) => logs.push(l), ...options });
  servers.push(server);
  return { server, port: await listenOnLoopback(server) };
}

/** A GET with the valid key, another key, or none (null). */
export const get = (port: number, path: string, key: string | null = KEY, extra: http.OutgoingHttpHeaders = {}) =>
  request(port, path, key === null ? extra : { 'X-API-Key': key, ...extra });

/** A raw GET head that asks the server to close the connection after its answer. */
export const rawGet = (path: string, headerLines: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headerLines}Connection: close\r\n\r\n`;

/** Checks an RFC 9457 problem answer without a stack trace in it; returns the parsed record. */
export function expectProblem(r: HttpAnswer, status: number, type: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  const p = JSON.parse(r.body);
  expect(p).toMatchObject({ type, status });
  expect(typeof p.title).toBe('string');
  expect(typeof p.detail).toBe('string');
  expect(r.body).not.toMatch(/\n\s+at |\.ts:\d+|node:internal/); // never a stack trace
  return p;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A project as npm installs @geolookup/server and @geolookup/client without their optional peer
 * @geolookup/timezones: the two packages as `npm run build` built them (package.json and dist/,
 * as package.test.ts runs them) copied into its node_modules, geolookup and the server's
 * dependencies linked from this checkout. The copies resolve their imports from the project,
 * where there is no @geolookup/timezones. `remove()` deletes it.
 */
export function projectWithoutTimeZones(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-no-timezones-'));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@geolookup'), { recursive: true });
  for (const name of ['server', 'client']) {
    const from = join(root, 'packages', name);
    for (const part of ['package.json', 'dist'])
      cpSync(join(from, part), join(modules, '@geolookup', name, part), { recursive: true });
  }
  symlinkSync(root, join(modules, 'geolookup'), 'dir');
  const server = JSON.parse(readFileSync(join(root, 'packages', 'server', 'package.json'), 'utf8'));
  for (const dep of Object.keys(server.dependencies ?? {}))
    symlinkSync(join(root, 'node_modules', dep), join(modules, dep), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs an ES module script in `dir` (its packages resolve from there); resolves with its stdout. */
export function runModule(
  dir: string,
  script: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A geolookup server (createServer with `options`, as JSON) in a child process of such a project:
 * without @geolookup/timezones. `stop()` shuts it down (SIGTERM) and resolves with what it printed.
 */
export async function startWithoutTimeZones(
  dir: string,
  options: ServerOptions = {},
): Promise<{ port: number; stop(): Promise<string> }> {
  const script = `
import { createServer } from '@geolookup/server';
const server = createServer(${JSON.stringify({ quotaFile: null, watchKeys: false, ...options })});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
process.on('SIGTERM', () => server.shutdown(100).then(() => process.exit(0)));
`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port after 30 s: ${output}`)), 30_000);
    child.stdout.on('data', () => {
      const m = /^port (\d+)$/m.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('close', () => reject(new Error(`the server exited: ${output}`)));
  });
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return output;
    },
  };
}
