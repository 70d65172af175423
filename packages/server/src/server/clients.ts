// Who a request counts against: the Client of an API key (one per key id) or of an anonymous
// client address (behind trusted proxies, the first untrusted X-Forwarded-For hop).

import type http from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { KeyRecord } from './keys.js';
import { BurstWindow, SLOT_MS, WINDOW_SLOTS } from './limits.js';
import type { Client, ServerState } from './state.js';

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

function clientAddress(state: ServerState, req: http.IncomingMessage): string {
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
