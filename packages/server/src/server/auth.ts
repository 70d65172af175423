// Authentication: the X-API-Key header as read by request-headers.ts, the padded-value verdict of
// padded-key.ts, and the key store; or anonymous access when the server allows it.

import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { Socket } from 'node:net';
import { anonClient, keyClient } from './clients.js';
import { KEY_LENGTH } from './keys.js';
import { PADDED, UNKNOWN } from './padded-key.js';
import type { RequestHeaders } from './request-headers.js';
import type { Client, ServerState } from './state.js';

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The last key accepted on a connection, to skip the SHA-256 when the next request repeats it. */
const kLastKey = Symbol('geolookup.lastKey');
interface LastKey {
  bytes: Buffer;
  generation: number;
  client: Client;
}
/** Scratch space for comparing a presented key with a connection's last one (keys have one length). */
const scratch = Buffer.alloc(KEY_LENGTH);

/** Why a request without exactly one well-formed X-API-Key is refused (401 detail), or null. */
function headerProblem(seen: RequestHeaders, verdict: number): string | null {
  if (seen.keyCount === 0) {
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
  return null;
}

/**
 * The client behind the request (`seen`: its headers), or the 401 detail.
 * `verdict` is the request's padded-key verdict (takeVerdict).
 */
export function identify(
  state: ServerState,
  req: http.IncomingMessage,
  seen: RequestHeaders,
  verdict: number,
): Client | string {
  if (seen.keyCount === 0 && state.allowAnonymous) return anonClient(state, req);
  const problem = headerProblem(seen, verdict);
  if (problem !== null) return problem;
  const value = seen.key;
  // Keep-alive connections send the same key again and again: the last accepted one is kept on
  // the connection and compared in constant time instead of hashing it again. A keys reload
  // (new generation) expires it: packages/server/test/server-keys.test.ts "a key revoked while…".
  const socket = req.socket as Socket & { [kLastKey]?: LastKey };
  const last = socket[kLastKey];
  if (last !== undefined && last.generation === state.keys.generation && value.length === KEY_LENGTH) {
    scratch.write(value, 0, 'latin1');
    if (timingSafeEqual(scratch, last.bytes)) return last.client;
  }
  const v = state.keys.verify(value);
  if (!v.ok) return v.detail;
  const client = keyClient(state, v.record);
  socket[kLastKey] = { bytes: Buffer.from(value, 'latin1'), generation: state.keys.generation, client };
  return client;
}
