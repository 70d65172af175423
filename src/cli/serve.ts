// `geolookup serve` and `geolookup keys`: the self-hosted server and its keys file.

import { readKeysFile, createKey, revokeKey, PLAN_QUOTAS } from '../server/keys.js';
import { createServer, defaultQuotaFile, type GeoLookupServer, type ServerOptions } from '../server/index.js';
import { groupDigits } from './numbers.js';

const EXIT = { ok: 0, error: 1, badInput: 2, notFound: 3 } as const;

export const SERVE_HELP = `geolookup serve: the lookup service's HTTP API, self-hosted.

Usage:
  geolookup serve --keys FILE [options]

Options:
  --port N                 TCP port (default 8080; 0 picks a free one)
  --host ADDR              address to bind (default 127.0.0.1)
  --keys FILE              keys file made by \`geolookup keys create\` (reloaded on change and on SIGHUP)
  --allow-anonymous        serve requests without X-API-Key, 10 per minute per client address
  --data FILE              another dataset built by build-data
  --quota-file FILE        where monthly counts persist (default: beside the keys file, NAME.quota.json)
  --flush-interval S       seconds between quota writes (default 10; also written on shutdown)
  --trust-proxy ADDRS      comma-separated proxy addresses whose X-Forwarded-For names the client
  --burst N                requests per minute per key (default 1000)
  --anonymous-burst N      requests per minute per anonymous client (default 10)
  --anonymous-quota N      requests per month per anonymous client (default 10000)

SIGTERM / SIGINT: finish in-flight requests, write quota counts, exit. SIGHUP: reload the keys file.
See docs/SERVER.md.`;

export const KEYS_HELP = `geolookup keys: manage the server's keys file (it holds SHA-256 hashes, never keys).

Usage:
  geolookup keys create --keys FILE --plan free|pro [--quota N] [--label TEXT]
      prints the new key once, alone on stdout; details go to stderr
  geolookup keys revoke ID --keys FILE
  geolookup keys list --keys FILE [--json]

Plans: ${Object.entries(PLAN_QUOTAS)
  .map(([p, q]) => `${p} ${groupDigits(q)} requests/month`)
  .join(', ')}; all keys: 1,000 requests/minute.`;

type Parsed = { flags: Map<string, string | true>; pos: string[]; error?: string };

/** --name value, --name=value and boolean flags; negative numbers are values. */
function parse(argv: string[], valued: string[], booleans: string[]): Parsed {
  const flags = new Map<string, string | true>();
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!/^--?[A-Za-z]/.test(a)) {
      pos.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq === -1 ? a : a.slice(0, eq);
    if (name === '-h' || name === '--help') flags.set('--help', true);
    else if (booleans.includes(name)) flags.set(name, true);
    else if (valued.includes(name)) {
      const value = eq === -1 ? argv[++i] : a.slice(eq + 1);
      if (value === undefined) return { flags, pos, error: `${name} needs a value` };
      flags.set(name, value);
    } else return { flags, pos, error: `unknown option ${name}` };
  }
  return { flags, pos };
}

function str(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function int(p: Parsed, name: string, min: number, max: number): number | undefined | Error {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max
    ? n
    : new Error(`${name} must be a whole number from ${min} to ${max}, got "${v}"`);
}

/**
 * Starts the server and returns at once (0), the process staying alive while it serves;
 * 2 for bad options, 1 when the keys file or dataset cannot be read. A failure to listen
 * (port taken) is reported later, with exit status 1.
 */
export function runServe(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const p = parse(
    argv,
    [
      '--port',
      '--host',
      '--keys',
      '--data',
      '--quota-file',
      '--flush-interval',
      '--trust-proxy',
      '--burst',
      '--anonymous-burst',
      '--anonymous-quota',
    ],
    ['--allow-anonymous'],
  );
  if (p.flags.has('--help')) {
    out(SERVE_HELP);
    return EXIT.ok;
  }
  const bad = (msg: string) => {
    err(`geolookup serve: ${msg}\n\n${SERVE_HELP}`);
    return EXIT.badInput;
  };
  if (p.error) return bad(p.error);
  if (p.pos.length) return bad(`unexpected argument "${p.pos[0]}"`);
  const port = int(p, '--port', 0, 65535);
  const flush = int(p, '--flush-interval', 1, 86_400);
  const burst = int(p, '--burst', 0, Number.MAX_SAFE_INTEGER);
  const anonBurst = int(p, '--anonymous-burst', 0, Number.MAX_SAFE_INTEGER);
  const anonQuota = int(p, '--anonymous-quota', 0, Number.MAX_SAFE_INTEGER);
  for (const v of [port, flush, burst, anonBurst, anonQuota]) if (v instanceof Error) return bad(v.message);
  const keys = str(p, '--keys');
  const allowAnonymous = p.flags.get('--allow-anonymous') === true;
  if (!keys && !allowAnonymous)
    return bad('give --keys FILE (create one with `geolookup keys create`), or --allow-anonymous');
  const host = str(p, '--host') ?? '127.0.0.1';
  const listenPort = (port as number | undefined) ?? 8080;

  const options: ServerOptions = {
    keys: keys ?? null,
    allowAnonymous,
    data: str(p, '--data'),
    quotaFile: str(p, '--quota-file') ?? (keys ? defaultQuotaFile(keys) : null),
    flushIntervalMs: ((flush as number | undefined) ?? 10) * 1000,
    trustProxy: str(p, '--trust-proxy')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    limits: {
      burstPerMinute: burst as number | undefined,
      anonymousBurstPerMinute: anonBurst as number | undefined,
      anonymousMonthlyQuota: anonQuota as number | undefined,
    },
    log: err,
  };
  if (options.data === undefined) delete options.data;

  let server: GeoLookupServer;
  try {
    server = createServer(options);
  } catch (e) {
    err(`geolookup serve: ${(e as Error).message}`);
    return EXIT.error;
  }

  const stop = (signal: string) => {
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
  server.on('error', (e: NodeJS.ErrnoException) => {
    err(`geolookup serve: cannot listen on ${host}:${listenPort}: ${e.code ?? e.message}`);
    process.exitCode = EXIT.error;
    void server.shutdown();
  });
  server.listen(listenPort, host, () => {
    const a = server.address();
    const where =
      a && typeof a === 'object' ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : String(a);
    out(
      `geolookup: listening on http://${where} (keys: ${keys ?? 'none'}; anonymous: ${allowAnonymous ? 'allowed' : 'refused'})`,
    );
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    process.on('SIGHUP', () => void server.reloadKeys());
  });
  return EXIT.ok;
}

export function runKeys(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const p = parse(argv, ['--keys', '--plan', '--quota', '--label'], ['--json']);
  if (p.flags.has('--help')) {
    out(KEYS_HELP);
    return EXIT.ok;
  }
  const bad = (msg: string) => {
    err(`geolookup keys: ${msg}\n\n${KEYS_HELP}`);
    return EXIT.badInput;
  };
  if (p.error) return bad(p.error);
  const [sub, ...args] = p.pos;
  const file = str(p, '--keys');
  if (!sub) return bad('give a subcommand: create, revoke or list');
  if (!['create', 'revoke', 'list'].includes(sub)) return bad(`unknown subcommand "${sub}"`);
  if (!file) return bad('--keys FILE is required');
  try {
    if (sub === 'create') {
      if (args.length) return bad(`unexpected argument "${args[0]}"`);
      const plan = str(p, '--plan');
      if (!plan) return bad('--plan is required (free or pro)');
      const quota = int(p, '--quota', 0, Number.MAX_SAFE_INTEGER);
      if (quota instanceof Error) return bad(quota.message);
      if (quota === undefined && PLAN_QUOTAS[plan] === undefined)
        return bad(`unknown plan "${plan}"; plans: ${Object.keys(PLAN_QUOTAS).join(', ')} (or give --quota)`);
      const { key, record } = createKey(file, plan, { monthlyQuota: quota, label: str(p, '--label') });
      out(key);
      err(
        `geolookup: created key ${record.id} (plan ${record.plan}, ${record.monthlyQuota} requests/month) in ${file}. It is shown only this once.`,
      );
      return EXIT.ok;
    }
    if (sub === 'revoke') {
      if (args.length !== 1) return bad('revoke takes one key id (see `geolookup keys list`)');
      const record = revokeKey(file, args[0]);
      if (!record) {
        err(`geolookup keys: no key with id "${args[0]}" in ${file}`);
        return EXIT.notFound;
      }
      out(`revoked ${record.id}`);
      return EXIT.ok;
    }
    if (args.length) return bad(`unexpected argument "${args[0]}"`);
    const keys = readKeysFile(file).keys;
    if (p.flags.get('--json') === true) {
      out(JSON.stringify(keys.map(({ sha256: _hash, ...rest }) => rest)));
      return EXIT.ok;
    }
    const rows = [['ID', 'PLAN', 'QUOTA/MONTH', 'STATUS', 'CREATED', 'LABEL']];
    for (const k of keys)
      rows.push([
        k.id,
        k.plan,
        String(k.monthlyQuota),
        k.revoked ? 'revoked' : 'active',
        k.created ?? '',
        k.label ?? '',
      ]);
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    out(
      rows
        .map((r) =>
          r
            .map((cell, c) => cell.padEnd(widths[c]))
            .join('  ')
            .trimEnd(),
        )
        .join('\n'),
    );
    return EXIT.ok;
  } catch (e) {
    err(`geolookup keys: ${(e as Error).message}`);
    return EXIT.error;
  }
}
