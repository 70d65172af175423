// One identity for every error class (src/lookup/errors.ts, ERROR_KIND): an error made by any copy
// of the classes (the library's ES module and CommonJS builds, its browser entry, @geolookup/client
// remote or offline, @geolookup/borders through the client, the server's problem turned into a
// client error) is an instance of the class
// of its name from every other copy, and of no other class. Runs the built packages in a child
// process, where ESM and CJS copies are really separate module instances.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Prints { errors: { source: [kind, name] }, matrix: { source: { copy: { class: boolean } } } }. */
const SCRIPT = `
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const esm = await import('geolookup');
const cjs = require('geolookup');
const browser = await import('geolookup/browser');
const clientEsm = await import('@geolookup/client');
const clientCjs = require('@geolookup/client');
const { createServer } = await import('@geolookup/server');

const caught = async (f) => { try { await f(); } catch (e) { return e; } throw new Error('no error'); };
const server = createServer({ allowAnonymous: true });
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const baseUrl = 'http://127.0.0.1:' + server.address().port;
const remote = clientEsm.createClient({ baseUrl, maxRetries: 0, cache: false, cacheWarningInterval: 0 });
const remoteCjs = clientCjs.createClient({ baseUrl, maxRetries: 0, cache: false, cacheWarningInterval: 0 });
const offline = clientCjs.createClient({ offline: true });
const bytes = readFileSync(esm.resolveDataPath('lite'));
const geoBrowser = browser.createGeoLookup(new Uint8Array(bytes));

const errors = {
  'notFound/esm': await caught(() => esm.countryFromGps(0, -30)),
  'notFound/cjs': await caught(() => cjs.countryFromGps(0, -30)),
  'notFound/browser': await caught(() => geoBrowser.countryFromGps(0, -30)),
  'notFound/client-offline': await caught(() => offline.countryFromGps(0, -30)),
  'notFound/client-remote': await caught(() => remote.countryFromGps(0, -30)),
  'notFound/client-remote-cjs': await caught(() => remoteCjs.subdivisionFromGps(0, -30)),
  'notFound/client-offline-borders': await caught(() => offline.nearestCountry(40, -40)),
  'notFound/client-remote-borders': await caught(() => remote.nearestSubdivision(40, -40, { maxKm: 1 })),
  'validation/esm': await caught(() => esm.isInCountry('FR', 1, 1)),
  'validation/cjs': await caught(() => cjs.countryFromGps(91, 0)),
  'validation/browser': await caught(() => geoBrowser.subdivisionFromGps('x', 0)),
  'validation/client-offline': await caught(() => offline.isInSubdivision('??', 1, 1)),
  'validation/client-remote': await caught(() => remote.countryFromGps(91, 0)),
  'validation/client-offline-borders': await caught(() => offline.regionsWithin(1, 1, -1)),
  'validation/client-remote-borders': await caught(() => remoteCjs.distanceToBorder(1, 1, { layer: 'sea' })),
  'network/client-remote': await caught(() =>
    clientEsm.createClient({ baseUrl: 'http://127.0.0.1:1', maxRetries: 0, cache: false }).countryFromGps(1, 1)),
};
server.close();

const copies = { esm, cjs, browser, clientEsm, clientCjs };
const CLASSES = ['GeoLookupError', 'ValidationError', 'NotFoundError', 'NetworkError'];
const matrix = {};
for (const [source, e] of Object.entries(errors)) {
  matrix[source] = {};
  for (const [copy, mod] of Object.entries(copies))
    for (const cls of CLASSES) if (mod[cls]) matrix[source][copy + '.' + cls] = e instanceof mod[cls];
}
// A user's subclass keeps the prototype rule: no other error is an instance of it.
class Mine extends cjs.NotFoundError {}
const subclass = {
  mineIsNotFound: new Mine('x') instanceof esm.NotFoundError,
  otherIsNotMine: errors['notFound/esm'] instanceof Mine,
};
console.log(JSON.stringify({
  errors: Object.fromEntries(Object.entries(errors).map(([k, e]) => [k, [e.name, e.status, String(e)]])),
  matrix, subclass,
}));
process.exit(0);
`;

let result: {
  errors: Record<string, [string, number, string]>;
  matrix: Record<string, Record<string, boolean>>;
  subclass: Record<string, boolean>;
};

beforeAll(() => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  result = JSON.parse(r.stdout);
});

describe('error identity across entries, formats and packages', () => {
  it('each error is an instance of its own class and GeoLookupError from every copy, of no other', () => {
    const want = { notFound: 'NotFoundError', validation: 'ValidationError', network: 'NetworkError' };
    for (const [source, checks] of Object.entries(result.matrix)) {
      const kind = want[source.split('/')[0] as keyof typeof want];
      for (const [check, holds] of Object.entries(checks)) {
        const cls = check.split('.')[1];
        expect(holds, `${source} instanceof ${check}`).toBe(cls === kind || cls === 'GeoLookupError');
      }
      // Every copy that has the class was asked (the client's copies add NetworkError).
      expect(Object.keys(checks).filter((c) => c.endsWith(`.${kind}`)).length, source).toBe(
        kind === 'NetworkError' ? 2 : 5,
      );
    }
  });

  it('name reads as written, and the status and message survive the trip', () => {
    for (const [source, [name, status, text]] of Object.entries(result.errors)) {
      const kind = source.split('/')[0];
      expect(name, source).toBe(
        { notFound: 'NotFoundError', validation: 'ValidationError', network: 'NetworkError' }[kind],
      );
      expect(text.startsWith(`${name}: `), source).toBe(true);
      expect(status, source).toBe({ notFound: 404, validation: 400, network: 0 }[kind]);
    }
    expect(result.errors['notFound/client-remote'][2]).toBe(result.errors['notFound/esm'][2]);
  });

  it("a user's subclass keeps the usual rule", () => {
    expect(result.subclass).toEqual({ mineIsNotFound: true, otherIsNotMine: false });
  });
});
