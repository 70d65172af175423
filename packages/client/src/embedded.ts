// Loads the embedded engine (the geolookup library, with its dataset file) on first offline use,
// and an extension on the first offline call of one of its operations.
// The specifiers are variables so that bundlers (tsup, webpack, Vite) leave the imports alone: the
// client stays free of Node built-ins, and depends on these packages only when used offline.

import { type Extension, type GeoLookup, GeoLookupError, openExtension } from 'geolookup/extend';

const NODE_ENTRY = 'geolookup';

function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}

/** The package a failed import could not find: the one named in its message, else `specifier`. */
function missingPackage(e: unknown, specifier: string): string {
  const named = /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/']+)/.exec(String((e as Error)?.message ?? ''));
  return named?.[1] ?? specifier;
}

async function importPackage<T>(specifier: string, missing: (pkg: string) => string): Promise<T> {
  try {
    return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as T;
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new GeoLookupError(missing(missingPackage(e, specifier)), 500, { cause: e });
  }
}

export async function loadEmbeddedEngine(): Promise<GeoLookup> {
  if (!isNode()) {
    throw new GeoLookupError(
      'The offline client needs Node for the embedded dataset; elsewhere pass { offline: true, engine } with an engine from geolookup/browser.',
      500,
    );
  }
  const mod = await importPackage<{ preload(): GeoLookup }>(
    NODE_ENTRY,
    (pkg) => `The offline client needs the ${pkg} package: npm install ${pkg}`,
  );
  return mod.preload();
}

/**
 * What answers an extension's operations offline: the extension opened (geolookup/extend's
 * openExtension) over `engine` when the client was given one (its DataError when they do not pair:
 * borders over the lite dataset), else over the embedded dataset.
 */
export async function loadExtension(extension: Extension, engine: () => Promise<GeoLookup>, embedded: boolean) {
  if (!isNode()) {
    throw new GeoLookupError(
      `The offline client's ${extension.name} operations need Node (it reads its data from disk); elsewhere use a remote client.`,
      500,
    );
  }
  return openExtension(extension, await engine(), embedded).target;
}
