// Package entry `geolookup/client`: the client for a remote Geolocation Lookup Service or the
// embedded engine. Imports no Node built-ins (the offline engine is loaded lazily).

export * from './errors.js';
export { NetworkError, TimeoutError, CLIENT_PROBLEM_TYPES } from './client/errors.js';
export { createClient, CLIENT_DEFAULTS } from './client/client.js';
export type {
  GeoLookupClient, ClientOptions, RemoteClientOptions, OfflineClientOptions, ClientResult, ClientLogger, Coordinate, RateLimitInfo,
} from './client/client.js';
export { LruCache, cacheKey } from './client/cache.js';
export type { ClientCache, CachedAnswer, MaybePromise } from './client/cache.js';
export { HEADERS } from './client/http.js';
export type { GeoLookup } from './engine.js';
