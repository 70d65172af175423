// The documented shape of every server response, checked by the fuzz and security tests on
// what test/support/raw-http.ts or node:http received.
import { expect } from 'vitest';

export const PROBLEM_TYPE = {
  validation: 'https://geolookup.dev/problems/validation',
  notFound: 'https://geolookup.dev/problems/not-found',
  auth: 'https://geolookup.dev/problems/authentication',
  rate: 'https://geolookup.dev/problems/rate-limit',
  general: 'about:blank',
};

/** Every status docs/SERVER.md names (never 500). */
export const DOCUMENTED_STATUSES = new Set([200, 304, 400, 401, 404, 405, 408, 414, 417, 429, 431]);
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  414: 'URI Too Long',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};
const TYPES: Record<number, string[]> = {
  400: [PROBLEM_TYPE.validation, PROBLEM_TYPE.general],
  401: [PROBLEM_TYPE.auth],
  404: [PROBLEM_TYPE.notFound],
  429: [PROBLEM_TYPE.rate],
};
const FIELDS = new Set(['latitude', 'longitude', 'countryCode', 'subdivisionCode', 'coordinates']);

/**
 * Asserts the documented shape: a status from the documented set; 200 plain text; errors as
 * application/problem+json with type, title, status, detail (errors per field on a validation
 * 400, retryAfter on 429, nothing else) and never a stack trace.
 */
export function expectWellFormed(
  r: { status: number; headers: Record<string, string | string[] | undefined>; body: string },
  head = false,
): void {
  expect(DOCUMENTED_STATUSES.has(r.status), `status ${r.status}: ${r.body.slice(0, 200)}`).toBe(true);
  if (r.status === 200) {
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    if (!head) expect(r.body).toMatch(/^(?:[A-Z]{3}|[A-Z]{2}-[A-Z0-9]{1,3}|true|false|ok)$/);
    return;
  }
  if (r.status === 304) {
    expect(r.body).toBe('');
    return;
  }
  expect(r.headers['content-type']).toBe('application/problem+json');
  if (head) return;
  const p = JSON.parse(r.body);
  expect(p.status).toBe(r.status);
  expect(p.title).toBe(TITLES[r.status]);
  expect(TYPES[r.status] ?? [PROBLEM_TYPE.general]).toContain(p.type);
  expect(typeof p.detail).toBe('string');
  expect(p.detail.length).toBeGreaterThan(0);
  expect(r.body).not.toMatch(/\n\s+at |\.ts:\d+|node:internal|Error:/);
  const allowed = ['type', 'title', 'status', 'detail'];
  if (p.type === PROBLEM_TYPE.validation) {
    allowed.push('errors');
    const fields = Object.keys(p.errors);
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) {
      expect(FIELDS.has(f), `field ${f}`).toBe(true);
      expect(p.errors[f].length).toBeGreaterThan(0);
      for (const m of p.errors[f]) expect(typeof m).toBe('string');
    }
  }
  if (r.status === 429) {
    allowed.push('retryAfter');
    expect(Number.isInteger(p.retryAfter) && p.retryAfter >= 1).toBe(true);
  }
  expect(
    Object.keys(p).every((k) => allowed.includes(k)),
    `members ${Object.keys(p)}`,
  ).toBe(true);
}
