// The batch's NDJSON scanner without a dataset: which lines it reads itself (and the values it
// gives) and which it leaves to JSON.parse, member paths, and where the coordinates are found.
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/batch/columns.js';
import { atPath, scanned, scanRow } from '../../src/batch/ndjson.js';

const enc = new TextEncoder();
const LAT = enc.encode('lat');
const LON = enc.encode('lng');

/** scanRow on a line: -1 (JSON.parse decides), else the bits found and the values. */
function scan(line: string): { got: number; lat?: number; lon?: number } {
  const b = enc.encode(line);
  const got = scanRow(b, 0, b.length, LAT, LON);
  if (got < 0) return { got };
  return { got, ...(got & 1 ? { lat: scanned[0] } : {}), ...(got & 2 ? { lon: scanned[1] } : {}) };
}

describe('scanRow', () => {
  it('reads plain decimal members of one object, spacing and CR around them included', () => {
    expect(scan('{"lat":48.8566,"lng":2.3522}')).toEqual({ got: 3, lat: 48.8566, lon: 2.3522 });
    expect(scan(' { "lng" : -74.006 , "id" : "x" , "lat" : 40.7128 } \r')).toEqual({
      got: 3,
      lat: 40.7128,
      lon: -74.006,
    });
    expect(scan('{"lat":-0,"lng":0.0}')).toEqual({ got: 3, lat: 0, lon: 0 });
    expect(scan('{"a":{"lat":1},"lat":2,"b":[1,{"c":null}],"lng":3}')).toEqual({ got: 3, lat: 2, lon: 3 });
  });

  it('reports the members a row lacks', () => {
    expect(scan('{"lat":1}')).toEqual({ got: 1, lat: 1 });
    expect(scan('{"lng":1}')).toEqual({ got: 2, lon: 1 });
    expect(scan('{}')).toEqual({ got: 0 });
  });

  it('keeps the last of repeated members, as JSON.parse does', () => {
    expect(scan('{"lat":1,"lat":2,"lng":3}')).toEqual({ got: 3, lat: 2, lon: 3 });
  });

  it('leaves to JSON.parse what is not a plain number or not valid JSON', () => {
    for (const line of [
      '{"lat":"48.85","lng":2}',
      '{"lat":1e5,"lng":2}',
      '{"lat":01,"lng":2}',
      '{"lat":.5,"lng":2}',
      '{"lat":12345678901234567890,"lng":2}',
      '{"l\\u0061t":1,"lng":2}',
      '{"lat":1,}',
      '{"lat":1}x',
      '[1,2]',
      'null',
      'not json',
      '{"a":"\\x"}',
    ])
      expect(scan(line).got, line).toBe(-1);
  });
});

describe('atPath', () => {
  it('follows own members and array elements only', () => {
    const row = { a: { b: [10, 20] }, c: null };
    expect(atPath(row, ['a', 'b', 1])).toBe(20);
    expect(atPath(row, ['a', 'x'])).toBeUndefined();
    expect(atPath(row, ['c', 'd'])).toBeUndefined();
    expect(atPath(row, ['a', 'constructor'])).toBeUndefined();
  });
});

describe('the NDJSON coordinates', () => {
  const keys = (text: string, opts: { lat?: string; lon?: string } = {}) =>
    resolveColumns(Buffer.from(enc.encode(text)), 'ndjson', 44, { ...opts, fields: ['country'] }).settings;

  // Each row is read for itself (test/unit/batch-ndjson-rows.test.ts): no names come from the first rows.
  it('are not taken from the first rows: the names as given, else "" for the default names', () => {
    const none = { latKey: '', lonKey: '', latPath: null, lonPath: null };
    expect(keys('not json\n{"id":1}\n{"LAT":1,"Longitude":2}\n')).toMatchObject(none);
    expect(keys('{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]}}\r\n')).toMatchObject(none);
    expect(keys('{"x":1}\n')).toMatchObject(none); // no ValidationError: rows without coordinates are error rows
    expect(keys('{"x":1}\n', { lat: 'y', lon: 'z' })).toMatchObject({ latKey: 'y', lonKey: 'z' });
  });

  it('dotted names also spell member paths (a top-level member of that name still wins, row by row)', () => {
    expect(keys('{"pos":{"at":[1,2]}}\n', { lat: 'pos.at.0', lon: 'pos.at.1' })).toMatchObject({
      latKey: 'pos.at.0',
      latPath: ['pos', 'at', 0],
      lonPath: ['pos', 'at', 1],
    });
    expect(keys('{"a.b":1,"c":2}\n', { lat: 'a.b', lon: 'c' })).toMatchObject({
      latKey: 'a.b',
      latPath: ['a', 'b'],
      lonPath: null,
    });
  });
});
