// The client against the real geolookup server (@geolookup/server), on a loopback port: the four
// operations, rate-limit headers, and each error mapping; timeZoneFromGps, beyond the contract,
// against a server with @geolookup/timezones and one without it. No mocked fetch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as lib from 'geolookup';
import {
  AuthenticationError,
  HEADERS,
  NotFoundError,
  RateLimitError,
  ValidationError,
  createClient,
} from '../src/index.js';
import {
  createServer,
  RATE_HEADERS,
  type GeoLookupServer,
  type ServerOptions,
} from '../../server/src/server/server.js';
import { createKey, revokeKey } from '../../server/src/server/keys.js';
import { timeZoneFromGps } from '../../timezones/src/index.js';
import { HOST, listenOnLoopback } from '../../../test/support/loopback.js';
import { cityPoints, spherePoints } from '../../../test/support/sample-points.js';
import { projectWithoutTimeZones, runModule, startWithoutTimeZones } from '../../../test/support/server-fixture.js';
import { rejection } from '../../../test/support/thrown.js';

const dir = mkdtempSync(join(tmpdir(), 'geolookup-client-'));
const keysPath = join(dir, 'keys.json');
const started: GeoLookupServer[] = [];

async function start(options: ServerOptions): Promise<string> {
  const server = createServer({ quotaFile: null, watchKeys: false, log: () => {}, ...options });
  started.push(server);
  return `http://${HOST}:${await listenOnLoopback(server)}`;
}

let baseUrl: string;
let key: string;
let revoked: string;
let tinyQuota: string;

beforeAll(async () => {
  key = createKey(keysPath, 'pro', { monthlyQuota: 5000 }).key;
  const r = createKey(keysPath, 'free');
  revoked = r.key;
  revokeKey(keysPath, r.record.id);
  tinyQuota = createKey(keysPath, 'free', { monthlyQuota: 2 }).key;
  baseUrl = await start({ keys: keysPath });
});

afterAll(async () => {
  for (const s of started) await s.shutdown(100);
  rmSync(dir, { recursive: true, force: true });
});

const quiet = { cacheWarningInterval: 0 };

describe('client ↔ geolookup server', () => {
  it('the client reads the header names the server sends', () => {
    expect(HEADERS).toMatchObject({
      quotaLimit: RATE_HEADERS.quotaLimit,
      quotaRemaining: RATE_HEADERS.quotaRemaining,
      burstLimit: RATE_HEADERS.burstLimit,
      burstRemaining: RATE_HEADERS.burstRemaining,
    });
  });

  it('answers the four operations like the library, with rate-limit info from the headers', async () => {
    const client = createClient({ apiKey: key, baseUrl, cache: false, ...quiet });
    const [lat, lon] = [48.8566, 2.3522];
    const country = await client.countryFromGps(lat, lon);
    expect(country.data).toBe('FRA');
    expect(country.rateLimit).toMatchObject({ burstLimit: 1000, quotaLimit: 5000 });
    expect(country.rateLimit.burstRemaining).toBeLessThan(1000);
    expect(country.rateLimit.quotaRemaining).toBeLessThan(5000);

    const sub = await client.subdivisionFromGps(lat, lon);
    expect(sub.data).toBe(lib.subdivisionFromGps(lat, lon));
    // Each request spends one from both budgets.
    expect(sub.rateLimit.quotaRemaining).toBe(country.rateLimit.quotaRemaining! - 1);
    expect(sub.rateLimit.burstRemaining).toBe(country.rateLimit.burstRemaining! - 1);

    expect((await client.isInCountry('FRA', lat, lon)).data).toBe(true);
    expect((await client.isInCountry('deu', lat, lon)).data).toBe(false);
    expect((await client.isInSubdivision('FR-IDF', lat, lon)).data).toBe(lib.isInSubdivision('FR-IDF', lat, lon));
    expect((await client.isInSubdivision('DE-BY', '48.8566', '2.3522')).data).toBe(false);
  });

  it('agrees with the offline client on a handful of points', async () => {
    const remote = createClient({ apiKey: key, baseUrl, ...quiet });
    const local = createClient({ offline: true });
    const pts: [number, number][] = [
      [52.52, 13.405],
      [-33.8688, 151.2093],
      [35.6895, 139.6917],
      [47.6969, 8.6908],
      [41.9029, 12.4534],
      [0, -30],
    ];
    const settle = (p: Promise<{ data: unknown }>) =>
      p.then(
        (r) => r.data,
        (e: Error) => e.name,
      );
    for (const [a, b] of pts) {
      expect(await settle(remote.countryFromGps(a, b))).toEqual(await settle(local.countryFromGps(a, b)));
      expect(await settle(remote.subdivisionFromGps(a, b))).toEqual(await settle(local.subdivisionFromGps(a, b)));
    }
  });

  it('cache hits send no request (the quota does not move)', async () => {
    const client = createClient({ apiKey: key, baseUrl });
    const probe = createClient({ apiKey: key, baseUrl, cache: false, ...quiet });
    await client.countryFromGps(45.764, 4.8357);
    const before = (await probe.countryFromGps(52.52, 13.405)).rateLimit.quotaRemaining!;
    await client.countryFromGps(45.764, 4.8357);
    await client.countryFromGps(45.7640001, 4.8357);
    const after = (await probe.countryFromGps(52.52, 13.405)).rateLimit.quotaRemaining!;
    expect(after).toBe(before - 1); // only the probe itself
  });

  it('400 → ValidationError with the per-field lists', async () => {
    const client = createClient({ apiKey: key, baseUrl, ...quiet });
    const swapped = await rejection(client.countryFromGps(151.2093, -33.8688));
    expect(swapped).toBeInstanceOf(ValidationError);
    expect(swapped.status).toBe(400);
    expect((swapped as ValidationError).errors.latitude?.[0]).toMatch(/between -90 and 90/);
    expect(swapped.message).toMatch(/swapped/);
    const both = await rejection(client.isInCountry('FR', 1, 'abc'));
    expect(Object.keys((both as ValidationError).errors).sort()).toEqual(['countryCode', 'longitude']);
    expect((both as ValidationError).errors.countryCode?.[0]).toMatch(/FRA/);
    const padded = await rejection(client.subdivisionFromGps(' 48.85', '2.35'));
    expect(padded).toBeInstanceOf(ValidationError);
  });

  it('401 → AuthenticationError: unknown key, revoked key, missing key', async () => {
    const unknown = await rejection(
      createClient({ apiKey: `glk_000000000000_${'A'.repeat(43)}`, baseUrl, ...quiet }).countryFromGps(1, 2),
    );
    expect(unknown).toBeInstanceOf(AuthenticationError);
    const gone = await rejection(createClient({ apiKey: revoked, baseUrl, ...quiet }).countryFromGps(1, 2));
    expect(gone).toBeInstanceOf(AuthenticationError);
    expect(gone.message).toMatch(/revoked/);
    const missing = await rejection(createClient({ baseUrl, ...quiet }).countryFromGps(1, 2));
    expect(missing).toBeInstanceOf(AuthenticationError);
    expect(missing.message).toMatch(/missing/);
  });

  it('404 → NotFoundError: sea, and an unknown code', async () => {
    const client = createClient({ apiKey: key, baseUrl, ...quiet });
    const sea = await rejection(client.countryFromGps(0, -30));
    expect(sea).toBeInstanceOf(NotFoundError);
    expect(sea.status).toBe(404);
    expect(await rejection(client.subdivisionFromGps(0, -30))).toBeInstanceOf(NotFoundError);
    expect(await rejection(client.isInCountry('ZZZ', 48.8566, 2.3522))).toBeInstanceOf(NotFoundError);
  });

  it('429 (burst) → RateLimitError with Retry-After seconds', async () => {
    const now = Date.UTC(2026, 5, 15, 12, 0, 0, 500);
    const url = await start({ keys: keysPath, limits: { burstPerMinute: 2 }, now: () => now });
    const client = createClient({ apiKey: key, baseUrl: url, maxRetries: 0, cache: false, ...quiet });
    const first = await client.countryFromGps(48.8566, 2.3522);
    expect(first.rateLimit).toMatchObject({ burstLimit: 2, burstRemaining: 1 });
    await client.countryFromGps(48.8566, 2.3522);
    const err = await rejection(client.countryFromGps(48.8566, 2.3522));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((err as RateLimitError).retryAfter).toBeLessThanOrEqual(60);
  });

  it('429 (monthly quota) → RateLimitError at once: its Retry-After is beyond maxRetryAfter', async () => {
    const client = createClient({ apiKey: tinyQuota, baseUrl, cache: false, ...quiet });
    const ok = await client.countryFromGps(48.8566, 2.3522);
    expect(ok.rateLimit).toMatchObject({ quotaLimit: 2, quotaRemaining: 1 });
    await client.countryFromGps(48.8566, 2.3522);
    const started = performance.now();
    const err = await rejection(client.countryFromGps(48.8566, 2.3522));
    expect(performance.now() - started).toBeLessThan(1000); // no backoff sleeping
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBeGreaterThan(60);
    expect(err.message).toMatch(/quota/i);
  });

  it('a code too long for a request line is refused before sending, as offline (other statuses: client.test.ts)', async () => {
    const client = createClient({ apiKey: key, baseUrl, ...quiet });
    const err = await rejection(client.isInCountry('A'.repeat(3000), 1, 2));
    const offline = await rejection(createClient({ offline: true }).isInCountry('A'.repeat(3000), 1, 2));
    expect(err).toBeInstanceOf(ValidationError);
    expect([err.message, (err as ValidationError).errors]).toEqual([
      offline.message,
      (offline as ValidationError).errors,
    ]);
  });

  it('anonymous requests where the server allows them', async () => {
    const url = await start({ keys: keysPath, allowAnonymous: true });
    const { data, rateLimit } = await createClient({ baseUrl: url, ...quiet }).countryFromGps(52.52, 13.405);
    expect(data).toBe('DEU');
    expect(rateLimit.burstLimit).toBe(10);
  });
});

describe('timeZoneFromGps, beyond the contract', () => {
  /** The seeded points, as the numbers a caller passes. */
  const points = (): [number, number][] => {
    const out: [number, number][] = [];
    for (const { lat, lon } of [cityPoints(100, 81), spherePoints(100, 82)])
      for (let i = 0; i < lat.length; i++) out.push([lat[i], lon[i]]);
    return [...out, [48.8566, 2.3522], [0, -30], [90, 0], [-16.8, 180], [-16.8, -180]];
  };

  it('remote and offline, it answers what @geolookup/timezones answers, on 200 seeded points', async () => {
    const remote = createClient({ apiKey: key, baseUrl, cache: false, ...quiet });
    const local = createClient({ offline: true });
    const pts = points();
    const want = pts.map(([lat, lon]) => timeZoneFromGps(lat, lon));
    const got = [];
    for (const [lat, lon] of pts) got.push(await remote.timeZoneFromGps(lat, lon)); // one keep-alive connection
    expect(got.map((r) => r.data)).toEqual(want);
    expect(got[0].rateLimit).toMatchObject({ burstLimit: 1000, quotaLimit: 5000 });
    const offline = await Promise.all(pts.map(([lat, lon]) => local.timeZoneFromGps(lat, lon)));
    expect(offline.map((r) => r.data)).toEqual(want);
    expect(offline[0].rateLimit).toEqual({
      burstLimit: null,
      burstRemaining: null,
      quotaLimit: null,
      quotaRemaining: null,
    });
  });

  it('bad coordinates: the ValidationError of countryFromGps, remote and offline', async () => {
    const remote = createClient({ apiKey: key, baseUrl, ...quiet });
    const local = createClient({ offline: true });
    const seen = (e: Error) => ({
      name: e.name,
      status: (e as ValidationError).status,
      message: e.message,
      errors: (e as ValidationError).errors,
    });
    for (const [lat, lon] of [
      [151.2093, -33.8688],
      [1, 'abc'],
      [' 48.85', '2.35'],
      ['', 2],
      [1, 180.5],
    ] as [number | string, number | string][]) {
      const country = seen(await rejection(remote.countryFromGps(lat, lon)));
      expect(country.name).toBe('ValidationError');
      const zone = await rejection(remote.timeZoneFromGps(lat, lon));
      expect(zone).toBeInstanceOf(ValidationError);
      expect(seen(zone)).toEqual(country);
      expect(seen(await rejection(local.timeZoneFromGps(lat, lon)))).toEqual(
        seen(await rejection(local.countryFromGps(lat, lon))),
      );
    }
  });

  describe('in a project without @geolookup/timezones', () => {
    let project: ReturnType<typeof projectWithoutTimeZones>;
    beforeAll(() => {
      project = projectWithoutTimeZones();
    });
    afterAll(() => project?.remove());

    it('remote: a server without the package answers NotFoundError (no such route); the contract still answers', async () => {
      const server = await startWithoutTimeZones(project.dir, { allowAnonymous: true });
      try {
        const client = createClient({ baseUrl: `http://${HOST}:${server.port}`, ...quiet });
        const err = await rejection(client.timeZoneFromGps(48.8566, 2.3522));
        expect(err).toBeInstanceOf(NotFoundError);
        expect(err.message).toMatch(/^No such resource: \/geo\/timezone\/fromGps\/48\.8566,2\.3522\. Routes: /);
        expect((await client.countryFromGps(48.8566, 2.3522)).data).toBe('FRA');
      } finally {
        await server.stop();
      }
    });

    it('offline: call() rejects with a GeoLookupError naming what it offers; the contract still answers', async () => {
      const { code, stdout, stderr } = await runModule(
        project.dir,
        `import { createClient, GeoLookupError } from '@geolookup/client';
const local = createClient({ offline: true });
const out = { country: (await local.countryFromGps(48.8566, 2.3522)).data };
for (let i = 0; i < 2; i++) {
  try {
    await local.call('timeZoneFromGps', 48.8566, 2.3522);
  } catch (e) {
    out['error' + i] = { geo: e instanceof GeoLookupError, status: e.status, message: e.message };
  }
}
console.log(JSON.stringify(out));`,
      );
      expect([code, stderr]).toEqual([0, '']);
      const error = {
        geo: true,
        status: 500,
        message:
          'This client has no operation timeZoneFromGps: it offers countryFromGps, subdivisionFromGps, isInCountry, isInSubdivision. ' +
          "An extension's operation needs its package installed (or passed as options.extensions).",
      };
      // The same answer on every call.
      expect(JSON.parse(stdout)).toEqual({ country: 'FRA', error0: error, error1: error });
    });
  });
});
