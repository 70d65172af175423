// Security pass on the server, for what server*.test.ts does not already cover: keys at
// rest and in logs, oddly cased and repeated key headers, header injection, encoded slashes
// and dot segments, slow clients, and anonymous clients varying headers to escape their limit.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preload } from 'geolookup';
import { createKey, revokeKey } from '../src/server/keys.js';
import { createServer, type GeoLookupServer, type ServerOptions } from '../src/server/server.js';
import { expectWellFormed } from '../../../test/support/fuzz-http.js';
import { listenOnLoopback } from '../../../test/support/loopback.js';
import { exchange, exchangeResponses, parseResponses } from '../../../test/support/raw-http.js';

let dir: string;
let keys: string;
let KEY: string;
let REVOKED: string;
const logs: string[] = [];
const servers: GeoLookupServer[] = [];

beforeAll(() => {
  preload();
  dir = mkdtempSync(join(tmpdir(), 'geolookup-security-'));
  keys = join(dir, 'keys.json');
  KEY = createKey(keys, 'pro').key;
  REVOKED = createKey(keys, 'free').key;
  revokeKey(keys, REVOKED.slice(4, 16));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.shutdown(100)));
  rmSync(dir, { recursive: true, force: true });
});

/** A server on the keys file, with a quota file of its own (one server per quota file). */
async function start(options: ServerOptions = {}): Promise<number> {
  const quotaFile = join(dir, `server-${servers.length}.quota.json`);
  const server = createServer({ keys, quotaFile, log: (l) => logs.push(l), ...options });
  servers.push(server);
  return listenOnLoopback(server);
}
const req = (path: string, lines: string[] = [], method = 'GET') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`;
async function one(port: number, text: string) {
  const list = await exchangeResponses(port, text);
  expect(list).toHaveLength(1);
  expectWellFormed(list[0]);
  return list[0];
}

describe('keys at rest and in logs', () => {
  it('the keys and quota files hold ids and SHA-256 hashes, never a key or its secret part', async () => {
    const port = await start({ quotaFile: join(dir, 'keys.quota.json') });
    await one(port, req('/geo/country/fromGps/48.8566,2.3522', [`X-API-Key: ${KEY}`]));
    await one(port, req('/geo/country/fromGps/48.8566,2.3522', [`X-API-Key: ${REVOKED}`]));
    await servers[servers.length - 1].flush();
    for (const file of [keys, join(dir, 'keys.quota.json')]) {
      const text = readFileSync(file, 'utf8');
      for (const k of [KEY, REVOKED]) {
        expect(text).not.toContain(k.slice(17)); // the secret part
        expect(text).not.toContain(Buffer.from(k).toString('base64'));
      }
    }
  });

  it('no key reaches the log: accepted, revoked, malformed, padded, on internal reloads and broken-file warnings', async () => {
    const port = await start();
    const attempts = [KEY, REVOKED, `${KEY}x`, KEY.slice(0, -1), `${KEY} `, `${KEY}\x01`];
    for (const k of attempts) await exchange(port, req('/geo/country/fromGps/1,1', [`X-API-Key: ${k}`]));
    // A key in the path is echoed only to its sender.
    await exchange(port, req(`/geo/country/fromGps/${KEY}`, [`X-API-Key: ${KEY}`]));
    servers[servers.length - 1].reloadKeys();
    expect(logs.length).toBeGreaterThan(0); // the log is being captured
    for (const line of logs) for (const k of [KEY, REVOKED]) expect(line).not.toContain(k.slice(17));
  });
});

describe('request smuggling and header tricks', () => {
  let port: number;
  beforeAll(async () => {
    port = await start({ headersTimeout: 400, requestTimeout: 400 });
  });

  it.each([
    ['X-API-KEY', 200],
    ['x-Api-kEy', 200],
    ['X-API-Key ', 400],
    ['X_API_Key', 401],
    ['X-API-Keys', 401],
  ])('header name %s → %i', async (name, status) => {
    expect((await one(port, req('/geo/country/fromGps/48.8566,2.3522', [`${name}: ${KEY}`]))).status).toBe(status);
  });

  it('a second X-API-Key, in any case or after other headers, is a 401 even when both are valid', async () => {
    for (const lines of [
      [`X-API-Key: ${KEY}`, `x-api-key: ${KEY}`],
      [`X-API-Key: ${KEY}`, 'Accept: */*', `X-API-KEY: ${REVOKED}`],
      [`X-API-Key: ${REVOKED}`, `X-API-Key: ${KEY}`],
    ]) {
      expect((await one(port, req('/geo/country/fromGps/48.8566,2.3522', lines))).status).toBe(401);
    }
  });

  it('CR or LF inside a header value cannot inject a header or a second request', async () => {
    for (const line of [
      `X-Other: a\rX-API-Key: ${KEY}`,
      `X-Other: a\nX-API-Key: ${KEY}`,
      `X-API-Key: ${KEY}\r\nGET /geo/country/fromGps/1,1 HTTP/1.1`,
    ]) {
      const list = await exchangeResponses(port, req('/geo/country/fromGps/48.8566,2.3522', [line]));
      for (const r of list) expectWellFormed(r);
      expect(list.some((r) => r.status === 200 && r.body === 'FRA')).toBe(false);
    }
  });

  it('no response header echoes request input (no response splitting through the path or a header)', async () => {
    const r = await one(port, req('/geo/country/fromGps/48.85,2.35%0D%0ASet-Cookie:%20x=1', [`X-API-Key: ${KEY}`]));
    expect(r.status).toBe(400);
    expect(r.names.map((n) => n.toLowerCase())).not.toContain('set-cookie');
  });

  it('encoded slashes and dot segments are not normalised into another route', async () => {
    const cases: [string, number][] = [
      ['/geo/country/fromGps/48.85%2C2.35', 400],
      ['/geo%2Fcountry%2FfromGps%2F48.85,2.35', 404],
      ['/geo/country/fromGps/48.85,2.35%2F..', 400],
      ['/geo/../geo/country/fromGps/48.85,2.35', 404],
      ['/geo/./country/fromGps/48.85,2.35', 404],
      ['/geo/country/fromGps/../fromGps/48.85,2.35', 400],
      ['/geo/country/%2E%2E/isInCountry?latitude=1&longitude=1', 400],
      ['/geo/country/FRA%2F..%2FDEU/isInCountry?latitude=48.85&longitude=2.35', 400],
      ['/healthz/../geo/country/fromGps/48.85,2.35', 404],
    ];
    for (const [path, status] of cases)
      expect([path, (await one(port, req(path, [`X-API-Key: ${KEY}`]))).status]).toEqual([path, status]);
  });

  it('a huge URL is a 414 and a huge head a 431, both well-formed, and the server keeps serving', async () => {
    expect((await one(port, req(`/geo/country/fromGps/1,2?${'a'.repeat(5000)}`, [`X-API-Key: ${KEY}`]))).status).toBe(
      414,
    );
    expect(
      (
        await one(
          port,
          req(
            '/healthz',
            Array.from({ length: 200 }, (_, i) => `X-H${i}: ${'v'.repeat(60)}`),
          ),
        )
      ).status,
    ).toBe(431);
    expect((await one(port, req('/geo/country/fromGps/1,2', [`X-API-Key: ${'k'.repeat(20_000)}`]))).status).toBe(431);
    expect((await one(port, req('/geo/country/fromGps/48.8566,2.3522', [`X-API-Key: ${KEY}`]))).body).toBe('FRA');
  });

  it('slowloris: one header byte every 100 ms is cut off by the head timeout (400 ms here), with a 408', async () => {
    const text = req('/geo/country/fromGps/48.8566,2.3522', [`X-API-Key: ${KEY}`, `X-Slow: ${'s'.repeat(40)}`]);
    const { text: reply, ms } = await exchange(port, text.split(''), 5000, 100);
    expect(ms).toBeLessThan(3000); // far less than the 20 s the whole head would take
    const [r] = parseResponses(reply);
    expect(r.status).toBe(408);
  });
});

describe('anonymous clients cannot vary headers to escape their limit', () => {
  it('X-Forwarded-For, Forwarded, X-Real-IP, Via, Host and a fresh connection per request all count as the socket address', async () => {
    const now = Date.UTC(2026, 4, 10, 12);
    const port = await start({ allowAnonymous: true, limits: { anonymousBurstPerMinute: 3 }, now: () => now });
    const spoof = [
      'X-Forwarded-For: 203.0.113.1',
      'Forwarded: for=203.0.113.2',
      'X-Real-IP: 203.0.113.3',
      'Via: 1.1 proxy',
      'X-Client-IP: 203.0.113.4',
      'True-Client-IP: 203.0.113.5',
      'CF-Connecting-IP: 203.0.113.6',
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await one(port, req('/geo/country/fromGps/48.8566,2.3522', [spoof[i % spoof.length]]))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('with a trusted proxy, only the proxy’s X-Forwarded-For counts, and a forged chain is read from the right', async () => {
    const now = Date.UTC(2026, 4, 10, 12);
    const port = await start({
      allowAnonymous: true,
      trustProxy: ['127.0.0.1'],
      limits: { anonymousBurstPerMinute: 1 },
      now: () => now,
    });
    const from = async (xff: string) =>
      (await one(port, req('/geo/country/fromGps/48.8566,2.3522', [`X-Forwarded-For: ${xff}`]))).status;
    expect(await from('198.51.100.1')).toBe(200);
    // The client prepends addresses of its own choosing; the proxy appends the real one (rightmost), which is limited.
    expect(await from('192.0.2.77, 198.51.100.1')).toBe(429);
    expect(await from('not-an-ip, 198.51.100.1')).toBe(429);
  });
});
