// CORS from a real browser: a page served on one loopback origin calls geolookup serve on another
// port through the browser-safe `geolookup/client` (src/client/index.ts bundled for browsers by
// esbuild), in headless Debian Chromium, with an API key. The answer, its rate-limit headers and a
// 429's Retry-After are readable from the page; a page on an origin not listed is blocked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromiumMissing, launchChromium } from '../../../test/support/chromium.js';
import { serveStatic, type StaticServer } from '../../../test/support/static-server.js';
import { KEY, start, useServerFixture } from '../../../test/support/server-fixture.js';
import { skipWithout } from '../../../test/support/system.js';

useServerFixture();

const root = fileURLToPath(new URL('../../..', import.meta.url));
const skipBrowser = skipWithout('server-cors-browser', chromiumMissing);

const PAGE = `<!doctype html><meta charset="utf-8"><title>cors</title>
<script type="module">
import * as geolookup from './client.js';
window.geolookup = geolookup;
document.body.dataset.ready = 'true';
</script><body></body>`;

/** What a page call returns: the data or the error, and what the page could read of the answer. */
interface PageResult {
  data?: unknown;
  rateLimit?: Record<string, number | null>;
  error?: { name: string; message: string; retryAfter?: number };
}

interface FetchResult {
  status?: number;
  headers?: Record<string, string | null>;
  error?: string;
}

describe.skipIf(skipBrowser)('CORS in headless Chromium', () => {
  let dir: string;
  let pages: StaticServer;
  let browser: Browser;
  let page: Page;
  let api: string;
  let apiLog: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'geolookup-cors-page-'));
    const { build } = await import('esbuild');
    await build({
      entryPoints: [join(root, 'packages/client/src/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      // The core's browser build of geolookup/extend, as its package exports give a browser bundler
      // (this repository's tsconfig paths name the Node sources, for the typecheck).
      alias: { 'geolookup/extend': join(root, 'src/extend-browser.ts') },
      outfile: join(dir, 'client.js'),
      logLevel: 'error',
    });
    writeFileSync(join(dir, 'index.html'), PAGE);
    pages = await serveStatic(dir);
    const origin = new URL(pages.url).origin; // http://127.0.0.1:<port>
    apiLog = [];
    const { port } = await start({
      corsOrigins: [origin],
      limits: { burstPerMinute: 3 },
      accessLog: { write: (line: string) => void apiLog.push(line) },
    });
    api = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Loads the page from `origin` (the static server under another host name is another origin). */
  async function open(origin: string): Promise<void> {
    await page.goto(`${origin}/index.html`);
    await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: 30_000 });
  }

  /** countryFromGps through the client. Each call asks for another point: Chromium caches answers. */
  const callClient = (apiKey: string, lat: number, lon: number) =>
    page.evaluate(
      async ({ baseUrl, apiKey, lat, lon }): Promise<PageResult> => {
        const g = (window as unknown as { geolookup: typeof import('../../client/src/index.js') }).geolookup;
        const client = g.createClient({ baseUrl, apiKey, maxRetries: 0, cache: false, cacheWarningInterval: 0 });
        try {
          const r = await client.countryFromGps(lat, lon);
          return { data: r.data, rateLimit: { ...r.rateLimit } };
        } catch (e) {
          const err = e as Error & { retryAfter?: number };
          return { error: { name: err.name, message: err.message, retryAfter: err.retryAfter } };
        }
      },
      { baseUrl: api, apiKey, lat, lon },
    );

  const callFetch = (path: string, apiKey: string) =>
    page.evaluate(
      async ({ url, apiKey }): Promise<FetchResult> => {
        try {
          const r = await fetch(url, { headers: { 'X-API-Key': apiKey } });
          const names = ['X-RateLimit-Remaining', 'X-RateLimit-Burst-Remaining', 'Retry-After', 'Content-Type'];
          return { status: r.status, headers: Object.fromEntries(names.map((n) => [n, r.headers.get(n)])) };
        } catch (e) {
          return { error: String(e) };
        }
      },
      { url: `${api}${path}`, apiKey },
    );

  it('a listed origin reads the answer and its rate-limit headers through geolookup/client', async () => {
    await open(new URL(pages.url).origin);
    const r = await callClient(KEY, 48.8566, 2.3522);
    expect(r.error).toBeUndefined();
    expect(r.data).toBe('FRA');
    expect(r.rateLimit).toEqual({ burstLimit: 3, burstRemaining: 2, quotaLimit: 10_000, quotaRemaining: 9_999 });
    // The browser sent a preflight for the X-API-Key header, then the request.
    const methods = apiLog.map((l) => JSON.parse(l)).map((e) => `${e.method} ${e.status}`);
    expect(methods).toEqual(['OPTIONS 204', 'GET 200']);
  });

  it('a 429 reaches the page as a RateLimitError, its Retry-After and X-RateLimit-* readable', async () => {
    await open(new URL(pages.url).origin);
    const ok = await callFetch('/geo/subdivision/fromGps/48.8566,2.3522', KEY);
    expect(ok).toMatchObject({ status: 200, headers: { 'X-RateLimit-Burst-Remaining': '1' } });
    expect((await callClient(KEY, 52.52, 13.405)).data).toBe('DEU');
    const limited = await callFetch('/geo/country/fromGps/1,1', KEY);
    expect(limited.status).toBe(429);
    expect(limited.headers).toMatchObject({
      'X-RateLimit-Burst-Remaining': '0',
      'X-RateLimit-Remaining': expect.stringMatching(/^\d+$/),
      'Retry-After': expect.stringMatching(/^\d+$/),
      'Content-Type': 'application/problem+json',
    });
    const viaClient = await callClient(KEY, 40.4168, -3.7038);
    expect(viaClient.error).toMatchObject({ name: 'RateLimitError', retryAfter: expect.any(Number) });
  });

  it('a page on an origin not listed cannot read the answer: the browser blocks it', async () => {
    // Same static server, reached as localhost: another origin, not listed.
    const other = new URL(pages.url);
    other.hostname = 'localhost';
    await open(other.origin);
    const before = apiLog.length;
    const r = await callFetch('/geo/country/fromGps/48.8566,2.3522', KEY);
    expect(r.error).toMatch(/TypeError: Failed to fetch/);
    const viaClient = await callClient(KEY, 41.9028, 12.4964);
    expect(viaClient.error?.name).toBe('NetworkError');
    // The server answered the preflights with 405 and no CORS headers; the GET was never sent.
    const seen = apiLog.slice(before).map((l) => JSON.parse(l));
    expect(seen.map((e) => `${e.method} ${e.status}`)).toEqual(['OPTIONS 405', 'OPTIONS 405']);
  });
});
