// The request handler, in the documented order of checks: CORS preflight, Host, method, target
// length, the paths without a key (/healthz, /openapi.json, /metrics), API key, limits, then the
// route's answer (or its 400/404) with ETag revalidation. Then what the metrics and the access
// log see of it: its route, status and time, taken when the answer is handed to the socket.

import type http from 'node:http';
import { GeoLookupError, PROBLEM_TYPES } from 'geolookup';
import { logRequest } from './access-log.js';
import { answerOpenPath } from './admin.js';
import { admit, admitShared, type Grant } from './admission.js';
import { type Client, identify } from './clients.js';
import { applyCors } from './cors.js';
import { checkHost } from './hosts.js';
import { countRateLimited, countRequest } from './metrics.js';
import { desync, takeVerdict, UNKNOWN } from './padded-key.js';
import { readHeaders, type RequestHeaders } from './request-headers.js';
import {
  ALLOW,
  etagMatches,
  kSent,
  problem,
  rateHeaders,
  sendAnswer,
  sendNotModified,
  sendProblem,
  type Tagged,
} from './responses.js';
import { answer, FIRST_OPERATION, operationEtag, pathOf, ROUTE, routeOf, UnknownRouteError } from './routes.js';
import type { ServerState } from './state.js';

/** The 'request' listener: any error escaping the handler is logged and answered with a 500. */
export function handleRequest(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse): void {
  const observed = state.metrics !== null || state.accessLog !== null;
  const started = observed ? performance.now() : 0;
  // The client, once known, for the metrics and the access log (null before a key is checked).
  let client: Client | null = null;
  try {
    client = handle(state, req, res);
  } catch (e) {
    internalError(state, req, res, e);
  }
  if (observed) observeRequest(state, req, res, client, started);
}

function internalError(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse, e: unknown): void {
  const what = `${req.method} ${(req.url ?? '').slice(0, 200)}`;
  state.log(`geolookup: internal error on ${what}: ${(e as Error)?.stack ?? String(e)}`);
  if (!res.headersSent) sendProblem(state, res, problem(500, 'An unexpected error occurred.'));
  else res.destroy();
}

/**
 * The pipeline: parse the head, refuse what no route may see, route, identify and admit the
 * client, then answer and respond (now, or once Redis admits it). Returns the client once
 * identified, else null.
 */
function handle(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse): Client | null {
  // Parse.
  const verdict = takeVerdict(req.socket);
  const seen = readHeaders(req.rawHeaders);
  if (seen.body) {
    // The key scanner cannot follow a body: answer this request, then close the connection.
    desync(req.socket);
    res.shouldKeepAlive = false;
  } else if (verdict === UNKNOWN || req.headers.upgrade !== undefined) {
    // After an Upgrade request node's parser reads nothing more on this connection: close it after the answer.
    res.shouldKeepAlive = false;
  }
  // A preflight is answered here; other answers to a listed origin get its CORS headers.
  if (state.cors !== null && applyCors(state.cors, seen.origin, req, res, state.closing)) return null;
  const url = req.url ?? '/';
  if (refuseRequest(state, req, res, seen, url)) return null;
  // Route.
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const route = routeOf(path, state.operations.table);
  if (route < ROUTE.other && answerOpenPath(state, res, route)) return null;
  // Admit: identify the client, then apply its limits.
  const client = identify(state, req, seen, verdict);
  if (typeof client === 'string') {
    sendProblem(state, res, problem(401, client, PROBLEM_TYPES.authentication), { 'WWW-Authenticate': 'X-API-Key' });
    return null;
  }
  // Then answer and respond (respond()), at once or once Redis has counted the request.
  if (state.shared === null) {
    const grant = admit(state, res, client);
    if (grant !== null) respond(state, res, client, grant, route, path, query, seen.ifNoneMatch);
    return client;
  }
  admitShared(state, res, client, state.shared)
    .then((grant) => grant !== null && respond(state, res, client, grant, route, path, query, seen.ifNoneMatch))
    .catch((e) => internalError(state, req, res, e));
  return client;
}

const HOST_REFUSALS = {
  missing: problem(400, 'Malformed HTTP request: HTTP/1.1 requires a Host header.'),
  repeated: problem(400, 'Malformed HTTP request: more than one Host header.'),
  foreign: problem(403, 'The Host header names a host this server does not answer for.'),
} as const;

/**
 * Answers a request that no route may see (no Host, two Hosts or one not served, a method other
 * than GET/HEAD, an over-long target).
 */
function refuseRequest(
  state: ServerState,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  seen: RequestHeaders,
  url: string,
): boolean {
  const host = checkHost(req, seen.hostCount, state.hosts);
  if (host !== 'ok') {
    // A malformed head says nothing reliable about the next request on its connection.
    if (host !== 'foreign') res.shouldKeepAlive = false;
    sendProblem(state, res, HOST_REFUSALS[host]);
    return true;
  }
  const method = req.method;
  if (method !== 'GET' && method !== 'HEAD') {
    sendProblem(state, res, problem(405, `Method ${method} is not allowed; use GET or HEAD.`), { Allow: ALLOW });
    return true;
  }
  if (url.length > state.maxUrl) {
    sendProblem(state, res, problem(414, `The request target is longer than ${state.maxUrl} characters.`));
    return true;
  }
  return false;
}

/**
 * The admitted request's answer: 200, 304 when If-None-Match names the ETag (the operation's:
 * the dataset's, or an extension's own), or the route's 400/404.
 */
function respond(
  state: ServerState,
  res: http.ServerResponse,
  client: Client,
  grant: Grant,
  route: number,
  path: string,
  query: string,
  ifNoneMatch: string,
): void {
  let body: string;
  try {
    body = answer(state.operations, path, query, route);
  } catch (e) {
    if (!(e instanceof GeoLookupError) || e.status >= 500) throw e;
    const headers = rateHeaders(client, grant.remaining, grant.resetIn, grant.burst);
    // A point in no country is as deterministic as an answer: cacheable. Bad input and unknown paths are not.
    if (e.status === 404 && !(e instanceof UnknownRouteError)) {
      headers['Cache-Control'] = state.cacheControl;
      headers.ETag = operationEtag(state.operations, route - FIRST_OPERATION);
    }
    sendProblem(state, res, e.toProblem(), headers);
    return;
  }
  const etag = operationEtag(state.operations, route - FIRST_OPERATION);
  if (ifNoneMatch !== '' && etagMatches(ifNoneMatch, etag)) sendNotModified(state, res, client, grant, etag);
  else sendAnswer(state, res, client, grant, body, etag, state.operations.table.types[route]);
}

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
