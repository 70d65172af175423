// `geolookup serve` as a real process: SIGTERM during traffic finishes in-flight requests,
// writes the quota counts and exits 0; the counts survive the restart; SIGHUP reloads keys, and
// does not end a server still starting; one server at a time on a quota file.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../src/server/keys.js';
import { listenOnLoopback, request } from '../../../test/support/loopback.js';
import { connectRaw } from '../../../test/support/raw-http.js';
import { type Served, serve, spawnServe } from '../../../test/support/serve-process.js';

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

/** The exit status of a process expected to stop on its own (killed after 30 s), and its stderr. */
function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; err: string }> {
  children.push(child);
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const limit = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(limit);
      resolve({ code, err });
    }),
  );
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

  it('a second server on the same quota file refuses to start, naming --redis; the lock goes with the first', async () => {
    const quotaFile = join(dir, 'keys.quota.json');
    const lock = `${quotaFile}.lock`;
    const { key, record } = createKey(keysFile, 'free'); // the key of the test above is revoked
    const a = await start();
    expect(readFileSync(lock, 'utf8')).toBe(`${a.child.pid} ${hostname()}\n`);
    for (const extra of [[], ['--quota-file', quotaFile]]) {
      const b = await exitOf(spawnServe(['--port', '0', '--keys', keysFile, ...extra]));
      expect(b.code).toBe(1);
      expect(b.err).toContain(`${quotaFile}: the quota file is in use by another server (pid ${a.child.pid} on`);
      expect(b.err).toMatch(/same --redis URL/);
    }
    // Counted by the first alone, all of them written.
    for (let i = 0; i < 5; i++) expect((await request(a.port, PATHS[0], { 'X-API-Key': key })).status).toBe(200);
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect(JSON.parse(readFileSync(quotaFile, 'utf8')).usage[record.id].used).toBe(5);

    // A server killed outright leaves its lock behind: the next one sees its pid gone and takes it.
    const c = await start();
    c.child.kill('SIGKILL');
    await c.exited;
    expect(readFileSync(lock, 'utf8')).toBe(`${c.child.pid} ${hostname()}\n`);
    const d = await start();
    expect(readFileSync(lock, 'utf8')).toBe(`${d.child.pid} ${hostname()}\n`);
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock held on another host is not taken over', async () => {
    const keys = join(dir, 'other-host.json');
    createKey(keys, 'free');
    writeFileSync(join(dir, 'other-host.quota.json.lock'), '1 elsewhere.example\n');
    const r = await exitOf(spawnServe(['--port', '0', '--keys', keys]));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/in use by another server \(pid 1 on elsewhere\.example\)[\s\S]*If no server runs, remove /);
  });

  it('SIGHUP while it starts (here: waiting for Redis) neither kills it nor stops it from serving', async () => {
    // A Redis that accepts the connection and never answers holds the start for --redis-timeout.
    const held: net.Socket[] = [];
    let connected!: () => void;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent = net.createServer((socket) => {
      held.push(socket);
      connected();
    });
    const redisPort = await listenOnLoopback(silent);
    const { key } = createKey(keysFile, 'free'); // read at start: the SIGHUP reload keeps it
    const child = spawnServe([
      '--port',
      '0',
      '--keys',
      keysFile,
      '--redis',
      `redis://127.0.0.1:${redisPort}`,
      '--redis-timeout',
      '4000',
    ]);
    children.push(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    try {
      await reached;
      expect(out).not.toMatch(/listening/);
      child.kill('SIGHUP');
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
      const first = await Promise.race([
        exited.then((how) => `exited: ${how}`),
        (async () => {
          while (!listening.test(out)) await new Promise((r) => setTimeout(r, 50));
          return 'listening';
        })(),
      ]);
      expect(first, out).toBe('listening');
      const port = Number(listening.exec(out)![1]);
      expect((await request(port, PATHS[0], { 'X-API-Key': key })).body).toBe('FRA');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
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
