// @geolookup/server: the self-hosted HTTP service over the geolookup library (docs/SERVER.md).
export * from './server/server.js';
