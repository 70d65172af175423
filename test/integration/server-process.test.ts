// `geolookup serve` as a real process: SIGTERM during traffic finishes in-flight requests,
// writes the quota counts and exits 0; the counts survive the restart; SIGHUP reloads keys.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../../src/server/keys.js';
import { listenOnLoopback, request } from '../support/loopback.js';
import { connectRaw } from '../support/raw-http.js';
import { type Served, serve, spawnServe } from '../support/serve-process.js';

let dir: string;
let keysFile: string;
let KEY: string;
let KEY_ID: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geolookup-serve-'));
  keysFile = join(dir, 'keys.json');
  ({
    key: KEY,
    record: { id: KEY_ID },
  } = createKey(keysFile, 'pro'));
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `geolookup serve` on the test's keys file, killed at the end if a test leaves it running. */
async function start(...extra: string[]): Promise<Served> {
  const served = await serve(keysFile, extra);
  children.push(served.child);
  return served;
}

const get = (port: number, path: string, agent: http.Agent | false = false) =>
  request(port, path, { 'X-API-Key': KEY }, 'GET', undefined, agent);

const PATHS = [
  '/geo/country/fromGps/48.8566,2.3522',
  '/geo/subdivision/fromGps/40.7128,-74.006',
  '/geo/country/DEU/isInCountry?latitude=52.52&longitude=13.405',
];
const BODIES = ['FRA', 'US-NY', 'true'];

describe('geolookup serve (child process)', () => {
  it('SIGTERM during traffic: in-flight requests finish, counts are written, exit 0; counts survive the restart', async () => {
    const quotaFile = join(dir, 'keys.quota.json');
    const a = await start('--flush-interval', '3600'); // only the shutdown writes the counts

    // Four keep-alive clients loop until the server goes away.
    let ok = 0;
    const wrong: string[] = [];
    const clients = Array.from({ length: 4 }, async (_, c) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; ; i++) {
          const r = await get(a.port, PATHS[(i + c) % 3], agent);
          if (r.status === 200 && r.body === BODIES[(i + c) % 3]) ok++;
          else wrong.push(`${r.status} ${r.body}`);
        }
      } catch (e) {
        return (e as NodeJS.ErrnoException).code ?? (e as Error).message; // refused / reset once closed
      } finally {
        agent.destroy();
      }
    });

    // One request in flight at SIGTERM: its head is only half sent.
    const slow = connectRaw(a.port, 60_000);
    await slow.connected;
    slow.write(`GET /geo/country/fromGps/35.6895,139.6917 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEY}\r\n`);

    while (ok < 200) await new Promise((r) => setTimeout(r, 10));
    a.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(a.child.exitCode).toBeNull(); // still waiting for the in-flight request
    slow.write('\r\n');
    const { text: slowText } = await slow.closed;
    expect(slowText).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(slowText).toMatch(/\r\nConnection: close\r\n/i);
    expect(slowText.endsWith('\r\n\r\nJPN')).toBe(true);

    expect(await a.exited).toBe(0);
    const ends = await Promise.all(clients);
    for (const e of ends) expect(['ECONNREFUSED', 'ECONNRESET', 'socket hang up']).toContain(e);
    expect(wrong).toEqual([]);
    expect(a.output()).toMatch(/SIGTERM[\s\S]*stopped; quota counts written/);
    expect(a.output()).not.toContain(KEY);

    // Every answered request was counted and written, nothing else.
    const saved = JSON.parse(readFileSync(quotaFile, 'utf8'));
    expect(saved.usage[KEY_ID].used).toBe(ok + 1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Restart: the count carries on. SIGHUP reloads the keys file.
    const b = await start('--flush-interval', '3600');
    const r = await get(b.port, PATHS[0]);
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBe('1000000');
    expect(r.headers['x-ratelimit-remaining']).toBe(String(1_000_000 - (ok + 2)));
    revokeKey(keysFile, KEY_ID);
    b.child.kill('SIGHUP');
    for (let i = 0; i < 100 && !/keys reloaded/.test(b.output()); i++) await new Promise((res) => setTimeout(res, 20));
    expect(b.output()).toMatch(/keys reloaded/);
    expect((await get(b.port, PATHS[0])).status).toBe(401);
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(JSON.parse(readFileSync(quotaFile, 'utf8')).usage[KEY_ID].used).toBe(ok + 2);
  });

  it('a port already in use is reported with exit status 1', async () => {
    const blocker = net.createServer();
    const port = await listenOnLoopback(blocker);
    const child = spawnServe(['--port', String(port), '--keys', keysFile]);
    children.push(child);
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    blocker.close();
    expect(code).toBe(1);
    expect(err).toMatch(/EADDRINUSE/);
  });
});
