// The browser entry for real: examples/browser built with Vite, served on loopback by a plain
// static server, run in headless Debian Chromium on both shipped datasets (lite by default,
// full with ?data=world); its answers must equal the Node library's on the same dataset.
import { linkSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import * as lib from '../../src/index.js';
import { embeddedDataPath } from '../../src/node/data-path.js';
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
interface Timings {
  dataset: 'lite' | 'world';
  fetchMs: number;
  openMs: number;
  firstAnswerMs: number;
  bytes: number;
}
type Lookups = Pick<lib.GeoLookup, 'tryCountryFromGps' | 'trySubdivisionFromGps'>;

/** What the page computes for a point, computed here with the Node entry. */
function nodeAnswer(geo: Lookups, latitude: number | string, longitude: number | string): Answer {
  try {
    return {
      country: geo.tryCountryFromGps(latitude, longitude),
      subdivision: geo.trySubdivisionFromGps(latitude, longitude),
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

/** The page's two datasets: the file it fetches, where it comes from, the Node side to compare with. */
const DATASETS = [
  {
    name: 'lite',
    query: '',
    file: 'world-lite.geolookup',
    source: () => embeddedDataPath('lite'),
    node: (): Lookups => lib.createGeoLookup('lite'),
  },
  {
    name: 'full',
    query: '?data=world',
    file: 'world.geolookup',
    source: () => lib.defaultDataPath(),
    // The module-level functions, as before: the default dataset.
    node: (): Lookups => ({
      tryCountryFromGps: lib.tryCountryFromGps,
      trySubdivisionFromGps: lib.trySubdivisionFromGps,
    }),
  },
] as const;

describe.skipIf(skipBrowser)('browser bundle in headless Chromium', () => {
  let outDir: string;
  let server: StaticServer;
  let browser: Browser;
  const timings = new Map<string, Timings>();

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'geolookup-browser-'));
    const { build } = await import('vite');
    // The example's own config (alias to src/, so no race with other tests rebuilding dist/);
    // the datasets are linked by hand instead of the whole dist-data/ as the public folder.
    await build({
      root: example,
      configFile: join(example, 'vite.config.ts'),
      publicDir: false,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    for (const d of DATASETS) {
      try {
        linkSync(d.source(), join(outDir, d.file));
      } catch {
        copyFileSync(d.source(), join(outDir, d.file));
      }
    }
    server = await serveStatic(outDir);
    browser = await launchChromium();
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
    const sizes = DATASETS.map((d) => `${d.name} ${statSync(d.source()).size} bytes`).join(', ');
    console.log(`bundle-browser: JS ${js.length} bytes, ${gzip} gzip; datasets ${sizes}`);
    // The engine is a few KB; tens of KB would mean a dependency (or the data) leaked in.
    expect(gzip).toBeLessThan(20_000);
  });

  for (const d of DATASETS) {
    describe(`${d.name} dataset (${d.file})`, () => {
      let page: Page;
      const pageErrors: string[] = [];
      let node: Lookups;
      let requests: string[] = [];

      beforeAll(async () => {
        node = d.node();
        page = await browser.context.newPage();
        page.on('pageerror', (e) => pageErrors.push(String(e)));
        page.on('console', (m) => {
          if (m.type() === 'error') pageErrors.push(m.text());
        });
        const before = server.requests.length;
        await page.goto(server.url + d.query);
        await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
        requests = server.requests.slice(before);
      });

      afterAll(async () => {
        await page?.close();
      });

      it('loads the dataset by fetch and is ready', async () => {
        expect(await page.getAttribute('body', 'data-ready')).toBe('true');
        // This page's requests: its own file, and not the other dataset.
        expect(requests.filter((p) => p.endsWith('.geolookup'))).toEqual([`/${d.file}`]);
        expect(pageErrors).toEqual([]);
        const t = await page.evaluate(() => (window as unknown as { geolookupTimings: Timings }).geolookupTimings);
        expect(t.dataset).toBe(d.name === 'full' ? 'world' : 'lite');
        expect(t.bytes).toBe(statSync(d.source()).size);
        expect(await page.textContent('#status')).toContain(d.file);
        timings.set(d.name, t);
        console.log(`bundle-browser: ${d.name} ${line(t)} (Chromium, loopback)`);
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
          const a = nodeAnswer(node, lat, lon);
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
        const want = pts.map(([a, b]) => nodeAnswer(node, a, b));
        expect(got).toEqual(want);
        const found = want.filter((a) => a.country !== null).length;
        expect(found).toBeGreaterThan(5_000); // land plus territorial sea is about 30% of the sphere
        expect(want.filter((a) => a.error).length).toBe(5);
      });
    });
  }

  it('refuses any other ?data= value without fetching it', async () => {
    const page = await browser.context.newPage();
    try {
      const before = server.requests.length;
      await page.goto(`${server.url}?data=${encodeURIComponent('/world.REPORT.md')}`);
      await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
      expect(await page.getAttribute('body', 'data-ready')).toBe('error');
      expect(await page.textContent('#status')).toContain('unknown dataset');
      expect(server.requests.slice(before).filter((p) => p.endsWith('.geolookup') || p.endsWith('.md'))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('prints lite against full', () => {
    const lite = timings.get('lite');
    const full = timings.get('full');
    if (!lite || !full) return; // a load test above failed and says why
    console.log(`bundle-browser: lite ${line(lite)}; full ${line(full)}`);
  });
});

/** A dataset's size and load timings, printed only: timings vary too much between machines to assert. */
function line(t: Timings): string {
  return (
    `${(t.bytes / 1e6).toFixed(1)} MB fetch ${t.fetchMs.toFixed(0)} ms + open ${t.openMs.toFixed(0)} ms` +
    ` + first answer ${t.firstAnswerMs.toFixed(1)} ms`
  );
}
