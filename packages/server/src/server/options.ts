// The public options of createServer, with their defaults documented here and applied in state.ts.

import { basename, dirname, extname, join } from 'node:path';
import type { GeoLookup } from 'geolookup';
import type { BinaryInput } from 'geolookup';
import type { Extension } from 'geolookup/extend';
import type { AccessLogDestination } from './access-log.js';

export interface ServerLimits {
  /** Requests per minute per API key, any plan. Default 1000. */
  burstPerMinute?: number;
  /** Requests per minute per anonymous client address (with allowAnonymous). Default 10. */
  anonymousBurstPerMinute?: number;
  /** Requests per UTC month per anonymous client address. Default 10000. */
  anonymousMonthlyQuota?: number;
}

export interface ServerOptions {
  /**
   * Keys file (JSON, hashes only; see `geolookup keys`). Without one, only anonymous requests
   * can succeed.
   */
  keys?: string | null;
  /** Requests without X-API-Key are served as anonymous (10/min per client address) instead of 401. */
  allowAnonymous?: boolean;
  limits?: ServerLimits;
  /** Clock in ms since the epoch (tests inject one). Default Date.now. */
  now?: () => number;
  /** A dataset file path or its bytes. Default: the embedded world dataset. */
  data?: string | BinaryInput;
  /** An already loaded lookup (instead of `data`). */
  lookup?: GeoLookup;
  /**
   * The extensions whose operations it answers beyond the contract. Default: those geolookup's
   * loader finds installed (geolookup/extend findExtensions); [] for the contract's four alone.
   */
  extensions?: readonly Extension[];
  /**
   * Where quota counts persist. Default: beside the keys file, `<name>.quota.json`; null keeps
   * them in memory.
   */
  quotaFile?: string | null;
  /**
   * Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS): burst windows and
   * monthly quotas are counted there, shared by every instance given the same URL; the quota file
   * is then not used. Default none: this process counts alone.
   */
  redis?: string;
  /** ms Redis has to answer before the server limits on its own (docs/SERVER.md). Default 250. */
  redisTimeoutMs?: number;
  /** How often changed quota counts are written, in ms. Default 10 000. They are also written on close. */
  flushIntervalMs?: number;
  /**
   * Reverse proxies whose X-Forwarded-For names the client (anonymous limits): IP addresses and CIDR
   * ranges (`10.0.0.0/8`, `fd00::/8`); anything else throws. Default none.
   */
  trustProxy?: string[];
  /**
   * Host names (without a port, any case) the server answers for; a request whose Host names another
   * gets 403, so a page on another site cannot reach it through DNS rebinding. Default: any host.
   */
  hosts?: string[];
  /** Cache-Control max-age (s) of lookup answers. Default 86 400. */
  cacheMaxAge?: number;
  /** Longest request target (path + query) in characters; longer gets 414. Default 2048. */
  maxUrlLength?: number;
  /** Largest request head (request line + headers) in bytes; larger gets 431. Default 8192. */
  maxHeaderSize?: number;
  /** ms a client has to send the complete request head. Default 10 000. */
  headersTimeout?: number;
  /** ms a client has to send the complete request. Default 15 000. */
  requestTimeout?: number;
  /** ms an idle keep-alive connection stays open. Default 5 000. */
  keepAliveTimeout?: number;
  /**
   * ms a connection may be inactive in any state before it is closed; 0 (default) leaves it to
   * the three timeouts above, which already cover silent and slow clients.
   */
  socketTimeout?: number;
  /** Reload the keys file when it changes. Default true. */
  watchKeys?: boolean;
  /** Where the server reports key reloads, flush failures and internal errors (never a key). Default stderr. */
  log?: (line: string) => void;
  /**
   * Origins (`scheme://host[:port]`) whose browser pages may call the server (CORS); `*` for any,
   * allowed only with allowAnonymous. Default none: browsers on other origins cannot read answers.
   */
  corsOrigins?: string[];
  /** Count requests, latency and 429s for Prometheus (`server.metrics`, GET /metrics). Default true. */
  metrics?: boolean;
  /**
   * Answer /metrics on `server.admin`, a second server for the caller to listen on (with
   * /healthz), instead of on this one. Default false.
   */
  admin?: boolean;
  /** One JSON line per request (pino), never the key: 'stdout' or a stream. Default none. */
  accessLog?: AccessLogDestination | null;
}

/** Default quota file: `keys.json` → `keys.quota.json` in the same directory. */
export function defaultQuotaFile(keysPath: string): string {
  const ext = extname(keysPath);
  return join(dirname(keysPath), `${basename(keysPath, ext)}.quota.json`);
}
