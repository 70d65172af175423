// Who a request counts against: the Client of an API key (one per key id) or of an anonymous
// client address (behind trusted proxies, the first untrusted X-Forwarded-For hop). identify():
// the X-API-Key header as read by request-headers.ts, the padded-value verdict of padded-key.ts,
// and the key store; or anonymous access when the server allows it.

import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import { KEY_LENGTH, type KeyRecord, type KeyStore } from './keys.js';
import { BurstWindow, SLOT_MS, WINDOW_SLOTS } from './limits.js';
import { PADDED, UNKNOWN } from './padded-key.js';
import type { RequestHeaders } from './request-headers.js';

/** Who a request counts against: an API key or an anonymous client address. */
export interface Client {
  /** Key id, or `anon:<address>`. */
  id: string;
  burstLimit: number;
  quota: number;
  window: BurstWindow;
}

/** What identifying a client reads and keeps of the server (part of ServerState, state.ts). */
export interface ClientContext {
  readonly keys: KeyStore;
  readonly allowAnonymous: boolean;
  /** The trusted reverse proxies (addresses and ranges), or null for none. */
  readonly trusted: BlockList | null;
  readonly burstPerMinute: number;
  readonly anonBurst: number;
  readonly anonQuota: number;
  /** Burst windows by key id: they outlive keys reloads. */
  readonly keyWindows: Map<string, BurstWindow>;
  /** Burst windows by `anon:<address>`; idle ones are pruned by the periodic work. */
  readonly anonWindows: Map<string, BurstWindow>;
  /** One Client per key id, valid for keys generation `clientsGeneration` (a reload may change a quota). */
  readonly keyClients: Map<string, Client>;
  clientsGeneration: number;
}

export function normaliseAddress(a: string | undefined): string {
  if (!a) return 'unknown';
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

/** An address's family as BlockList names it; null for what is no IP address. */
function family(address: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

/**
 * The trusted proxies of `--trust-proxy` / `trustProxy`: IP addresses and CIDR ranges
 * (`10.0.0.0/8`, `fd00::/8`), IPv4 and IPv6; null for none. Throws, naming the entry, for anything else.
 */
export function trustedProxies(entries: readonly string[] | undefined): BlockList | null {
  if (!entries?.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [given, length, ...rest] = entry.split('/');
    const address = length === undefined ? normaliseAddress(given) : given;
    const type = family(address);
    const bits = type === 'ipv4' ? 32 : 128;
    const prefix = length === undefined ? bits : /^\d{1,3}$/.test(length) ? Number(length) : -1;
    if (type === null || rest.length > 0 || prefix < 0 || prefix > bits)
      throw new Error(`"${entry}" is not an IP address or CIDR range (such as 192.0.2.7, 10.0.0.0/8, ::1 or fd00::/8)`);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

function trusts(trusted: BlockList, address: string): boolean {
  const type = family(address);
  return type !== null && trusted.check(address, type);
}

function clientAddress(state: ClientContext, req: http.IncomingMessage): string {
  const peer = normaliseAddress(req.socket.remoteAddress);
  const trusted = state.trusted;
  if (trusted === null || !trusts(trusted, peer)) return peer;
  const xff = req.headers['x-forwarded-for'];
  if (typeof xff !== 'string') return peer;
  const hops = xff.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(hops[i].trim());
    if (isIP(hop) === 0) return peer; // a malformed chain: fall back to the proxy itself
    if (!trusts(trusted, hop)) return hop;
  }
  return peer;
}

/** The Client of an accepted key; rebuilt after a keys reload (its quota may change), keeping its window. */
export function keyClient(state: ClientContext, record: KeyRecord): Client {
  if (state.clientsGeneration !== state.keys.generation) {
    state.keyClients.clear();
    state.clientsGeneration = state.keys.generation;
  }
  let client = state.keyClients.get(record.id);
  if (client === undefined) {
    let window = state.keyWindows.get(record.id);
    if (window === undefined) state.keyWindows.set(record.id, (window = new BurstWindow()));
    client = { id: record.id, burstLimit: state.burstPerMinute, quota: record.monthlyQuota, window };
    state.keyClients.set(record.id, client);
  }
  return client;
}

export function anonClient(state: ClientContext, req: http.IncomingMessage): Client {
  const id = `anon:${clientAddress(state, req)}`;
  let window = state.anonWindows.get(id);
  if (window === undefined) state.anonWindows.set(id, (window = new BurstWindow()));
  return { id, burstLimit: state.anonBurst, quota: state.anonQuota, window };
}

/** Drops the anonymous windows with no request in the last minute (they hold nothing to refuse). */
export function forgetIdleWindows(state: ClientContext, now: number): void {
  const stale = Math.floor(now / SLOT_MS) - WINDOW_SLOTS;
  for (const [id, w] of state.anonWindows) if (w.lastSlot < stale) state.anonWindows.delete(id);
}

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
  state: ClientContext,
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
