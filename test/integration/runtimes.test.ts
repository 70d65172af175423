// The installed package (npm pack + npm install into an empty project) answers on each JavaScript
// runtime it claims: the system Node, Node 24, Bun and Deno through `import` (Node also through
// `require`), and a module web worker in headless Chromium through the browser entry.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../support/chromium.js';
import {
  type InstalledProject,
  installedProject,
  RUNTIMES,
  type RuntimeName,
  run,
  runtime,
  runtimeEnv,
  unavailable,
} from '../support/runtimes.js';
import { serveStatic } from '../support/static-server.js';

/** What every runtime must print: Paris, and the ocean west of Africa. */
const ANSWERS = { country: 'FRA', subdivision: 'FR-75C', notFound: { name: 'NotFoundError', status: 404 } };

// The lookups first: an error thrown there (a missing permission, a missing dataset) fails the run
// with its own message instead of passing as the expected NotFoundError.
const BODY = `
const runtime = globalThis.Deno ? 'deno ' + Deno.version.deno : globalThis.Bun ? 'bun ' + Bun.version : 'node ' + process.versions.node;
const country = countryFromGps(48.8566, 2.3522);
const subdivision = subdivisionFromGps(48.8566, 2.3522);
let notFound = null;
try {
  countryFromGps(0, -30);
} catch (e) {
  notFound = { name: e.name, status: e.status };
}
console.log(JSON.stringify({ runtime, country, subdivision, notFound }));
`;
const SCRIPTS = {
  'smoke.mjs': `import { countryFromGps, subdivisionFromGps } from 'geolookup';\n${BODY}`,
  'smoke.cjs': `const { countryFromGps, subdivisionFromGps } = require('geolookup');\n${BODY}`,
  // A .js name: the static server gives it a JavaScript type, which a module worker requires.
  'smoke-worker.js': `import { createGeoLookup } from './node_modules/geolookup/dist/browser.js';
try {
  const bytes = await (await fetch('./node_modules/geolookup/dist-data/world-lite.geolookup')).arrayBuffer();
  const geo = createGeoLookup(bytes);
  // The user agent string carries the major version only (the rest reads 0.0.0).
  const runtime = 'chromium ' + (/Chrome\\/(\\d+)/.exec(navigator.userAgent) ?? [])[1];
  const country = geo.countryFromGps(48.8566, 2.3522);
  const subdivision = geo.subdivisionFromGps(48.8566, 2.3522);
  let notFound = null;
  try {
    geo.countryFromGps(0, -30);
  } catch (e) {
    notFound = { name: e.name, status: e.status };
  }
  postMessage({ runtime, country, subdivision, notFound, bytes: bytes.byteLength });
} catch (e) {
  postMessage({ error: String(e && e.stack || e) });
}
`,
  'index.html': '<!doctype html><meta charset="utf-8"><title>geolookup smoke</title>\n',
};

let project: InstalledProject;

beforeAll(async () => {
  // The runtime downloads overlap the pack and install; each test awaits its own.
  for (const name of Object.keys(RUNTIMES) as RuntimeName[]) void runtime(name);
  project = await installedProject();
  for (const [file, text] of Object.entries(SCRIPTS)) writeFileSync(join(project.dir, file), text);
});

afterAll(() => project?.remove());

/** Runs a smoke script with `bin` in the installed project and parses the JSON it prints. */
async function smoke(bin: string, args: string[], env?: Record<string, string>) {
  const r = await run(bin, args, { cwd: project.dir, env: runtimeEnv(env), timeoutMs: 60_000 });
  expect(r.failure).toBeNull();
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

describe('the installed package on each runtime', () => {
  it(`Node ${process.versions.node} (the one running the tests): import and require`, async () => {
    const expected = { runtime: `node ${process.versions.node}`, ...ANSWERS };
    expect(await smoke(process.execPath, ['smoke.mjs'])).toEqual(expected);
    expect(await smoke(process.execPath, ['smoke.cjs'])).toEqual(expected);
  });

  it(`${RUNTIMES.node24.label} (node@${RUNTIMES.node24.version} from npm): import and require`, async (ctx) => {
    const { bin, missing } = await runtime('node24');
    if (bin === null) unavailable(ctx, RUNTIMES.node24.label, missing);
    const expected = { runtime: `node ${RUNTIMES.node24.version}`, ...ANSWERS };
    expect(await smoke(bin, ['smoke.mjs'])).toEqual(expected);
    expect(await smoke(bin, ['smoke.cjs'])).toEqual(expected);
  }, 300_000);

  it(`${RUNTIMES.bun.label} ${RUNTIMES.bun.version}: import`, async (ctx) => {
    const { bin, missing } = await runtime('bun');
    if (bin === null) unavailable(ctx, RUNTIMES.bun.label, missing);
    expect(await smoke(bin, ['smoke.mjs'])).toEqual({ runtime: `bun ${RUNTIMES.bun.version}`, ...ANSWERS });
  }, 300_000);

  it(`${RUNTIMES.deno.label} ${RUNTIMES.deno.version}: import, with read and GEOLOOKUP_DATA access only`, async (ctx) => {
    const { bin, dir, missing } = await runtime('deno');
    if (bin === null) unavailable(ctx, RUNTIMES.deno.label, missing);
    // The default loader reads $GEOLOOKUP_DATA, then the package's dataset; nothing else is granted.
    // DENO_DIR: Deno's caches stay beside its binary, not in the user's home.
    const args = ['run', '--allow-env=GEOLOOKUP_DATA', '--allow-read=.', 'smoke.mjs'];
    const answer = await smoke(bin, args, { DENO_DIR: join(dir, 'deno-dir') });
    expect(answer).toEqual({ runtime: `deno ${RUNTIMES.deno.version}`, ...ANSWERS });
  }, 300_000);

  it('a module web worker in headless Chromium: the browser entry on the lite dataset', async (ctx) => {
    if (chromiumMissing !== null) unavailable(ctx, 'Chromium', chromiumMissing);
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    try {
      browser = await launchChromium();
    } catch (e) {
      unavailable(ctx, 'Chromium', String((e as Error).message ?? e));
    }
    const server = await serveStatic(project.dir);
    try {
      const page = browser.page;
      await page.goto(`${server.url}index.html`);
      const answer = await page.evaluate(
        () =>
          new Promise<Record<string, unknown>>((resolve, reject) => {
            const worker = new Worker('smoke-worker.js', { type: 'module' });
            worker.onmessage = (e) => resolve(e.data);
            // A module that fails to load reports only an ErrorEvent, often without a message.
            worker.onerror = (e) => reject(new Error(`worker failed: ${e.message || 'module did not load'}`));
            setTimeout(() => reject(new Error('worker answered nothing in 30 s')), 30_000);
          }),
      );
      expect(answer.error).toBeUndefined();
      const lite = join(project.dir, 'node_modules/geolookup/dist-data/world-lite.geolookup');
      const major = browser.context.browser()?.version().split('.')[0];
      expect(answer).toEqual({ runtime: `chromium ${major}`, ...ANSWERS, bytes: statSync(lite).size });
      expect(server.requests).toEqual(
        expect.arrayContaining([
          '/smoke-worker.js',
          '/node_modules/geolookup/dist/browser.js',
          '/node_modules/geolookup/dist-data/world-lite.geolookup',
        ]),
      );
    } finally {
      await server.close();
      await browser.close();
    }
  });
});
