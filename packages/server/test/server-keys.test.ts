// The HTTP server's API keys over real sockets: which keys are accepted, how refusals answer, and
// keys at rest; then `geolookup keys` run in process.
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../src/server/keys.js';
import { run } from '../src/cli/index.js';
import { run as runCore } from '../../../src/cli/run.js';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import { HOST, type HttpAnswer, request } from '../../../test/support/loopback.js';
import { exchangeResponses } from '../../../test/support/raw-http.js';
import {
  dir,
  expectProblem,
  get,
  K,
  KEY,
  KEY_ID,
  keysFile,
  logs,
  rawGet,
  REVOKED,
  SMALL,
  start,
  useServerFixture,
} from '../../../test/support/server-fixture.js';

useServerFixture();

describe('API keys', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await start());
  });

  it('a valid key is accepted, whatever the case of the header name', async () => {
    for (const name of ['X-API-Key', 'x-api-key', 'X-API-KEY']) {
      expect((await request(port, '/geo/country/fromGps/48.8566,2.3522', { [name]: KEY })).status).toBe(200);
    }
  });

  const cases: [string, () => Promise<HttpAnswer>, RegExp][] = [
    ['missing', () => get(port, '/geo/country/fromGps/1,1', null), /missing/],
    [
      'Authorization instead',
      () => get(port, '/geo/country/fromGps/1,1', null, { Authorization: `Bearer ${KEY}` }),
      /Authorization header is not accepted/,
    ],
    [
      'Authorization with the bare key',
      () => get(port, '/geo/country/fromGps/1,1', null, { Authorization: KEY }),
      /Authorization/,
    ],
    ['another header name', () => get(port, '/geo/country/fromGps/1,1', null, { 'X-Api-Token': KEY }), /missing/],
    ['trailing space', () => get(port, '/geo/country/fromGps/1,1', `${KEY} `), /whitespace/],
    ['trailing tab', () => get(port, '/geo/country/fromGps/1,1', `${KEY}\t`), /whitespace/],
    ['leading extra space', () => get(port, '/geo/country/fromGps/1,1', ` ${KEY}`), /whitespace/],
    ['empty value', () => get(port, '/geo/country/fromGps/1,1', ''), /empty/],
    [
      'inner space',
      () => get(port, '/geo/country/fromGps/1,1', `${KEY.slice(0, 10)} ${KEY.slice(10)}`),
      /whitespace or control/,
    ],
    ['revoked', () => get(port, '/geo/country/fromGps/1,1', REVOKED), /revoked/],
    [
      'unknown, well-formed',
      () => get(port, '/geo/country/fromGps/1,1', `glk_${KEY_ID}_${'A'.repeat(43)}`),
      /not valid/,
    ],
    ['unknown id', () => get(port, '/geo/country/fromGps/1,1', KEY.replace(KEY_ID, '000000000000')), /not valid/],
    ['malformed', () => get(port, '/geo/country/fromGps/1,1', 'let-me-in'), /not valid/],
    [
      'duplicated (same value)',
      () => request(port, '/geo/country/fromGps/1,1', { 'X-API-Key': [KEY, KEY] }),
      /exactly one/,
    ],
    [
      'duplicated (different case)',
      () =>
        request(port, '/geo/country/fromGps/1,1', [
          'Host',
          'localhost',
          'X-API-Key',
          KEY,
          'x-api-key',
          KEY,
        ] as unknown as http.OutgoingHttpHeaders),
      /exactly one/,
    ],
  ];
  it.each(cases)('401 when the key is %s', async (_name, send, detail) => {
    const r = await send();
    const p = expectProblem(r, 401, T.auth);
    expect(p.title).toBe('Unauthorized');
    expect(p.detail).toMatch(detail);
    expect(r.headers['www-authenticate']).toBe('X-API-Key');
    expect(r.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  const rawCases: [string, string][] = [
    ['trailing space', `X-API-Key: ${K} \r\n`],
    ['two spaces after the colon', `X-API-Key:  ${K}\r\n`],
    ['tab separator', `X-API-Key:\t${K}\r\n`],
    ['newline inside the value', `X-API-Key: ${K}\nx\r\n`],
    ['bare newline ending the value', `X-API-Key: ${K}\n`],
    ['folded onto a second line', `X-API-Key: ${K}\r\n continued\r\n`],
    ['carriage return inside the value', `X-API-Key: ${K}\rx\r\n`],
    ['control character', `X-API-Key: ${K}\x01\r\n`],
    ['NUL', `X-API-Key: \x00${K}\r\n`],
    ['DEL', `X-API-Key: ${K}\x7f\r\n`],
    ['non-ASCII', `X-API-Key: ${K}\xe9\r\n`],
    ['duplicated', `X-API-Key: ${K}\r\nX-API-Key: ${K}\r\n`],
  ];
  it.each(rawCases)('401 over a raw socket: %s', async (_name, lines) => {
    const res = await exchangeResponses(port, rawGet('/geo/country/fromGps/48.8566,2.3522', lines.replaceAll(K, KEY)));
    expect(res).toHaveLength(1);
    expect(res[0].status).toBe(401);
    expect(JSON.parse(res[0].body)).toMatchObject({ type: T.auth, status: 401, title: 'Unauthorized' });
  });

  it('the exact key over a raw socket is accepted (the raw cases differ only by their flaw)', async () => {
    const res = await exchangeResponses(port, rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY}\r\n`));
    expect(res.map((r) => [r.status, r.body])).toEqual([[200, 'FRA']]);
    const tight = await exchangeResponses(port, rawGet('/geo/country/fromGps/48.8566,2.3522', `x-api-key:${KEY}\r\n`));
    expect(tight.map((r) => r.status)).toEqual([200]);
  });

  it('one connection, several keys: each request is checked on its own', async () => {
    const forged = KEY.slice(0, -1) + (KEY.endsWith('A') ? 'B' : 'A'); // same length, last character differs
    const head = (key: string, close = false) =>
      `GET /geo/country/fromGps/48.8566,2.3522 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
    const res = await exchangeResponses(
      port,
      head(KEY) + head(REVOKED) + head(KEY) + head(forged) + head(SMALL) + head(KEY, true),
    );
    expect(res.map((r) => r.status)).toEqual([200, 401, 200, 401, 200, 200]);
    expect(res[4].headers['x-ratelimit-limit']).toBe('2');
    expect(res[5].headers['x-ratelimit-limit']).toBe('10000');
  });

  it('a key revoked while its keep-alive connection is open is refused on that connection', async () => {
    const file = join(dir, 'keepalive-keys.json');
    const k = createKey(file, 'free');
    const { server, port: p } = await start({ keys: file, watchKeys: false });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const once = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          { host: HOST, port: p, path: '/geo/country/fromGps/48.8566,2.3522', headers: { 'X-API-Key': k.key }, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('socket', (s) => sockets.add(s));
        req.on('error', reject);
      });
    expect(await once()).toBe(200);
    expect(await once()).toBe(200);
    revokeKey(file, k.record.id);
    server.reloadKeys();
    expect(await once()).toBe(401);
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it('a malformed request for another header is a 400, not a 401', async () => {
    const [r] = await exchangeResponses(
      port,
      rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY}\r\nX-Other: a\nb\r\n`),
    );
    expect(r.status).toBe(400);
  });

  it('keys file changes apply without a restart: revoke, add, broken file kept out', async () => {
    const file = join(dir, 'reload-keys.json');
    const first = createKey(file, 'free');
    const { server, port: p } = await start({ keys: file });
    const status = async (k: string) => (await get(p, '/geo/country/fromGps/48.8566,2.3522', k)).status;
    const eventually = async (k: string, want: number) => {
      for (let i = 0; i < 100 && (await status(k)) !== want; i++) await new Promise((r) => setTimeout(r, 30));
      expect(await status(k)).toBe(want);
    };
    expect(await status(first.key)).toBe(200);
    const second = createKey(file, 'pro');
    await eventually(second.key, 200);
    revokeKey(file, first.record.id);
    await eventually(first.key, 401);
    // A broken file is not loaded; the previous keys stay in force.
    writeFileSync(file, '{ not json');
    expect(server.reloadKeys()).toBe(false);
    expect(await status(second.key)).toBe(200);
    expect(logs.some((l) => /keys not reloaded/.test(l))).toBe(true);
  });

  it('reloadKeys() (SIGHUP in the CLI) picks up a change when watching is off', async () => {
    const file = join(dir, 'hup-keys.json');
    const k = createKey(file, 'free');
    const { server, port: p } = await start({ keys: file, watchKeys: false });
    expect((await get(p, '/geo/country/fromGps/1,1', k.key)).status).not.toBe(401);
    revokeKey(file, k.record.id);
    await new Promise((r) => setTimeout(r, 100));
    expect((await get(p, '/geo/country/fromGps/1,1', k.key)).status).not.toBe(401);
    expect(server.reloadKeys()).toBe(true);
    expect((await get(p, '/geo/country/fromGps/1,1', k.key)).status).toBe(401);
  });

  it('the keys file holds hashes, never keys', () => {
    const text = readFileSync(keysFile, 'utf8');
    for (const k of [KEY, REVOKED, SMALL]) expect(text).not.toContain(k.slice(17));
    expect(JSON.parse(text).keys[0]).toMatchObject({
      id: KEY_ID,
      plan: 'free',
      monthlyQuota: 10000,
      revoked: false,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe('CLI keys (in-process)', () => {
  const cli = (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = run(
      args,
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('create prints the key once, alone on stdout; list shows ids, never keys or hashes; revoke marks it', () => {
    const file = join(dir, 'cli-keys.json');
    const made = cli('keys', 'create', '--keys', file, '--plan', 'pro', '--label', 'ci');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^glk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.err).toMatch(/shown only this once/);
    expect(made.err).not.toContain(made.out);
    const id = made.out.slice(4, 16);
    const list = cli('keys', 'list', '--keys', file);
    expect(list.out).toMatch(new RegExp(`${id}\\s+pro\\s+1000000\\s+active`));
    expect(list.out).not.toContain(made.out);
    const json = JSON.parse(cli('keys', 'list', '--keys', file, '--json').out);
    expect(json[0]).toMatchObject({ id, plan: 'pro', revoked: false, label: 'ci' });
    expect(json[0].sha256).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain(made.out);
    expect(cli('keys', 'revoke', id, '--keys', file)).toMatchObject({ code: 0, out: `revoked ${id}` });
    expect(cli('keys', 'list', '--keys', file).out).toMatch(/revoked/);
    expect(cli('keys', 'revoke', 'ffffffffffff', '--keys', file).code).toBe(3);
  });

  it('list escapes control characters in the table, so a label can neither forge a row nor send escapes', () => {
    const file = join(dir, 'cli-labels.json');
    const labels = [
      'x\n604430f2aaab  pro   1000000      active',
      'red \u001b[31mALERT\u001b[0m',
      'tab\there, back\\slash, bidi \u202eevil',
      'plain: café',
    ];
    for (const label of labels) cli('keys', 'create', '--keys', file, '--plan', 'free', '--label', label);
    const rows = cli('keys', 'list', '--keys', file).out.split('\n');
    expect(rows).toHaveLength(1 + labels.length);
    for (const row of rows) expect(row).not.toMatch(/[\p{Cc}\u202e]/u);
    // The label is the last column, after the creation time.
    expect(rows.slice(1).map((r) => r.split(/Z {2}/)[1])).toEqual([
      'x\\n604430f2aaab  pro   1000000      active',
      'red \\u001b[31mALERT\\u001b[0m',
      'tab\\there, back\\\\slash, bidi \\u202eevil',
      'plain: café',
    ]);
    // --json keeps the labels as they are: JSON escapes them itself.
    const json = JSON.parse(cli('keys', 'list', '--keys', file, '--json').out);
    expect(json.map((k: { label: string }) => k.label)).toEqual(labels);
  });

  it('bad usage exits 2; an unreadable keys file exits 1', () => {
    expect(cli('keys', 'create', '--keys', join(dir, 'x.json'), '--plan', 'gold').code).toBe(2);
    expect(cli('keys', 'create', '--plan', 'free').code).toBe(2);
    expect(cli('keys', 'frob', '--keys', 'x').code).toBe(2);
    expect(cli('keys').code).toBe(2);
    expect(cli('serve').code).toBe(2); // neither --keys nor --allow-anonymous
    expect(cli('serve', '--keys', 'k.json', '--port', 'eighty').code).toBe(2);
    expect(cli('serve', '--keys', 'k.json', '--bogus').code).toBe(2);
    expect(cli('keys', 'list', '--keys', join(dir, 'missing.json')).code).toBe(1);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 1, "keys": [{"id": "zz"}]}');
    const r = cli('serve', '--keys', broken);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/id must be 12 hex digits/);
    expect(cli('serve', '--help').out).toMatch(/--allow-anonymous/);
    const top: string[] = [];
    runCore(
      ['--help'],
      (s) => top.push(s),
      () => {},
    );
    expect(top.join('\n')).toMatch(/geolookup serve/);
  });
});
