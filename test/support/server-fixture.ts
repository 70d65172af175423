// The setting the server test files share: a keys file with a free, a revoked and a small-quota
// key, made before their tests, and the in-process servers they start on it, shut down after.
// The keys are live exports, set by the beforeAll that useServerFixture registers.
import type http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
