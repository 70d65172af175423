// `geolookup playground` for real: the CLI started as a process on a free loopback port, its page
// opened in headless Debian Chromium. The answer shown for a point in the URL hash, and for a
// click on the map, is the library's own (codes, names, ISO parents); the map's canvas is drawn;
// the page asks nothing of any other host. PLAYGROUND_SCREENSHOT=docs/playground.png also saves
// a screenshot once the world's outlines are drawn.
import http from 'node:http';
import { networkInterfaces } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countries, countryFromGps, subdivisionFromGps, subdivisions } from '../../src/index.js';
import { type Browser, chromiumMissing, launchChromium } from '../support/chromium.js';
import { HOST, request } from '../support/loopback.js';
import { type Served, startCli } from '../support/serve-process.js';
import { skipWithout } from '../support/system.js';

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
    expect(playground.output()).toMatch(new RegExp(`^geolookup playground: ${origin}/ \\(outlines from `, 'm'));
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
    expect((await request(playground.port, '/playground/outlines/ZZZ.geojson')).status).toBe(404);
    expect((await request(playground.port, '/playground/outline/XX-NOPE.geojson')).status).toBe(404);
    expect((await request(playground.port, '/', { Host: `attacker.example:${playground.port}` })).status).toBe(403);
  });

  it('serves the page with a self-only CSP, Leaflet from the installed package, the codes and the rule', async () => {
    const page = await request(playground.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self';/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).not.toMatch(/https?:\/\//);
    const leaflet = await request(playground.port, '/playground/leaflet/leaflet.js');
    expect(leaflet.status).toBe(200);
    expect(leaflet.body).toMatch(/Leaflet 1\.9\.4/);
    expect((await request(playground.port, '/playground/leaflet/leaflet.css')).headers['content-type']).toMatch(
      /^text\/css/,
    );
    expect((await request(playground.port, '/playground/leaflet/package.json')).status).toBe(404);
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

  it("serves a code's outline and a country's subdivisions as GeoJSON with code and name", async () => {
    const one = JSON.parse((await request(playground.port, '/playground/outline/FR-75C.geojson')).body);
    expect(one).toMatchObject({ type: 'Feature', properties: { code: 'FR-75C', name: 'Paris' } });
    expect(one.geometry.type).toBe('MultiPolygon');
    const lux = JSON.parse((await request(playground.port, '/playground/outlines/LUX.geojson')).body);
    const held = subdivisions().filter((s) => s.country === 'LU' && s.covered);
    expect(lux.type).toBe('FeatureCollection');
    expect(lux.features.map((f: { properties: { code: string } }) => f.properties.code).sort()).toEqual(
      held
        .filter((s) => !held.some((c) => c.parent === s.code))
        .map((s) => s.code)
        .sort(),
    );
  });
});

describe.skipIf(skipBrowser)('geolookup playground in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
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

  /** Distinct colours among the drawn (non-transparent) pixels of the map's canvases. */
  const canvasColours = () =>
    page.evaluate(() => {
      const colours = new Set<string>();
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>('#map canvas')) {
        const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < d.length; i += 4)
          if (d[i + 3] > 0) colours.add(`${d[i]},${d[i + 1]},${d[i + 2]},${d[i + 3]}`);
      }
      return colours.size;
    });

  it('shows the answer at the point of the URL hash: codes, names and ISO parents, outlined on the map', async () => {
    await page.goto(`${origin}/#${PARIS}`);
    const text = await answerAt(PARIS);
    const want = expected(48.8566, 2.3522);
    expect([want.country, want.subdivision, want.parents]).toEqual(['FRA', 'FR-75C', ['FR-IDF']]);
    for (const s of [want.country, want.subdivision, ...want.parents, ...want.names]) expect(text).toContain(s);
    expect(await page.locator('#rule').isHidden()).toBe(true);
    await page.waitForSelector('#map[data-highlight="FRA FR-75C FR-IDF"]', { state: 'attached', timeout: 60_000 });
    expect(await canvasColours()).toBeGreaterThan(1);
  });

  it('a click on the map looks the clicked point up and writes it into the hash', async () => {
    const at = await page.evaluate(() =>
      (
        window as unknown as {
          playgroundMap: { latLngToContainerPoint(p: [number, number]): { x: number; y: number } };
        }
      ).playgroundMap.latLngToContainerPoint([52.52, 13.405]),
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

  it('asked no other host and broke no Content-Security-Policy rule', () => {
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });

  it.skipIf(!SCREENSHOT)('saves a screenshot at the hash of Paris once the world is drawn', async () => {
    await page.goto(`${origin}/#${PARIS},5`);
    await answerAt(PARIS);
    await page.waitForSelector('#map[data-world="drawn"]', { state: 'attached', timeout: 110_000 });
    await page.waitForSelector('#map[data-highlight="FRA FR-75C FR-IDF"]', { state: 'attached' });
    await page.screenshot({ path: SCREENSHOT! });
  });
});
