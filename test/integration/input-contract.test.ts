// One input contract: the same generated arguments (numbers, decimal and odd strings, arrays,
// bigints, objects, null, NaN, proxies, over-long text; codes and named parameters likewise) given
// to every operation through the library, the client offline and remote (over a real server), the
// server's routes as raw HTTP and the CLI give the same outcome: the same answer, or the same error
// kind naming the same fields with the same message (HTTP adds only its status). Text arguments go
// everywhere; other values only where a caller can pass them (the library and the two clients).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type GeoLookupClient } from '../../packages/client/src/index.js';
import { createServer, type GeoLookupServer } from '../../packages/server/src/server/server.js';
import { run } from '../../src/cli/run.js';
import {
  callOperation,
  findExtensions,
  type Operation,
  type OperationTarget,
  openExtension,
  operationsOf,
} from '../../src/extend.js';
import { preload } from '../../src/index.js';
import { anyArgument, codes, unwrap } from '../support/fuzz-values.js';
import { HOST, listenOnLoopback } from '../support/loopback.js';

const CASES = Number(process.env.GEOLOOKUP_CONTRACT_CASES ?? 10_000);
const EXTENSIONS = findExtensions();
const OPERATIONS = operationsOf(EXTENSIONS);

/** What a call came to: its answer, or its error's kind, the fields it names and its message. */
type Outcome = { answer: unknown } | { kind: string; fields: string[]; message: string };

const outcomeOf = (e: unknown): Outcome => {
  const err = e as { name?: unknown; errors?: Record<string, unknown>; message?: unknown };
  return {
    kind: String(err?.name),
    fields: Object.keys(err?.errors ?? {}).sort(),
    message: String(err?.message),
  };
};

/** An HTTP problem record (server, CLI --json) as an Outcome: the status names the kind. */
const KINDS: Record<number, string> = { 400: 'ValidationError', 404: 'NotFoundError' };
function problemOutcome(p: { status: number; detail: string; errors?: Record<string, unknown> }): Outcome {
  return {
    kind: KINDS[p.status] ?? `status ${p.status}`,
    fields: Object.keys(p.errors ?? {}).sort(),
    message: p.detail,
  };
}

/** A generated call: the operation, its code (operations with one), the point, its named parameters. */
interface Call {
  op: Operation;
  code: unknown;
  lat: unknown;
  lon: unknown;
  params: Record<string, unknown>;
}

// Mostly small searches (a radius of 500 km costs a search of the world's lines each time), with
// the bounds and past them: 500 and 500,000 are the largest maxKm and radiusM.
const PARAM_VALUES = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: -10, max: 20, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 60 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom(500, '500', 500.0001, 500_001, '500000.5', 600_000, -0, '-0', '0.') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('country', 'subdivision', 'Country', '', ' 5', '5 ', '+5', '1e2', 'x'.repeat(80)),
  },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, null, [5], { maxKm: 5 }, 5n, true) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

function calls(n: number): Call[] {
  const geo = preload();
  const codeArb = codes([...geo.countryCodes()], ['FR', 'DE', 'us'], geo.subdivisionCodes().slice(0, 400) as string[], [
    'XKX',
    'FR-IDF',
  ]);
  const arg = anyArgument(codeArb);
  const call = fc
    .record({
      op: fc.constantFrom(...OPERATIONS),
      code: arg,
      lat: arg,
      lon: arg,
      params: fc.array(PARAM_VALUES, { minLength: 3, maxLength: 3 }),
    })
    .map(({ op, code, lat, lon, params }) => ({
      op,
      code: op.code === null ? undefined : code,
      lat,
      lon,
      params: Object.fromEntries((op.params ?? []).map((p, i) => [p.name, params[i]])),
    }));
  return fc.sample(call, { numRuns: n, seed: 58 });
}

/** The arguments of the operation's method: code first, a required parameter after the point, the optional ones as an object. */
function methodArgs(c: Call, params: Record<string, unknown>): unknown[] {
  const args: unknown[] = c.op.code === null ? [c.lat, c.lon] : [c.code, c.lat, c.lon];
  const optional: Record<string, unknown> = {};
  for (const p of c.op.params ?? []) {
    if (p.required) args.push(params[p.name]);
    else if (params[p.name] !== undefined) optional[p.name] = params[p.name];
  }
  if (Object.keys(optional).length > 0) args.push(optional);
  return args;
}

let server: GeoLookupServer;
let port: number;
let remote: GeoLookupClient;
let offline: GeoLookupClient;
const targets = new Map<string | undefined, OperationTarget>();

beforeAll(async () => {
  server = createServer({ allowAnonymous: true, limits: { anonymousBurstPerMinute: 10_000_000 }, quotaFile: null });
  port = await listenOnLoopback(server);
  remote = createClient({ baseUrl: `http://${HOST}:${port}`, cache: false, cacheWarningInterval: 0, maxRetries: 0 });
  offline = createClient({ offline: true });
  targets.set(undefined, preload());
  for (const e of EXTENSIONS) targets.set(e.name, openExtension(e, preload(), true).target);
});
afterAll(() => server.shutdown(100));

function library(c: Call, params: Record<string, unknown>): Outcome {
  try {
    return { answer: callOperation(targets.get(c.op.extension)!, c.op, c.code as string, c.lat, c.lon, params) };
  } catch (e) {
    return outcomeOf(e);
  }
}

async function client(which: GeoLookupClient, c: Call, params: Record<string, unknown>): Promise<Outcome> {
  try {
    return { answer: (await which.call(c.op.id, ...methodArgs(c, params))).data };
  } catch (e) {
    return outcomeOf(e);
  }
}

/**
 * A number as the remote client sends it: one whose plain decimal needs over 64 characters (|v|
 * under about 1e-45) goes as 0 (packages/client/src/request-url.ts); others as they are.
 */
function sent(v: unknown): unknown {
  if (typeof v !== 'number') return v;
  const m = /^(-?)\d(?:\.(\d+))?e-(\d+)$/.exec(String(v));
  // "-0." + the exponent's zeros less one + the digits: 2 + e + fraction digits, and the sign.
  return m !== null && m[1].length + 2 + Number(m[3]) + (m[2]?.length ?? 0) > 64 ? 0 : v;
}

/**
 * Text a URL and a command line carry as it is: well-formed, not a flag, not a dot segment (a URL
 * drops "." and ".."), and short enough for a request head (8 KiB; longer gets 431, docs/SERVER.md).
 */
const plainText = (v: unknown) =>
  typeof v === 'string' &&
  v.length <= 2000 &&
  !/[\uD800-\uDFFF]/.test(v) &&
  !v.startsWith('--') &&
  v !== '.' &&
  v !== '..';

async function http(c: Call, params: Record<string, unknown>): Promise<Outcome> {
  const enc = encodeURIComponent;
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${enc(v as string)}`);
  const path =
    c.op.code === null
      ? `${c.op.path.replace('{latitude},{longitude}', `${enc(c.lat as string)},${enc(c.lon as string)}`)}${query.length ? `?${query.join('&')}` : ''}`
      : `${c.op.path.replace(`{${c.op.code}}`, enc(c.code as string))}?latitude=${enc(c.lat as string)}&longitude=${enc(c.lon as string)}`;
  const res = await fetch(`http://${HOST}:${port}${path}`);
  const body = await res.text();
  if (res.status !== 200) return problemOutcome(JSON.parse(body));
  return { answer: c.op.answer === 'json' ? JSON.parse(body) : c.op.answer === 'boolean' ? body === 'true' : body };
}

function cli(c: Call, params: Record<string, unknown>): Outcome {
  const args = c.op.code === null ? [c.lat, c.lon] : [c.code, c.lat, c.lon];
  const flags: string[] = [];
  for (const p of c.op.params ?? []) {
    const v = params[p.name];
    if (p.required) args.push(v);
    else if (v !== undefined) flags.push(`--${p.name.replace(/[A-Z]/g, (x) => `-${x.toLowerCase()}`)}`, v as string);
  }
  const out: string[] = [];
  // `--` ends the flags: a point such as "-5e3" is an argument, as from a shell.
  run(
    [c.op.command, '--json', ...flags, '--', ...(args as string[])],
    (s) => out.push(s),
    () => {},
  );
  const printed = JSON.parse(out.join('\n'));
  return 'data' in printed ? { answer: printed.data } : problemOutcome(printed.error);
}

describe('one input contract', () => {
  it(`${CASES} generated calls: the library, both clients, the server and the CLI agree`, async () => {
    const all = calls(CASES);
    let texts = 0;
    const differ: string[] = [];
    const note = (c: Call, where: string, got: Outcome, want: Outcome) => {
      if (differ.length < 12)
        differ.push(
          `${c.op.id}(${[c.code, c.lat, c.lon].map((v) => String(unwrap(v)).slice(0, 30)).join(', ')}; ${Object.entries(
            c.params,
          )
            .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
            .join(' ')}) ${where}: ${JSON.stringify(got)} ≠ library ${JSON.stringify(want)}`,
        );
    };
    for (const generated of all) {
      const c: Call = {
        ...generated,
        params: generated.params,
        code: unwrap(generated.code),
        lat: unwrap(generated.lat),
        lon: unwrap(generated.lon),
      };
      const params = generated.params;
      const want = library(c, params);
      const gotOffline = await client(offline, c, params);
      if (JSON.stringify(gotOffline) !== JSON.stringify(want)) note(c, 'offline', gotOffline, want);
      // A refused call is refused with the values given; a sent one is answered at the values sent.
      const asSent = { ...c, lat: sent(c.lat), lon: sent(c.lon) };
      const paramsSent = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, sent(v)]));
      const wantRemote = 'kind' in want && want.kind === 'ValidationError' ? want : library(asSent, paramsSent);
      const gotRemote = await client(remote, c, params);
      // The alpha-2 hint (', use "DEU"') needs the dataset's code table: a remote client refusing a
      // bad point by itself (docs/CLIENT.md) names the alpha-2 code without it.
      const noHint = (o: Outcome) => JSON.stringify(o).replace(/, use \\"[A-Z]{3}\\"/g, '');
      if (noHint(gotRemote) !== noHint(wantRemote)) note(c, 'remote', gotRemote, wantRemote);
      const given = [c.lat, c.lon, ...(c.op.code === null ? [] : [c.code]), ...Object.values(params)];
      if (!given.every((v) => v === undefined || plainText(v))) continue;
      if (c.lat === undefined || c.lon === undefined || (c.op.code !== null && c.code === undefined)) continue;
      texts++;
      const viaHttp = await http(c, params);
      if (JSON.stringify(viaHttp) !== JSON.stringify(want)) note(c, 'server', viaHttp, want);
      // A command line has no way to leave out a required argument.
      if ((c.op.params ?? []).some((p) => p.required && params[p.name] === undefined)) continue;
      const viaCli = cli(c, params);
      if (JSON.stringify(viaCli) !== JSON.stringify(want)) note(c, 'CLI', viaCli, want);
    }
    expect(differ).toEqual([]);
    expect(texts).toBeGreaterThan(CASES / 10);
  });
});
