// The browser entry for real: examples/browser built with Vite, served on loopback by a plain
// static server, run in headless Debian Chromium; its answers must equal the Node library's.
import { linkSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import * as lib from '../../src/index.js';
import { spherePoints } from '../support/sample-points.js';
import { type Browser, chromiumMissing, launchChromium } from '../support/chromium.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';
import { skipWithout } from '../support/system.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = join(root, 'examples/browser');
const skipBrowser = skipWithout('bundle-browser', chromiumMissing);

type Point = [number | string, number | string];
interface Answer {
  country: string | null;
  subdivision: string | null;
  error?: { name: string; status: number; message: string };
}

/** What the page computes for a point, computed here with the Node entry. */
function nodeAnswer(latitude: number | string, longitude: number | string): Answer {
  try {
    return {
      country: lib.tryCountryFromGps(latitude, longitude),
      subdivision: lib.trySubdivisionFromGps(latitude, longitude),
    };
  } catch (e) {
    if (!(e instanceof lib.GeoLookupError)) throw e;
    return { country: null, subdivision: null, error: { name: e.name, status: e.status, message: e.message } };
  }
}

/** Seeded points uniform over the sphere, as [latitude, longitude] pairs. */
function points(count: number, seed: number): Point[] {
  const { lat, lon } = spherePoints(count, seed);
  return Array.from(lat, (y, i): Point => [y, lon[i]]);
}

describe.skipIf(skipBrowser)('browser bundle in headless Chromium', () => {
  let outDir: string;
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'geolookup-browser-'));
    const { build } = await import('vite');
    // The example's own config (alias to src/, so no race with other tests rebuilding dist/);
    // the dataset is copied by hand instead of the whole dist-data/ as the public folder.
    await build({
      root: example,
      configFile: join(example, 'vite.config.ts'),
      publicDir: false,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    const dataset = lib.defaultDataPath();
    try {
      linkSync(dataset, join(outDir, 'world.geolookup'));
    } catch {
      copyFileSync(dataset, join(outDir, 'world.geolookup'));
    }
    server = await serveStatic(outDir);
    browser = await launchChromium();
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('the built bundle is small and has no Node built-ins', () => {
    const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(0);
    const js = assets.map((f) => readFileSync(join(outDir, 'assets', f), 'utf8')).join('\n');
    expect(js).not.toMatch(/["'`]node:|\brequire\(|\bprocess\.|\b__dirname\b/);
    const gzip = gzipSync(js, { level: 9 }).byteLength;
    console.log(
      `bundle-browser: JS ${js.length} bytes, ${gzip} gzip; dataset ${readFileSync(lib.defaultDataPath()).byteLength} bytes`,
    );
    // The engine is a few KB; tens of KB would mean a dependency (or the data) leaked in.
    expect(gzip).toBeLessThan(20_000);
  });

  it('loads the dataset by fetch and is ready', async () => {
    expect(await page.getAttribute('body', 'data-ready')).toBe('true');
    expect(server.requests).toContain('/world.geolookup');
    expect(pageErrors).toEqual([]);
    const t = await page.evaluate(
      () =>
        (window as unknown as { geolookupTimings: { fetchMs: number; openMs: number; bytes: number } })
          .geolookupTimings,
    );
    expect(t.bytes).toBe(readFileSync(lib.defaultDataPath()).byteLength);
    console.log(
      `bundle-browser: Chromium fetched the dataset in ${t.fetchMs.toFixed(0)} ms (loopback) and opened it in ${t.openMs.toFixed(0)} ms`,
    );
  });

  it('answers typed coordinates in the page as the library does', async () => {
    const cases: [string, string][] = [
      ['48.8566', '2.3522'],
      ['-33.8688', '151.2093'],
      ['0', '-30'],
      ['120', '45'],
      ['1e2', '2'],
    ];
    for (const [lat, lon] of cases) {
      await page.fill('#lat', lat);
      await page.fill('#lon', lon);
      await page.click('button[type=submit]');
      const a = nodeAnswer(lat, lon);
      const expected = a.error
        ? `${a.error.name}: ${a.error.message}`
        : `${a.country ?? 'no country'} · ${a.subdivision ?? 'no subdivision'}`;
      await expect.poll(() => page.textContent('#answer')).toBe(expected);
    }
  });

  it('gives the Node library answers on 20,000 seeded points, strings and bad input', async () => {
    const pts: Point[] = [
      ...points(20_000, 7),
      [90, 0],
      [-90, 0],
      [-16.8, 180],
      [-16.8, -180],
      [47.6969, 8.6908],
      [41.9029, 12.4534],
      [42.4647, 1.9817],
      ['52.52', '13.405'],
      ['-0', '.5'],
      [91, 0],
      [0, 181],
      [NaN, 0],
      ['1,5', '2'],
      [' 1', '2'],
    ];
    // NaN does not survive page.evaluate's serialisation: send it as a marker.
    const wire = pts.map(([a, b]) => [Number.isNaN(a) ? 'NaN!' : a, b]);
    const got = await page.evaluate((list) => {
      const w = window as unknown as { geolookupAnswers(p: unknown[]): unknown[] };
      return w.geolookupAnswers(list.map(([a, b]) => [a === 'NaN!' ? NaN : a, b]));
    }, wire);
    const want = pts.map(([a, b]) => nodeAnswer(a, b));
    expect(got).toEqual(want);
    const found = want.filter((a) => a.country !== null).length;
    expect(found).toBeGreaterThan(5_000); // land plus territorial sea is about 30% of the sphere
    expect(want.filter((a) => a.error).length).toBe(5);
  });
});
