// The offline client answers exactly as the library does, and the client entry stays free of
// Node built-ins (it must load in browsers, workers and Electron renderers).
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as lib from 'geolookup';
import { createClient, type GeoLookupError, NotFoundError, ValidationError } from '../src/index.js';
import { spherePoints } from '../../../test/support/sample-points.js';

const CITIES: [number, number][] = [
  [48.8566, 2.3522],
  [52.52, 13.405],
  [40.7128, -74.006],
  [-33.8688, 151.2093],
  [35.6895, 139.6917],
  [-23.5505, -46.6333],
  [55.7558, 37.6173],
  [28.6139, 77.209],
  [-1.2921, 36.8219],
  [19.4326, -99.1332],
  [47.6969, 8.6908],
  [41.9029, 12.4534],
  [42.4647, 1.9817],
  [0, -30],
  [-80, 0],
  [90, 0],
  [-16.8, 180],
  [-16.8, -180],
];

function points(): [number | string, number | string][] {
  const { lat, lon } = spherePoints(300, 20240607);
  const out: [number | string, number | string][] = [...CITIES];
  for (let i = 0; i < lat.length; i++) out.push([Number(lat[i].toFixed(5)), Number(lon[i].toFixed(5))]);
  out.push(['48.8566', '2.3522'], [99, 2], [200, 45], ['1e2', '2'], [' 1', 2]);
  return out;
}

/** What a call gave: its data, or the error's class, status and message. */
async function outcome(call: () => unknown): Promise<unknown> {
  try {
    const value = await call();
    return { data: value && typeof value === 'object' && 'data' in value ? value.data : value };
  } catch (e) {
    const err = e as GeoLookupError & { errors?: unknown };
    return { error: err.name, status: err.status, message: err.message, errors: err.errors };
  }
}

describe('offline client', () => {
  const client = createClient({ offline: true });

  it('gives the same data and errors as the library on a sample of points', async () => {
    const codes = ['FRA', 'DEU', 'USA', 'BRA', 'fra', 'FR', 'ZZZ'];
    const subs = ['FR-IDF', 'US-CA', 'DE-BY', 'fr-75c', 'US-PR', 'XX', 'ZZ-ZZZ'];
    let compared = 0;
    const pts = points();
    for (const [i, [lat, lon]] of pts.entries()) {
      const code = codes[i % codes.length];
      const sub = subs[i % subs.length];
      expect(await outcome(() => client.countryFromGps(lat, lon))).toEqual(
        await outcome(() => lib.countryFromGps(lat, lon)),
      );
      expect(await outcome(() => client.subdivisionFromGps(lat, lon))).toEqual(
        await outcome(() => lib.subdivisionFromGps(lat, lon)),
      );
      expect(await outcome(() => client.isInCountry(code, lat, lon))).toEqual(
        await outcome(() => lib.isInCountry(code, lat, lon)),
      );
      expect(await outcome(() => client.isInSubdivision(sub, lat, lon))).toEqual(
        await outcome(() => lib.isInSubdivision(sub, lat, lon)),
      );
      compared += 4;
    }
    expect(compared).toBe(pts.length * 4);
    // The sample has land, sea and bad input.
    const countriesFound = await Promise.all(pts.map(([a, b]) => outcome(() => client.countryFromGps(a, b))));
    expect(countriesFound.some((o) => (o as { error?: string }).error === 'NotFoundError')).toBe(true);
    expect(countriesFound.some((o) => (o as { error?: string }).error === 'ValidationError')).toBe(true);
    expect(countriesFound.filter((o) => 'data' in (o as object)).length).toBeGreaterThan(50);
  });

  it('answers with null rate-limit fields and the shared error classes', async () => {
    expect(await client.countryFromGps(48.8566, 2.3522)).toEqual({
      data: 'FRA',
      rateLimit: { burstLimit: null, burstRemaining: null, quotaLimit: null, quotaRemaining: null },
    });
    expect(client.mode).toBe('offline');
    await expect(client.countryFromGps(0, -30)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.countryFromGps(0, -30)).rejects.toBeInstanceOf(lib.NotFoundError);
    const bad = await client.isInCountry('FR', 123, 2).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect(Object.keys((bad as ValidationError).errors).sort()).toEqual(['countryCode', 'latitude']);
    await expect(client.clearCache()).resolves.toBeUndefined();
  });

  it('takes another engine, as an object or a lazy factory', async () => {
    let made = 0;
    const engine = lib.preload();
    const viaObject = createClient({ offline: true, engine });
    const viaFactory = createClient({
      offline: true,
      engine: async () => {
        made++;
        return engine;
      },
    });
    expect((await viaObject.isInCountry('FRA', 48.8566, 2.3522)).data).toBe(true);
    expect((await viaFactory.countryFromGps(52.52, 13.405)).data).toBe('DEU');
    expect((await viaFactory.countryFromGps(52.52, 13.405)).data).toBe('DEU');
    expect(made).toBe(1);
  });

  it('adopts errors of another copy of the error classes (a bundled entry has its own)', async () => {
    class ForeignNotFound extends Error {
      status = 404;
      toProblem() {
        return { type: 'x', title: 'Not Found', status: 404, detail: 'No country at 1,2.' };
      }
    }
    const foreign = {
      ...lib.preload(),
      countryFromGps: () => {
        throw new ForeignNotFound('No country at 1,2.');
      },
    };
    const c = createClient({ offline: true, engine: foreign as unknown as lib.GeoLookup });
    const err = await c.countryFromGps(1, 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe('No country at 1,2.');
  });
});

describe('client entry has no Node built-ins', () => {
  it('no module reachable from packages/client/src/index.ts imports a Node built-in or the Node entry statically', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const builtins = new Set(builtinModules);
    const seen = new Set<string>();
    const queue = [resolve(here, '../src/index.ts')];
    const offenders: string[] = [];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      // Static imports and re-exports that are not type-only, and literal dynamic imports.
      const specs = [
        ...[...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
        ...[...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
        ...[...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
      ];
      for (const spec of specs) {
        if (spec.startsWith('node:') || builtins.has(spec)) offenders.push(`${file}: ${spec}`);
        else if (spec === 'geolookup') offenders.push(`${file}: ${spec} (Node entry)`);
        // As a bundler resolves them for browsers (package.json's "browser" condition).
        else if (spec === 'geolookup/extend') queue.push(resolve(here, '../../../src/extend-browser.ts'));
        else if (spec === 'geolookup/browser') queue.push(resolve(here, '../../../src/browser.ts'));
        else if (spec.startsWith('.')) {
          const target = join(dirname(file), spec.replace(/\.js$/, '.ts'));
          if (target === resolve(here, '../../../src/index.ts')) offenders.push(`${file}: ${spec} (Node entry)`);
          queue.push(target);
        }
      }
    }
    expect(offenders).toEqual([]);
    const root = resolve(here, '../../..');
    const reached = [...seen].map((f) => relative(root, f));
    expect(reached).toContain('packages/client/src/embedded.ts');
    expect(reached).toContain('src/extend-browser.ts');
    expect(reached).not.toContain('src/extend.ts');
    expect(reached.filter((f) => f.startsWith('src/node/') || f.startsWith('src/cli/'))).toEqual([]);
  });
});
