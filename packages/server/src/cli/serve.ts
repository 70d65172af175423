// `geolookup serve`: the self-hosted HTTP API, stopped by SIGTERM / SIGINT, keys reloaded on SIGHUP.

import { checkRedisUrl, redisWhere } from '../server/redis-limits.js';
import { collectDefaultMetrics } from 'prom-client';
import { trustedProxies } from '../server/clients.js';
import { corsPolicy } from '../server/cors.js';
import { createServer, defaultQuotaFile, type GeoLookupServer, type ServerOptions } from '../server/server.js';
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
} from 'geolookup/extend';

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
      help: 'comma-separated proxy addresses and CIDR ranges (10.0.0.0/8, fd00::/8)\nwhose X-Forwarded-For names the client',
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
      help: 'json: an access log, one line per request on stdout (never the key);\nevery other line this command writes is JSON too',
    },
  },
  notes:
    'SIGTERM / SIGINT: finish in-flight requests, write quota counts, exit. SIGHUP: reload the keys file.\n' +
    'See docs/SERVER.md in the @geolookup/server package.',
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
    trustProxy: trustProxyFlag(v['trust-proxy']),
    limits,
    log: err,
  };
  if (options.data === undefined) delete options.data;
  if (options.redis === undefined) delete options.redis;
  if (options.redisTimeoutMs === undefined) delete options.redisTimeoutMs;
  return Object.assign(options, webOptions(v, allowAnonymous));
}

/** The addresses and ranges of --trust-proxy; a UsageError for anything else. */
function trustProxyFlag(value: string | undefined): string[] | undefined {
  const entries = value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    trustedProxies(entries);
  } catch (e) {
    throw new UsageError(`--trust-proxy: ${(e as Error).message}`);
  }
  return entries;
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
 * With --log json every line the command writes is a JSON object, like the access log's lines, so
 * a log collector reading stdout and stderr never meets plain text: stdout's at level info,
 * stderr's (stops, reloads, failures) at warn.
 */
function jsonLines(print: Print, level: 'info' | 'warn'): Print {
  return (line) => print(JSON.stringify({ level, time: new Date().toISOString(), msg: line }));
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
    const json = values.log === 'json';
    const say = json ? jsonLines(out, 'info') : out;
    const warn = json ? jsonLines(err, 'warn') : err;
    const options = serverOptions(values, warn);
    let server: GeoLookupServer | undefined;
    // Before the slow start (dataset, Redis): SIGHUP's default action ends the process, and a
    // reload asked for while starting must not. The keys are read at start anyway.
    const reload = () => void server?.reloadKeys();
    process.on('SIGHUP', reload);
    try {
      server = createServer(options);
    } catch (e) {
      process.off('SIGHUP', reload);
      warn(`geolookup serve: ${(e as Error).message}`);
      return EXIT.error;
    }
    listenWhenReady(server, options, values, listenPort, say, warn);
    return EXIT.ok;
  });
}

/** Listens once the server is ready (with --redis, once Redis answered or failed to), then stops on SIGTERM / SIGINT. */
function listenWhenReady(
  server: GeoLookupServer,
  options: ServerOptions,
  values: ServeArgs,
  listenPort: number,
  out: Print,
  err: Print,
): void {
  const host = values.host ?? '127.0.0.1';
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
      // Before the line that tells a supervisor the server is up, which may stop it at once.
      const stop = stopOn(server, err, !options.redis && options.quotaFile !== null);
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      const a = server.address();
      const where =
        a && typeof a === 'object' ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : String(a);
      const anonymous = options.allowAnonymous ? 'allowed' : 'refused';
      const limits = options.redis ? `; limits: shared through ${redisWhere(options.redis)}` : '';
      out(
        `geolookup: listening on http://${where} (keys: ${options.keys ?? 'none'}; anonymous: ${anonymous}${limits})`,
      );
      listenAdmin(server, values, out, err);
    }),
  );
}
