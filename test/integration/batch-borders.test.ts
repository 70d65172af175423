// `geolookup batch --distance --nearest --within M`: every row's border columns as
// @geolookup/borders answers its point (test/support/batch-rows.ts, expectedBorders), in CSV read
// back by the test's own RFC 4180 reader and in NDJSON read back by JSON.parse, on seeded rows
// near borders and coasts (Baarle, Gibraltar, Büsingen, Point Roberts, the Bosphorus) mixed with
// makeRows' cities, open sea and bad spellings; a dataset the lines were not drawn from is refused.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batch } from '../../src/batch/run.js';
import { DataError, ValidationError } from '../../src/index.js';
import {
  type BorderColumns,
  borderFlags,
  checkCsv,
  expectedBorders,
  expected,
  makeRows,
  type Row,
  writeCsv,
} from '../support/batch-rows.js';
import { prng } from '../support/sample-points.js';

const dir = mkdtempSync(join(tmpdir(), 'geolookup-batch-borders-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** [south, west, north, east]: a few km around places where answers change within metres. */
const BOXES: [number, number, number, number][] = [
  [51.43, 4.91, 51.46, 4.95],
  [35.95, -5.7, 36.2, -5.2],
  [47.68, 8.65, 47.71, 8.72],
  [48.96, -123.1, 49.01, -123.0],
  [41.0, 28.95, 41.2, 29.1],
];

/** makeRows' rows (cities, anywhere, bad and odd spellings) and as many points in BOXES. */
function rows(n: number, seed: number): Row[] {
  const r = prng(seed);
  const near: Row[] = Array.from({ length: n }, (_, i) => {
    const [s, w, no, e] = BOXES[i % BOXES.length];
    const lat = (s + r() * (no - s)).toFixed(6);
    const lon = (w + r() * (e - w)).toFixed(6);
    return { raw: `b${i},near,${lat},${lon}`, lat, lon };
  });
  return [...makeRows(n, seed + 1), ...near].sort(() => r() - 0.5);
}

const ALL: BorderColumns = { distance: true, nearest: true, withinM: 250, maxKm: 20 };

describe('geolookup batch: border columns', () => {
  it('CSV: distance_m, nearest, nearest_m and within of every row as the package answers them', async () => {
    const input = rows(400, 7);
    const file = join(dir, 'in.csv');
    writeCsv(file, input);
    for (const [fields, cols] of [
      [['country', 'subdivision'], ALL],
      [['subdivision'], { distance: true, nearest: true, withinM: null, maxKm: 50 }],
    ] as const) {
      const out = join(dir, 'out.csv');
      const summary = await batch({
        input: file,
        output: out,
        fields: [...fields],
        extensions: borderFlags(cols),
        workers: 2,
      });
      const counts = checkCsv(readFileSync(out, 'utf8'), input, [...fields], undefined, { borders: cols });
      expect(summary).toMatchObject({ rows: input.length, ...counts });
    }
  });

  it('NDJSON: the same members (metres as numbers, within as an array), null on bad rows', async () => {
    const input = rows(200, 9).filter((row) => row.lat !== undefined && row.lon !== undefined);
    const file = join(dir, 'in.ndjson');
    writeFileSync(
      file,
      input.map((row) => `${JSON.stringify({ lat: row.lat, lon: row.lon, within: 'theirs' })}\n`).join(''),
    );
    const out = join(dir, 'out.ndjson');
    await batch({ input: file, output: out, fields: ['country'], extensions: borderFlags(ALL), workers: 2 });
    const got = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(got).toHaveLength(input.length);
    let near = 0;
    got.forEach((obj, i) => {
      const { lat, lon } = input[i];
      const [distance, nearest, nearestM, within] = expectedBorders(lat, lon, ['country'], ALL);
      const bad = expected(lat, lon).error !== null;
      expect(obj, `row ${i}`).toMatchObject({
        distance_m: distance === '' ? null : Number(distance),
        nearest: nearest === '' ? null : nearest,
        nearest_m: nearestM === '' ? null : Number(nearestM),
        within: bad ? null : within === '' ? [] : within.split(' '),
      });
      if (obj.within?.length > 1) near++;
    });
    expect(near).toBeGreaterThan(10); // rows within 250 m of a border were in the input
  });

  it('refuses the lite dataset and a bad radius before reading any row', async () => {
    const file = join(dir, 'few.csv');
    writeFileSync(file, 'lat,lon\n51.44,4.93\n');
    await expect(
      batch({ input: file, output: join(dir, 'x.csv'), data: 'lite', extensions: borderFlags(ALL) }),
    ).rejects.toThrow(DataError);
    await expect(
      batch({ input: file, output: join(dir, 'x.csv'), extensions: borderFlags({ ...ALL, withinM: -1 }) }),
    ).rejects.toThrow(ValidationError);
    await expect(
      batch({ input: file, output: join(dir, 'x.csv'), extensions: borderFlags({ ...ALL, maxKm: 501 }) }),
    ).rejects.toThrow(/--max-km must be a number from 0 to 500/);
  });
});
