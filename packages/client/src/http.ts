// HTTP details of the service, as the client sees them: header names, rate-limit
// parsing, Retry-After, and the mapping of error responses to the library's error classes.

import {
  AuthenticationError,
  GeoLookupError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  type FieldErrors,
} from 'geolookup/extend';

/**
 * Every header name the client reads or sends, in one place. `X-API-Key` and
 * `X-RateLimit-Remaining` (remaining monthly quota) are fixed by the spec; the spec names no
 * others, so the rest follow geolookup's own server (src/server, docs/SERVER.md).
 */
export const HEADERS = {
  /** Request: the API key. */
  apiKey: 'X-API-Key',
  /** Monthly quota of the key. */
  quotaLimit: 'X-RateLimit-Limit',
  /** Requests left in this month's quota (spec). */
  quotaRemaining: 'X-RateLimit-Remaining',
  /** Requests allowed per burst window (per minute). */
  burstLimit: 'X-RateLimit-Burst-Limit',
  /** Requests left in the current burst window. */
  burstRemaining: 'X-RateLimit-Burst-Remaining',
  /** Seconds (or an HTTP date) to wait after a 429 or 503. */
  retryAfter: 'Retry-After',
} as const;

/** Rate-limit state reported by the last response; null where the server sent no (valid) header. */
export interface RateLimitInfo {
  burstLimit: number | null;
  burstRemaining: number | null;
  quotaLimit: number | null;
  quotaRemaining: number | null;
}

export const NO_RATE_LIMIT: Readonly<RateLimitInfo> = Object.freeze({
  burstLimit: null,
  burstRemaining: null,
  quotaLimit: null,
  quotaRemaining: null,
});

interface HeaderSource {
  get(name: string): string | null;
}

function count(value: string | null): number | null {
  if (value === null) return null;
  const v = value.trim();
  return /^\d{1,15}$/.test(v) ? Number(v) : null;
}

export function parseRateLimit(headers: HeaderSource): RateLimitInfo {
  return {
    burstLimit: count(headers.get(HEADERS.burstLimit)),
    burstRemaining: count(headers.get(HEADERS.burstRemaining)),
    quotaLimit: count(headers.get(HEADERS.quotaLimit)),
    quotaRemaining: count(headers.get(HEADERS.quotaRemaining)),
  };
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) return Number(v);
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The fields of an RFC 9457 problem record that the client uses; anything missing is undefined. */
export interface ProblemBody {
  type?: string;
  title?: string;
  detail?: string;
  errors?: FieldErrors;
  retryAfter?: number;
}

function fieldErrors(value: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [field, list] of Object.entries(value)) {
    if (Array.isArray(list)) out[field] = list.map(String);
    else if (typeof list === 'string') out[field] = [list];
  }
  return out;
}

/** Reads a problem+json body; a body that is not JSON yields its text (trimmed, truncated) as the detail. */
export function parseProblem(body: string): ProblemBody {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      return {
        type: typeof json.type === 'string' ? json.type : undefined,
        title: typeof json.title === 'string' ? json.title : undefined,
        detail: typeof json.detail === 'string' ? json.detail : undefined,
        errors: 'errors' in json ? fieldErrors(json.errors) : undefined,
        retryAfter: typeof json.retryAfter === 'number' && json.retryAfter >= 0 ? json.retryAfter : undefined,
      };
    } catch {
      // not JSON after all: fall through to the text
    }
  }
  return { detail: text.length > 500 ? `${text.slice(0, 500)}…` : text || undefined };
}

/**
 * The library error for a status and problem: 400 ValidationError (with per-field lists),
 * 401 AuthenticationError, 404 NotFoundError, 429 RateLimitError (retryAfter seconds, default 1),
 * anything else GeoLookupError with that status.
 */
export function errorFromProblem(
  status: number,
  problem: ProblemBody,
  retryAfter: number | null = null,
  statusText = '',
): GeoLookupError {
  const message = problem.detail || problem.title || statusText || `HTTP ${status}`;
  switch (status) {
    case 400:
      return new ValidationError(message, problem.errors ?? {});
    case 401:
      return new AuthenticationError(message);
    case 404:
      return new NotFoundError(message);
    case 429:
      return new RateLimitError(message, retryAfter ?? problem.retryAfter ?? 1);
    default:
      return new GeoLookupError(message, status, problem.type ? { type: problem.type } : undefined);
  }
}

/**
 * Brings an error thrown by the embedded engine to this module's classes. Any copy of ours already
 * is one (errors.ts, ERROR_KIND); an engine of an older geolookup, whose classes carry no kind, has
 * anything that looks like a GeoLookupError (status + toProblem) rebuilt from its problem.
 */
export function adoptEngineError(err: unknown): unknown {
  if (err instanceof GeoLookupError) return err;
  const e = err as { status?: unknown; toProblem?: unknown } | null;
  if (e && typeof e === 'object' && typeof e.status === 'number' && typeof e.toProblem === 'function') {
    const problem = (e.toProblem as () => ProblemBody & { status: number })();
    const adopted = errorFromProblem(e.status, problem);
    if (adopted.constructor === GeoLookupError) {
      return new GeoLookupError(adopted.message, adopted.status, { type: adopted.type, cause: err });
    }
    return adopted;
  }
  return err;
}
