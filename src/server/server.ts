// The self-hostable HTTP server: the service's four routes on node:http, with API keys,
// burst limits, monthly quotas and RFC 9457 problem+json errors. See docs/SERVER.md.

import http from 'node:http';
import type { Socket } from 'node:net';
import { handleRequest } from './handler.js';
import { shutdown, startBackground } from './lifecycle.js';
import { monthKey } from './limits.js';
import type { ServerOptions } from './options.js';
import { scanConnection } from './padded-key.js';
import { answerParseError, type ParseError, refuseConnect, refuseExpectation } from './protocol-errors.js';
import { createState, type ServerState } from './state.js';

export type { ServerLimits, ServerOptions } from './options.js';
export { defaultQuotaFile } from './options.js';
export { RATE_HEADERS } from './responses.js';

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

/** Creates the server (not listening yet). Throws when the keys file, quota file or dataset cannot be read. */
export function createServer(options: ServerOptions = {}): GeoLookupServer {
  const state = createState(options);
  const server = http.createServer(httpOptions(options, state)) as GeoLookupServer;
  server.timeout = options.socketTimeout ?? 0;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => handleRequest(state, req, res));
  server.on('connection', (socket: Socket) => scanConnection(socket, state.maxHeaderSize));
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) =>
    refuseExpectation(state, req, res),
  );
  server.on('connect', refuseConnect);
  server.on('clientError', (err: ParseError, socket: Socket) => answerParseError(state, err, socket));
  const stopBackground = startBackground(state, server, options.flushIntervalMs ?? 10_000, options.watchKeys !== false);

  let stopping: Promise<void> | null = null;
  return Object.assign(server, {
    etag: state.etag,
    reloadKeys: () => state.keys.reload(),
    flush: () => state.quotas.flush(monthKey(state.clock())),
    shutdown(graceMs = 10_000): Promise<void> {
      stopping ??= shutdown(state, server, graceMs, stopBackground);
      return stopping;
    },
  });
}
