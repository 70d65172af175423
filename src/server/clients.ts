// Who a request counts against: the Client of an API key (one per key id) or of an anonymous
// client address (behind trusted proxies, the first untrusted X-Forwarded-For hop).

import type http from 'node:http';
import { isIP } from 'node:net';
import type { KeyRecord } from './keys.js';
import { BurstWindow, SLOT_MS, WINDOW_SLOTS } from './limits.js';
import type { Client, ServerState } from './state.js';

export function normaliseAddress(a: string | undefined): string {
  if (!a) return 'unknown';
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

function clientAddress(state: ServerState, req: http.IncomingMessage): string {
  const peer = normaliseAddress(req.socket.remoteAddress);
  const trusted = state.trusted;
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

/** The Client of an accepted key; rebuilt after a keys reload (its quota may change), keeping its window. */
export function keyClient(state: ServerState, record: KeyRecord): Client {
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

export function anonClient(state: ServerState, req: http.IncomingMessage): Client {
  const id = `anon:${clientAddress(state, req)}`;
  let window = state.anonWindows.get(id);
  if (window === undefined) state.anonWindows.set(id, (window = new BurstWindow()));
  return { id, burstLimit: state.anonBurst, quota: state.anonQuota, window };
}

/** Drops the anonymous windows with no request in the last minute (they hold nothing to refuse). */
export function forgetIdleWindows(state: ServerState, now: number): void {
  const stale = Math.floor(now / SLOT_MS) - WINDOW_SLOTS;
  for (const [id, w] of state.anonWindows) if (w.lastSlot < stale) state.anonWindows.delete(id);
}
