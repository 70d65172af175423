// Every answer a geolookup server gives in a test file is checked against that server's OpenAPI
// document (GET /openapi.json) once the file's tests are done: the servers in the test process,
// and those of the node processes it starts (NODE_OPTIONS loads response-tap-child.mjs in them).
// A setup file of the dataset project (vitest.config.ts), so bench scripts that share test/support
// helpers never load it; a non-conforming answer fails the file.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { type Check, type Exchange, responseChecker } from './openapi-check.js';
import { tapConnections } from './response-tap.mjs';

export interface Connection {
  doc: Record<string, unknown>;
  out: string;
  requests: { method: string; url: string }[];
}

const connections: Connection[] = [];
const tap = tapConnections(({ server, out, requests }) => {
  if (out !== '') connections.push({ doc: server.openapi, out, requests });
});

const childDir = mkdtempSync(join(tmpdir(), 'geolookup-responses-'));
const saved = { dir: process.env.GEOLOOKUP_RESPONSE_TAP_DIR, options: process.env.NODE_OPTIONS };
process.env.GEOLOOKUP_RESPONSE_TAP_DIR = childDir;
const childTap = fileURLToPath(new URL('./response-tap-child.mjs', import.meta.url));
process.env.NODE_OPTIONS = `${saved.options ?? ''} --import="${childTap}"`.trim();

function restoreEnv(): void {
  for (const [name, value] of [
    ['GEOLOOKUP_RESPONSE_TAP_DIR', saved.dir],
    ['NODE_OPTIONS', saved.options],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** The connections the child processes recorded, each with its server's document. */
function childConnections(): Connection[] {
  const list: Connection[] = [];
  for (const file of readdirSync(childDir)) {
    const docs = new Map<number, Record<string, unknown>>();
    for (const line of readFileSync(join(childDir, file), 'utf8').split('\n')) {
      if (line === '') continue;
      const r = JSON.parse(line) as Connection & { server: number; doc?: Record<string, unknown> };
      if (r.doc) docs.set(r.server, r.doc);
      list.push({ doc: docs.get(r.server)!, out: r.out, requests: r.requests });
    }
  }
  return list;
}

/**
 * The answers in `out`, paired in order with the requests node:http handed to the server; the
 * rest were written to the socket directly (refusals before a request was parsed). A truncated
 * last answer (a connection cut mid-write) is left out; anything unreadable is reported.
 */
export function wireExchanges(out: string, requests: Connection['requests']): { list: Exchange[]; bad: string[] } {
  const list: Exchange[] = [];
  let rest = out;
  let next = 0;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
    if (!m) return { list, bad: [`unreadable status line ${JSON.stringify(statusLine.slice(0, 80))}`] };
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const c = l.indexOf(':');
      headers[l.slice(0, c).toLowerCase()] = l.slice(c + 1).trim();
    }
    const status = Number(m[1]);
    if (status < 200) {
      rest = rest.slice(end + 4);
      continue;
    }
    const req = requests[next++];
    let bodyless = req?.method === 'HEAD' || status === 204 || status === 304;
    const len = Number(headers['content-length'] ?? 0);
    // A refusal written to the socket for a HEAD request keeps its Content-Length, without the body.
    if (!bodyless && req === undefined && rest.length === end + 4) bodyless = true;
    if (!bodyless && rest.length < end + 4 + len) break;
    const raw = bodyless ? '' : rest.slice(end + 4, end + 4 + len);
    list.push({
      method: req?.method ?? null,
      target: req?.url ?? null,
      status,
      headers,
      body: Buffer.from(raw, 'latin1').toString('utf8'),
      bodyless,
    });
    rest = rest.slice(end + 4 + raw.length);
  }
  return { list, bad: [] };
}

/** Checks the answers of `list` against their servers' documents. */
export async function checkConnections(
  list: Connection[],
): Promise<{ exchanges: number; statuses: Set<number>; problems: string[] }> {
  const checkers = new Map<string, Check>();
  const problems: string[] = [];
  const statuses = new Set<number>();
  let exchanges = 0;
  for (const c of list) {
    const key = JSON.stringify(c.doc);
    let check = checkers.get(key);
    if (check === undefined) checkers.set(key, (check = await responseChecker(c.doc)));
    const { list: answers, bad } = wireExchanges(c.out, c.requests);
    problems.push(...bad);
    for (const x of answers) {
      problems.push(...check(x));
      exchanges++;
      statuses.add(x.status);
    }
  }
  return { exchanges, statuses, problems };
}

/** The connections recorded so far (closed ones), in this process and its children. */
export function recorded(): Connection[] {
  return [...connections, ...childConnections()];
}

afterAll(async () => {
  tap.stop();
  restoreEnv();
  const all = recorded();
  rmSync(childDir, { recursive: true, force: true });
  const { problems } = await checkConnections(all);
  if (problems.length)
    throw new Error(
      `${problems.length} answers do not conform to the OpenAPI document:\n${[...new Set(problems)].slice(0, 30).join('\n')}`,
    );
});
