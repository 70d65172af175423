// The extension seam: a fixture extension (test/fixtures/extension/hemisphere.cjs: one operation,
// one parameter) that no file outside it names appears in the CLI, batch, the server with its
// OpenAPI entry, and the client in both modes, found by geolookup/extend's loader alone.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/client/src/index.js';
import { batch } from '../../src/batch/run.js';
import { run } from '../../src/cli/run.js';
import { EXTENSIONS_ENV, findExtensions } from '../../src/extend.js';
import { countryFromGps, tryCountryFromGps, ValidationError } from '../../src/index.js';
import { get, KEY, start, useServerFixture } from '../support/server-fixture.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/extension/hemisphere.cjs', import.meta.url));
const saved = process.env[EXTENSIONS_ENV];
process.env[EXTENSIONS_ENV] = FIXTURE;
afterAll(() => {
  if (saved === undefined) delete process.env[EXTENSIONS_ENV];
  else process.env[EXTENSIONS_ENV] = saved;
});
useServerFixture();

/** What the fixture answers, from the core's own answer (its band arithmetic restated). */
const expected = (lat: number, lon: number, band = 15) =>
  `${lat < 0 ? 'S' : 'N'}${Math.floor(Math.abs(lat) / band) * band} ${tryCountryFromGps(lat, lon) ?? '-'}`;

function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = run(
    argv,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('a fixture extension, declared by its descriptor alone', () => {
  it('is found by the loader, beside the installed packages', () => {
    expect(findExtensions().map((e) => e.name)).toContain('geolookup-fixture-hemisphere');
  });

  it('is a CLI command with its flag, its help and its validation', () => {
    expect(cli('hemisphere', '48.8566', '2.3522')).toMatchObject({ status: 0, out: expected(48.8566, 2.3522) });
    expect(cli('hemisphere', '-33.9', '18.4', '--band-deg', '10').out).toBe(expected(-33.9, 18.4, 10));
    expect(cli('hemisphere', '--help').out).toContain('--band-deg DEG');
    expect(cli('country', '--help').out).not.toContain('--band-deg');
    const bad = cli('hemisphere', '1', '2', '--band-deg', '0');
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('The band width (bandDeg) must be a number from 1 to 90 degrees.');
    const twice = cli('hemisphere', '1', '2', '--band-deg', '5', '--band-deg', '6');
    expect(twice.status).toBe(2);
    expect(twice.err).toContain('--band-deg is given more than once');
    expect(cli('country', '1', '2', '--band-deg', '5').status).toBe(2);
  });

  it('is a batch column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geolookup-seam-'));
    try {
      const points: [number, number][] = [
        [48.8566, 2.3522],
        [-33.9, 18.4],
        [0, -30],
      ];
      writeFileSync(join(dir, 'in.csv'), `lat,lon\n${points.map((p) => p.join(',')).join('\n')}\n`);
      await batch({
        input: join(dir, 'in.csv'),
        output: join(dir, 'out.csv'),
        fields: ['country'],
        extensions: { hemisphere: true },
        workers: 1,
      });
      const rows = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n');
      expect(rows[0]).toBe('lat,lon,country,hemisphere,error');
      expect(rows.slice(1)).toEqual(
        points.map(([lat, lon]) => `${lat},${lon},${tryCountryFromGps(lat, lon) ?? ''},${expected(lat, lon)},`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is a server route with its OpenAPI entry, and both clients call it', async () => {
    const { server, port } = await start();
    const r = await get(port, '/geo/hemisphere/fromGps/48.8566,2.3522?bandDeg=10');
    expect(r.status).toBe(200);
    expect(r.body).toBe(expected(48.8566, 2.3522, 10));
    const doc = server.openapi as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    expect(doc.paths['/geo/hemisphere/fromGps/{latitude},{longitude}'].get.parameters.map((p) => p.name)).toEqual([
      'latitude',
      'longitude',
      'bandDeg',
    ]);
    const bad = await get(port, '/geo/hemisphere/fromGps/48.8566,2.3522?bandDeg=91');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).errors.bandDeg).toEqual([
      'the band width (bandDeg) must be a number from 1 to 90 degrees',
    ]);

    const remote = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, cache: false });
    const offline = createClient({ offline: true });
    for (const client of [remote, offline]) {
      expect(client.operations.map((o) => o.id)).toContain('hemisphereFromGps');
      expect((await client.call('hemisphereFromGps', -33.9, 18.4, { bandDeg: 10 })).data).toBe(
        expected(-33.9, 18.4, 10),
      );
      const e = await client.call('hemisphereFromGps', [48.85], 2.35).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).errors.latitude).toBeDefined();
    }
    expect(countryFromGps(48.8566, 2.3522)).toBe('FRA');
  });
});
