// Input rules of the lookup service, shared by the library, the server and the CLI.
// Valid numbers pass without allocating; everything else collects per-field errors.

import { ValidationError, type FieldErrors } from './errors.js';

/** Plain decimal notation as it may appear in a URL: optional minus, digits, optional fraction. */
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;
/** Longer strings are refused before any parsing, so huge inputs cost nothing. */
export const MAX_COORDINATE_CHARS = 64;

/** The numeric range check every path shares (NaN fails every comparison, so it is rejected too). */
export function inRange(lat: number, lon: number): boolean {
  return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180;
}

/**
 * The coordinate as a number when parseCoordinate would accept it (a finite number, or a plain
 * decimal string, within ±limit), else NaN; no messages, no allocation. The hot paths take
 * strings (URLs, CSV) through this; anything it refuses goes to parsePair for the errors.
 */
export function quickCoordinate(value: unknown, limit: number): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.length <= MAX_COORDINATE_CHARS && DECIMAL.test(value)) n = Number(value);
  else return NaN;
  return n >= -limit && n <= limit ? n : NaN;
}

/** Array.isArray throws on a revoked Proxy; such a value is just "an object" here. */
function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (isArray(value)) return 'an array';
  const t = typeof value;
  if (t === 'string') {
    const s = value as string;
    return s.length > 24 ? `"${s.slice(0, 24)}…" (${s.length} characters)` : JSON.stringify(s);
  }
  if (t === 'number') return String(value);
  if (t === 'object') return 'an object';
  return `a ${t}`;
}

/** Returns the numeric value, or pushes a message and returns NaN. */
function parseCoordinate(value: unknown, field: 'latitude' | 'longitude', errors: string[]): number {
  if (value === undefined || value === null) {
    errors.push(`${field} is required`);
    return NaN;
  }
  let n: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      errors.push(`${field} must be a finite number, got ${describe(value)}`);
      return NaN;
    }
    n = value;
  } else if (typeof value === 'string') {
    if (value.length === 0) {
      errors.push(`${field} must not be empty`);
      return NaN;
    }
    if (value.length > MAX_COORDINATE_CHARS) {
      errors.push(`${field} is too long (${value.length} characters, at most ${MAX_COORDINATE_CHARS})`);
      return NaN;
    }
    if (/\s/.test(value)) {
      errors.push(`${field} must not contain whitespace, got ${describe(value)}`);
      return NaN;
    }
    if (!DECIMAL.test(value)) {
      errors.push(`${field} must be a decimal number such as 48.8566, got ${describe(value)}`);
      return NaN;
    }
    n = Number(value);
  } else {
    errors.push(`${field} must be a number or a decimal string, got ${describe(value)}`);
    return NaN;
  }
  const limit = field === 'latitude' ? 90 : 180;
  if (!(n >= -limit && n <= limit)) {
    errors.push(
      `${field} must be between -${limit} and ${limit}, got ${describe(typeof value === 'string' ? value : n)}`,
    );
    return NaN;
  }
  return n === 0 ? 0 : n; // folds -0
}

function swapHint(lat: unknown, lon: unknown): string {
  const a = typeof lat === 'string' && DECIMAL.test(lat) ? Number(lat) : lat;
  const b = typeof lon === 'string' && DECIMAL.test(lon) ? Number(lon) : lon;
  if (typeof a === 'number' && typeof b === 'number' && Math.abs(a) > 90 && Math.abs(a) <= 180 && Math.abs(b) <= 90) {
    return ' The coordinates look swapped: pass latitude first, then longitude.';
  }
  return '';
}

/** Slow path: builds the ValidationError for a coordinate pair that failed the fast check. */
export function coordinateError(lat: unknown, lon: unknown, extra?: FieldErrors): ValidationError {
  const errors: FieldErrors = { ...extra };
  const latErrors: string[] = [];
  const lonErrors: string[] = [];
  parseCoordinate(lat, 'latitude', latErrors);
  parseCoordinate(lon, 'longitude', lonErrors);
  if (latErrors.length) errors.latitude = latErrors;
  if (lonErrors.length) errors.longitude = lonErrors;
  const messages = Object.values(errors).flat() as string[];
  const detail =
    messages.map((m) => `${m[0].toUpperCase() + m.slice(1)}.`).join(' ') + (latErrors.length ? swapHint(lat, lon) : '');
  return new ValidationError(detail, errors);
}

/** The ValidationError for a malformed code (`problem` under `field`), listing bad coordinates too. */
export function codeError(field: string, problem: string, lat: unknown, lon: unknown): ValidationError {
  return coordinateError(lat, lon, { [field]: [problem] });
}

/**
 * Parses one coordinate pair. Numbers in range return at once; strings are
 * parsed by the service's rules; any failure throws one ValidationError that
 * lists every bad field.
 */
export function parsePair(lat: unknown, lon: unknown): [number, number] {
  const latErrors: string[] = [];
  const lonErrors: string[] = [];
  const a = parseCoordinate(lat, 'latitude', latErrors);
  const b = parseCoordinate(lon, 'longitude', lonErrors);
  if (latErrors.length || lonErrors.length) throw coordinateError(lat, lon);
  return [a, b];
}

const ALPHA3 = /^[A-Za-z]{3}$/;
const ALPHA2 = /^[A-Za-z]{2}$/;
const ISO_3166_2 = /^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/;
const CUSTOM_CODE = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,62})$/;

export type CodeStyle = 'iso' | 'custom';

/** Returns an error message for a malformed country code, or null when the shape is right. */
export function countryCodeProblem(
  code: unknown,
  style: CodeStyle,
  alpha2ToAlpha3?: (a2: string) => string | undefined,
): string | null {
  if (typeof code !== 'string') return `countryCode must be a string, got ${describe(code)}`;
  if (style === 'custom')
    return CUSTOM_CODE.test(code)
      ? null
      : `countryCode must be 1-63 letters, digits, '_', '.' or '-', got ${describe(code)}`;
  if (ALPHA3.test(code)) return null;
  if (ALPHA2.test(code)) {
    const a3 = alpha2ToAlpha3?.(code.toUpperCase());
    return `countryCode must be ISO 3166-1 alpha-3 (three letters); ${describe(code)} is alpha-2${a3 ? `, use "${a3}"` : ''}`;
  }
  return `countryCode must be ISO 3166-1 alpha-3 (three letters such as "FRA"), got ${describe(code)}`;
}

export function subdivisionCodeProblem(code: unknown, style: CodeStyle): string | null {
  if (typeof code !== 'string') return `subdivisionCode must be a string, got ${describe(code)}`;
  if (style === 'custom')
    return CUSTOM_CODE.test(code)
      ? null
      : `subdivisionCode must be 1-63 letters, digits, '_', '.' or '-', got ${describe(code)}`;
  return ISO_3166_2.test(code)
    ? null
    : `subdivisionCode must be ISO 3166-2 (country alpha-2, hyphen, 1-3 letters or digits, such as "FR-IDF"), got ${describe(code)}`;
}

/** A code shaped `XX-…` names a subdivision (as geometryOf reads it); any other names a country. */
const SUBDIVISION_SHAPE = /^[A-Za-z0-9]{2}-/;

/**
 * The ValidationError for a malformed code that may name a country or a subdivision (boundingBox),
 * the one isInCountry / isInSubdivision give for it; null when its shape is right.
 */
export function regionCodeError(
  code: unknown,
  style: CodeStyle,
  alpha2ToAlpha3?: (a2: string) => string | undefined,
): ValidationError | null {
  if (typeof code === 'string' && SUBDIVISION_SHAPE.test(code)) {
    const problem = subdivisionCodeProblem(code, style);
    return problem === null ? null : codeError('subdivisionCode', problem, 0, 0);
  }
  const problem = countryCodeProblem(code, style, alpha2ToAlpha3);
  return problem === null ? null : codeError('countryCode', problem, 0, 0);
}
