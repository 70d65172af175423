// The Host header over raw sockets: one and only one (RFC 9112 §3.2), answered like the server's
// other malformed requests; `hosts` limits the names a server answers for, and the playground's
// internal service port applies the same check as its page port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Playground, startPlayground } from '../src/playground/server.js';
import { PROBLEM_TYPE as T } from '../../../test/support/fuzz-http.js';
import { request } from '../../../test/support/loopback.js';
import { exchangeResponses } from '../../../test/support/raw-http.js';
import { expectProblem, K, KEY, start, useServerFixture } from '../../../test/support/server-fixture.js';

useServerFixture();

const PARIS = '/geo/country/fromGps/48.8566,2.3522';
const head = (hostLines: string[]) =>
  `GET ${PARIS} HTTP/1.1\r\n${hostLines.map((h) => `${h}\r\n`).join('')}X-API-Key: ${K}\r\n\r\n`;

/** Sends `text` (with the fixture's key for K) on a fresh connection; every answer until it closes. */
async function raw(port: number, text: string) {
  return exchangeResponses(port, text.replaceAll(K, KEY));
}

describe('Host', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await start());
  });

  it('one Host: answered', async () => {
    const [r] = await raw(port, head(['Host: x']).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
    expect(r.status).toBe(200);
    expect(r.body).toBe('FRA');
  });

  it.each([
    ['the same twice', ['Host: x', 'Host: x']],
    ['two names', ['Host: 127.0.0.1', 'Host: evil.example']],
    ['in any case', ['Host: x', 'host: y']],
  ])('two Host lines (%s): 400 problem record, the connection closed, nothing after it read', async (_what, lines) => {
    // A second request follows on the same connection: it must not be answered.
    const list = await raw(port, head(lines) + head(['Host: x']));
    expect(list).toHaveLength(1);
    const [r] = list;
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.headers.connection).toBe('close');
    expect(JSON.parse(r.body)).toEqual({
      type: T.general,
      title: 'Bad Request',
      status: 400,
      detail: 'Malformed HTTP request: more than one Host header.',
    });
  });

  it('no Host in HTTP/1.1 is still the 400 it was; HTTP/1.0 needs none', async () => {
    const [none] = await raw(port, head([]));
    expect(JSON.parse(none.body).detail).toBe('Malformed HTTP request: HTTP/1.1 requires a Host header.');
    const [old] = await raw(port, `GET ${PARIS} HTTP/1.0\r\nX-API-Key: ${K}\r\n\r\n`);
    expect(old.status).toBe(200);
  });
});

describe('createServer({ hosts })', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await start({ hosts: ['api.example', '127.0.0.1'] }));
  });

  it('answers the listed names, with or without a port, in any case', async () => {
    for (const host of ['api.example', 'API.Example:8080', '127.0.0.1', `127.0.0.1:${port}`])
      expect((await request(port, PARIS, { 'X-API-Key': KEY, Host: host })).status, host).toBe(200);
  });

  it('another name gets 403, a problem record, before the key is looked at', async () => {
    for (const host of ['evil.example', 'api.example.evil.example', 'localhost']) {
      const r = await request(port, PARIS, { Host: host });
      const p = expectProblem(r, 403, T.general);
      expect(p.title).toBe('Forbidden');
    }
  });
});

describe('the playground', () => {
  let playground: Playground;
  let front: number;
  let service: number;
  beforeAll(async () => {
    playground = await startPlayground({ port: 0, log: () => {} });
    front = Number(new URL(playground.url).port);
    service = Number(new URL(playground.service).port);
  });
  afterAll(() => playground?.close());

  it.each(['127.0.0.1', 'localhost'])('both ports answer Host %s', async (name) => {
    expect((await request(front, PARIS, { Host: `${name}:${front}` })).body).toBe('FRA');
    expect((await request(service, PARIS, { Host: `${name}:${service}` })).body).toBe('FRA');
  });

  it('both ports refuse a page on another site (DNS rebinding) with 403', async () => {
    for (const host of ['attacker.example', `attacker.example:${service}`, '127.0.0.1.attacker.example']) {
      expect((await request(front, PARIS, { Host: host })).status, `front, ${host}`).toBe(403);
      expect((await request(service, PARIS, { Host: host })).status, `service, ${host}`).toBe(403);
    }
  });

  it('both ports refuse two Host lines with 400', async () => {
    for (const port of [front, service]) {
      const [r] = await exchangeResponses(port, head(['Host: 127.0.0.1', 'Host: attacker.example']));
      expect(r.status, String(port)).toBe(400);
    }
  });
});
