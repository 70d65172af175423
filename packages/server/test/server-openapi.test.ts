// The OpenAPI 3.1 document: valid (checked by @readme/openapi-parser, which validates against the
// official 3.1 schema and the spec's own rules), current in docs/, served at /openapi.json for the
// server's settings; and the check that holds every server test's answers to it
// (test/support/openapi-conformance.ts) catches answers that differ from it.
import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { defaultSettings, openApiDocument, type OpenApiSettings } from '../src/server/openapi.js';
import { timeZoneNames } from '../../timezones/src/index.js';
import { findExtensions, isContract, operationsOf } from 'geolookup/extend';
import { request } from '../../../test/support/loopback.js';
import { type Exchange, responseChecker } from '../../../test/support/openapi-check.js';
import { checkConnections, recorded, wireExchanges } from '../../../test/support/openapi-conformance.js';
import { exchange, parseResponses } from '../../../test/support/raw-http.js';
import { get, KEY, rawGet, start, useServerFixture } from '../../../test/support/server-fixture.js';

const OPERATIONS = operationsOf(findExtensions());

useServerFixture();

const docsFile = new URL('../docs/openapi.json', import.meta.url);

async function expectValid(doc: Record<string, unknown>): Promise<void> {
  const result = await validate(structuredClone(doc) as never);
  expect(result.valid ? '' : compileErrors(result)).toBe('');
  expect(result.warnings).toEqual([]);
}

describe('the document', () => {
  const variants: [string, Partial<OpenApiSettings>][] = [
    ['defaults', {}],
    ['anonymous access, custom zone codes, no /metrics', { allowAnonymous: true, codes: 'custom', metrics: false }],
    ['no extension installed: the contract alone', { extensions: [] }],
  ];
  it.each(variants)('is valid OpenAPI 3.1: %s', async (_, settings) => {
    const doc = openApiDocument({ ...defaultSettings(), ...settings });
    expect(doc.openapi).toBe('3.1.0');
    await expectValid(doc);
  });

  it('the validator rejects a broken document (so the check above can fail)', async () => {
    const doc = openApiDocument() as { paths: Record<string, { get: { responses: unknown } }> };
    doc.paths[OPERATIONS[0].path].get.responses = { 200: { content: {} } }; // no description
    expect((await validate(structuredClone(doc) as never)).valid).toBe(false);
  });

  it('packages/server/docs/openapi.json is the document for the default settings (node --import tsx scripts/openapi.ts)', () => {
    expect(JSON.parse(readFileSync(docsFile, 'utf8'))).toEqual(openApiDocument());
  });

  it('documents the time-zone route as an extension, with IANA names as its answer; without its package, the contract alone', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument()));
    const zone = OPERATIONS.find((o) => o.id === 'timeZoneFromGps')!;
    expect(isContract(zone)).toBe(false);
    const op = doc.paths[zone.path].get;
    expect(op.operationId).toBe('timeZoneFromGps');
    expect(op.tags).toEqual(['extensions']);
    expect(op.description).toMatch(/not part of the Geolocation Lookup Service contract/);
    expect(op.description).toMatch(/@geolookup\/timezones is installed/);
    expect(doc.tags).toEqual([{ name: 'extensions', description: expect.stringContaining('beyond the') }]);
    const schema = op.responses[200].content['text/plain; charset=utf-8'].schema;
    expect(schema).toMatchObject({ type: 'string', examples: ['Europe/Paris'] });
    const pattern = new RegExp(schema.pattern);
    expect(timeZoneNames().filter((name) => !pattern.test(name))).toEqual([]);
    for (const notZone of ['', 'FRA ', 'Europe//Paris', '/UTC', 'Europe/Paris\n'])
      expect(pattern.test(notZone)).toBe(false);
    expect(Object.keys(op.responses)).not.toContain('404'); // every valid point has a zone
    // The same settings with the custom codes of another world dataset: time zones are still IANA names.
    const custom = openApiDocument({ ...defaultSettings(), codes: 'custom' }) as typeof doc;
    expect(custom.paths[zone.path].get.responses[200].content['text/plain; charset=utf-8'].schema).toEqual(schema);

    const contract = JSON.parse(JSON.stringify(openApiDocument({ ...defaultSettings(), extensions: [] })));
    expect(Object.keys(contract.paths)).toEqual([
      ...OPERATIONS.filter(isContract).map((o) => o.path),
      '/healthz',
      '/openapi.json',
      '/metrics',
    ]);
    expect(contract.tags).toBeUndefined();
    expect(contract.info.description).not.toMatch(/extensions/);
    // The contract's paths and everything else are the same with or without the extension.
    for (const o of OPERATIONS.filter(isContract)) expect(contract.paths[o.path]).toEqual(doc.paths[o.path]);
    expect(contract.components).toEqual(doc.components);
    // Any request's answers too, but for the 400, which may name the border routes' parameters.
    const { 400: anyBad, ...anyRest } = doc['x-any-request'];
    const { 400: contractBad, ...contractRest } = contract['x-any-request'];
    expect(contractRest).toEqual(anyRest);
    expect(contractBad).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(JSON.stringify(anyBad)).toMatch(/"maxKm","layer","radiusM"/);
    expect(JSON.stringify(contract)).not.toMatch(/maxKm|radiusM/);
  });

  it('documents the border routes as extensions: their query parameters, their JSON answers, a 404 for the nearest only', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument()));
    const border = OPERATIONS.filter((o) => o.extension === '@geolookup/borders');
    expect(border.map((o) => o.id)).toEqual([
      'distanceToBorder',
      'nearestCountry',
      'nearestSubdivision',
      'regionsWithin',
    ]);
    for (const o of border) {
      const get = doc.paths[o.path].get;
      expect(get.tags, o.id).toEqual(['extensions']);
      expect(get.description).toMatch(/@geolookup\/borders is installed/);
      const query = get.parameters.filter((p: { in: string }) => p.in === 'query');
      expect(query.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual(
        o.params!.map((p) => [p.name, p.required]),
      );
      expect(Object.keys(get.responses[200].content)).toEqual(['application/json']);
      expect(Object.keys(get.responses).includes('404'), o.id).toBe(o.id.startsWith('nearest'));
      const fields =
        get.responses[400].content['application/problem+json'].schema.allOf[0].oneOf[0].properties.errors.propertyNames
          .enum;
      expect(fields).toEqual(['latitude', 'longitude', 'coordinates', ...o.params!.map((p) => p.name)]);
    }
  });

  it('describes the routes of the route table, the key scheme and the rate-limit headers', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument()));
    expect(Object.keys(doc.paths)).toEqual([...OPERATIONS.map((o) => o.path), '/healthz', '/openapi.json', '/metrics']);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    const ok = doc.paths[OPERATIONS[0].path].get.responses[200];
    expect(Object.keys(ok.content)).toEqual(['text/plain; charset=utf-8']);
    expect(Object.keys(ok.headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Burst-Remaining', 'ETag']),
    );
    expect(Object.keys(doc.components.responses.TooManyRequests.headers)).toContain('Retry-After');
  });
});

describe('GET /openapi.json', () => {
  it('answers the server’s own document without a key, and counts against no limit', async () => {
    const { server, port } = await start({ limits: { burstPerMinute: 1 } });
    for (let i = 0; i < 3; i++) {
      const r = await request(port, '/openapi.json');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(JSON.parse(r.body)).toEqual(server.openapi);
    }
    expect(server.openapi).toEqual(openApiDocument({ ...defaultSettings(), burstPerMinute: 1 }));
    const head = await request(port, '/openapi.json', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('follows the settings: anonymous access, limits, /metrics on another port', async () => {
    const { port } = await start({ allowAnonymous: true, admin: true, limits: { anonymousBurstPerMinute: 3 } });
    const doc = JSON.parse((await request(port, '/openapi.json')).body);
    expect(doc.security).toEqual([{ ApiKey: [] }, {}]);
    expect(doc.info.description).toContain('3 a minute');
    expect(doc.paths['/metrics']).toBeUndefined();
    await expectValid(doc);
  });
});

describe('the answers of the server tests are checked against the document', () => {
  it('every route of the table answers as documented, HEAD and 304 included', async () => {
    const { port, server } = await start();
    const paths = [
      '/geo/country/fromGps/48.8566,2.3522',
      '/geo/subdivision/fromGps/48.8566,2.3522',
      '/geo/country/FRA/isInCountry?latitude=48.8566&longitude=2.3522',
      '/geo/subdivision/FR-IDF/isInSubdivision?latitude=48.8566&longitude=2.3522',
      '/geo/timezone/fromGps/48.8566,2.3522',
      '/geo/border/distance/fromGps/51.4416,4.9268?maxKm=5&layer=subdivision',
      '/geo/country/nearest/fromGps/52.6,4.0',
      '/geo/subdivision/nearest/fromGps/-16.8,180?maxKm=10',
      '/geo/regions/within/fromGps/36.0,-5.5?radiusM=20000',
    ];
    expect(paths).toHaveLength(OPERATIONS.length);
    for (const [i, path] of paths.entries()) {
      const ok = await get(port, path);
      expect(ok.status).toBe(200);
      expect((await request(port, path, { 'X-API-Key': KEY }, 'HEAD')).status).toBe(200);
      // An extension's ETag names its own dataset (server.etag: the contract's routes).
      if (OPERATIONS[i].extension) expect(ok.headers.etag).not.toBe(server.etag);
      else expect(ok.headers.etag).toBe(server.etag);
      expect((await get(port, path, KEY, { 'If-None-Match': ok.headers.etag })).status).toBe(304);
    }
    const refused = await exchange(port, 'GET /x HTTP/1.1\r\nHost: a\r\nX-API-Key: a\r\n b\r\n\r\n');
    expect(parseResponses(refused.text)[0].status).toBe(401);
    // A connection is recorded once the server's side of it has closed.
    const mine = () => recorded().filter((c) => c.doc === server.openapi);
    await expect.poll(() => mine().length).toBe(paths.length * 3 + 1);
    const { exchanges, statuses, problems } = await checkConnections(mine());
    expect(problems).toEqual([]);
    expect(exchanges).toBe(paths.length * 3 + 1);
    expect([...statuses].sort()).toEqual([200, 304, 401]);
  });

  it('the check reports an answer that differs from the document', async () => {
    const { port, server } = await start();
    const text = (
      await exchange(port, [
        rawGet('/geo/country/fromGps/48.8566,2.3522', `X-API-Key: ${KEY}\r\n`).replace('Connection: close\r\n', ''),
        rawGet('/geo/country/fromGps/0,-30', `X-API-Key: ${KEY}\r\n`),
      ])
    ).text;
    const requests = [
      { method: 'GET', url: '/geo/country/fromGps/48.8566,2.3522' },
      { method: 'GET', url: '/geo/country/fromGps/0,-30' },
    ];
    const { list, bad } = wireExchanges(text, requests);
    expect(bad).toEqual([]);
    const [ok, notFound] = list;
    const check = await responseChecker(server.openapi);
    expect(check(ok)).toEqual([]);
    expect(check(notFound)).toEqual([]);
    const altered = (change: Partial<Exchange>, from: Exchange = ok) => check({ ...from, ...change });
    const withoutHeader = (x: Exchange, name: string) => {
      const headers = { ...x.headers };
      delete headers[name];
      return { headers };
    };
    expect(altered({ body: 'fra' })).toEqual([expect.stringMatching(/body fra: .*pattern/)]);
    expect(altered({ status: 202 })).toEqual([expect.stringMatching(/status not documented/)]);
    expect(altered({ headers: { ...ok.headers, 'content-type': 'application/json' } })).toEqual([
      expect.stringMatching(/Content-Type application\/json is not text\/plain/),
    ]);
    expect(altered(withoutHeader(ok, 'x-ratelimit-remaining'))).toEqual([
      expect.stringMatching(/header X-RateLimit-Remaining missing/),
    ]);
    expect(altered({ headers: { ...ok.headers, 'x-ratelimit-burst-limit': '-1' } })).toEqual([
      expect.stringMatching(/header X-RateLimit-Burst-Limit/),
    ]);
    const problem = JSON.parse(notFound.body);
    expect(altered({ body: JSON.stringify({ ...problem, stack: 'at x' }) }, notFound)).toEqual([
      expect.stringMatching(/unevaluated/),
    ]);
    expect(altered({ body: JSON.stringify({ ...problem, status: 400 }) }, notFound)).toHaveLength(1);
    // Another method falls back to the answers any request can get: a 405 with Allow, a 405 problem.
    const notAllowed = check({ ...notFound, method: 'DELETE', status: 405 });
    expect(notAllowed).toContainEqual(expect.stringMatching(/header Allow missing/));
    expect(notAllowed).toContainEqual(expect.stringMatching(/status must be equal to constant/));
  });
});
