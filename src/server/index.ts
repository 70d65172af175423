// The `geolookup/server` entry: the self-hosted HTTP service (docs/SERVER.md).
export * from './server.js';
