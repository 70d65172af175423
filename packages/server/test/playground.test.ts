// `geolookup playground` for real: the CLI started as a process on a free loopback port, its page
// opened in headless Debian Chromium (WebGL through SwiftShader). The answer shown for a point in
// the URL hash, and for a click on the map, is the library's own (codes, names, ISO parents); the
// map draws it; bad input clears the answer; the page asks nothing of any other host; the tiles
// decode with the codes the library answers. PLAYGROUND_SCREENSHOT=docs/playground.png also saves
// a screenshot. The map's agreement with the library near borders: playground-agreement.test.ts.
import http from 'node:http';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { networkInterfaces } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countries, countryFromGps, datasetInfo, subdivisionFromGps, subdivisions } from 'geolookup';
import { distanceToBorder } from '../../borders/src/index.js';
import { distanceText } from '../src/playground/client/answer.js';
import { type Browser, chromiumMissing, launchChromium } from '../../../test/support/chromium.js';
import { HOST, request } from '../../../test/support/loopback.js';
import { type Served, startCli } from '../../../test/support/serve-process.js';
import { skipWithout } from '../../../test/support/system.js';

const skipBrowser = skipWithout('playground', chromiumMissing);
const PARIS = '48.8566,2.3522';
const SCREENSHOT = process.env.PLAYGROUND_SCREENSHOT;

let playground: Served;
let origin: string;

beforeAll(async () => {
  playground = await startCli(['playground', '--port', '0'], /playground: http:\/\/127\.0\.0\.1:(\d+)\//);
  origin = `http://${HOST}:${playground.port}`;
});

afterAll(async () => {
  if (!playground) return;
  playground.child.kill('SIGTERM');
  expect(await playground.exited).toBe(0);
});

/** The library's answer at a point: country and subdivision with names, and the ISO parents of the subdivision. */
function expected(lat: number, lon: number) {
  const country = countryFromGps(lat, lon);
  const subdivision = subdivisionFromGps(lat, lon);
  const byCode = new Map(subdivisions().map((s) => [s.code, s]));
  const parents: string[] = [];
  for (let p = byCode.get(subdivision)?.parent; p !== undefined && byCode.has(p); p = byCode.get(p)?.parent)
    parents.push(p);
  const names = [
    countries().find((c) => c.code === country)!.name,
    ...[subdivision, ...parents].map((c) => byCode.get(c)!.name),
  ];
  return { country, subdivision, parents, names };
}

/** Whether a TCP connection to `host`:`port` is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path: '/', timeout: 2000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

describe('geolookup playground over HTTP', () => {
  it('prints its URL on 127.0.0.1 and is not reachable on any other address of this machine', async () => {
    expect(playground.output()).toMatch(
      new RegExp(`^geolookup playground: ${origin}/ \\(tiles from .*world\\.geolookup, zooms 0-7 from `, 'm'),
    );
    expect(await connects(HOST, playground.port)).toBe(true);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && !a.internal)
      .map((a) => a!.address);
    for (const address of ['::1', ...others]) expect(await connects(address, playground.port), address).toBe(false);
  });

  it('answers an unknown /playground route with 404, and a page from another site (Host) with 403', async () => {
    const r = await request(playground.port, '/playground/nope');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await request(playground.port, '/tiles/17/0/0.mvt')).status).toBe(404);
    expect((await request(playground.port, '/tiles/2/4/0.mvt')).status).toBe(404);
    expect((await request(playground.port, '/tiles/x/0/0.mvt')).status).toBe(404);
    expect((await request(playground.port, '/', { Host: `attacker.example:${playground.port}` })).status).toBe(403);
  });

  it('serves the page with a self-only CSP, MapLibre from the installed package, the codes, the credits and the rule', async () => {
    const page = await request(playground.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self';/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).not.toMatch(/https?:\/\//);
    const maplibre = await request(playground.port, '/playground/maplibre/maplibre-gl.mjs');
    expect(maplibre.status).toBe(200);
    expect(maplibre.body).toMatch(/setWorkerUrl/);
    expect((await request(playground.port, '/playground/maplibre/maplibre-gl-worker.mjs')).status).toBe(200);
    expect((await request(playground.port, '/playground/maplibre/maplibre-gl.css')).headers['content-type']).toMatch(
      /^text\/css/,
    );
    expect((await request(playground.port, '/playground/maplibre/package.json')).status).toBe(404);
    // Every source the dataset credits is credited once on the map.
    const facts = JSON.parse((await request(playground.port, '/playground/dataset.json')).body);
    const credits = new Set(datasetInfo().sources.flatMap((s) => (s.attribution ? [s.attribution] : [])));
    expect(facts.attribution.map((a: { text: string }) => a.text).sort()).toEqual([...credits].sort());
    expect([...credits]).toEqual(expect.arrayContaining(['© OpenStreetMap contributors', '© GeoBasis-DE / BKG']));
    const codes = JSON.parse((await request(playground.port, '/playground/codes.json')).body);
    expect(codes.subdivisions['FR-75C']).toEqual({ name: 'Paris', parent: 'FR-IDF' });
    expect(codes.countries.FRA).toEqual({ name: countries().find((c) => c.code === 'FRA')!.name, alpha2: 'FR' });
    const rule = await request(playground.port, '/playground/explain?lat=48.8566&lon=2.3522');
    expect([rule.status, JSON.parse(rule.body)]).toEqual([200, null]);
    expect((await request(playground.port, '/playground/explain?lat=91&lon=0')).status).toBe(400);
    // Enclaves (Büsingen, Baarle-Hertog, Vatican City, Llívia, Campione), Crimea, and places with no rule:
    // Berlin, the open sea, the FRA–DEU border near Lauterbourg.
    const places = ['47.6969,8.6906', '51.4402,4.9265', '41.9029,12.4534', '42.4636,1.9814', '45.9686,8.9706'];
    places.push('45,34.1', '52.52,13.405', '0,-30', '49,8.2');
    const rules = places.map(async (p) => {
      const [lat, lon] = p.split(',');
      const body = JSON.parse((await request(playground.port, `/playground/explain?lat=${lat}&lon=${lon}`)).body);
      return body && `${body.rule}: ${body.detail.split(':')[0]}`;
    });
    expect(await Promise.all(rules)).toEqual([
      'enclave: DEU territory surrounded by CHE (as the dataset answers around it)',
      'enclave: BEL territory surrounded by NLD (as the dataset answers around it)',
      'enclave: VAT territory surrounded by ITA (as the dataset answers around it)',
      'enclave: ESP territory surrounded by FRA (as the dataset answers around it)',
      'enclave: ITA territory surrounded by CHE (as the dataset answers around it)',
      'dispute: Crimea',
      null,
      null,
      null,
    ]);
  });

  it("passes the service's routes through to the service, keyless", async () => {
    const r = await request(playground.port, `/geo/subdivision/fromGps/${PARIS}`);
    expect([r.status, r.body]).toEqual([200, subdivisionFromGps(48.8566, 2.3522)]);
    expect(r.headers.etag).toMatch(/^"gl1-/);
    const sea = await request(playground.port, '/geo/country/fromGps/0,-30');
    expect([sea.status, sea.headers['content-type']]).toEqual([404, 'application/problem+json']);
  });

  it('serves vector tiles: countries only at world zoom, both layers with codes the library answers from zoom 8', async () => {
    const tile = async (z: number, lat: number, lon: number) => {
      const n = 2 ** z;
      const x = Math.floor(((lon + 180) / 360) * n);
      const r = (lat * Math.PI) / 180;
      const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
      const res = await fetch(`${origin}/tiles/${z}/${x}/${y}.mvt`);
      if (res.status === 204) return null;
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/vnd.mapbox-vector-tile']);
      // pbf 4's reader (the root's) reads as pbf 5's, which @mapbox/vector-tile's types name.
      return new VectorTile(new Pbf(new Uint8Array(await res.arrayBuffer())) as never);
    };
    const codes = (t: VectorTile, layer: string) => {
      const l = t.layers[layer];
      return new Set(Array.from({ length: l?.length ?? 0 }, (_, i) => String(l.feature(i).properties.code)));
    };
    const paris = (await tile(12, 48.8566, 2.3522))!;
    expect(Object.keys(paris.layers)).toEqual(expect.arrayContaining(['country', 'subdivision', 'subdivision-label']));
    expect(paris.layers.country.extent).toBe(4096);
    expect(codes(paris, 'country')).toContain(countryFromGps(48.8566, 2.3522));
    expect(codes(paris, 'subdivision')).toContain(subdivisionFromGps(48.8566, 2.3522));
    const world = (await tile(2, 48.8566, 2.3522))!;
    expect(Object.keys(world.layers).sort()).toEqual(['country', 'country-label']);
    expect([...codes(world, 'country-label')]).toEqual(expect.arrayContaining(['FRA', 'DEU']));
    expect([...codes(world, 'country')]).toEqual(expect.arrayContaining(['FRA', 'DEU']));
    // The open Pacific, far from any territorial sea: no feature, 204.
    expect(await tile(10, -40, -120)).toBe(null);
  });
});

describe.skipIf(skipBrowser)('geolookup playground in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium({ webgl: true });
    page = browser.page;
    await page.setViewportSize({ width: 1200, height: 700 });
    page.on('request', (r) => {
      if (!r.url().startsWith(`${origin}/`)) elsewhere.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const answerAt = async (point: string) => {
    await page.waitForSelector(`#answer[data-state="done"][data-point="${point}"]`, { timeout: 30_000 });
    return (await page.locator('#answer').textContent()) ?? '';
  };

  /** The codes MapLibre draws at a point, by layer (queryRenderedFeatures), once the map is idle. */
  const drawnAt = async (lat: number, lon: number) => {
    await page.waitForSelector('#map[data-idle]', { state: 'attached', timeout: 60_000 });
    return page.evaluate(
      ([lat, lon]) => {
        type M = {
          project(p: [number, number]): { x: number; y: number };
          queryRenderedFeatures(p: [number, number], o: { layers: string[] }): { properties: { code: string } }[];
        };
        const map = (window as unknown as { playgroundMap: M }).playgroundMap;
        const { x, y } = map.project([lon, lat]);
        const at = (layer: string) =>
          map.queryRenderedFeatures([x, y], { layers: [layer] }).map((f) => f.properties.code);
        return { country: at('country-fill'), subdivision: at('subdivision-fill'), answer: at('subdivision-answer') };
      },
      [lat, lon],
    );
  };

  it('shows the answer at the point of the URL hash: codes, names and ISO parents, drawn on the map', async () => {
    await page.goto(`${origin}/#${PARIS},11`);
    const text = await answerAt(PARIS);
    const want = expected(48.8566, 2.3522);
    expect([want.country, want.subdivision, want.parents]).toEqual(['FRA', 'FR-75C', ['FR-IDF']]);
    for (const s of [want.country, want.subdivision, ...want.parents, ...want.names]) expect(text).toContain(s);
    // With @geolookup/borders installed (this workspace), the distances the package answers.
    const toCountry = distanceToBorder(48.8566, 2.3522, { layer: 'country' });
    const toSubdivision = distanceToBorder(48.8566, 2.3522, { layer: 'subdivision' });
    expect(text).toContain(
      `Nearest border${`country ${distanceText(toCountry)}, subdivision ${distanceText(toSubdivision)}`}`,
    );
    expect(await page.locator('#rule').isHidden()).toBe(true);
    await page.waitForSelector('#map[data-highlight="FRA FR-75C"]', { state: 'attached', timeout: 60_000 });
    expect(await drawnAt(48.8566, 2.3522)).toEqual({ country: ['FRA'], subdivision: ['FR-75C'], answer: ['FR-75C'] });
  });

  it('a click on the map looks the clicked point up and writes it into the hash', async () => {
    await page.evaluate(() =>
      (window as unknown as { playgroundMap: { jumpTo(o: object): void } }).playgroundMap.jumpTo({
        center: [13.405, 52.52],
        zoom: 9,
      }),
    );
    await page.waitForSelector('#map[data-idle]', { state: 'attached', timeout: 60_000 });
    const at = await page.evaluate(() =>
      (
        window as unknown as {
          playgroundMap: { project(p: [number, number]): { x: number; y: number } };
        }
      ).playgroundMap.project([13.405, 52.52]),
    );
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.waitForSelector('#answer[data-state="done"]:not([data-point="48.8566,2.3522"])', { timeout: 30_000 });
    const point = (await page.locator('#answer').getAttribute('data-point'))!;
    const [lat, lon] = point.split(',').map(Number);
    expect(Math.abs(lat - 52.52) + Math.abs(lon - 13.405)).toBeLessThan(0.2);
    const text = await answerAt(point);
    const want = expected(lat, lon);
    expect([want.country, want.subdivision]).toEqual(['DEU', 'DE-BE']);
    for (const s of [want.country, want.subdivision, ...want.names]) expect(text).toContain(s);
    expect(await page.evaluate(() => location.hash)).toMatch(new RegExp(`^#${point.replace(/\./g, '\\.')},\\d+$`));
    await page.waitForSelector('#map[data-highlight="DEU DE-BE"]', { state: 'attached', timeout: 60_000 });
  });

  it('a bad typed point clears the answer; a refused one says why once; no subdivision is not an error', async () => {
    const submit = async (text: string) => {
      await page.fill('#point', text);
      await page.click('#go button');
    };
    await submit('not a point');
    expect(await page.locator('#answer').getAttribute('data-state')).toBe('empty');
    expect(await page.locator('#answer').textContent()).toBe('');
    expect(await page.locator('#map').getAttribute('data-highlight')).toBe('');
    expect(await page.locator('#status').textContent()).toMatch(/Type a point as "lat, lon"/);
    await submit('91, 0');
    await answerAt('91,0');
    expect(await page.locator('#answer dt').allTextContents()).toEqual(['Input']);
    expect(await page.locator('#answer .problem').count()).toBe(1);
    await submit('41.9029, 12.4534');
    const vatican = await answerAt('41.9029,12.4534');
    expect(vatican).toContain(countryFromGps(41.9029, 12.4534));
    expect(await page.locator('#answer .problem').count()).toBe(0);
    expect(await page.locator('#answer .none').count()).toBe(1);
  });

  it('asked no other host and broke no Content-Security-Policy rule', () => {
    expect(elsewhere).toEqual([]);
    // The console logs the refusals the bad-input test asks for (a 400 each route, Vatican's 404 subdivision).
    const asked = /^Failed to load resource: the server responded with a status of 40[04] /;
    expect(problems.filter((p) => !asked.test(p))).toEqual([]);
  });

  it.skipIf(!SCREENSHOT)('saves a screenshot at the hash of Paris once the map is drawn', async () => {
    await page.goto(`${origin}/#${PARIS},9`);
    await answerAt(PARIS);
    await page.waitForSelector('#map[data-highlight="FRA FR-75C"]', { state: 'attached' });
    await page.waitForSelector('#map[data-idle]', { state: 'attached', timeout: 110_000 });
    await page.screenshot({ path: SCREENSHOT! });
  });
});
