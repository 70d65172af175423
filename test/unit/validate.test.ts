// The input rules of src/lookup/validate.ts, called directly: what each validator accepts, the
// number it returns, and the exact message it writes for what it refuses. The same rules through
// the four operations on the world data: test/contract/contract.test.ts (coordinate validation).
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/lookup/errors.js';
import {
  coordinateError,
  countryCodeProblem,
  inRange,
  MAX_COORDINATE_CHARS,
  parsePair,
  quickCoordinate,
  subdivisionCodeProblem,
} from '../../src/lookup/validate.js';
import { thrown } from '../support/thrown.js';

/** The ValidationError parsePair throws for a pair. */
const refused = (lat: unknown, lon: unknown) => thrown(() => parsePair(lat, lon), ValidationError);

describe('inRange', () => {
  it('takes the closed ranges and refuses NaN', () => {
    expect(inRange(90, 180)).toBe(true);
    expect(inRange(-90, -180)).toBe(true);
    expect(inRange(90.000001, 0)).toBe(false);
    expect(inRange(0, -180.000001)).toBe(false);
    expect(inRange(Number.NaN, 0)).toBe(false);
    expect(inRange(0, Number.NaN)).toBe(false);
  });
});

describe('quickCoordinate', () => {
  it('returns numbers and plain decimal strings within the limit', () => {
    expect(quickCoordinate(45.5, 90)).toBe(45.5);
    expect(quickCoordinate('-45.5', 90)).toBe(-45.5);
    expect(quickCoordinate('.5', 90)).toBe(0.5);
    expect(quickCoordinate('5.', 90)).toBe(5);
    expect(quickCoordinate('180', 180)).toBe(180);
    expect(quickCoordinate(-90, 90)).toBe(-90);
  });
  it.each([
    ['out of range', 90.5, 90],
    ['a longitude limit on a latitude', 120, 90],
    ['NaN', Number.NaN, 90],
    ['Infinity', Number.POSITIVE_INFINITY, 180],
    ['an exponent', '1e2', 180],
    ['a plus sign', '+1', 90],
    ['a comma', '1,5', 90],
    ['whitespace', ' 1', 90],
    ['an empty string', '', 90],
    ['a lone minus', '-', 90],
    ['a lone point', '.', 90],
    ['a string one character too long', `1.${'0'.repeat(MAX_COORDINATE_CHARS - 1)}`, 90],
    ['null', null, 90],
    ['a boolean', true, 90],
    ['an array', [1], 90],
  ])('gives NaN for %s', (_name, value, limit) => {
    expect(quickCoordinate(value, limit)).toBeNaN();
  });
  it('takes a string of exactly MAX_COORDINATE_CHARS characters', () => {
    const s = `1.${'0'.repeat(MAX_COORDINATE_CHARS - 2)}`;
    expect(s).toHaveLength(MAX_COORDINATE_CHARS);
    expect(quickCoordinate(s, 90)).toBe(1);
  });
});

describe('parsePair', () => {
  it('returns numbers and decimal strings as numbers, -0 folded to 0', () => {
    expect(parsePair(48.8566, 2.3522)).toEqual([48.8566, 2.3522]);
    expect(parsePair('48.8566', '-2.3522')).toEqual([48.8566, -2.3522]);
    const [lat, lon] = parsePair(-0, '-0');
    expect(Object.is(lat, 0)).toBe(true);
    expect(Object.is(lon, 0)).toBe(true);
  });
  it.each([
    ['required', undefined, 'latitude is required'],
    ['required (null)', null, 'latitude is required'],
    ['not finite', Number.NaN, 'latitude must be a finite number, got NaN'],
    ['empty', '', 'latitude must not be empty'],
    ['whitespace', '1 ', 'latitude must not contain whitespace, got "1 "'],
    ['not decimal', '1e2', 'latitude must be a decimal number such as 48.8566, got "1e2"'],
    ['a boolean', false, 'latitude must be a number or a decimal string, got a boolean'],
    ['an object', {}, 'latitude must be a number or a decimal string, got an object'],
    ['an array', [1], 'latitude must be a number or a decimal string, got an array'],
    ['out of range', 91, 'latitude must be between -90 and 90, got 91'],
    ['out of range as a string', '-90.5', 'latitude must be between -90 and 90, got "-90.5"'],
  ])('latitude %s: one message naming the field', (_name, lat, message) => {
    const e = refused(lat, 0);
    expect(e.errors).toEqual({ latitude: [message] });
    expect(e.status).toBe(400);
  });
  it('shortens long strings in messages and refuses too long ones before parsing', () => {
    const long = '1'.repeat(MAX_COORDINATE_CHARS + 1);
    expect(refused(0, long).errors.longitude).toEqual([
      `longitude is too long (${long.length} characters, at most ${MAX_COORDINATE_CHARS})`,
    ]);
    expect(refused(0, 'abcdefghijklmnopqrstuvwxyz').errors.longitude).toEqual([
      'longitude must be a decimal number such as 48.8566, got "abcdefghijklmnopqrstuvwx…" (26 characters)',
    ]);
  });
  it('lists both fields in one error, each sentence capitalised in the detail', () => {
    const e = refused('x', 200);
    expect(Object.keys(e.errors)).toEqual(['latitude', 'longitude']);
    expect(e.message).toBe(
      'Latitude must be a decimal number such as 48.8566, got "x". Longitude must be between -180 and 180, got 200.',
    );
  });
});

describe('the swapped-coordinates hint', () => {
  const hint = 'The coordinates look swapped: pass latitude first, then longitude.';
  it.each([
    [151.2093, -33.8688],
    [-120, 45],
    [180, 90],
    ['151.2', '-33.8'],
  ])('is given for a latitude that is a longitude: %j, %j', (lat, lon) => {
    expect(refused(lat, lon).message).toContain(hint);
  });
  it.each([
    [95, 100],
    [181, 0],
    [200, 45],
    ['1e2', 45],
  ])('is not given otherwise: %j, %j', (lat, lon) => {
    expect(refused(lat, lon).message).not.toContain(hint);
  });
  it('is not given when only the longitude is wrong', () => {
    expect(refused(45, 200).message).not.toContain('swapped');
  });
});

describe('coordinateError', () => {
  it('adds the extra field errors first and the coordinate errors after', () => {
    const e = coordinateError(200, 0, { countryCode: ['countryCode must be a string, got null'] });
    expect(e.errors).toEqual({
      countryCode: ['countryCode must be a string, got null'],
      latitude: ['latitude must be between -90 and 90, got 200'],
    });
    expect(e.message).toBe('CountryCode must be a string, got null. Latitude must be between -90 and 90, got 200.');
  });
  it('with valid coordinates lists the extra errors alone', () => {
    const e = coordinateError(1, 2, { subdivisionCode: ['bad'] });
    expect(e.errors).toEqual({ subdivisionCode: ['bad'] });
    expect(e.toProblem()).toMatchObject({ status: 400, detail: 'Bad.', errors: { subdivisionCode: ['bad'] } });
  });
});

describe('countryCodeProblem', () => {
  const a2to3 = (a2: string) => ({ FR: 'FRA', UA: 'UKR' })[a2];
  it('accepts three letters in any case for ISO codes', () => {
    for (const code of ['FRA', 'fra', 'Ukr', 'QQQ']) expect(countryCodeProblem(code, 'iso', a2to3)).toBeNull();
  });
  it('names the alpha-3 form of an alpha-2 code when the dataset knows it', () => {
    expect(countryCodeProblem('ua', 'iso', a2to3)).toBe(
      'countryCode must be ISO 3166-1 alpha-3 (three letters); "ua" is alpha-2, use "UKR"',
    );
    expect(countryCodeProblem('QQ', 'iso', a2to3)).toBe(
      'countryCode must be ISO 3166-1 alpha-3 (three letters); "QQ" is alpha-2',
    );
    expect(countryCodeProblem('FR', 'iso')).toBe(
      'countryCode must be ISO 3166-1 alpha-3 (three letters); "FR" is alpha-2',
    );
  });
  it.each([['F1A'], ['FRAN'], [' FRA'], [''], ['ÄBC']])('refuses the ISO shape %j', (code) => {
    expect(countryCodeProblem(code, 'iso', a2to3)).toMatch(/^countryCode must be ISO 3166-1 alpha-3 \(three letters/);
  });
  it.each([
    [42, 'countryCode must be a string, got 42'],
    [null, 'countryCode must be a string, got null'],
    [undefined, 'countryCode must be a string, got undefined'],
    [['FRA'], 'countryCode must be a string, got an array'],
  ])('refuses a non-string %j in both styles', (code, message) => {
    expect(countryCodeProblem(code, 'iso')).toBe(message);
    expect(countryCodeProblem(code, 'custom')).toBe(message);
  });
  it('takes 1-63 letters, digits, _ . - for custom codes, not starting with a symbol', () => {
    for (const code of ['A', 'zone-1', 'DATE.LINE_1', `Z${'9'.repeat(62)}`])
      expect(countryCodeProblem(code, 'custom')).toBeNull();
    for (const code of ['', '-A', '_A', '.A', 'a b', 'a/b', `Z${'9'.repeat(63)}`])
      expect(countryCodeProblem(code, 'custom')).toMatch(/^countryCode must be 1-63 letters, digits/);
  });
});

describe('subdivisionCodeProblem', () => {
  it('accepts country alpha-2, hyphen and 1-3 letters or digits, in any case', () => {
    for (const code of ['UA-30', 'ua-30', 'FJ-E', 'RU-KDA', 'FR-75C', 'GB-1'])
      expect(subdivisionCodeProblem(code, 'iso')).toBeNull();
  });
  it.each([['UA30'], ['UA-'], ['U-30'], ['UA-ABCD'], ['UA 30'], ['UA-3_'], ['UKR-30'], ['']])(
    'refuses the ISO shape %j',
    (code) => {
      expect(subdivisionCodeProblem(code, 'iso')).toMatch(/^subdivisionCode must be ISO 3166-2 \(country alpha-2/);
    },
  );
  it('refuses non-strings and takes the custom shape for custom datasets', () => {
    expect(subdivisionCodeProblem(7, 'iso')).toBe('subdivisionCode must be a string, got 7');
    expect(subdivisionCodeProblem('ZONE.A-1', 'custom')).toBeNull();
    expect(subdivisionCodeProblem('zone a', 'custom')).toBe(
      `subdivisionCode must be 1-63 letters, digits, '_', '.' or '-', got "zone a"`,
    );
  });
});
