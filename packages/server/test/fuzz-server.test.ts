// Fuzzing the HTTP server over real sockets: random paths, percent-encodings (%00, %2F,
// overlong UTF-8, broken escapes), query strings (repeated, missing, empty, huge), methods
// and headers, sent with node:http (valid HTTP, where outcomes can be predicted) and as raw
// bytes on net sockets (anything at all). Every response must have the documented shape
// (test/support/fuzz-http.ts), never 500, never hang. FUZZ_SERVER_RUNS sets the cases per
// property (default 2,000).
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryFromGps, type GeoLookupError, preload, subdivisionFromGps } from 'geolookup';
import { createKey, revokeKey } from '../src/server/keys.js';
import { createServer, type GeoLookupServer } from '../src/server/server.js';
import { expectWellFormed } from '../../../test/support/fuzz-http.js';
import { body, headers, type Key, key, method, path } from '../../../test/support/fuzz-requests.js';
import { HOST, listenOnLoopback } from '../../../test/support/loopback.js';
import { exchange, parseResponses } from '../../../test/support/raw-http.js';

const RUNS = Number(process.env.FUZZ_SERVER_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_510);
const TIMEOUT = Math.max(120_000, RUNS * 20);
/**
 * Per-exchange limit: a response later than this is a hang (the server's head, request and
 * keep-alive timeouts are 0.5 s here).
 */
const SOCKET_MS = 5000;

let dir: string;
let server: GeoLookupServer;
let port: number;
let KEY: string;
let REVOKED: string;
const logs: string[] = [];
const statuses = new Map<string, number>();
const tally = (kind: string, status: number) =>
  statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);

beforeAll(async () => {
  preload();
  dir = mkdtempSync(join(tmpdir(), 'geolookup-fuzz-server-'));
  const keys = join(dir, 'keys.json');
  // Quota and burst are set beyond any run's size: refusals here would hide the routes.
  KEY = createKey(keys, 'pro', { monthlyQuota: 1e12 }).key;
  REVOKED = createKey(keys, 'pro').key;
  revokeKey(keys, REVOKED.slice(4, 16));
  server = createServer({
    keys,
    quotaFile: null,
    limits: { burstPerMinute: 1e12 },
    headersTimeout: 500,
    requestTimeout: 500,
    keepAliveTimeout: 500,
    log: (l) => logs.push(l),
    watchKeys: false,
  });
  port = await listenOnLoopback(server);
});

afterAll(async () => {
  await server?.shutdown(100);
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `server fuzz: responses by transport and status ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
});

// ---- node:http property ----

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(
  m: string,
  target: string,
  h: [string, string][],
  k: Key,
  b: string | undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const list: string[] = ['Host', 'localhost'];
  for (const [n, v] of h) if (!(b !== undefined && n === 'Content-Length')) list.push(n, v);
  const keyHeaders: Record<Key, string[]> = {
    valid: ['X-API-Key', KEY],
    none: [],
    lower: ['x-api-key', KEY],
    upper: ['X-API-KEY', KEY],
    twice: ['X-API-Key', KEY, 'x-api-key', KEY],
    revoked: ['X-API-Key', REVOKED],
    bogus: ['X-API-Key', `glk_000000000000_${'A'.repeat(43)}`],
    authorization: ['Authorization', `Bearer ${KEY}`],
    empty: ['X-API-Key', ''],
  };
  list.push(...keyHeaders[k]);
  // node:http sends a GET or HEAD body unframed; say its length, as a real client must.
  if (b !== undefined && !h.some(([n]) => n === 'Content-Length'))
    list.push('Content-Length', String(Buffer.byteLength(b)));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port,
        method: m,
        path: target,
        headers: list as unknown as http.OutgoingHttpHeaders,
        agent,
        timeout: SOCKET_MS,
      },
      (res) => {
        let data = '';
        res.setEncoding('latin1');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no response within ${SOCKET_MS} ms: ${m} ${target.slice(0, 200)}`)));
    req.on('error', reject);
    req.end(b);
  });
}

/** What the documented order of checks predicts (method, size, /healthz, key), where it can. */
function predicted(m: string, target: string, h: [string, string][], k: Key): number | undefined {
  const headBytes = target.length + h.reduce((n, [a, v]) => n + a.length + v.length + 4, 0) + 200;
  // Oversized heads, odd expectations and repeated Content-Length are refused before the method is looked at.
  if (
    headBytes > 8192 - 200 ||
    h.some(([n, v]) => n === 'Expect' && v !== '100-continue') ||
    h.filter(([n]) => n === 'Content-Length').length > 1
  )
    return undefined;
  if (m !== 'GET' && m !== 'HEAD') return 405;
  if (target.length > 2048) return 414;
  const p = target.split('?')[0];
  if (p === '/healthz') return 200;
  if (k !== 'valid' && k !== 'lower' && k !== 'upper') return 401;
  return undefined;
}

/** Answers for the two fromGps routes, from the library on the percent-decoded parts. */
function libraryAnswer(target: string): { status: number; body?: string } | undefined {
  const m = /^\/geo\/(country|subdivision)\/fromGps\/([^/,?]*),([^/,?]*)$/.exec(target);
  if (!m) return undefined;
  let a: string, b: string;
  try {
    a = decodeURIComponent(m[2]);
    b = decodeURIComponent(m[3]);
  } catch {
    return { status: 400 };
  }
  try {
    return { status: 200, body: (m[1] === 'country' ? countryFromGps : subdivisionFromGps)(a, b) };
  } catch (e) {
    return { status: (e as GeoLookupError).status };
  }
}

/**
 * node:http refuses characters outside 0x21–0xff in a path; escape those so the rest reaches the
 * server as generated.
 */
const sendable = (target: string) => target.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));

describe(`server fuzz (${RUNS} cases per property, seed ${SEED})`, () => {
  it(
    'node:http: valid HTTP with random paths, queries, methods, headers and bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(method, path, headers, key, body, async (m, rawTarget, h, k, b) => {
          const target = sendable(rawTarget.startsWith('/') || rawTarget === '*' ? rawTarget : `/${rawTarget}`);
          if (process.env.FUZZ_DEBUG)
            console.log(
              m,
              target.slice(0, 80),
              h.map(([n, v]) => `${n}:${v.length}`),
              k,
              b?.length,
            );
          const res = await send(m, target, h, k, b);
          tally('http', res.status);
          expectWellFormed(res as never, m === 'HEAD');
          expect(res.headers['content-length']).toBe(
            m === 'HEAD' || res.status === 304
              ? res.headers['content-length']
              : String(Buffer.byteLength(res.body, 'latin1')),
          );
          const want = predicted(m, target, h, k);
          if (want !== undefined) expect(res.status).toBe(want);
          if (res.status === 405) expect(res.headers.allow).toBe('GET, HEAD');
          if (res.status === 304) expect(h.some(([n]) => n === 'If-None-Match')).toBe(true);
          if (res.status === 401) expect(res.headers['www-authenticate']).toBe('X-API-Key');
          if (
            m === 'GET' &&
            ['valid', 'lower', 'upper'].includes(k) &&
            target.length <= 2048 &&
            want === undefined &&
            res.status !== 431 &&
            res.status !== 417 &&
            res.status !== 304
          ) {
            const lib = libraryAnswer(target);
            if (lib) {
              expect(res.status).toBe(lib.status);
              if (lib.body !== undefined) expect(res.body).toBe(lib.body);
            }
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    TIMEOUT,
  );

  // ---- raw bytes ----

  const token = fc.oneof(
    { weight: 6, arbitrary: fc.constant('GET') },
    { weight: 2, arbitrary: fc.constantFrom('HEAD', 'POST', 'get', 'CONNECT', 'OPTIONS', 'G\u00c9T', 'GET\u0000', '') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Z!#$%&'*+.^_`|~-]{1,10}$/) },
  );
  const rawTarget = fc.oneof(
    { weight: 8, arbitrary: path },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          path,
          fc.constantFrom(
            ' ',
            '\t',
            '\u0000',
            '\u0001',
            '\u007f',
            '\u00ff',
            '\r',
            '\n',
            '\u00e9',
            '"',
            '<',
            '\\',
            '{',
            '^',
            '`',
            '|',
          ),
          fc.nat(),
        )
        .map(([p, c, i]) => p.slice(0, i % (p.length + 1)) + c + p.slice(i % (p.length + 1))),
    },
  );
  const version = fc.constantFrom(
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.0',
    'HTTP/2.0',
    'HTTP/0.9',
    'http/1.1',
    'HTTP/1.1 ',
    'HTTP/1.10',
    '',
  );
  const line = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'X-API-Key: <KEY>',
        'x-api-key:<KEY>',
        'X-API-KEY: <KEY>',
        'X-Api-Key: <KEY> ',
        'X-API-Key:  <KEY>',
        'X-API-Key: <KEY>\r\nX-API-Key: <KEY>',
        'Host: x',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'X-API-Key: <KEY>\rinjected: 1',
        'X-API-Key: <KEY>\ninjected: 1',
        'X-Other: a\r\n folded',
        'X-API-Key: <KEY>\r\n\tfolded',
        'Bad Header: 1',
        ': empty-name',
        'NoColon',
        'X-API-Key: \u0000<KEY>',
        'X-Test: \u00e9\u00ff',
        'Content-Length: 5',
        'Content-Length: -1',
        'Content-Length: 1, 2',
        'Content-Length: 0\r\nContent-Length: 3',
        'Transfer-Encoding: chunked',
        'Transfer-Encoding: chunked\r\nContent-Length: 3',
        'Transfer-Encoding: gzip, chunked',
        'Expect: 100-continue',
        'Expect: bogus',
        'Upgrade: websocket\r\nConnection: Upgrade',
        'Connection: keep-alive',
        'Connection: close',
        'Host: a\r\nHost: b',
        'If-None-Match: *',
        `X-Big: ${'q'.repeat(9000)}`,
        `X-Many: ${'r'.repeat(3000)}`,
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.stringMatching(/^[!-~]{0,12}$/), fc.string({ unit: 'binary-ascii', maxLength: 30 }))
        .map(([n, v]) => `${n}: ${v}`),
    },
  );
  const rawRequest = fc
    .tuple(
      token,
      rawTarget,
      version,
      fc.array(line, { maxLength: 3 }),
      fc.constantFrom('', '', '', '', 'x', '0\r\n\r\n', 'hello'),
      fc.boolean(),
      fc.integer({ min: 1, max: 3 }),
      fc.nat(4).map((n) => n > 0),
    )
    .map(([m, t, v, ls, b, pipelined, copies, host]) => {
      const head = `${m} ${t}${v ? ` ${v}` : ''}\r\n${host ? 'Host: x\r\n' : ''}${ls.map((l) => `${l.replaceAll('<KEY>', KEY)}\r\n`).join('')}`;
      const one = `${head}\r\n${b}`;
      // Pipelined copies, the last one asking to close; otherwise one request that asks to close.
      return pipelined
        ? `${one.repeat(copies - 1)}${head}Connection: close\r\n\r\n${b}`
        : `${head}Connection: close\r\n\r\n${b}`;
    });

  it(
    'raw sockets: any request line, target, version and header bytes',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawRequest, async (text) => {
          const { text: reply } = await exchange(port, text, SOCKET_MS);
          const heads = text.startsWith('HEAD ') ? 3 : 0;
          const list = parseResponses(reply, heads);
          // A request the server cannot read at all may be closed without a word only when it sent no complete head.
          if (list.length === 0) expect(text.includes('\r\n\r\n') && !/^CONNECT /.test(text)).toBe(false);
          for (const r of list) {
            tally('raw', r.status);
            if (r.status === 100) continue; // interim answer to Expect: 100-continue
            expectWellFormed(r, text.startsWith('HEAD '));
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    TIMEOUT,
  );

  it('the server logged no internal error and no key', () => {
    expect(logs.filter((l) => /internal error/.test(l))).toEqual([]);
    for (const l of logs) for (const k of [KEY, REVOKED]) expect(l).not.toContain(k);
  });
});
