// @geolookup/client: the client for a remote Geolocation Lookup Service or the
// embedded engine. Imports no Node built-ins (the offline engine is loaded lazily).

export {
  AuthenticationError,
  DataError,
  type FieldErrors,
  GeoLookupError,
  NotFoundError,
  type Problem,
  PROBLEM_TYPES,
  RateLimitError,
  ValidationError,
} from 'geolookup/extend';
export { NetworkError, TimeoutError, CLIENT_PROBLEM_TYPES } from './errors.js';
export { createClient, CLIENT_DEFAULTS } from './client.js';
export type {
  GeoLookupClient,
  ClientOperation,
  ExtensionMethods,
  ClientOptions,
  RemoteClientOptions,
  OfflineClientOptions,
  ClientResult,
  ClientLogger,
  Coordinate,
  RateLimitInfo,
} from './client.js';
export { LruCache, cacheKey } from './cache.js';
export type { ClientCache, CachedAnswer, MaybePromise } from './cache.js';
export { HEADERS } from './http.js';
export type { GeoLookup } from 'geolookup/extend';
