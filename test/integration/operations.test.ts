// The operations (the contract's, src/extend/operations.ts, and the installed extensions' found by
// geolookup/extend's loader) drive every front end: the server's routes and metrics labels, the
// OpenAPI paths, the client's methods and the CLI's commands list exactly those operations, in
// order, and each answers as callOperation does on the same engine. An extension's operation
// (timeZoneFromGps, the border operations: @geolookup/timezones and @geolookup/borders, installed
// in this checkout) runs on what its descriptor opens; a server without it has no such route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/client/src/index.js';
import { openApiDocument, defaultSettings } from '../../packages/server/src/server/openapi.js';
import { FIRST_OPERATION, OPEN_PATHS, routeOf, routeTable } from '../../packages/server/src/server/routes.js';
import { createServer, type GeoLookupServer } from '../../packages/server/src/server/server.js';
import { run } from '../../src/cli/run.js';
import { createGeoLookup, preload } from '../../src/index.js';
import {
  CONTRACT_OPERATIONS,
  callOperation,
  findExtensions,
  isContract,
  type Operation,
  type OperationTarget,
  openExtension,
  operationsOf,
} from '../../src/extend.js';
import { HOST, listenOnLoopback } from '../support/loopback.js';

const EXTENSIONS = findExtensions();
const OPERATIONS = operationsOf(EXTENSIONS);

/** A point and a code for each operation, the code the country or subdivision at the point. */
const POINT = { lat: '47.6969', lon: '8.6908' };
const codeFor = (op: Operation) =>
  op.code === 'countryCode'
    ? preload().countryFromGps(POINT.lat, POINT.lon)
    : op.code === 'subdivisionCode'
      ? preload().subdivisionFromGps(POINT.lat, POINT.lon)
      : undefined;
/** The named parameters each operation is asked with (Büsingen: borders within a few km). */
const PARAMS: Partial<Record<string, Record<string, string>>> = {
  distanceToBorder: { maxKm: '10', layer: 'subdivision' },
  nearestCountry: { maxKm: '10' },
  nearestSubdivision: { maxKm: '10' },
  regionsWithin: { radiusM: '5000' },
};
const routeFor = (op: Operation, code?: string) =>
  op.code === null
    ? `${op.path.replace('{latitude},{longitude}', `${POINT.lat},${POINT.lon}`)}${op.params ? `?${new URLSearchParams(PARAMS[op.id])}` : ''}`
    : `${op.path.replace(`{${op.code}}`, code!)}?latitude=${POINT.lat}&longitude=${POINT.lon}`;

let server: GeoLookupServer;
let port: number;
beforeAll(async () => {
  server = createServer({ allowAnonymous: true, limits: { anonymousBurstPerMinute: 1000 } });
  port = await listenOnLoopback(server);
});
afterAll(() => server.shutdown());

describe('the operations drive', () => {
  it('the loader: both packages of this checkout, with their operations after the contract', () => {
    expect(EXTENSIONS.map((e) => e.name)).toEqual(['@geolookup/borders', '@geolookup/timezones']);
    expect(OPERATIONS.slice(0, 4)).toEqual(CONTRACT_OPERATIONS);
    expect(OPERATIONS.map((o) => o.id)).toContain('timeZoneFromGps');
  });

  it('the server: one route per operation, in order, and the labels metrics count them by', () => {
    const table = routeTable(OPERATIONS);
    expect(table.labels.slice(FIRST_OPERATION)).toEqual(OPERATIONS.map((o) => o.id));
    OPERATIONS.forEach((op, i) => {
      expect(routeOf(routeFor(op, codeFor(op) ?? 'X').split('?')[0], table), op.id).toBe(FIRST_OPERATION + i);
    });
    for (const path of OPEN_PATHS) expect(routeOf(path, table)).toBeLessThan(FIRST_OPERATION);
    // A server without the extensions: the contract's routes only, the rest is `other`.
    const contractOnly = routeTable(CONTRACT_OPERATIONS);
    for (const op of OPERATIONS) {
      const route = routeOf(routeFor(op, codeFor(op) ?? 'X').split('?')[0], contractOnly);
      expect(contractOnly.labels[route], op.id).toBe(isContract(op) ? op.id : 'other');
    }
    expect(server.openapi).toMatchObject({ paths: Object.fromEntries(OPERATIONS.map((o) => [o.path, {}])) });
  });

  it('the OpenAPI document: its operation paths are the operations, with their ids and summaries', () => {
    const doc = openApiDocument(defaultSettings()) as {
      paths: Record<string, { get: { operationId?: string; summary?: string } }>;
    };
    const ops = Object.entries(doc.paths).filter(([path]) => !(OPEN_PATHS as readonly string[]).includes(path));
    expect(ops.map(([path, item]) => [path, item.get.operationId, item.get.summary])).toEqual(
      OPERATIONS.map((o) => [o.path, o.id, o.summary]),
    );
    // Without the extensions installed: the contract's operations.
    const contract = openApiDocument({ ...defaultSettings(), extensions: [] }) as typeof doc;
    const paths = Object.keys(contract.paths).filter((path) => !(OPEN_PATHS as readonly string[]).includes(path));
    expect(paths).toEqual(CONTRACT_OPERATIONS.map((o) => o.path));
  });

  it('the CLI: its help lists one command per operation, in order', () => {
    const out: string[] = [];
    expect(
      run(
        ['--help'],
        (s) => out.push(s),
        () => {},
      ),
    ).toBe(0);
    const commands = [...out.join('\n').matchAll(/^ {2}geolookup ([a-z-]+) /gm)].map((m) => m[1]);
    expect(commands.slice(0, OPERATIONS.length)).toEqual(OPERATIONS.map((o) => o.command));
  });

  it('the client: one method per operation', () => {
    const client = createClient({ offline: true, engine: preload() });
    expect(client.operations).toEqual(OPERATIONS);
    for (const op of OPERATIONS)
      expect(typeof (client as unknown as Record<string, unknown>)[op.id], op.id).toBe('function');
  });
});

describe('each front end answers every operation as callOperation does', () => {
  const geo = createGeoLookup('world');
  // An extension's operation runs on what its descriptor opens over the engine.
  const targetFor = (op: Operation): OperationTarget =>
    isContract(op) ? geo : openExtension(EXTENSIONS.find((e) => e.name === op.extension)!, geo, false).target;

  it.each(OPERATIONS.map((op) => [op.id, op] as const))(
    '%s: server, client (remote and offline), CLI',
    async (_id, op) => {
      const code = codeFor(op);
      const params = PARAMS[op.id];
      const want = callOperation(targetFor(op), op, code, POINT.lat, POINT.lon, params);
      const args = code === undefined ? [POINT.lat, POINT.lon] : [code, POINT.lat, POINT.lon];
      // A required parameter is the method's next argument, the optional ones its options object.
      const required = op.params?.filter((p) => p.required).map((p) => params![p.name]) ?? [];
      const optional = Object.fromEntries(
        (op.params ?? []).filter((p) => !p.required).map((p) => [p.name, Number(params![p.name]) || params![p.name]]),
      );
      const json = typeof want === 'number' || (typeof want === 'object' && want !== null);

      const res = await fetch(`http://${HOST}:${port}${routeFor(op, code)}`);
      expect(await res.text()).toBe(json ? JSON.stringify(want) : String(want));

      const remote = createClient({ baseUrl: `http://${HOST}:${port}`, cache: false, cacheWarningInterval: 0 });
      const offline = createClient({ offline: true, engine: geo });
      const call = (c: unknown) =>
        (c as Record<string, (...a: unknown[]) => Promise<{ data: unknown }>>)[op.id](
          ...args,
          ...required.map(Number),
          ...(Object.keys(optional).length ? [optional] : []),
        );
      expect((await call(remote)).data).toEqual(want);
      expect((await call(offline)).data).toEqual(want);

      // The CLI: a required parameter after the point, the optional ones as flags; --json for JSON answers.
      const flags = Object.keys(optional).flatMap((name) => [`--${name === 'maxKm' ? 'max-km' : name}`, params![name]]);
      const out: string[] = [];
      expect(
        run(
          [op.command, ...args, ...required, ...flags, ...(json ? ['--json'] : [])],
          (s) => out.push(s),
          () => {},
        ),
      ).toBe(0);
      expect(out).toEqual([json ? JSON.stringify({ data: want }) : String(want)]);
    },
  );
});
