// `geolookup serve`: the self-hosted HTTP API, stopped by SIGTERM / SIGINT, keys reloaded on SIGHUP.

import { checkRedisUrl, redisWhere } from '../server/redis-limits.js';
import { collectDefaultMetrics } from 'prom-client';
import { corsPolicy } from '../server/cors.js';
import { createServer, defaultQuotaFile, type GeoLookupServer, type ServerOptions } from '../server/index.js';
import {
  defineCommand,
  EXIT,
  type Parsed,
  type Print,
  runCommand,
  UsageError,
  usageError,
  wholeNumber,
  DATA_OPTION,
} from './args.js';

const SERVE = defineCommand({
  name: 'geolookup serve',
  summary: "the lookup service's HTTP API, self-hosted.",
  usage: ['geolookup serve --keys FILE [options]'],
  options: {
    port: { type: 'string', value: 'N', help: 'TCP port (default 8080; 0 picks a free one)' },
    host: { type: 'string', value: 'ADDR', help: 'address to bind (default 127.0.0.1)' },
    keys: {
      type: 'string',
      value: 'FILE',
      help: 'keys file made by `geolookup keys create` (reloaded on change and on SIGHUP)',
    },
    'allow-anonymous': {
      type: 'boolean',
      help: 'serve requests without X-API-Key, 10 per minute per client address',
    },
    data: DATA_OPTION,
    'quota-file': {
      type: 'string',
      value: 'FILE',
      help: 'where monthly counts persist (default: beside the keys file, NAME.quota.json)',
    },
    'flush-interval': {
      type: 'string',
      value: 'S',
      help: 'seconds between quota writes (default 10; also written on shutdown)',
    },
    'trust-proxy': {
      type: 'string',
      value: 'ADDRS',
      help: 'comma-separated proxy addresses whose X-Forwarded-For names the client',
    },
    redis: {
      type: 'string',
      value: 'URL',
      help: 'count limits and quotas in this Redis (redis://host:port[/db]), shared by every instance given it',
    },
    'redis-timeout': {
      type: 'string',
      value: 'MS',
      help: 'ms Redis has to answer before this instance limits on its own (default 250)',
    },
    burst: { type: 'string', value: 'N', help: 'requests per minute per key (default 1000)' },
    'anonymous-burst': { type: 'string', value: 'N', help: 'requests per minute per anonymous client (default 10)' },
    'anonymous-quota': {
      type: 'string',
      value: 'N',
      help: 'requests per month per anonymous client (default 10000)',
    },
    'cors-origin': {
      type: 'string',
      value: 'ORIGIN',
      multiple: true,
      help: 'let pages on ORIGIN (scheme://host[:port]) call the server from browsers;\nrepeatable; * (any origin) only with --allow-anonymous',
    },
    'admin-port': {
      type: 'string',
      value: 'N',
      help: 'answer /metrics (and /healthz) on this port instead of the main one',
    },
    'admin-host': { type: 'string', value: 'ADDR', help: 'address of the admin port (default 127.0.0.1)' },
    'no-metrics': { type: 'boolean', help: 'collect no metrics and answer no /metrics' },
    log: {
      type: 'string',
      value: 'FORMAT',
      help: 'json: an access log, one line per request on stdout (never the key)',
    },
  },
  notes:
    'SIGTERM / SIGINT: finish in-flight requests, write quota counts, exit. SIGHUP: reload the keys file.\n' +
    'See docs/SERVER.md.',
  exit: '0 stopped by a signal, 2 bad options, 1 keys file or dataset unreadable, or the port taken.',
});

type ServeArgs = Parsed<typeof SERVE.options>['values'];

/** The server's options from the flags; a UsageError for a bad value. */
function serverOptions(v: ServeArgs, err: Print): ServerOptions {
  const max = Number.MAX_SAFE_INTEGER;
  const flush = wholeNumber(v['flush-interval'], '--flush-interval', 1, 86_400);
  const limits = {
    burstPerMinute: wholeNumber(v.burst, '--burst', 0, max),
    anonymousBurstPerMinute: wholeNumber(v['anonymous-burst'], '--anonymous-burst', 0, max),
    anonymousMonthlyQuota: wholeNumber(v['anonymous-quota'], '--anonymous-quota', 0, max),
  };
  const keys = v.keys;
  const allowAnonymous = v['allow-anonymous'] === true;
  if (v.redis !== undefined) {
    if (v['quota-file'] !== undefined)
      throw new UsageError('--quota-file and --redis: with --redis the counts live in Redis');
    try {
      checkRedisUrl(v.redis);
    } catch (e) {
      throw new UsageError(`--redis: ${(e as Error).message}`);
    }
  }
  if (!keys && !allowAnonymous)
    throw new UsageError('give --keys FILE (create one with `geolookup keys create`), or --allow-anonymous');
  const options: ServerOptions = {
    keys: keys ?? null,
    allowAnonymous,
    data: v.data,
    quotaFile: v.redis ? null : (v['quota-file'] ?? (keys ? defaultQuotaFile(keys) : null)),
    redis: v.redis,
    redisTimeoutMs: wholeNumber(v['redis-timeout'], '--redis-timeout', 1, 60_000),
    flushIntervalMs: (flush ?? 10) * 1000,
    trustProxy: v['trust-proxy']
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    limits,
    log: err,
  };
  if (options.data === undefined) delete options.data;
  if (options.redis === undefined) delete options.redis;
  if (options.redisTimeoutMs === undefined) delete options.redisTimeoutMs;
  return Object.assign(options, webOptions(v, allowAnonymous));
}

/** CORS, metrics and the access log from the flags; a UsageError for a bad value. */
function webOptions(v: ServeArgs, allowAnonymous: boolean): ServerOptions {
  const corsOrigins = v['cors-origin'] ?? [];
  try {
    corsPolicy(corsOrigins, allowAnonymous);
  } catch (e) {
    throw new UsageError(`--cors-origin: ${(e as Error).message}`);
  }
  if (v.log !== undefined && v.log !== 'json') throw new UsageError(`--log must be json, got "${v.log}"`);
  if (v['admin-host'] !== undefined && v['admin-port'] === undefined)
    throw new UsageError('--admin-host needs --admin-port');
  const adminPort = wholeNumber(v['admin-port'], '--admin-port', 0, 65535);
  if (adminPort !== undefined && adminPort !== 0 && v.port !== undefined && Number(v.port) === adminPort)
    throw new UsageError('--admin-port must differ from --port');
  return {
    corsOrigins,
    metrics: v['no-metrics'] !== true,
    admin: adminPort !== undefined,
    accessLog: v.log === 'json' ? 'stdout' : null,
  };
}

/** Starts the admin listener of `--admin-port` once the main one listens; its failure stops the server. */
function listenAdmin(server: GeoLookupServer, v: ServeArgs, out: Print, err: Print): void {
  const admin = server.admin;
  if (admin === null) return;
  const port = Number(v['admin-port']);
  const host = v['admin-host'] ?? '127.0.0.1';
  admin.on('error', (e: NodeJS.ErrnoException) => {
    err(`geolookup serve: cannot listen on ${host}:${port} (admin): ${e.code ?? e.message}`);
    process.exitCode = EXIT.error;
    void server.shutdown();
  });
  admin.listen(port, host, () => {
    const a = admin.address();
    const where =
      a && typeof a === 'object' ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : String(a);
    out(`geolookup: admin (/healthz, /metrics) on http://${where}`);
  });
}

/** On SIGTERM / SIGINT: finish in-flight requests, write the quota counts, exit. */
function stopOn(server: GeoLookupServer, err: Print, quotaFile: boolean): (signal: string) => void {
  return (signal) => {
    err(`geolookup: ${signal}: finishing in-flight requests`);
    server.shutdown().then(
      () => {
        err(`geolookup: stopped${quotaFile ? '; quota counts written' : ''}`);
        process.exit(process.exitCode ?? 0);
      },
      (e) => {
        err(`geolookup: stopped, but the quota counts could not be written: ${(e as Error).message}`);
        process.exit(EXIT.error);
      },
    );
  };
}

/**
 * Starts the server and returns at once (0), the process staying alive while it serves;
 * 2 for bad options, 1 when the keys file or dataset cannot be read. A failure to listen
 * (port taken) is reported later, with exit status 1.
 */
export function runServe(argv: string[], out: Print, err: Print): number {
  return runCommand(SERVE, argv, out, err, ({ values, positionals }) => {
    if (positionals.length) return usageError(SERVE, `unexpected argument "${positionals[0]}"`, err);
    const listenPort = wholeNumber(values.port, '--port', 0, 65535) ?? 8080;
    const options = serverOptions(values, err);
    const host = values.host ?? '127.0.0.1';
    let server: GeoLookupServer;
    try {
      server = createServer(options);
    } catch (e) {
      err(`geolookup serve: ${(e as Error).message}`);
      return EXIT.error;
    }
    // The whole process is this server's: Node's own process metrics join its registry.
    if (server.metrics !== null) collectDefaultMetrics({ register: server.metrics });
    server.on('error', (e: NodeJS.ErrnoException) => {
      err(`geolookup serve: cannot listen on ${host}:${listenPort}: ${e.code ?? e.message}`);
      process.exitCode = EXIT.error;
      void server.shutdown();
    });
    // With --redis, listen once Redis answered (or failed to), so the first requests share its counts.
    void server.ready().then(() =>
      server.listen(listenPort, host, () => {
        const a = server.address();
        const where =
          a && typeof a === 'object' ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : String(a);
        const anonymous = options.allowAnonymous ? 'allowed' : 'refused';
        const limits = options.redis ? `; limits: shared through ${redisWhere(options.redis)}` : '';
        out(
          `geolookup: listening on http://${where} (keys: ${options.keys ?? 'none'}; anonymous: ${anonymous}${limits})`,
        );
        listenAdmin(server, values, out, err);
        const stop = stopOn(server, err, !options.redis && options.quotaFile !== null);
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
        process.on('SIGHUP', () => void server.reloadKeys());
      }),
    );
    return EXIT.ok;
  });
}
