// HTTP helpers for the server fuzz and security tests: a raw-socket exchange with a hard
// time limit, a lenient response parser, and the check that a response has the documented shape.
import net from 'node:net';
import { expect } from 'vitest';

export const HOST = '127.0.0.1';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Header names as sent, in order (to spot duplicates). */
  names: string[];
  body: string;
}

/**
 * Writes `parts` (latin1) on a fresh connection and collects everything until the server
 * closes it. Rejects when the server keeps the socket open longer than `timeoutMs`: a hang.
 */
export function exchange(
  port: number,
  parts: string | string[],
  timeoutMs = 5000,
  gapMs = 0,
): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const began = Date.now();
    const s = net.connect(port, HOST);
    let text = '';
    const t = setTimeout(() => {
      s.destroy();
      reject(new Error(`connection still open after ${timeoutMs} ms; received ${JSON.stringify(text.slice(0, 300))}`));
    }, timeoutMs);
    s.setEncoding('latin1');
    s.on('data', (d: string) => (text += d));
    s.on('close', () => {
      clearTimeout(t);
      resolve({ text, ms: Date.now() - began });
    });
    s.on('error', () => {}); // a reset after the server closes is fine; 'close' follows
    const list = Array.isArray(parts) ? parts : [parts];
    if (gapMs === 0) for (const p of list) s.write(p, 'latin1');
    else {
      let i = 0;
      const next = () => {
        if (i >= list.length || s.destroyed) return;
        s.write(list[i++], 'latin1');
        setTimeout(next, gapMs);
      };
      next();
    }
  });
}

/** Splits a byte stream of HTTP/1.1 responses (Content-Length framed; interim 1xx have no body). */
export function parseResponses(text: string, headRequests = 0): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  let heads = headRequests;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine);
    if (!m) throw new Error(`bad status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    const names: string[] = [];
    for (const l of lines) {
      const c = l.indexOf(':');
      if (c <= 0) throw new Error(`bad header line: ${JSON.stringify(l)}`);
      names.push(l.slice(0, c));
      headers[l.slice(0, c).toLowerCase()] = l.slice(c + 1).trim();
    }
    const status = Number(m[1]);
    // A HEAD answer has no body, unless the request was refused before it was read as HEAD.
    const headAnswer = heads > 0 && (rest.length === end + 4 || rest.startsWith('HTTP/1.', end + 4));
    const len = status < 200 || status === 304 || headAnswer ? 0 : Number(headers['content-length'] ?? NaN);
    if (status >= 200 && heads > 0) heads--;
    if (headers['transfer-encoding']) throw new Error(`unexpected chunked response (status ${status})`);
    if (!Number.isInteger(len)) throw new Error(`response ${status} without Content-Length`);
    if (rest.length < end + 4 + len) throw new Error(`truncated body for ${status}`);
    out.push({ status, headers, names, body: rest.slice(end + 4, end + 4 + len) });
    rest = rest.slice(end + 4 + len);
  }
  return out;
}

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
