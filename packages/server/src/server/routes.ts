// The four routes of the service: URL → library call → plain-text body.
// Coordinate and code strings go to the library as they are (after percent-decoding),
// so the HTTP API applies exactly the library's input rules.

import type { GeoLookup } from 'geolookup';
import { NotFoundError, ValidationError, type FieldErrors } from 'geolookup';
import { coordinateError } from 'geolookup';

const COUNTRY_GPS = '/geo/country/fromGps/';
const SUBDIVISION_GPS = '/geo/subdivision/fromGps/';
const IS_IN_COUNTRY = /^\/geo\/country\/([^/]*)\/isInCountry$/;
const IS_IN_SUBDIVISION = /^\/geo\/subdivision\/([^/]*)\/isInSubdivision$/;

/**
 * The route table: the four operations as the OpenAPI document (openapi.ts) describes them and the
 * metrics name them. answer() dispatches on the prefixes above; operationOf() mirrors it.
 */
export const OPERATIONS = [
  { id: 'countryFromGps', path: '/geo/country/fromGps/{latitude},{longitude}', code: null, answer: 'country' },
  {
    id: 'subdivisionFromGps',
    path: '/geo/subdivision/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'subdivision',
  },
  { id: 'isInCountry', path: '/geo/country/{countryCode}/isInCountry', code: 'countryCode', answer: 'boolean' },
  {
    id: 'isInSubdivision',
    path: '/geo/subdivision/{subdivisionCode}/isInSubdivision',
    code: 'subdivisionCode',
    answer: 'boolean',
  },
] as const;

export type Operation = (typeof OPERATIONS)[number];

const ROUTES = OPERATIONS.map((o) => (o.code ? `${o.path}?latitude={latitude}&longitude={longitude}` : o.path));

/** The index in OPERATIONS of the operation that answers `path` (without the query), or -1. */
export function operationOf(path: string): number {
  if (path.startsWith(COUNTRY_GPS)) return 0;
  if (path.startsWith(SUBDIVISION_GPS)) return 1;
  if (IS_IN_COUNTRY.test(path)) return 2;
  return IS_IN_SUBDIVISION.test(path) ? 3 : -1;
}

function clip(s: string, n = 80): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** decodeURIComponent, or undefined for broken percent-encoding. */
function decode(s: string): string | undefined {
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** A 400 listing structural problems (`extra`) together with any coordinate problems. */
function invalid(extra: FieldErrors, lat: unknown, lon: unknown): ValidationError {
  // Fields already reported in `extra` are replaced by a valid stand-in so they are not reported twice.
  return coordinateError(extra.latitude ? '0' : lat, extra.longitude ? '0' : lon, extra);
}

/**
 * The pair's separator is the literal comma: `%2C` is a comma inside a value (RFC 3986 §2.2: encoding
 * a reserved character changes the URI's meaning), decoded with the value after the split, while
 * unreserved characters such as `%2E` decode as themselves (§2.3). docs/SERVER.md#routes.
 */
const ENCODED_COMMA = /%2c/i;
const ENCODED_COMMA_NOTE = ' (an encoded comma, %2C, is part of a value, not the separator)';

function pathPair(raw: string): [string | undefined, string | undefined] {
  const comma = raw.indexOf(',');
  if (comma === -1 || raw.indexOf(',', comma + 1) !== -1 || raw.indexOf('/') !== -1) {
    const why =
      comma === -1
        ? raw === ''
          ? 'the coordinates are missing'
          : `the comma between latitude and longitude is missing${ENCODED_COMMA.test(raw) ? ENCODED_COMMA_NOTE : ''}`
        : raw.indexOf('/') !== -1
          ? 'the pair has extra path segments'
          : 'the pair has more than two parts';
    const message =
      'coordinates must be {latitude},{longitude}: two decimal numbers, one comma, no spaces; ' +
      `${why} in "${clip(raw)}"`;
    throw new ValidationError(`Malformed coordinate pair: ${message.slice(message.indexOf(':') + 2)}.`, {
      coordinates: [message],
    });
  }
  const lat = decode(raw.slice(0, comma));
  const lon = decode(raw.slice(comma + 1));
  if (lat === undefined || lon === undefined) {
    const extra: FieldErrors = {};
    if (lat === undefined) extra.latitude = ['latitude has invalid percent-encoding'];
    if (lon === undefined) extra.longitude = ['longitude has invalid percent-encoding'];
    throw invalid(extra, lat, lon);
  }
  return [lat, lon];
}

interface QueryCoordinates {
  lat: string | undefined;
  lon: string | undefined;
  extra: FieldErrors;
}

function queryValue(raw: string): string | undefined {
  return decode(raw.indexOf('+') === -1 ? raw : raw.replace(/\+/g, ' '));
}

/** latitude and longitude from the query string: each exactly once; other parameters are ignored. */
function queryPair(query: string): QueryCoordinates {
  let lat: string | undefined;
  let lon: string | undefined;
  let nLat = 0;
  let nLon = 0;
  const extra: FieldErrors = {};
  if (query !== '') {
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = queryValue(eq === -1 ? part : part.slice(0, eq));
      if (name !== 'latitude' && name !== 'longitude') continue;
      const rawValue = eq === -1 ? '' : part.slice(eq + 1);
      const value = queryValue(rawValue);
      if (value === undefined) (extra[name] ??= []).push(`${name} has invalid percent-encoding`);
      if (name === 'latitude') {
        nLat++;
        lat = value ?? rawValue;
      } else {
        nLon++;
        lon = value ?? rawValue;
      }
    }
  }
  if (nLat > 1) extra.latitude = [`latitude must be given once, got ${nLat} values`];
  if (nLon > 1) extra.longitude = [`longitude must be given once, got ${nLon} values`];
  return { lat, lon, extra };
}

function codeFromPath(raw: string, field: 'countryCode' | 'subdivisionCode'): { code: string; extra: FieldErrors } {
  const code = decode(raw);
  if (code === undefined) return { code: raw, extra: { [field]: [`${field} has invalid percent-encoding`] } };
  return { code, extra: {} };
}

/**
 * Code problems found by the library, for reporting them along with structural query problems:
 * the check runs with a valid stand-in point, so only the code can fail.
 */
function codeProblems(check: () => unknown, field: string): FieldErrors {
  try {
    check();
  } catch (e) {
    if (e instanceof ValidationError && e.errors[field]) return { [field]: e.errors[field] };
  }
  return {};
}

/**
 * Answers one request path (without the query) and query string.
 * Returns the plain-text body; throws ValidationError (400) or NotFoundError (404).
 */
export function answer(geo: GeoLookup, path: string, query: string): string {
  if (path.startsWith(COUNTRY_GPS)) {
    const [lat, lon] = pathPair(path.slice(COUNTRY_GPS.length));
    return geo.countryFromGps(lat!, lon!);
  }
  if (path.startsWith(SUBDIVISION_GPS)) {
    const [lat, lon] = pathPair(path.slice(SUBDIVISION_GPS.length));
    return geo.subdivisionFromGps(lat!, lon!);
  }
  let m = IS_IN_COUNTRY.exec(path);
  if (m !== null) {
    const { code, extra: codeExtra } = codeFromPath(m[1], 'countryCode');
    const { lat, lon, extra } = queryPair(query);
    if (codeExtra.countryCode || extra.latitude || extra.longitude) {
      const codeErrs = codeExtra.countryCode
        ? codeExtra
        : codeProblems(() => geo.isInCountry(code, 0, 0), 'countryCode');
      throw invalid({ ...codeErrs, ...extra }, lat, lon);
    }
    return geo.isInCountry(code, lat!, lon!) ? 'true' : 'false';
  }
  m = IS_IN_SUBDIVISION.exec(path);
  if (m !== null) {
    const { code, extra: codeExtra } = codeFromPath(m[1], 'subdivisionCode');
    const { lat, lon, extra } = queryPair(query);
    if (codeExtra.subdivisionCode || extra.latitude || extra.longitude) {
      const codeErrs = codeExtra.subdivisionCode
        ? codeExtra
        : codeProblems(() => geo.isInSubdivision(code, 0, 0), 'subdivisionCode');
      throw invalid({ ...codeErrs, ...extra }, lat, lon);
    }
    return geo.isInSubdivision(code, lat!, lon!) ? 'true' : 'false';
  }
  throw unknownPath(path);
}

/** 404 for a path that is none of the routes (not cacheable, unlike a lookup's 404). */
export class UnknownRouteError extends NotFoundError {}

function unknownPath(path: string): NotFoundError {
  return new UnknownRouteError(`No such resource: ${clip(path)}. Routes: ${ROUTES.join(', ')}.`);
}
