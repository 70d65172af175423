// Per-server state: the options with their defaults applied, the dataset, the key and quota
// stores and the burst windows. One object per createServer call, passed to every handler.

import type { GeoLookup } from 'geolookup';
import { createGeoLookup, preload } from 'geolookup';
import { KeyStore } from './keys.js';
import { type BurstWindow, MonthClock } from './limits.js';
import { defaultQuotaFile, type ServerOptions } from './options.js';
import { QuotaStore } from './quota-store.js';
import { checkRedisUrl, SharedLimits } from './redis-limits.js';
import { datasetEtag } from './responses.js';
import { trustedProxies } from './clients.js';
import type { BlockList } from 'node:net';
import { hostNames, type HostNames } from './hosts.js';
import { type AccessLog, createAccessLog } from './access-log.js';
import { type CorsPolicy, corsPolicy } from './cors.js';
import { countRedisError, createMetrics, type ServerMetrics } from './metrics.js';
import { loadOperations, type Operations } from './extensions.js';

/** Who a request counts against: an API key or an anonymous client address. */
export interface Client {
  /** Key id, or `anon:<address>`. */
  id: string;
  burstLimit: number;
  quota: number;
  window: BurstWindow;
}

export interface ServerState {
  readonly log: (line: string) => void;
  readonly clock: () => number;
  readonly geo: GeoLookup;
  /** The ETag sent with the contract's lookup answers (quoted). */
  readonly etag: string;
  /** The operations this server answers: the contract's on `geo`, and the extensions installed. */
  readonly operations: Operations;
  readonly keys: KeyStore;
  readonly quotaPath: string | null;
  readonly quotas: QuotaStore;
  /** The counts shared through Redis (options.redis), or null: this process counts alone. */
  readonly shared: SharedLimits | null;
  readonly allowAnonymous: boolean;
  readonly burstPerMinute: number;
  readonly anonBurst: number;
  readonly anonQuota: number;
  /** The trusted reverse proxies (addresses and ranges), or null for none. */
  readonly trusted: BlockList | null;
  /** The Host names answered for (options.hosts), or null: any. */
  readonly hosts: HostNames;
  /** Cache-Control of lookup answers. */
  readonly cacheControl: string;
  readonly maxUrl: number;
  readonly maxHeaderSize: number;
  readonly months: MonthClock;
  /** Burst windows by key id: they outlive keys reloads. */
  readonly keyWindows: Map<string, BurstWindow>;
  /** Burst windows by `anon:<address>`; idle ones are pruned by the periodic work. */
  readonly anonWindows: Map<string, BurstWindow>;
  /** One Client per key id, valid for keys generation `clientsGeneration` (a reload may change a quota). */
  readonly keyClients: Map<string, Client>;
  clientsGeneration: number;
  /** Set by shutdown(): every later response asks to close its connection. */
  closing: boolean;
  /** CORS for browser pages on other origins (options.corsOrigins), or null. */
  readonly cors: CorsPolicy | null;
  /** Prometheus metrics, or null (options.metrics false). */
  readonly metrics: ServerMetrics | null;
  /** Whether this port answers /metrics (not left to the admin listener). */
  readonly metricsOnMain: boolean;
  readonly accessLog: AccessLog | null;
}

/**
 * Reads the dataset, loads the extension packages installed, reads the keys file and the quota
 * file, in that order, locking the quota file; throws when one cannot be read, an option is
 * invalid or another server holds the quota file.
 */
export function createState(options: ServerOptions): ServerState {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const geo = options.lookup ?? (options.data !== undefined ? createGeoLookup(options.data) : preload());
  const etag = datasetEtag(geo);
  // The embedded world dataset, unless $GEOLOOKUP_DATA names another file for preload().
  const embedded = options.lookup === undefined && options.data === undefined && !process.env.GEOLOOKUP_DATA;
  const operations = loadOperations(geo, etag, embedded, log, options.extensions);
  const cors = corsPolicy(options.corsOrigins, options.allowAnonymous ?? false);
  const trusted = trustedProxies(options.trustProxy);
  if (options.redis) checkRedisUrl(options.redis);
  const keys = new KeyStore(options.keys ?? null, log);
  const metrics = options.metrics === false ? null : createMetrics(keys, operations.table.labels);
  // With Redis the counts live there; the in-memory store only carries an outage.
  const quotaPath = options.redis
    ? null
    : options.quotaFile !== undefined
      ? options.quotaFile
      : options.keys
        ? defaultQuotaFile(options.keys)
        : null;
  const accessLog = createAccessLog(options.accessLog);
  // Last: nothing after it may throw and leave the quota file locked.
  const quotas = new QuotaStore(quotaPath);
  return {
    log,
    clock: options.now ?? Date.now,
    geo,
    etag,
    operations,
    keys,
    quotaPath,
    quotas,
    shared: options.redis
      ? new SharedLimits(options.redis, log, () => countRedisError(metrics), options.redisTimeoutMs)
      : null,
    allowAnonymous: options.allowAnonymous ?? false,
    burstPerMinute: options.limits?.burstPerMinute ?? 1000,
    anonBurst: options.limits?.anonymousBurstPerMinute ?? 10,
    anonQuota: options.limits?.anonymousMonthlyQuota ?? 10_000,
    trusted,
    hosts: hostNames(options.hosts),
    cacheControl: `public, max-age=${options.cacheMaxAge ?? 86_400}`,
    maxUrl: options.maxUrlLength ?? 2048,
    maxHeaderSize: options.maxHeaderSize ?? 8192,
    months: new MonthClock(),
    keyWindows: new Map(),
    anonWindows: new Map(),
    keyClients: new Map(),
    clientsGeneration: -1,
    closing: false,
    cors,
    metrics,
    metricsOnMain: metrics !== null && options.admin !== true,
    accessLog,
  };
}
