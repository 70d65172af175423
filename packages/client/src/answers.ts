// The answers as the client reads them: a plain-text body (a code, a boolean, a time zone) or the
// JSON of the border operations (metres or null, a region, the regions within a radius), checked
// for the shape its operation answers; and a cached answer, checked the same way.

import { GeoLookupError } from '../../../src/lookup/errors.js';
import type { Answer, Operation } from '../../../src/operations.js';

/** The Accept header of an operation's requests. */
export const accept = (op: Operation): string =>
  isJsonAnswer(op) ? 'application/json, application/problem+json' : 'text/plain, application/problem+json';

/** A code (ISO 3166 or a custom zone code), or an IANA time-zone name (Area/Location, Etc/GMT+5). */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]{0,62}(?:\/[A-Za-z0-9_+-]{1,62}){0,3}$/;

/** Whether an operation answers JSON (the border operations' numbers, null and objects), not plain text. */
export const isJsonAnswer = (op: Operation): boolean =>
  op.answer === 'distance' || op.answer === 'nearest' || op.answer === 'regions';

const isMetres = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isRegion = (v: unknown): boolean => {
  const r = v as { code?: unknown; distanceM?: unknown } | null;
  return (
    typeof r === 'object' && r !== null && typeof r.code === 'string' && CODE.test(r.code) && isMetres(r.distanceM)
  );
};

/** Whether `data` is an answer of the JSON shape `op` answers (a body, or a cached entry). */
function isJsonShape(op: Operation, data: unknown): boolean {
  if (op.answer === 'distance') return data === null || isMetres(data);
  if (op.answer === 'nearest') return isRegion(data);
  const r = data as { countries?: unknown; subdivisions?: unknown } | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    Array.isArray(r.countries) &&
    r.countries.every(isRegion) &&
    Array.isArray(r.subdivisions) &&
    r.subdivisions.every(isRegion)
  );
}

export function parseData(op: Operation, body: string): Answer {
  const text = body.trim();
  if (isJsonAnswer(op)) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (isJsonShape(op, data)) return data as Answer;
  } else if (op.answer === 'boolean') {
    if (text === 'true') return true;
    if (text === 'false') return false;
  } else if ((op.answer === 'timezone' ? TIME_ZONE : CODE).test(text)) {
    return text;
  }
  throw new GeoLookupError(`Unexpected response body for ${op.id}: ${JSON.stringify(text.slice(0, 80))}`, 502);
}

/** A cached answer of `op`'s shape (a custom cache may hold anything), as a copy the caller may change. */
export function cachedData(op: Operation, data: unknown): { ok: boolean; data: Answer } {
  if (!isJsonAnswer(op)) return { ok: typeof data === 'string' || typeof data === 'boolean', data: data as Answer };
  if (!isJsonShape(op, data)) return { ok: false, data: null };
  return { ok: true, data: (typeof data === 'object' && data !== null ? structuredClone(data) : data) as Answer };
}
