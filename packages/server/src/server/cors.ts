// CORS for browser pages on other origins: the preflight (OPTIONS) of a listed origin gets a 204,
// and every answer to it (errors included) names the origin and exposes the headers the client
// reads. Requests from other origins get no CORS headers, so their browsers keep the answers from them.

import type http from 'node:http';
import { ALLOW, RATE_HEADERS } from './responses.js';

export const CORS = {
  allowMethods: ALLOW,
  allowHeaders: 'X-API-Key',
  /** Seconds a browser may reuse a preflight's answer (browsers cap it: Chromium at 2 h). */
  maxAge: 86_400,
  /** Headers not CORS-safelisted that a page may read: the rate limits, Retry-After, ETag, the 401 scheme. */
  expose: [...Object.values(RATE_HEADERS), 'Retry-After', 'ETag', 'WWW-Authenticate'].join(', '),
} as const;

export interface CorsPolicy {
  /** `*` was listed: any origin, answered with `*`. */
  any: boolean;
  origins: ReadonlySet<string>;
}

/** An origin as browsers send it: scheme://host[:port], no path, no trailing slash. */
const ORIGIN = /^https?:\/\/[^/\s?#]+$/i;

/**
 * The policy for `origins` (null: no CORS). Throws a TypeError for an origin that is not
 * scheme://host[:port], or for `*` without anonymous access.
 */
export function corsPolicy(origins: readonly string[] | undefined, allowAnonymous: boolean): CorsPolicy | null {
  if (!origins || origins.length === 0) return null;
  const set = new Set<string>();
  let any = false;
  for (const o of origins) {
    if (o === '*') any = true;
    else if (ORIGIN.test(o)) set.add(new URL(o).origin);
    else throw new TypeError(`CORS origin must be scheme://host[:port] or *, got ${JSON.stringify(o)}`);
  }
  if (any && !allowAnonymous)
    throw new TypeError('CORS origin * is allowed only with anonymous access: list the origins that may use keys');
  return { any, origins: set };
}

/**
 * Sets the CORS headers of the answer to a request from `origin` ('' when it sent none), and
 * answers a preflight. Returns true when it answered (a preflight of an allowed origin).
 */
export function applyCors(
  policy: CorsPolicy,
  origin: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  closing: boolean,
): boolean {
  // A cache in front must not hand one origin's answer to another (listed origins are echoed).
  if (!policy.any) res.setHeader('Vary', 'Origin');
  if (origin === '' || !(policy.any || policy.origins.has(origin))) return false;
  const allowOrigin = policy.any ? '*' : origin;
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, {
      'Access-Control-Allow-Origin': allowOrigin,
      'Access-Control-Allow-Methods': CORS.allowMethods,
      'Access-Control-Allow-Headers': CORS.allowHeaders,
      'Access-Control-Max-Age': CORS.maxAge,
      'Content-Length': 0,
      ...(closing ? { Connection: 'close' } : {}),
    });
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Allow-Origin', allowOrigin);
  res.setHeader('Access-Control-Expose-Headers', CORS.expose);
  return false;
}
