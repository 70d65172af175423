// Loads the embedded engine (the geolookup library, with its dataset file) on first offline use,
// and an extension package (@geolookup/timezones) on the first offline call of its operation.
// The specifiers are variables so that bundlers (tsup, webpack, Vite) leave the imports alone: the
// client stays free of Node built-ins, and depends on these packages only when used offline.

import type { GeoLookup } from '../../../src/lookup/engine.js';
import { GeoLookupError } from '../../../src/lookup/errors.js';
import type { Operation, OperationTarget } from '../../../src/operations.js';

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
 * The packages whose answers are measured on the lookup dataset: their functions making their
 * lookup over a given GeoLookup, and naming their data file.
 */
const PAIRED: Record<string, { create: string; dataPath: string }> = {
  '@geolookup/borders': { create: 'createBorderLookup', dataPath: 'bordersDataPath' },
};

/**
 * What answers `op`, an operation beyond the service's contract: the Node entry of its package,
 * which answers from its own dataset (@geolookup/timezones, whatever the engine). A package that
 * measures on the lookup dataset (@geolookup/borders) is paired with `engine` when the client was
 * given one (its DataError when they do not pair: the lite dataset), else uses its own pair on the
 * embedded dataset.
 */
export async function loadExtension(
  op: Operation & { extension: string },
  engine?: () => Promise<GeoLookup>,
): Promise<OperationTarget> {
  const pkg = op.extension;
  if (!isNode()) {
    throw new GeoLookupError(
      `The offline client's ${op.id} needs Node (${pkg} reads its dataset from disk); elsewhere use a remote client.`,
      500,
    );
  }
  const specifier = pkg;
  const mod = await importPackage<OperationTarget & Record<string, unknown>>(
    specifier,
    (missing) =>
      `The offline client's ${op.id} needs the ${missing} package` +
      `${missing === pkg ? ' (an extension, beyond the service contract)' : ''}: npm install ${missing}`,
  );
  const pair = PAIRED[pkg];
  if (pair === undefined || engine === undefined) return mod;
  const create = mod[pair.create] as (o: { geo: GeoLookup; data: string }) => OperationTarget;
  return create({ geo: await engine(), data: (mod[pair.dataPath] as () => string)() });
}
