// Response writers: the answer (plain text, or JSON for the border operations), 304, RFC 9457 problem+json refusals, the rate-limit
// headers and the dataset ETag. Header order here is the order on the wire.

import { createHash } from 'node:crypto';
import type http from 'node:http';
import { PROBLEM_TYPES, type Problem } from 'geolookup';
import { statusTitle } from 'geolookup/extend';

/** What the writers read of the server: ServerState (state.ts) has it, and this file need not import state.ts. */
export interface ResponseContext {
  /** Cache-Control of lookup answers. */
  readonly cacheControl: string;
  /** Set by shutdown(): every later response asks to close its connection. */
  readonly closing: boolean;
  /** Non-null while observation is on: then answers are tagged with kSent. */
  readonly metrics: unknown;
  readonly accessLog: unknown;
}

/** The limits an answer's X-RateLimit-* headers name (a Client, clients.ts). */
export interface RateLimited {
  readonly quota: number;
  readonly burstLimit: number;
}

/** An admitted request's figures (a Grant, admission.ts). */
export interface RateFigures {
  readonly remaining: number;
  readonly resetIn: number;
  readonly burst: number;
}

export const RATE_HEADERS = {
  quotaLimit: 'X-RateLimit-Limit',
  quotaRemaining: 'X-RateLimit-Remaining',
  quotaReset: 'X-RateLimit-Reset',
  burstLimit: 'X-RateLimit-Burst-Limit',
  burstRemaining: 'X-RateLimit-Burst-Remaining',
} as const;

/**
 * What handler.ts's observation reads back of an answer (node keeps no copy of the headers given
 * to writeHead): set only while metrics or the access log are on.
 */
export const kSent = Symbol('geolookup.sent');
export interface Sent {
  bytes: number;
  /** X-RateLimit-Remaining as sent: 0 on a quota refusal, undefined before the client is known. */
  quotaRemaining: unknown;
}
export type Tagged = http.ServerResponse & { [kSent]?: Sent };

export const ALLOW = 'GET, HEAD';
export const TEXT = 'text/plain; charset=utf-8';
/** The border operations' answers (numbers, null, objects): JSON is UTF-8, with no charset parameter (RFC 8259). */
export const JSON_TYPE = 'application/json';
export const PROBLEM = 'application/problem+json';
const EXTRA_TITLES: Record<number, string> = {
  403: 'Forbidden',
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
export function problem(status: number, detail: string, type: string = PROBLEM_TYPES.general): Problem {
  return { type, title: title(status), status, detail };
}

export function tooMany(detail: string, retryAfter: number): Problem {
  return { ...problem(429, detail, PROBLEM_TYPES.rateLimit), retryAfter };
}

/**
 * ETag of every lookup answer: the answers are a function of the URL and the dataset, so a hash
 * of the dataset's metadata (sources, parameters, code tables, build statistics) names them. An
 * extension's operation (extensions.ts) is named by its own dataset's metadata.
 */
export function datasetEtag(geo: { readonly meta: unknown }): string {
  return `"gl1-${createHash('sha256').update(JSON.stringify(geo.meta)).digest('hex').slice(0, 24)}"`;
}

/** Whether an If-None-Match value names `etag` (weak or strong) or is `*`. */
export function etagMatches(header: string, etag: string): boolean {
  if (header === etag || header === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export function rateHeaders(
  client: RateLimited,
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

export function send(
  ctx: ResponseContext,
  res: http.ServerResponse,
  status: number,
  headers: http.OutgoingHttpHeaders,
  body: string,
): void {
  const bytes = Buffer.byteLength(body);
  headers['Content-Length'] = bytes;
  if (ctx.closing) headers.Connection = 'close';
  if (ctx.metrics !== null || ctx.accessLog !== null)
    (res as Tagged)[kSent] = { bytes, quotaRemaining: headers[RATE_HEADERS.quotaRemaining] };
  res.writeHead(status, headers);
  res.end(body);
}

export function sendProblem(
  ctx: ResponseContext,
  res: http.ServerResponse,
  p: Problem,
  headers: http.OutgoingHttpHeaders = {},
): void {
  headers['Content-Type'] = PROBLEM;
  headers['X-Content-Type-Options'] = 'nosniff';
  headers['Cache-Control'] ??= 'no-store';
  send(ctx, res, p.status, headers, JSON.stringify(p));
}

/** 304 to a matching If-None-Match: the answer's headers without its body. */
export function sendNotModified(
  ctx: ResponseContext,
  res: http.ServerResponse,
  client: RateLimited,
  grant: RateFigures,
  etag: string,
): void {
  const headers = rateHeaders(client, grant.remaining, grant.resetIn, grant.burst);
  headers['Cache-Control'] = ctx.cacheControl;
  headers.ETag = etag;
  if (ctx.closing) headers.Connection = 'close';
  res.writeHead(304, headers);
  res.end();
}

/**
 * 200 with a lookup answer (`type`: its operation's, routes.ts ANSWER_TYPES; `etag`: its
 * operation's, extensions.ts): the hot path.
 */
export function sendAnswer(
  ctx: ResponseContext,
  res: http.ServerResponse,
  client: RateLimited,
  grant: RateFigures,
  body: string,
  etag: string,
  type: string = TEXT,
): void {
  // One object literal, so every answer's header object has the same shape (throughput: bench/server.ts).
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': type,
    'Content-Length': body.length, // codes, booleans, IANA zone names and the JSON of codes and numbers are ASCII
    'Cache-Control': ctx.cacheControl,
    ETag: etag,
    'X-RateLimit-Limit': client.quota,
    'X-RateLimit-Remaining': grant.remaining,
    'X-RateLimit-Reset': grant.resetIn,
    'X-RateLimit-Burst-Limit': client.burstLimit,
    'X-RateLimit-Burst-Remaining': grant.burst,
  };
  if (ctx.closing) headers.Connection = 'close';
  if (ctx.accessLog !== null) (res as Tagged)[kSent] = { bytes: body.length, quotaRemaining: grant.remaining };
  res.writeHead(200, headers);
  res.end(body);
}
