// The operations a server answers: the contract's four on its dataset, and each operation beyond
// the contract (a row of OPERATIONS with an `extension`) when its package is installed beside
// @geolookup/server (an optional peer dependency). Without the package its route is no route: the
// 404 of any unknown path, no OpenAPI path, the metrics label `other`.
//
// The package is required when a server is created, by a variable specifier (bundlers and tsup
// leave it alone) and as CommonJS (createServer stays synchronous; Node caches it, one copy per
// process). Its dataset loads on its first lookup, the package's own rule, so a server never asked
// for a time zone never reads it.

import { createRequire } from 'node:module';
import { type GeoLookup, OPERATIONS, type Operation, type OperationTarget } from 'geolookup';
import { datasetEtag } from './responses.js';

export type Extension = NonNullable<Operation['extension']>;

/** Every extension package, each with its function answering its dataset's metadata (the ETag's source). */
const PACKAGES: Record<Extension, { datasetInfo: string }> = {
  '@geolookup/timezones': { datasetInfo: 'timeZoneDatasetInfo' },
  '@geolookup/borders': { datasetInfo: 'bordersDatasetInfo' },
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

/** The operations a server over `geo` (whose answers carry `etag`) answers. */
export function loadOperations(geo: GeoLookup, etag: string): Operations {
  const modules = new Map<Extension, Record<string, unknown> | null>();
  const moduleOf = (pkg: Extension) => {
    if (!modules.has(pkg)) modules.set(pkg, load(pkg));
    return modules.get(pkg)!;
  };
  const targets = OPERATIONS.map((op): OperationTarget | null => {
    if (op.extension === undefined) return geo;
    const mod = moduleOf(op.extension);
    if (mod === null) return null;
    if (typeof mod[op.id] !== 'function' || typeof mod[PACKAGES[op.extension].datasetInfo] !== 'function')
      throw new Error(`${op.extension} has no ${op.id}: install the version made for this @geolookup/server`);
    return mod as unknown as OperationTarget;
  });
  const extensions = EXTENSIONS.filter((pkg) => OPERATIONS.some((op, i) => op.extension === pkg && targets[i]));
  const etags = OPERATIONS.map((op) => (op.extension === undefined ? etag : ''));
  return {
    targets,
    extensions,
    etag(op) {
      let tag = etags[op];
      if (tag === '') {
        const pkg = OPERATIONS[op].extension!;
        const info = moduleOf(pkg)![PACKAGES[pkg].datasetInfo] as () => unknown;
        tag = etags[op] = datasetEtag({ meta: info() });
      }
      return tag;
    },
  };
}
