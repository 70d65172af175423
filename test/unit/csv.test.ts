// The batch's CSV scanners without a dataset: record boundaries, header fields, quoting, CRLF,
// BOM, the decimal fast path, the header's columns and ragged rows' field counts.
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/batch/columns.js';
import { fieldText, lastRecordEnd, nextRecordEnd, recordSkipper, splitRecord } from '../../src/batch/csv.js';
import { framingFor } from '../../src/batch/framing.js';
import { delimiterByte, formatFromName, sniffFormat, startsWithBom } from '../../src/batch/format.js';
import { JOB_BYTES, readJobs } from '../../src/batch/input.js';
import { csvQuote, parseDecimal } from '../../src/batch/rows.js';
import { ValidationError } from '../../src/lookup/errors.js';

const bytes = (s: string) => Buffer.from(new TextEncoder().encode(s));
const split = (s: string, d = ',') => splitRecord(bytes(s), 0, bytes(s).length, d.charCodeAt(0));

describe('record boundaries', () => {
  const first = (s: string, final = false) => nextRecordEnd(bytes(s), 0, 44, final);
  const last = (s: string) => lastRecordEnd(bytes(s), 44);

  it('end at LF, CRLF or a lone CR outside quotes', () => {
    const text = 'a,b\n"c\nd",e\r\nf';
    expect(first(text)).toBe(4);
    expect(last(text)).toBe(text.indexOf('f'));
    expect(first('"a\nb",c\nd\n')).toBe(8);
    expect(first('a\rb\n')).toBe(2);
    expect(first('no terminator')).toBe(-1);
    expect(first('no terminator', true)).toBe(13);
    expect(last('no terminator')).toBe(0);
    expect(last('"open quote\n')).toBe(0);
    // A CR at the end may be the first half of a CRLF: not an end until more is read.
    expect(first('a\r')).toBe(-1);
    expect(first('a\r', true)).toBe(2);
    expect(last('a\nb\r')).toBe(2);
    expect(last('a\rb\r')).toBe(2);
  });

  it('a quote inside an unquoted field is a plain byte: it never joins lines', () => {
    const text = 'id,item,lat,lon\n1,TV 55" LG,48.85,2.35\n2,x,1,2\n3,TV 40" LG,35.68,139.69\n';
    expect(last(text)).toBe(text.length);
    expect(first(text.slice(16))).toBe('1,TV 55" LG,48.85,2.35\n'.length);
    // After a closing quote the field goes on, unquoted: its quotes are plain too.
    expect(split('a,"b"x"y,z')).toEqual(['a', 'bx"y', 'z']);
  });

  it('the byte-by-byte skipper ends records where the scanner does', () => {
    for (const text of ['a,"b\nc"\nd', 'x"y\nz', '"a""\n"\n', 'a\rb', '"a"b"\nc\n', 'a,\nb']) {
      const skip = recordSkipper(44);
      const expected = first(text, true);
      expect(skip(bytes(text)), JSON.stringify(text)).toBe(
        expected === text.length && !/[\r\n]$/.test(text) ? -1 : expected,
      );
    }
  });

  it('readJobs cuts whole records only, a quoted field with line breaks kept across a job boundary', async () => {
    const long = `"${'x\n'.repeat(JOB_BYTES / 2)}"`; // one field longer than a job
    const text = `h\n${'1,2\n'.repeat(200_000)}${long},3\n${'4,5\n'.repeat(200_000)}6,7`;
    const source = bytes(text);
    let at = 0;
    const readInto = async (target: Uint8Array) => {
      const n = Math.min(target.length, source.length - at, 100_000);
      target.set(source.subarray(at, at + n));
      at += n;
      return n;
    };
    const jobs: Buffer[] = [];
    for await (const job of readJobs(readInto, new Uint8Array(0), framingFor('csv', 44), [])) {
      if (!(job instanceof Uint8Array)) throw new Error('no record here is over the limit');
      jobs.push(Buffer.from(job.slice()));
    }
    expect(jobs.length).toBeGreaterThan(2);
    expect(Buffer.concat(jobs).equals(source)).toBe(true);
    for (const job of jobs.slice(0, -1)) expect(job[job.length - 1]).toBe(10);
    expect(jobs.filter((job) => job.includes(long.slice(0, 1000))).length).toBe(1);
  });
});

describe('fields', () => {
  it('splits on the delimiter outside quotes and unquotes RFC 4180 fields', () => {
    expect(split('a,"b,c","d""e",')).toEqual(['a', 'b,c', 'd"e', '']);
    expect(split('a;"b;c";d', ';')).toEqual(['a', 'b;c', 'd']);
    expect(split('a\t"b\tc"\t', '\t')).toEqual(['a', 'b\tc', '']);
    expect(split('"line\nbreak",x')).toEqual(['line\nbreak', 'x']);
    expect(split('a,"x"y,z')).toEqual(['a', 'xy', 'z']); // after the closing quote: as written
    expect(split('a,x"y",z')).toEqual(['a', 'x"y"', 'z']); // not opened by a quote: as written
    expect(split('')).toEqual(['']);
    expect(fieldText(bytes('"ünï"'), 0, bytes('"ünï"').length)).toBe('ünï');
    expect(csvQuote('say "hi", twice')).toBe('"say ""hi"", twice"');
  });

  it('counts the fields of ragged rows as the header does', () => {
    expect(split('6,40.7128,-74.006')).toHaveLength(3);
    expect(split('7,48.8566,2.3522,Paris,extra')).toHaveLength(5);
    expect(split('8,"a,b"')).toHaveLength(2);
  });
});

describe('the decimal fast path', () => {
  const parse = (s: string) => parseDecimal(bytes(s), 0, bytes(s).length);
  it('takes plain decimals exactly, and leaves everything else (NaN) to the validator', () => {
    for (const s of ['48.8566', '-74.006', '0', '-0', '5.', '.5', '-.5', '00012.5', '90', '0.1234567890123456'])
      expect(Object.is(parse(s), Number(s) === 0 ? 0 : Number(s)), s).toBe(true);
    for (const s of ['', '-', '.', '1e2', '+1', ' 1', '1 ', '0x10', '48,85', 'NaN', '1'.repeat(65), '9'.repeat(17)])
      expect(parse(s), s).toBeNaN();
  });
});

describe('the input format', () => {
  it('by name, else by the first byte after a BOM and white space', () => {
    expect(formatFromName('a.CSV')).toBe('csv');
    expect(formatFromName('a.tsv')).toBe('csv');
    expect(formatFromName('a.jsonl')).toBe('ndjson');
    expect(formatFromName('a.geojsonseq')).toBe('ndjson');
    expect(formatFromName('a.dat')).toBeUndefined();
    expect(sniffFormat(bytes('\uFEFF \r\n{"a":1}'))).toBe('ndjson');
    expect(sniffFormat(bytes('\x1e{"a":1}'))).toBe('ndjson');
    expect(sniffFormat(bytes('lat,lon'))).toBe('csv');
    expect(sniffFormat(bytes(''))).toBe('csv');
    expect(startsWithBom(bytes('\uFEFFx'))).toBe(true);
    expect(startsWithBom(bytes('x'))).toBe(false);
  });

  it('--delimiter: one ASCII character, "tab" or "\\t" for a tab', () => {
    expect(delimiterByte(undefined)).toBe(44);
    expect(delimiterByte(';')).toBe(59);
    expect(delimiterByte('tab')).toBe(9);
    expect(delimiterByte('\\t')).toBe(9);
    for (const bad of ['', ';;', '"', '\n', 'é']) expect(() => delimiterByte(bad)).toThrow(ValidationError);
  });
});

describe('the CSV header', () => {
  const columns = (text: string, opts: { lat?: string; lon?: string; delimiter?: string } = {}) =>
    resolveColumns(bytes(text), 'csv', delimiterByte(opts.delimiter), { ...opts, fields: ['country', 'subdivision'] });

  it('finds the coordinate columns in any case, and keeps the BOM and CRLF of the header', () => {
    const c = columns('\uFEFFid;Lat;LNG;name\r\n1;2;3;x\r\n');
    expect(c.settings).toMatchObject({ delimiter: 59, headerFields: 4, latColumn: 1, lonColumn: 2, eol: '\r\n' });
    expect(c.header?.toString()).toBe('\uFEFFid;Lat;LNG;name;country;subdivision;error\r\n');
    expect(c.headerBytes).toBe(bytes('\uFEFFid;Lat;LNG;name\r\n').length);
  });

  it('sniffs comma, tab, semicolon, bar in that order; --lat / --lon name other columns', () => {
    expect(columns('a\tlatitude\tlongitude\n').settings).toMatchObject({ delimiter: 9, latColumn: 1, lonColumn: 2 });
    expect(columns('a;b,lat,lon\n').settings).toMatchObject({ delimiter: 44, headerFields: 3, latColumn: 1 });
    expect(columns('y|x\n', { lat: 'Y', lon: 'x' }).settings).toMatchObject({ delimiter: 124, latColumn: 0 });
    expect(columns('id,"lat",lon\n').settings).toMatchObject({ latColumn: 1, lonColumn: 2 });
  });

  it('a header with no coordinate columns is a ValidationError naming what was looked for', () => {
    expect(() => columns('a,b\n1,2\n')).toThrow(/No latitude column in the header \(columns: a, b\).*--lat/);
    expect(() => columns('lat,b\n')).toThrow(/No longitude column/);
    expect(() => columns('lat,lon\n', { lat: 'y' })).toThrow(/no "y"/);
  });

  it('an input without rows has a header; an empty input none', () => {
    expect(columns('lat,lon').headerBytes).toBe(7);
    expect(columns('lat,lon').header?.toString()).toBe('lat,lon,country,subdivision,error\n');
    expect(resolveColumns(null, 'csv', 44, { fields: ['country'] })).toMatchObject({ header: null, headerBytes: 0 });
  });

  it('a header ended by a lone CR keeps it, and the delimiter decides where a quote opens a field', () => {
    const c = columns('lat;lon;a"b\r1;2;x\r');
    expect(c.settings).toMatchObject({ delimiter: 59, headerFields: 3, eol: '\r' });
    expect(c.headerBytes).toBe('lat;lon;a"b\r'.length);
    expect(columns('lat;lon;"a\rb"\r1;2;x\r').headerBytes).toBe('lat;lon;"a\rb"\r'.length);
  });
});
