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
