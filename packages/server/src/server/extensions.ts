// The operations a server answers: the contract's four on its dataset, and each operation beyond
// the contract (a row of OPERATIONS with an `extension`) when its package is installed beside
// @geolookup/server (an optional peer dependency). Without the package its route is no route: the
// 404 of any unknown path, no OpenAPI path, the metrics label `other`.
//
// The package is required when a server is created, by a variable specifier (bundlers and tsup
// leave it alone) and as CommonJS (createServer stays synchronous; Node caches it, one copy per
// process). Its dataset loads on its first lookup, the package's own rule, so a server never asked
// for a time zone never reads it. A package that measures on the lookup dataset (@geolookup/borders)
// answers from its own pair on the embedded dataset; over any other dataset the server pairs it
// with that one when created, and has none of its routes where they do not pair (the lite dataset).

import { createRequire } from 'node:module';
import { DataError, type GeoLookup, OPERATIONS, type Operation, type OperationTarget } from 'geolookup';
import { datasetEtag } from './responses.js';

export type Extension = NonNullable<Operation['extension']>;

interface Package {
  /** Its function answering its dataset's metadata (the ETag's source). */
  datasetInfo: string;
  /**
   * A package whose answers are measured on the lookup dataset: its functions making its lookup over
   * a given GeoLookup (answering `meta`) and naming its data file.
   */
  pair?: { create: string; dataPath: string };
}

/** Every extension package. */
const PACKAGES: Record<Extension, Package> = {
  '@geolookup/timezones': { datasetInfo: 'timeZoneDatasetInfo' },
  '@geolookup/borders': {
    datasetInfo: 'bordersDatasetInfo',
    pair: { create: 'createBorderLookup', dataPath: 'bordersDataPath' },
  },
};

export const EXTENSIONS = Object.keys(PACKAGES) as readonly Extension[];

export interface Operations {
  /** By OPERATIONS index: what callOperation runs the operation on, or null: this server has no such route. */
  readonly targets: readonly (OperationTarget | null)[];
  /** The extension packages installed (their operations are in the OpenAPI document). */
  readonly extensions: readonly Extension[];
  /**
   * By OPERATIONS index: the ETag of the operation's answers. The contract's name the server's
   * dataset (server.etag); an extension's name its own dataset, read at its first use.
   */
  etag(op: number): string;
}

const here = createRequire(typeof import.meta.url === 'string' ? import.meta.url : __filename);

/**
 * The package's CommonJS entry, or null when it is not installed; anything else (a dependency of
 * it missing, a broken build) is thrown as it is: an installed extension must not vanish quietly.
 */
function load(pkg: Extension): Record<string, unknown> | null {
  const specifier: string = pkg;
  try {
    return here(specifier) as Record<string, unknown>;
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown };
    const first = String(err?.message ?? '').split('\n')[0];
    if (err?.code === 'MODULE_NOT_FOUND' && first === `Cannot find module '${pkg}'`) return null;
    throw e;
  }
}

/** What answers a package's operations, and its dataset's metadata; null: no such routes. */
interface Loaded {
  target: OperationTarget;
  info: () => unknown;
}

/**
 * The package's operations on this server. `embedded`: the server answers from the embedded
 * dataset, the one a paired package's own lookup measures on; otherwise such a package is paired
 * with `geo` now, and a pair it refuses (DataError: the lite dataset, another dataset) is logged
 * and leaves the server without its routes.
 */
function loadPackage(pkg: Extension, geo: GeoLookup, embedded: boolean, log: (line: string) => void): Loaded | null {
  const mod = load(pkg);
  if (mod === null) return null;
  const { datasetInfo, pair } = PACKAGES[pkg];
  for (const name of [datasetInfo, ...OPERATIONS.filter((op) => op.extension === pkg).map((op) => op.id)])
    if (typeof mod[name] !== 'function')
      throw new Error(`${pkg} has no ${name}: install the version made for this @geolookup/server`);
  if (pair === undefined || embedded)
    return { target: mod as unknown as OperationTarget, info: mod[datasetInfo] as () => unknown };
  const create = mod[pair.create] as (o: { geo: GeoLookup; data: string }) => OperationTarget & { meta: unknown };
  try {
    const target = create({ geo, data: (mod[pair.dataPath] as () => string)() });
    return { target, info: () => target.meta };
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    log(`geolookup: ${pkg} is installed but not served over this dataset: ${e.message}`);
    return null;
  }
}

/**
 * The operations a server over `geo` (whose answers carry `etag`) answers; `embedded`: `geo` is
 * the embedded world dataset (no `data` or `lookup` option, no $GEOLOOKUP_DATA: state.ts).
 */
export function loadOperations(
  geo: GeoLookup,
  etag: string,
  embedded = true,
  log: (line: string) => void = () => {},
): Operations {
  const loaded = new Map(
    EXTENSIONS.filter((pkg) => OPERATIONS.some((op) => op.extension === pkg)).map((pkg) => [
      pkg,
      loadPackage(pkg, geo, embedded, log),
    ]),
  );
  const targets = OPERATIONS.map((op) =>
    op.extension === undefined ? geo : (loaded.get(op.extension)?.target ?? null),
  );
  const extensions = EXTENSIONS.filter((pkg) => loaded.get(pkg));
  const etags = OPERATIONS.map((op) => (op.extension === undefined ? etag : ''));
  return {
    targets,
    extensions,
    etag(op) {
      let tag = etags[op];
      if (tag === '') tag = etags[op] = datasetEtag({ meta: loaded.get(OPERATIONS[op].extension!)!.info() });
      return tag;
    },
  };
}
