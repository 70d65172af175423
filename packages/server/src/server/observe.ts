// What the metrics and the access log see of each request handled: its route, status and time,
// taken when the answer is handed to the socket (at once for answers written synchronously).

import type http from 'node:http';
import { logRequest } from './access-log.js';
import { countRateLimited, countRequest } from './metrics.js';
import { kSent, type Tagged } from './responses.js';
import { pathOf, routeOf } from './routes.js';
import type { Client, ServerState } from './state.js';

function record(
  state: ServerState,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  client: Client | null,
  started: number,
): void {
  if (!res.headersSent) return; // the connection went away before an answer
  const ms = performance.now() - started;
  const url = req.url ?? '/';
  const route = routeOf(pathOf(url), state.operations.table);
  const status = res.statusCode;
  const sent = (res as Tagged)[kSent];
  if (state.metrics !== null) {
    countRequest(state.metrics, route, status, ms / 1000);
    if (status === 429 && client !== null)
      countRateLimited(state.metrics, sent?.quotaRemaining, client.id.startsWith('anon:'));
  }
  if (state.accessLog !== null) {
    const bodyless = req.method === 'HEAD' || status === 304 || status === 204;
    logRequest(state.accessLog, {
      method: req.method ?? '',
      url: url.length > 512 ? `${url.slice(0, 512)}…` : url,
      route: state.operations.table.labels[route],
      status,
      ms: Math.round(ms * 1000) / 1000,
      bytes: bodyless ? 0 : (sent?.bytes ?? 0),
      client: client?.id ?? null,
      remote: req.socket.remoteAddress,
    });
  }
}

/** Records the request once its answer is written: now, or when the response closes. */
export function observeRequest(
  state: ServerState,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  client: Client | null,
  started: number,
): void {
  if (res.writableEnded) record(state, req, res, client, started);
  else res.once('close', () => record(state, req, res, client, started));
}
