// Loads the embedded engine (the Node entry, with its dataset file) on first offline use.
// The specifier is a variable so that bundlers (tsup, webpack, Vite) leave the import alone:
// the client stays free of Node built-ins. '../index.js' is right both from src/client/ and
// from the built dist/client/ (the package entry `geolookup/client` is dist/client/index.js).

import type { GeoLookup } from '../lookup/engine.js';
import { GeoLookupError } from '../lookup/errors.js';

const NODE_ENTRY = '../index.js';

export async function loadEmbeddedEngine(): Promise<GeoLookup> {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  if (typeof proc?.versions?.node !== 'string') {
    throw new GeoLookupError(
      'The offline client needs Node for the embedded dataset; elsewhere pass { offline: true, engine } with an engine from geolookup/browser.',
      500,
    );
  }
  const specifier = NODE_ENTRY;
  const mod = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as { preload(): GeoLookup };
  return mod.preload();
}
