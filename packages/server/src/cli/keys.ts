// `geolookup keys`: create, revoke and list the server's API keys. The keys file holds SHA-256
// hashes only: a new key is printed once, alone on stdout, and never again.

import { createKey, PLAN_QUOTAS, readKeysFile, revokeKey } from '../server/keys.js';
import {
  defineCommand,
  EXIT,
  type Parsed,
  type Print,
  runCommand,
  UsageError,
  wholeNumber,
  groupDigits,
} from 'geolookup/extend';

const KEYS = defineCommand({
  name: 'geolookup keys',
  summary: "manage the server's keys file (it holds SHA-256 hashes, never keys).",
  usage: [
    'geolookup keys create --keys FILE --plan free|pro [--quota N] [--label TEXT]',
    '    prints the new key once, alone on stdout; details go to stderr',
    'geolookup keys revoke ID --keys FILE',
    'geolookup keys list --keys FILE [--json]',
  ],
  options: {
    keys: { type: 'string', value: 'FILE', help: 'the keys file (created by the first `create`)' },
    plan: { type: 'string', value: 'PLAN', help: 'create: free or pro, which sets the monthly quota' },
    quota: { type: 'string', value: 'N', help: "create: requests per month instead of the plan's" },
    label: { type: 'string', value: 'TEXT', help: 'create: a note kept beside the key' },
    json: { type: 'boolean', help: 'list: as JSON' },
  },
  notes: `Plans: ${Object.entries(PLAN_QUOTAS)
    .map(([p, q]) => `${p} ${groupDigits(q)} requests/month`)
    .join(', ')}; all keys: 1,000 requests/minute.`,
  exit: '0 done, 2 bad usage, 3 no key with that id (revoke), 1 keys file unreadable.',
});

type KeysArgs = Parsed<typeof KEYS.options>;

export function runKeys(argv: string[], out: Print, err: Print): number {
  return runCommand(KEYS, argv, out, err, ({ values, positionals }) => {
    const [sub, ...args] = positionals;
    const file = values.keys;
    if (!sub) throw new UsageError('give a subcommand: create, revoke or list');
    if (!['create', 'revoke', 'list'].includes(sub)) throw new UsageError(`unknown subcommand "${sub}"`);
    if (!file) throw new UsageError('--keys FILE is required');
    try {
      if (sub === 'create') return create(file, args, values, out, err);
      if (sub === 'revoke') return revoke(file, args, out, err);
      return list(file, args, values, out);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      err(`geolookup keys: ${(e as Error).message}`);
      return EXIT.error;
    }
  });
}

function create(file: string, args: string[], values: KeysArgs['values'], out: Print, err: Print): number {
  if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
  const plan = values.plan;
  if (!plan) throw new UsageError('--plan is required (free or pro)');
  const quota = wholeNumber(values.quota, '--quota', 0, Number.MAX_SAFE_INTEGER);
  if (quota === undefined && PLAN_QUOTAS[plan] === undefined)
    throw new UsageError(`unknown plan "${plan}"; plans: ${Object.keys(PLAN_QUOTAS).join(', ')} (or give --quota)`);
  const { key, record } = createKey(file, plan, { monthlyQuota: quota, label: values.label });
  out(key);
  err(
    `geolookup: created key ${record.id} (plan ${record.plan}, ${record.monthlyQuota} requests/month) in ${file}. ` +
      'It is shown only this once.',
  );
  return EXIT.ok;
}

function revoke(file: string, args: string[], out: Print, err: Print): number {
  if (args.length !== 1) throw new UsageError('revoke takes one key id (see `geolookup keys list`)');
  const record = revokeKey(file, args[0]);
  if (!record) {
    err(`geolookup keys: no key with id "${args[0]}" in ${file}`);
    return EXIT.notFound;
  }
  out(`revoked ${record.id}`);
  return EXIT.ok;
}

/**
 * Control characters (a newline, an ANSI escape) and bidirectional overrides, JSON-escaped (`\n`,
 * `\u001b`) so that no value of the keys file can forge a row of the table or repaint the terminal;
 * backslashes too, so that an escape always means one.
 */
const UNPRINTABLE = /[\\\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;
const SHORT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function printable(cell: string): string {
  return cell.replace(UNPRINTABLE, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function list(file: string, args: string[], values: KeysArgs['values'], out: Print): number {
  if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
  const keys = readKeysFile(file).keys;
  if (values.json === true) {
    out(JSON.stringify(keys.map(({ sha256: _hash, ...rest }) => rest)));
    return EXIT.ok;
  }
  const rows = [['ID', 'PLAN', 'QUOTA/MONTH', 'STATUS', 'CREATED', 'LABEL']];
  for (const k of keys)
    rows.push(
      [k.id, k.plan, k.monthlyQuota, k.revoked ? 'revoked' : 'active', k.created ?? '', k.label ?? ''].map((v) =>
        printable(String(v)),
      ),
    );
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
}
