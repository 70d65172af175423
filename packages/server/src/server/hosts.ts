// The Host check the server and the playground's page share: exactly one Host, required in
// HTTP/1.1 (RFC 9112 §3.2), and, where a server names the hosts it answers for, no other, so a
// page on another site cannot reach a loopback server through DNS rebinding.

import type http from 'node:http';

export type HostVerdict = 'ok' | 'missing' | 'repeated' | 'foreign';

/** Host names (lower case, without a port) a server answers for; null: any. */
export type HostNames = ReadonlySet<string> | null;

export function hostNames(names: readonly string[] | undefined): HostNames {
  return names === undefined ? null : new Set(names.map((n) => n.toLowerCase()));
}

/** How many Host lines a request head has (node's `req.headers.host` keeps only the first). */
export function hostLines(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') n++;
  return n;
}

/** The request's Host, judged; `lines` from hostLines (or the handler's own pass over the head). */
export function checkHost(req: http.IncomingMessage, lines: number, names: HostNames): HostVerdict {
  if (lines > 1) return 'repeated';
  const host = req.headers.host;
  if (host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) return 'missing';
  if (names === null) return 'ok';
  // `[::1]:8090` → `[::1]`; `localhost:8090` → `localhost`.
  return host !== undefined && names.has(host.replace(/:\d*$/, '').toLowerCase()) ? 'ok' : 'foreign';
}
