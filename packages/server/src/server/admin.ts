// The paths that need no key and count against no limit (routes.ts, OPEN_PATHS): /healthz,
// /openapi.json and /metrics; and the admin listener (`server.admin`), which answers /healthz and /metrics alone.

import http from 'node:http';
import { PROBLEM_TYPES } from 'geolookup';
import { metricsText } from './metrics.js';
import { METRICS_TYPE, serverDocument } from './openapi.js';
import { ALLOW, problem, send, sendProblem, TEXT } from './responses.js';
import { pathOf, ROUTE, routeOf } from './routes.js';
import type { ServerState } from './state.js';

/** /healthz: still 200 while Redis is away, the instance answering with limits of its own (docs/SERVER.md). */
export function healthText(state: ServerState): string {
  return state.shared !== null && !state.shared.healthy ? 'degraded' : 'ok';
}

function sendMetrics(state: ServerState, res: http.ServerResponse): void {
  metricsText(state.metrics!).then(
    (text) => send(state, res, 200, { 'Content-Type': METRICS_TYPE, 'Cache-Control': 'no-store' }, text),
    (e) => {
      state.log(`geolookup: metrics failed: ${(e as Error)?.stack ?? String(e)}`);
      if (!res.headersSent) sendProblem(state, res, problem(500, 'An unexpected error occurred.'));
    },
  );
}

function sendHealth(state: ServerState, res: http.ServerResponse): void {
  send(state, res, 200, { 'Content-Type': TEXT, 'Cache-Control': 'no-store' }, healthText(state));
}

/**
 * Answers an open path of the main port (`route`, routeOf's): /healthz, /openapi.json, and /metrics
 * unless it is left to the admin listener; false for other routes.
 */
export function answerOpenPath(state: ServerState, res: http.ServerResponse, route: number): boolean {
  if (route === ROUTE.healthz) {
    sendHealth(state, res);
    return true;
  }
  if (route === ROUTE.openapi) {
    send(
      state,
      res,
      200,
      { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' },
      serverDocument(state).json,
    );
    return true;
  }
  if (route === ROUTE.metrics && state.metricsOnMain) {
    sendMetrics(state, res);
    return true;
  }
  return false;
}

function answerAdmin(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse): void {
  const route = routeOf(pathOf(req.url ?? '/'));
  if (req.method !== 'GET' && req.method !== 'HEAD')
    sendProblem(state, res, problem(405, `Method ${req.method} is not allowed; use GET or HEAD.`), { Allow: ALLOW });
  else if (route === ROUTE.healthz) sendHealth(state, res);
  else if (route === ROUTE.metrics && state.metrics !== null) sendMetrics(state, res);
  else {
    const routes = state.metrics !== null ? '/healthz, /metrics' : '/healthz';
    sendProblem(
      state,
      res,
      problem(404, `No such resource on the admin port. Routes: ${routes}.`, PROBLEM_TYPES.notFound),
    );
  }
}

/** The admin listener: /healthz and /metrics on a port of their own (not listening yet). */
export function createAdminServer(state: ServerState): http.Server {
  const server = http.createServer({ keepAlive: true, headersTimeout: 10_000, requestTimeout: 15_000 }, (req, res) =>
    answerAdmin(state, req, res),
  );
  server.on('clientError', (_e, socket) => socket.destroy());
  return server;
}
