// The answers as the client reads them: a plain-text body (a code, a boolean, an extension's text)
// or JSON, checked against what its operation answers (its schema, geolookup/extend's
// matchesSchema); and a cached answer, checked the same way.

import { type Answer, GeoLookupError, matchesSchema, type Operation } from 'geolookup/extend';

/** The Accept header of an operation's requests. */
export const accept = (op: Operation): string =>
  op.answer === 'json' ? 'application/json, application/problem+json' : 'text/plain, application/problem+json';

/** A code: ISO 3166, or a custom zone code. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** Whether `data` is an answer `op` can give (a body read, or a cached entry). */
function isAnswer(op: Operation, data: unknown): boolean {
  if (op.schema !== undefined) return matchesSchema(op.schema, data);
  if (op.answer === 'boolean') return typeof data === 'boolean';
  if (op.answer === 'json') return data !== undefined;
  return typeof data === 'string' && (op.answer === 'text' || CODE.test(data));
}

export function parseData(op: Operation, body: string): Answer {
  const text = body.trim();
  let data: unknown = text;
  if (op.answer === 'json') {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  } else if (op.answer === 'boolean') data = text === 'true' ? true : text === 'false' ? false : undefined;
  if (isAnswer(op, data)) return data as Answer;
  throw new GeoLookupError(`Unexpected response body for ${op.id}: ${JSON.stringify(text.slice(0, 80))}`, 502);
}

/** A cached answer of `op`'s shape (a custom cache may hold anything), as a copy the caller may change. */
export function cachedData(op: Operation, data: unknown): { ok: boolean; data: Answer } {
  if (!isAnswer(op, data)) return { ok: false, data: null };
  return { ok: true, data: (typeof data === 'object' && data !== null ? structuredClone(data) : data) as Answer };
}
