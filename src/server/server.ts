// The self-hostable HTTP server: the service's four routes on node:http, with API keys,
// burst limits, monthly quotas and RFC 9457 problem+json errors. See docs/SERVER.md.

import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { isIP, type Socket } from 'node:net';
import { dirname, basename, extname, join } from 'node:path';
import type { GeoLookup } from '../lookup/engine.js';
import { GeoLookupError, PROBLEM_TYPES, statusTitle, type Problem } from '../lookup/errors.js';
import { createGeoLookup, preload, type BinaryInput } from '../index.js';
import { KEY_LENGTH, KeyStore, type KeyRecord } from './keys.js';
import { BurstWindow, MonthClock, SLOT_MS, WINDOW_SLOTS, monthKey } from './limits.js';
import { QuotaStore } from './quota-store.js';
import { answer, UnknownRouteError } from './routes.js';
import { PADDED, UNKNOWN, desync, scanConnection, takeVerdict } from './padded-key.js';

export interface ServerLimits {
  /** Requests per minute per API key, any plan. Default 1000. */
  burstPerMinute?: number;
  /** Requests per minute per anonymous client address (with allowAnonymous). Default 10. */
  anonymousBurstPerMinute?: number;
  /** Requests per UTC month per anonymous client address. Default 10000. */
  anonymousMonthlyQuota?: number;
}

export interface ServerOptions {
  /** Keys file (JSON, hashes only; see `geolookup keys`). Without one, only anonymous requests can succeed. */
  keys?: string | null;
  /** Requests without X-API-Key are served as anonymous (10/min per client address) instead of 401. */
  allowAnonymous?: boolean;
  limits?: ServerLimits;
  /** Clock in ms since the epoch (tests inject one). Default Date.now. */
  now?: () => number;
  /** A dataset file path or its bytes. Default: the embedded world dataset. */
  data?: string | BinaryInput;
  /** An already loaded lookup (instead of `data`). */
  lookup?: GeoLookup;
  /** Where quota counts persist. Default: beside the keys file, `<name>.quota.json`; null keeps them in memory. */
  quotaFile?: string | null;
  /** How often changed quota counts are written, in ms. Default 10 000. They are also written on close. */
  flushIntervalMs?: number;
  /** Addresses of reverse proxies whose X-Forwarded-For names the client (anonymous limits). Default none. */
  trustProxy?: string[];
  /** Cache-Control max-age (s) of lookup answers. Default 86 400. */
  cacheMaxAge?: number;
  /** Longest request target (path + query) in characters; longer gets 414. Default 2048. */
  maxUrlLength?: number;
  /** Largest request head (request line + headers) in bytes; larger gets 431. Default 8192. */
  maxHeaderSize?: number;
  /** ms a client has to send the complete request head. Default 10 000. */
  headersTimeout?: number;
  /** ms a client has to send the complete request. Default 15 000. */
  requestTimeout?: number;
  /** ms an idle keep-alive connection stays open. Default 5 000. */
  keepAliveTimeout?: number;
  /** ms a connection may be inactive in any state before it is closed; 0 (default) leaves it to the three timeouts above, which already cover silent and slow clients. */
  socketTimeout?: number;
  /** Reload the keys file when it changes. Default true. */
  watchKeys?: boolean;
  /** Where the server reports key reloads, flush failures and internal errors (never a key). Default stderr. */
  log?: (line: string) => void;
}

export interface GeoLookupServer extends http.Server {
  /** The ETag sent with lookup answers (quoted), derived from the dataset. */
  readonly etag: string;
  /** Re-reads the keys file now (what SIGHUP does in `geolookup serve`). */
  reloadKeys(): boolean;
  /** Writes changed quota counts now. */
  flush(): Promise<void>;
  /**
   * Graceful stop: no new connections, in-flight requests finish (their responses close the
   * connection), idle connections close, quota counts are written. After `graceMs` the
   * remaining connections are cut.
   */
  shutdown(graceMs?: number): Promise<void>;
}

export const RATE_HEADERS = {
  quotaLimit: 'X-RateLimit-Limit',
  quotaRemaining: 'X-RateLimit-Remaining',
  quotaReset: 'X-RateLimit-Reset',
  burstLimit: 'X-RateLimit-Burst-Limit',
  burstRemaining: 'X-RateLimit-Burst-Remaining',
} as const;

const ALLOW = 'GET, HEAD';
const TEXT = 'text/plain; charset=utf-8';
const PROBLEM = 'application/problem+json';
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
const EXTRA_TITLES: Record<number, string> = {
  408: 'Request Timeout',
  414: 'URI Too Long',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

function title(status: number): string {
  return EXTRA_TITLES[status] ?? statusTitle(status);
}

// Problem records are built directly rather than through the error classes: no stack trace is
// captured for a refused request (they can come in floods). Same shape as the classes' toProblem().
function problem(status: number, detail: string, type: string = PROBLEM_TYPES.general): Problem {
  return { type, title: title(status), status, detail };
}

function tooMany(detail: string, retryAfter: number): Problem {
  return { ...problem(429, detail, PROBLEM_TYPES.rateLimit), retryAfter };
}

/** Default quota file: `keys.json` → `keys.quota.json` in the same directory. */
export function defaultQuotaFile(keysPath: string): string {
  const ext = extname(keysPath);
  return join(dirname(keysPath), `${basename(keysPath, ext)}.quota.json`);
}

/** ETag of every lookup answer: the answers are a function of the URL and the dataset, so a hash of the dataset's metadata (sources, parameters, code tables, build statistics) names them. */
function datasetEtag(geo: GeoLookup): string {
  return `"gl1-${createHash('sha256').update(JSON.stringify(geo.meta)).digest('hex').slice(0, 24)}"`;
}

function normaliseAddress(a: string | undefined): string {
  if (!a) return 'unknown';
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

interface Client {
  /** Key id, or `anon:<address>`. */
  id: string;
  burstLimit: number;
  quota: number;
  window: BurstWindow;
}

/** The last key accepted on a connection, to skip the SHA-256 when the next request repeats it. */
const kLastKey = Symbol('geolookup.lastKey');
interface LastKey {
  bytes: Buffer;
  generation: number;
  client: Client;
}
/** Scratch space for comparing a presented key with a connection's last one (keys have one length). */
const scratch = Buffer.alloc(KEY_LENGTH);

/** What the handler needs from the request's headers, read in one pass over rawHeaders. */
const seen = { keyCount: 0, key: '', authorization: false, ifNoneMatch: '', body: false };
function readHeaders(raw: string[]): void {
  seen.keyCount = 0;
  seen.key = '';
  seen.authorization = false;
  seen.ifNoneMatch = '';
  seen.body = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    switch (name.length) {
      case 9:
        if (name.toLowerCase() === 'x-api-key') {
          seen.keyCount++;
          seen.key = raw[i + 1];
        }
        break;
      case 13:
        if (name.toLowerCase() === 'authorization') seen.authorization = true;
        else if (name.toLowerCase() === 'if-none-match')
          seen.ifNoneMatch = seen.ifNoneMatch ? `${seen.ifNoneMatch}, ${raw[i + 1]}` : raw[i + 1];
        break;
      case 14:
        if (name.toLowerCase() === 'content-length' && !/^0+$/.test(raw[i + 1])) seen.body = true;
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') seen.body = true;
        break;
    }
  }
}

function etagMatches(header: string, etag: string): boolean {
  if (header === etag || header === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Creates the server (not listening yet). Throws when the keys file, quota file or dataset cannot be read. */
export function createServer(options: ServerOptions = {}): GeoLookupServer {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const clock = options.now ?? Date.now;
  const geo = options.lookup ?? (options.data !== undefined ? createGeoLookup(options.data) : preload());
  const etag = datasetEtag(geo);
  const keys = new KeyStore(options.keys ?? null, log);
  const quotaPath =
    options.quotaFile !== undefined ? options.quotaFile : options.keys ? defaultQuotaFile(options.keys) : null;
  const quotas = new QuotaStore(quotaPath);
  const allowAnonymous = options.allowAnonymous ?? false;
  const burstPerMinute = options.limits?.burstPerMinute ?? 1000;
  const anonBurst = options.limits?.anonymousBurstPerMinute ?? 10;
  const anonQuota = options.limits?.anonymousMonthlyQuota ?? 10_000;
  const trusted = new Set((options.trustProxy ?? []).map(normaliseAddress));
  const cacheControl = `public, max-age=${options.cacheMaxAge ?? 86_400}`;
  const maxUrl = options.maxUrlLength ?? 2048;
  const maxHeaderSize = options.maxHeaderSize ?? 8192;
  const headersTimeout = options.headersTimeout ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeout ?? 15_000, headersTimeout);
  const flushMs = options.flushIntervalMs ?? 10_000;
  const months = new MonthClock();

  const keyWindows = new Map<string, BurstWindow>();
  const anonWindows = new Map<string, BurstWindow>();
  let closing = false;

  const server = http.createServer({
    maxHeaderSize,
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 2))),
    keepAlive: true,
    noDelay: true,
    // node's own answer to an HTTP/1.1 request without Host is a bare 400; handle() answers it with a problem record.
    requireHostHeader: false,
  }) as GeoLookupServer;
  server.timeout = options.socketTimeout ?? 0;

  function send(res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, body: string): void {
    headers['Content-Length'] = Buffer.byteLength(body);
    if (closing) headers.Connection = 'close';
    res.writeHead(status, headers);
    res.end(body);
  }

  function sendProblem(res: http.ServerResponse, p: Problem, headers: http.OutgoingHttpHeaders = {}): void {
    headers['Content-Type'] = PROBLEM;
    headers['X-Content-Type-Options'] = 'nosniff';
    headers['Cache-Control'] ??= 'no-store';
    send(res, p.status, headers, JSON.stringify(p));
  }

  function clientAddress(req: http.IncomingMessage): string {
    const peer = normaliseAddress(req.socket.remoteAddress);
    if (trusted.size === 0 || !trusted.has(peer)) return peer;
    const xff = req.headers['x-forwarded-for'];
    if (typeof xff !== 'string') return peer;
    const hops = xff.split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normaliseAddress(hops[i].trim());
      if (isIP(hop) === 0) return peer; // a malformed chain: fall back to the proxy itself
      if (!trusted.has(hop)) return hop;
    }
    return peer;
  }

  // One Client per key id, rebuilt when the keys file is reloaded (its quota may change);
  // burst windows outlive reloads.
  const keyClients = new Map<string, Client>();
  let clientsGeneration = -1;
  function keyClient(record: KeyRecord): Client {
    if (clientsGeneration !== keys.generation) {
      keyClients.clear();
      clientsGeneration = keys.generation;
    }
    let client = keyClients.get(record.id);
    if (client === undefined) {
      let window = keyWindows.get(record.id);
      if (window === undefined) keyWindows.set(record.id, (window = new BurstWindow()));
      keyClients.set(
        record.id,
        (client = { id: record.id, burstLimit: burstPerMinute, quota: record.monthlyQuota, window }),
      );
    }
    return client;
  }

  function anonClient(req: http.IncomingMessage): Client {
    const id = `anon:${clientAddress(req)}`;
    let window = anonWindows.get(id);
    if (window === undefined) anonWindows.set(id, (window = new BurstWindow()));
    return { id, burstLimit: anonBurst, quota: anonQuota, window };
  }

  /** The client behind the request (headers already read into `seen`), or the 401 detail. */
  function identify(req: http.IncomingMessage, verdict: number): Client | string {
    if (seen.keyCount === 0) {
      if (allowAnonymous) return anonClient(req);
      return seen.authorization
        ? 'The Authorization header is not accepted; send the API key in the X-API-Key header.'
        : 'The X-API-Key header is missing.';
    }
    const value = seen.key;
    if (seen.keyCount > 1) return 'Send exactly one X-API-Key header.';
    if (verdict === UNKNOWN) return 'The X-API-Key header could not be checked on this connection.';
    if (verdict & PADDED) return 'The X-API-Key value has leading or trailing whitespace.';
    if (value === '') return 'The X-API-Key header is empty.';
    if (!VISIBLE_ASCII.test(value)) return 'The X-API-Key value contains whitespace or control characters.';
    // Keep-alive connections send the same key again and again: the last accepted one is kept on
    // the connection and compared in constant time, which saves the SHA-256 per request.
    const socket = req.socket as Socket & { [kLastKey]?: LastKey };
    const last = socket[kLastKey];
    if (last !== undefined && last.generation === keys.generation && value.length === KEY_LENGTH) {
      scratch.write(value, 0, 'latin1');
      if (timingSafeEqual(scratch, last.bytes)) return last.client;
    }
    const v = keys.verify(value);
    if (!v.ok) return v.detail;
    const client = keyClient(v.record);
    socket[kLastKey] = { bytes: Buffer.from(value, 'latin1'), generation: keys.generation, client };
    return client;
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const verdict = takeVerdict(req.socket);
    readHeaders(req.rawHeaders);
    if (seen.body) {
      // The scanner cannot follow a body: answer this request, then close the connection.
      desync(req.socket);
      res.shouldKeepAlive = false;
    } else if (verdict === UNKNOWN || req.headers.upgrade !== undefined) {
      // An Upgrade request leaves node's parser reading nothing more on this connection: close it after the answer.
      res.shouldKeepAlive = false;
    }
    const method = req.method;
    const url = req.url ?? '/';
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      res.shouldKeepAlive = false;
      sendProblem(res, problem(400, 'Malformed HTTP request: HTTP/1.1 requires a Host header.'));
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendProblem(res, problem(405, `Method ${method} is not allowed; use GET or HEAD.`), { Allow: ALLOW });
      return;
    }
    if (url.length > maxUrl) {
      sendProblem(res, problem(414, `The request target is longer than ${maxUrl} characters.`));
      return;
    }
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    if (path === '/healthz') {
      send(res, 200, { 'Content-Type': TEXT, 'Cache-Control': 'no-store' }, 'ok');
      return;
    }

    const client = identify(req, verdict);
    if (typeof client === 'string') {
      sendProblem(res, problem(401, client, PROBLEM_TYPES.authentication), { 'WWW-Authenticate': 'X-API-Key' });
      return;
    }

    // Limits: quota first (it does not count rejected requests), then the burst window, then count.
    const now = clock();
    months.at(now);
    const resetIn = Math.max(1, Math.ceil((months.end - now) / 1000));
    const used = quotas.used(client.id, months.key);
    if (used >= client.quota) {
      const detail = `Monthly quota of ${client.quota} requests exceeded; try again later (the quota resets at the start of the next UTC month).`;
      sendProblem(
        res,
        tooMany(detail, resetIn),
        rateHeaders(client, 0, resetIn, client.window.remaining(now, client.burstLimit), resetIn),
      );
      return;
    }
    const burst = client.window.take(now, client.burstLimit);
    if (burst < 0) {
      const detail = `Burst limit of ${client.burstLimit} requests per minute exceeded; try again later.`;
      sendProblem(res, tooMany(detail, -burst), rateHeaders(client, client.quota - used, resetIn, 0, -burst));
      return;
    }
    const remaining = Math.max(0, client.quota - quotas.increment(client.id, months.key));

    let body: string;
    try {
      body = answer(geo, path, query);
    } catch (e) {
      if (!(e instanceof GeoLookupError) || e.status >= 500) throw e;
      const headers = rateHeaders(client, remaining, resetIn, burst);
      // A point in no country is as deterministic as an answer: cacheable. Bad input and unknown paths are not.
      if (e.status === 404 && !(e instanceof UnknownRouteError)) {
        headers['Cache-Control'] = cacheControl;
        headers.ETag = etag;
      }
      sendProblem(res, e.toProblem(), headers);
      return;
    }
    if (seen.ifNoneMatch !== '' && etagMatches(seen.ifNoneMatch, etag)) {
      const headers = rateHeaders(client, remaining, resetIn, burst);
      headers['Cache-Control'] = cacheControl;
      headers.ETag = etag;
      if (closing) headers.Connection = 'close';
      res.writeHead(304, headers);
      res.end();
      return;
    }
    // The hot path: one object literal, so the header object keeps one shape.
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': TEXT,
      'Content-Length': body.length, // codes and booleans are ASCII
      'Cache-Control': cacheControl,
      ETag: etag,
      'X-RateLimit-Limit': client.quota,
      'X-RateLimit-Remaining': remaining,
      'X-RateLimit-Reset': resetIn,
      'X-RateLimit-Burst-Limit': client.burstLimit,
      'X-RateLimit-Burst-Remaining': burst,
    };
    if (closing) headers.Connection = 'close';
    res.writeHead(200, headers);
    res.end(body);
  }

  function rateHeaders(
    client: Client,
    remaining: number,
    resetIn: number,
    burstRemaining: number,
    retryAfter?: number,
  ): http.OutgoingHttpHeaders {
    const h: http.OutgoingHttpHeaders = {
      [RATE_HEADERS.quotaLimit]: client.quota,
      [RATE_HEADERS.quotaRemaining]: Math.max(0, remaining),
      [RATE_HEADERS.quotaReset]: resetIn,
      [RATE_HEADERS.burstLimit]: client.burstLimit,
      [RATE_HEADERS.burstRemaining]: burstRemaining,
    };
    if (retryAfter !== undefined) h['Retry-After'] = retryAfter;
    return h;
  }

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      handle(req, res);
    } catch (e) {
      log(
        `geolookup: internal error on ${req.method} ${(req.url ?? '').slice(0, 200)}: ${(e as Error)?.stack ?? String(e)}`,
      );
      if (!res.headersSent) sendProblem(res, problem(500, 'An unexpected error occurred.'));
      else res.destroy();
    }
  });

  server.on('connection', (socket: Socket) => scanConnection(socket, maxHeaderSize));

  // Without these listeners node answers an unknown Expect with a bare 417 and drops CONNECT
  // without a word; both get a problem record like every other refusal (found by fuzzing).
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    takeVerdict(req.socket); // keep the key-scan queue in step with the requests
    res.shouldKeepAlive = false;
    sendProblem(res, problem(417, 'Only "Expect: 100-continue" is supported.'));
  });
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    const body = JSON.stringify(problem(405, 'Method CONNECT is not allowed; use GET or HEAD.'));
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Type: ${PROBLEM}\r\nX-Content-Type-Options: nosniff\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  // Requests the parser rejects: answer with a problem record and close. A bad byte in the
  // X-API-Key line (a newline, a control character, a folded continuation) is a 401.
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer }, socket: Socket) => {
      const pending = (socket as Socket & { _httpMessage?: http.ServerResponse })._httpMessage;
      // A response still being written cannot be followed by another, nor can one that closed the
      // connection (the bytes after it are an unread body); a finished keep-alive one can, so a
      // malformed request after it gets its 400 too instead of a silent close.
      if (
        err.code === 'ECONNRESET' ||
        !socket.writable ||
        (pending?.headersSent && (!pending.writableEnded || !pending.shouldKeepAlive))
      ) {
        socket.destroy();
        return;
      }
      let p: Problem;
      if (err.code === 'HPE_HEADER_OVERFLOW')
        p = problem(431, `The request head is larger than ${maxHeaderSize} bytes.`);
      else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') p = problem(408, 'The request was not received in time.');
      else if (badKeyLine(err))
        p = problem(
          401,
          'The X-API-Key value contains whitespace or control characters.',
          PROBLEM_TYPES.authentication,
        );
      else p = problem(400, 'Malformed HTTP request.');
      const body = JSON.stringify(p);
      // A HEAD request's answer has no body (its client would read one as a stray response).
      const head = err.rawPacket !== undefined && err.rawPacket.toString('latin1', 0, 5) === 'HEAD ';
      socket.end(
        `HTTP/1.1 ${p.status} ${p.title}\r\nContent-Type: ${PROBLEM}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${head ? '' : body}`,
      );
    },
  );

  // Periodic work: write changed quota counts, forget idle anonymous windows.
  const timer = setInterval(() => {
    const now = clock();
    quotas
      .flush(monthKey(now))
      .catch((e) => log(`geolookup: cannot write quota file ${quotaPath}: ${(e as Error).message}`));
    const stale = Math.floor(now / SLOT_MS) - WINDOW_SLOTS;
    for (const [id, w] of anonWindows) if (w.lastSlot < stale) anonWindows.delete(id);
  }, flushMs);
  timer.unref();

  if (options.watchKeys !== false) keys.watch();

  let finished = false;
  const stopBackground = () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    keys.close();
    // Also when an embedder calls server.close() rather than shutdown(): write the counts once writes in progress end.
    quotas
      .settle()
      .then(() => quotas.flushSync(monthKey(clock())))
      .catch((e) => log(`geolookup: cannot write quota file ${quotaPath}: ${(e as Error).message}`));
  };
  server.on('close', stopBackground);

  let stopping: Promise<void> | null = null;
  return Object.assign(server, {
    etag,
    reloadKeys: () => keys.reload(),
    flush: () => quotas.flush(monthKey(clock())),
    shutdown(graceMs = 10_000): Promise<void> {
      stopping ??= new Promise<void>((resolve, reject) => {
        closing = true;
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        cut.unref();
        const done = async () => {
          clearTimeout(cut);
          try {
            await quotas.settle();
            quotas.flushSync(monthKey(clock()));
            resolve();
          } catch (e) {
            reject(e);
          }
        };
        if (server.listening) {
          server.close(() => void done());
          server.closeIdleConnections();
        } else {
          stopBackground();
          void done();
        }
      });
      return stopping;
    },
  });
}

/** Whether a parse error sits in an X-API-Key header line (or a line folded onto one). */
function badKeyLine(err: { code?: string; bytesParsed?: number; rawPacket?: Buffer }): boolean {
  if (err.code !== 'HPE_INVALID_HEADER_TOKEN' && err.code !== 'HPE_CR_EXPECTED' && err.code !== 'HPE_LF_EXPECTED')
    return false;
  if (!err.rawPacket || err.bytesParsed === undefined) return false;
  const text = err.rawPacket.toString('latin1');
  const at = Math.min(err.bytesParsed, text.length);
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (/^x-api-key:/i.test(text.slice(lineStart, lineStart + 10))) return true;
  // A folded continuation (a line starting with whitespace) belongs to the header above it.
  if (lineStart > 0 && (text[lineStart] === ' ' || text[lineStart] === '\t')) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    return /^x-api-key:/i.test(text.slice(prevStart, prevStart + 10));
  }
  return false;
}
