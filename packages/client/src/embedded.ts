// Loads the embedded engine (the geolookup library, with its dataset file) on first offline use.
// The specifier is a variable so that bundlers (tsup, webpack, Vite) leave the import alone: the
// client stays free of Node built-ins, and depends on geolookup only when used offline.

import type { GeoLookup } from '../../../src/lookup/engine.js';
import { GeoLookupError } from '../../../src/lookup/errors.js';

const NODE_ENTRY = 'geolookup';

export async function loadEmbeddedEngine(): Promise<GeoLookup> {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  if (typeof proc?.versions?.node !== 'string') {
    throw new GeoLookupError(
      'The offline client needs Node for the embedded dataset; elsewhere pass { offline: true, engine } with an engine from geolookup/browser.',
      500,
    );
  }
  const specifier = NODE_ENTRY;
  let mod: { preload(): GeoLookup };
  try {
    mod = await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new GeoLookupError('The offline client needs the geolookup package: npm install geolookup', 500, {
      cause: e,
    });
  }
  return mod.preload();
}
