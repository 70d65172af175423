// The self-hostable HTTP server: the service's four routes on node:http, with API keys,
// burst limits, monthly quotas and RFC 9457 problem+json errors. See docs/SERVER.md.

import http from 'node:http';
import type { Socket } from 'node:net';
import type { Registry } from 'prom-client';
import { createAdminServer } from './admin.js';
import { handleRequest } from './handler.js';
import { shutdown, startBackground } from './lifecycle.js';
import { monthKey } from './limits.js';
import type { ServerOptions } from './options.js';
import { scanConnection } from './padded-key.js';
import { answerParseError, type ParseError, refuseConnect, refuseExpectation } from './protocol-errors.js';
import { serverDocument } from './openapi.js';
import { createState, type ServerState } from './state.js';

export type { ServerLimits, ServerOptions } from './options.js';
export { defaultQuotaFile } from './options.js';
export { RATE_HEADERS } from './responses.js';
export type { AccessLogDestination } from './access-log.js';

export interface GeoLookupServer extends http.Server {
  /**
   * The ETag sent with the contract's lookup answers (quoted), derived from the dataset. An
   * extension's route (/geo/timezone/…) sends one derived from its own dataset.
   */
  readonly etag: string;
  /** Re-reads the keys file now (what SIGHUP does in `geolookup serve`). */
  reloadKeys(): boolean;
  /** Writes changed quota counts now. */
  flush(): Promise<void>;
  /**
   * Resolves once the Redis of `options.redis` answered or failed its first connection (then the
   * server limits on its own until Redis answers); at once without `redis`.
   */
  ready(): Promise<void>;
  /** The OpenAPI 3.1 document this server answers at /openapi.json (for its settings). */
  readonly openapi: Record<string, unknown>;
  /** Its Prometheus registry (null with `metrics: false`): merge it into yours, or add metrics. */
  readonly metrics: Registry | null;
  /** With `admin: true`: the server answering /healthz and /metrics, for the caller to listen on. */
  readonly admin: http.Server | null;
  /**
   * Graceful stop: no new connections, in-flight requests finish (their responses close the
   * connection), idle connections close, quota counts are written. After `graceMs` the
   * remaining connections are cut.
   */
  shutdown(graceMs?: number): Promise<void>;
}

function httpOptions(options: ServerOptions, state: ServerState): http.ServerOptions {
  const headersTimeout = options.headersTimeout ?? 10_000;
  return {
    maxHeaderSize: state.maxHeaderSize,
    headersTimeout,
    requestTimeout: Math.max(options.requestTimeout ?? 15_000, headersTimeout),
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 2))),
    keepAlive: true,
    noDelay: true,
    // node's own answer to an HTTP/1.1 request without Host is a bare 400; the handler answers
    // it with a problem record.
    requireHostHeader: false,
  };
}

/**
 * Creates the server (not listening yet). Throws when the keys file, quota file or dataset cannot be
 * read. Serves the operations beyond the contract whose packages are installed beside it
 * (@geolookup/timezones: GET /geo/timezone/fromGps/…; @geolookup/borders: the four border routes,
 * where they pair with the dataset; docs/SERVER.md, "Time zones", "Borders").
 */
export function createServer(options: ServerOptions = {}): GeoLookupServer {
  const state = createState(options);
  const server = http.createServer(httpOptions(options, state)) as GeoLookupServer;
  server.timeout = options.socketTimeout ?? 0;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => handleRequest(state, req, res));
  server.on('connection', (socket: Socket) => scanConnection(socket, state.maxHeaderSize));
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) =>
    refuseExpectation(state, req, res),
  );
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => refuseConnect(state, req, socket));
  server.on('clientError', (err: ParseError, socket: Socket) => answerParseError(state, err, socket));
  const stopBackground = startBackground(state, server, options.flushIntervalMs ?? 10_000, options.watchKeys !== false);
  const admin = options.admin ? createAdminServer(state) : null;
  server.on('close', () => {
    state.accessLog?.flush();
    if (admin?.listening) {
      admin.close();
      admin.closeAllConnections();
    }
  });

  let stopping: Promise<void> | null = null;
  return Object.assign(server, {
    etag: state.etag,
    reloadKeys: () => state.keys.reload(),
    flush: () => state.quotas.flush(monthKey(state.clock())),
    ready: () => state.shared?.ready ?? Promise.resolve(),
    openapi: serverDocument(state).doc,
    metrics: state.metrics?.registry ?? null,
    admin,
    shutdown(graceMs = 10_000): Promise<void> {
      stopping ??= shutdown(state, server, graceMs, stopBackground);
      return stopping;
    },
  });
}
