// Per-server state: the options with their defaults applied, the dataset, the key and quota
// stores and the burst windows. One object per createServer call, passed to every handler.

import type { GeoLookup } from 'geolookup';
import { createGeoLookup, preload } from 'geolookup';
import type { AdmissionContext } from './admission.js';
import { KeyStore } from './keys.js';
import { MonthClock } from './limits.js';
import { defaultQuotaFile, type ServerOptions } from './options.js';
import { QuotaStore } from './quota-store.js';
import { checkRedisUrl, SharedLimits } from './redis-limits.js';
import { datasetEtag, type ResponseContext } from './responses.js';
import { type ClientContext, trustedProxies } from './clients.js';
import { hostNames, type HostNames } from './hosts.js';
import { type AccessLog, createAccessLog } from './access-log.js';
import { type CorsPolicy, corsPolicy } from './cors.js';
import { countRedisError, createMetrics, type ServerMetrics } from './metrics.js';
import { loadOperations, type Operations } from './extensions.js';

/**
 * The whole server's state, assembled from the parts the request path reads (each declared
 * beside its user: responses.ts, admission.ts, clients.ts) and what the rest of the server uses.
 */
export interface ServerState extends ResponseContext, AdmissionContext, ClientContext {
  readonly log: (line: string) => void;
  readonly geo: GeoLookup;
  /** The ETag sent with the contract's lookup answers (quoted). */
  readonly etag: string;
  /** The operations this server answers: the contract's on `geo`, and the extensions installed. */
  readonly operations: Operations;
  readonly quotaPath: string | null;
  /** The counts shared through Redis (options.redis), or null: this process counts alone. */
  readonly shared: SharedLimits | null;
  /** The Host names answered for (options.hosts), or null: any. */
  readonly hosts: HostNames;
  readonly maxUrl: number;
  readonly maxHeaderSize: number;
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
