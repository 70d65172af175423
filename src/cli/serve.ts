// `geolookup serve`: the self-hosted HTTP API, stopped by SIGTERM / SIGINT, keys reloaded on SIGHUP.

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
    data: { type: 'string', value: 'FILE', help: 'another dataset built by build-data' },
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
    burst: { type: 'string', value: 'N', help: 'requests per minute per key (default 1000)' },
    'anonymous-burst': { type: 'string', value: 'N', help: 'requests per minute per anonymous client (default 10)' },
    'anonymous-quota': {
      type: 'string',
      value: 'N',
      help: 'requests per month per anonymous client (default 10000)',
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
  if (!keys && !allowAnonymous)
    throw new UsageError('give --keys FILE (create one with `geolookup keys create`), or --allow-anonymous');
  const options: ServerOptions = {
    keys: keys ?? null,
    allowAnonymous,
    data: v.data,
    quotaFile: v['quota-file'] ?? (keys ? defaultQuotaFile(keys) : null),
    flushIntervalMs: (flush ?? 10) * 1000,
    trustProxy: v['trust-proxy']
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    limits,
    log: err,
  };
  if (options.data === undefined) delete options.data;
  return options;
}

/** On SIGTERM / SIGINT: finish in-flight requests, write the quota counts, exit. */
function stopOn(server: GeoLookupServer, err: Print): (signal: string) => void {
  return (signal) => {
    err(`geolookup: ${signal}: finishing in-flight requests`);
    server.shutdown().then(
      () => {
        err('geolookup: stopped; quota counts written');
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
    server.on('error', (e: NodeJS.ErrnoException) => {
      err(`geolookup serve: cannot listen on ${host}:${listenPort}: ${e.code ?? e.message}`);
      process.exitCode = EXIT.error;
      void server.shutdown();
    });
    server.listen(listenPort, host, () => {
      const a = server.address();
      const where =
        a && typeof a === 'object' ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : String(a);
      const anonymous = options.allowAnonymous ? 'allowed' : 'refused';
      out(`geolookup: listening on http://${where} (keys: ${options.keys ?? 'none'}; anonymous: ${anonymous})`);
      const stop = stopOn(server, err);
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      process.on('SIGHUP', () => void server.reloadKeys());
    });
    return EXIT.ok;
  });
}
