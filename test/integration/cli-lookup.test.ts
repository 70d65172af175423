// `geolookup country | subdivision | in-country | in-subdivision` as a real process: with --json
// every outcome, an error's problem record included, is one JSON document on stdout (what `| jq`
// reads), with the exit status of its kind and a human line on stderr; without it, errors stay on
// stderr alone. Messages name the point as numbers.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPES as T } from '../../src/lookup/errors.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function geolookup(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('geolookup --json', () => {
  it('an answer: {"data": …} on stdout, exit 0', () => {
    const r = geolookup('--json', 'country', '48.8566', '2.3522');
    expect(r).toMatchObject({ status: 0, stdout: '{"data":"FRA"}\n', stderr: '' });
  });

  it('nothing there: the problem record on stdout, exit 3, a human line on stderr', () => {
    const r = geolookup('--json', 'subdivision', '0', '-30');
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { type: T.notFound, title: 'Not Found', status: 404, detail: 'No subdivision at 0,-30.' },
    });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe('geolookup: No subdivision at 0,-30.\n');
  });

  it('bad input: the problem record with its per-field errors on stdout, exit 2', () => {
    const r = geolookup('in-country', 'FR', '120', '45', '--json');
    expect(r.status).toBe(2);
    const { error } = JSON.parse(r.stdout);
    expect(error).toMatchObject({ type: T.validation, status: 400 });
    expect(Object.keys(error.errors).sort()).toEqual(['countryCode', 'latitude']);
    expect(r.stderr).toMatch(/^geolookup: .*swapped/);
  });

  it('an unreadable dataset: the problem record on stdout, exit 1', () => {
    const r = geolookup('--json', 'country', '1', '1', '--data', '/dev/zero');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ type: T.data, status: 500 });
  });
});

describe('geolookup without --json', () => {
  it('errors go to stderr only, the point named as numbers', () => {
    const r = geolookup('country', '5.', '5.');
    expect(r).toEqual({ status: 3, stdout: '', stderr: 'geolookup: No country at 5,5.\n' });
  });
});

describe('geolookup timezone (an extension: @geolookup/timezones, installed in this workspace)', () => {
  it('answers as the package, Etc/GMT±N at sea, and refuses bad input with exit 2', async () => {
    const tz = await import('../../packages/timezones/src/index.js');
    for (const [lat, lon] of [
      ['39.4704', '75.9898'],
      ['0', '-30'],
      ['-16.8', '180'],
    ])
      expect(geolookup('timezone', lat, lon)).toMatchObject({ status: 0, stdout: `${tz.timeZoneFromGps(lat, lon)}\n` });
    const bad = geolookup('--json', 'timezone', '91', '0');
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout).error).toMatchObject({ type: T.validation, status: 400 });
  });
});

describe('geolookup distance | nearest | nearest-subdivision | within (an extension: @geolookup/borders)', () => {
  it('answer as the package: metres, "CODE METRES", a line per region; --json the same data', async () => {
    const borders = await import('../../packages/borders/src/index.js');
    const [lat, lon] = ['51.4416', '4.9268']; // Baarle: a Belgian enclave's edge metres away
    expect(geolookup('distance', lat, lon, '--layer', 'subdivision')).toMatchObject({
      status: 0,
      stdout: `${borders.distanceToBorder(lat, lon, { layer: 'subdivision' })}\n`,
    });
    const near = borders.nearestCountry('36.0', '-5.5', { maxKm: 20 }); // the Strait of Gibraltar, at sea
    expect(geolookup('nearest', '36.0', '-5.5', '--max-km', '20').stdout).toBe(`${near.code} ${near.distanceM}\n`);
    const within = borders.regionsWithin(lat, lon, 300);
    expect(within.countries.length).toBeGreaterThan(1);
    expect(geolookup('within', lat, lon, '300').stdout).toBe(
      [
        ...within.countries.map((r) => `country ${r.code} ${r.distanceM}\n`),
        ...within.subdivisions.map((r) => `subdivision ${r.code} ${r.distanceM}\n`),
      ].join(''),
    );
    expect(JSON.parse(geolookup('--json', 'within', lat, lon, '300').stdout)).toEqual({ data: within });
  });

  it('nothing within reach: null for distance (exit 0), not found for nearest (exit 3)', () => {
    expect(geolookup('distance', '40', '-40')).toMatchObject({ status: 0, stdout: 'null\n' });
    const r = geolookup('--json', 'nearest-subdivision', '40', '-40');
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({ type: T.notFound, status: 404 });
  });

  it('a bad radius or flag: exit 2 naming it; the lite dataset: refused, exit 1', () => {
    const bad = geolookup('--json', 'within', '51', '4', '-3');
    expect(bad.status).toBe(2);
    expect(Object.keys(JSON.parse(bad.stdout).error.errors)).toEqual(['radiusM']);
    expect(geolookup('country', '51', '4', '--max-km', '3')).toMatchObject({ status: 2 });
    const lite = geolookup('distance', '51', '4', '--data', 'lite');
    expect(lite.status).toBe(1);
    expect(lite.stderr).toMatch(/simplified/);
  });
});
