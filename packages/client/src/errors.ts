// Client-only failures: no HTTP answer at all. Both are GeoLookupError subclasses
// (status 0: "no response"), so one `catch (e instanceof GeoLookupError)` covers everything.

import { ERROR_KIND, GeoLookupError } from 'geolookup/extend';

export const CLIENT_PROBLEM_TYPES = {
  network: 'https://geolookup.dev/problems/network',
  timeout: 'https://geolookup.dev/problems/timeout',
} as const;

/** The request never got an HTTP response: DNS, refused or reset connection, TLS, CORS, redirect refused. */
export class NetworkError extends GeoLookupError {
  static readonly [ERROR_KIND]: string = 'NetworkError';

  constructor(message: string, options?: { cause?: unknown; type?: string }) {
    super(message, 0, { cause: options?.cause, type: options?.type ?? CLIENT_PROBLEM_TYPES.network });
    this.name = 'NetworkError';
  }

  override get title(): string {
    return 'Network Error';
  }
}

/** No complete response within the client's `timeout` (milliseconds). */
export class TimeoutError extends NetworkError {
  static readonly [ERROR_KIND]: string = 'TimeoutError';

  /** The timeout that expired, in milliseconds. */
  readonly timeout: number;

  constructor(message: string, timeout: number, options?: { cause?: unknown }) {
    super(message, { cause: options?.cause, type: CLIENT_PROBLEM_TYPES.timeout });
    this.name = 'TimeoutError';
    this.timeout = timeout;
  }

  override get title(): string {
    return 'Timeout';
  }
}
