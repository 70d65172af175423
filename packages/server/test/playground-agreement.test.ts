// The drawn region is the answer: the playground's map (MapLibre over its vector tiles, in headless
// Chromium through SwiftShader) shows, under each of 2,000+ seeded points within 200 m of borders,
// the country and the subdivision the library answers there (tryCountryFromGps /
// trySubdivisionFromGps), at zoom 16. queryRenderedFeatures reads what is drawn. The only points
// let off are those within 1.5 px of a line of that layer, found with the library itself: its
// answer changes on a circle of 1.5 px around the point (16 probes, so any line nearer than
// 1.47 px shows). One page, one view per site, every point of a view in one evaluate.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Playground, startPlayground } from '../src/playground/server.js';
import { tryCountryFromGps, trySubdivisionFromGps } from 'geolookup';
import { type Browser, chromiumMissing, launchChromium } from '../../../test/support/chromium.js';
import { skipWithout } from '../../../test/support/system.js';

const skipBrowser = skipWithout('playground-agreement', chromiumMissing);

const ZOOM = 16;
/** The page's viewport; the map is what the answer panel leaves of it. */
const VIEW = { width: 1350, height: 700 };
/** Points keep this far (px) from the view's edge, clear of the map's controls. */
const MARGIN = 40;
const NEAR_M = 200;
const PER_SITE = 260;
/** A view centred on a border: enclaves, a fence, a state line, a lake shore, a river. */
const SITES: Record<string, [number, number]> = {
  'Baarle-Hertog / Baarle-Nassau': [51.4402, 4.9265],
  Büsingen: [47.6955, 8.672],
  'Kansas City state line': [39.0997, -94.607],
  'Ceuta fence': [35.8925, -5.3745],
  'Lake Constance, Lindau / Bregenz': [47.547, 9.74],
  'Alpine Rhine, CHE / AUT': [47.49, 9.565],
  'Vatican City': [41.9029, 12.4534],
  'Llívia road, ESP / FRA': [42.458, 2.0],
};

/** Metres per CSS pixel of MapLibre's Web Mercator (512 px tiles) at `lat` and `zoom`. */
const metresPerPixel = (lat: number, zoom: number) =>
  (40075016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** zoom);

/** The point `m` metres from (lat, lon) towards `angle` (local flat approximation, fine over 200 m). */
function offset(lat: number, lon: number, m: number, angle: number): [number, number] {
  const dLat = (m * Math.sin(angle)) / 111_320;
  const dLon = (m * Math.cos(angle)) / (111_320 * Math.cos((lat * Math.PI) / 180));
  return [lat + dLat, lon + dLon];
}

/** Whether `answer` differs from its value at (lat, lon) somewhere on the circle of `m` metres (n probes). */
function changesWithin(
  answer: (lat: number, lon: number) => string | null,
  lat: number,
  lon: number,
  m: number,
  n: number,
) {
  const here = answer(lat, lon);
  for (let k = 0; k < n; k++) {
    const [a, b] = offset(lat, lon, m, (2 * Math.PI * k) / n);
    if (answer(a, b) !== here) return true;
  }
  return false;
}

/** A small seeded generator (mulberry32), so every run checks the same points. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Probe {
  lat: number;
  lon: number;
  country: string | null;
  subdivision: string | null;
  /** Within 1.5 px of a line of that layer: not checked there. */
  nearCountryLine: boolean;
  nearSubdivisionLine: boolean;
}

/** PER_SITE seeded points in a map of `size` px around `centre` within NEAR_M of a change of either answer. */
function pointsAround(centre: [number, number], size: { width: number; height: number }, seed: number): Probe[] {
  const [lat0, lon0] = centre;
  const px = metresPerPixel(lat0, ZOOM);
  const next = random(seed);
  const out: Probe[] = [];
  for (let tries = 0; out.length < PER_SITE && tries < PER_SITE * 50; tries++) {
    const dx = (next() - 0.5) * (size.width - 2 * MARGIN) * px;
    const dy = (next() - 0.5) * (size.height - 2 * MARGIN) * px;
    const [lat1] = offset(lat0, lon0, dy, Math.PI / 2);
    const [, lon] = offset(lat0, lon0, dx, 0);
    const lat = lat1;
    const near =
      changesWithin(tryCountryFromGps, lat, lon, NEAR_M, 32) ||
      changesWithin(trySubdivisionFromGps, lat, lon, NEAR_M, 32);
    if (!near) continue;
    const linePx = 1.5 * metresPerPixel(lat, ZOOM);
    out.push({
      lat,
      lon,
      country: tryCountryFromGps(lat, lon),
      subdivision: trySubdivisionFromGps(lat, lon),
      nearCountryLine: changesWithin(tryCountryFromGps, lat, lon, linePx, 16),
      nearSubdivisionLine: changesWithin(trySubdivisionFromGps, lat, lon, linePx, 16),
    });
  }
  return out;
}

/** What MapLibre draws at each point: the distinct codes of the country and subdivision fills there. */
function drawn(page: Page, points: [number, number][]) {
  return page.evaluate((points) => {
    type M = {
      project(p: [number, number]): { x: number; y: number };
      queryRenderedFeatures(p: [number, number], o: { layers: string[] }): { properties: { code: string } }[];
    };
    const map = (window as unknown as { playgroundMap: M }).playgroundMap;
    const codes = (p: [number, number], layer: string) => [
      ...new Set(map.queryRenderedFeatures(p, { layers: [layer] }).map((f) => f.properties.code)),
    ];
    return points.map(([lat, lon]) => {
      const { x, y } = map.project([lon, lat]);
      return { country: codes([x, y], 'country-fill'), subdivision: codes([x, y], 'subdivision-fill') };
    });
  }, points);
}

describe.skipIf(skipBrowser)('the playground draws what the library answers (Chromium, zoom 16)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    playground = await startPlayground({ port: 0, log: () => {} });
    browser = await launchChromium({ webgl: true });
    page = browser.page;
    await page.setViewportSize(VIEW);
  });

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('agrees at 2,000+ points near borders in both layers, except within 1.5 px of a line', async () => {
    const wrong: string[] = [];
    let checked = 0;
    let spared = 0;
    let seed = 47;
    for (const [site, [lat, lon]] of Object.entries(SITES)) {
      await page.goto(`${playground.url}#${lat},${lon},${ZOOM}`);
      // The page moved there once it shows the point (a new hash is not a new page): then wait for its tiles.
      await page.waitForSelector(`#answer[data-point="${lat},${lon}"]`, { state: 'attached' });
      await page.waitForSelector(`#map[data-idle="${ZOOM}"]`, { state: 'attached', timeout: 60_000 });
      const size = await page.evaluate(() => {
        const { width, height } = document.getElementById('map')!.getBoundingClientRect();
        return { width, height };
      });
      const points = pointsAround([lat, lon], size, seed++);
      expect(points.length, site).toBe(PER_SITE);
      const seen = await drawn(
        page,
        points.map((p) => [p.lat, p.lon]),
      );
      points.forEach((p, i) => {
        const layers = [
          ['country', p.country, seen[i].country, p.nearCountryLine],
          ['subdivision', p.subdivision, seen[i].subdivision, p.nearSubdivisionLine],
        ] as const;
        for (const [layer, want, got, nearLine] of layers) {
          if (nearLine) {
            spared++;
            continue;
          }
          checked++;
          const expected = want === null ? [] : [want];
          if (JSON.stringify(got) !== JSON.stringify(expected))
            wrong.push(
              `${site} ${p.lat.toFixed(6)},${p.lon.toFixed(6)} ${layer}: library ${want}, drawn ${got.join('+')}`,
            );
        }
      });
    }
    expect(wrong).toEqual([]);
    // 2,080 points, two layers each; few are within 1.5 px of a line.
    expect(checked).toBeGreaterThan(2 * 2000 - 200);
    expect(spared).toBeLessThan(200);
  });
});
