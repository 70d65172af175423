// Typed errors shared by the library, the server and the client. Each maps to
// one HTTP status of the lookup service and renders as an RFC 9457 problem record.

export type FieldErrors = Partial<Record<string, string[]>>;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldErrors;
  retryAfter?: number;
}

/** Stable problem `type` URIs, one per problem kind. */
export const PROBLEM_TYPES = {
  validation: 'https://geolookup.dev/problems/validation',
  notFound: 'https://geolookup.dev/problems/not-found',
  authentication: 'https://geolookup.dev/problems/authentication',
  rateLimit: 'https://geolookup.dev/problems/rate-limit',
  data: 'https://geolookup.dev/problems/data',
  general: 'about:blank',
} as const;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? 'Error';
}

/**
 * The kind an error class stands for, a static member of each class (Symbol.for: the same symbol in
 * every copy of this module: ESM and CJS builds, the browser entry, @geolookup/client).
 */
export const ERROR_KIND: unique symbol = Symbol.for('geolookup.errorKind') as never;

/** Whether a class of kind `kind` is on `value`'s prototype chain (in any copy of this module). */
function madeBy(value: unknown, kind: string): boolean {
  for (let p = value; typeof p === 'object' && p !== null; p = Object.getPrototypeOf(p)) {
    const ctor = Object.hasOwn(p, 'constructor') ? (p as { constructor: unknown }).constructor : undefined;
    if (typeof ctor === 'function' && Object.hasOwn(ctor, ERROR_KIND) && (ctor as never)[ERROR_KIND] === kind)
      return true;
  }
  return false;
}

function isInstance(cls: object, value: unknown): boolean {
  if (!Object.hasOwn(cls, ERROR_KIND)) return Function.prototype[Symbol.hasInstance].call(cls, value);
  return madeBy(value, (cls as { [ERROR_KIND]: string })[ERROR_KIND]);
}

/** The general error: an HTTP-like status and a message. */
export class GeoLookupError extends Error {
  static readonly [ERROR_KIND]: string = 'GeoLookupError';

  /**
   * `e instanceof NotFoundError` holds for a NotFoundError from any copy of these classes, so one
   * identity spans entries, formats and packages; a user's subclass keeps the usual rule.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, often a subclass.
    return isInstance(this, value);
  }

  readonly status: number;
  readonly type: string;

  constructor(message: string, status = 500, options?: { cause?: unknown; type?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GeoLookupError';
    this.status = status;
    this.type = options?.type ?? PROBLEM_TYPES.general;
  }

  get title(): string {
    return statusTitle(this.status);
  }

  toProblem(): Problem {
    return { type: this.type, title: this.title, status: this.status, detail: this.message };
  }
}

/** 400: bad coordinates or codes, with per-field error lists. */
export class ValidationError extends GeoLookupError {
  static readonly [ERROR_KIND]: string = 'ValidationError';

  readonly errors: FieldErrors;

  constructor(detail: string, errors: FieldErrors) {
    super(detail, 400, { type: PROBLEM_TYPES.validation });
    this.name = 'ValidationError';
    this.errors = errors;
  }

  override toProblem(): Problem {
    return { ...super.toProblem(), errors: this.errors };
  }
}

/** 404: valid input, but no country / subdivision there, or an unknown code. */
export class NotFoundError extends GeoLookupError {
  static readonly [ERROR_KIND]: string = 'NotFoundError';

  constructor(detail: string) {
    super(detail, 404, { type: PROBLEM_TYPES.notFound });
    this.name = 'NotFoundError';
  }
}

/** 401: missing, misnamed, revoked or malformed API key. */
export class AuthenticationError extends GeoLookupError {
  static readonly [ERROR_KIND]: string = 'AuthenticationError';

  constructor(detail = 'A valid X-API-Key header is required.') {
    super(detail, 401, { type: PROBLEM_TYPES.authentication });
    this.name = 'AuthenticationError';
  }
}

/** 429: burst rate or monthly quota exceeded. */
export class RateLimitError extends GeoLookupError {
  static readonly [ERROR_KIND]: string = 'RateLimitError';

  /** Seconds to wait before trying again. */
  readonly retryAfter: number;

  constructor(detail = 'Rate limit exceeded; try again later.', retryAfter = 1) {
    super(detail, 429, { type: PROBLEM_TYPES.rateLimit });
    this.name = 'RateLimitError';
    this.retryAfter = retryAfter;
  }

  override toProblem(): Problem {
    return { ...super.toProblem(), retryAfter: this.retryAfter };
  }
}

/** A dataset file that is truncated, corrupted, foreign or of another format version. */
export class DataError extends GeoLookupError {
  static readonly [ERROR_KIND]: string = 'DataError';

  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, 500, { type: PROBLEM_TYPES.data, cause: options?.cause });
    this.name = 'DataError';
  }
}
