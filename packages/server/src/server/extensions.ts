// The operations a server answers: the contract's four on its dataset, and the operations of each
// extension geolookup's loader finds installed (geolookup/extend, docs/EXTENDING.md in geolookup).
// Without the package its routes are no routes: the 404 of any unknown path, no OpenAPI path, no
// metrics label. An extension that cannot answer over the server's dataset (its open() throws
// DataError: borders over the lite dataset) is logged and left out.

import { DataError, type GeoLookup } from 'geolookup';
import { CONTRACT_OPERATIONS, type Extension, findExtensions, openExtension, operationsOf } from 'geolookup/extend';
import { type Routed, routeTable } from './routes.js';

/** The operations a server answers: its routes (routes.ts) and the extensions behind them. */
export interface Operations extends Routed {
  /** The extensions answering here (their operations are in the OpenAPI document). */
  readonly extensions: readonly Extension[];
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
  extensions: readonly Extension[] = findExtensions(),
): Operations {
  const opened = extensions.flatMap((extension) => {
    try {
      return [{ extension, ...openExtension(extension, geo, embedded) }];
    } catch (e) {
      if (!(e instanceof DataError)) throw e;
      log(`geolookup: ${extension.name} is installed but not served over this dataset: ${e.message}`);
      return [];
    }
  });
  const table = routeTable(operationsOf(opened.map((o) => o.extension)));
  const byName = new Map(opened.map((o) => [o.extension.name, o]));
  const targets = table.ops.map((op) => (op.extension === undefined ? geo : byName.get(op.extension)!.target));
  return {
    table,
    targets,
    extensions: opened.map((o) => o.extension),
    etags: table.ops.map((op) => (op.extension === undefined ? etag : '')),
    meta: (op) => byName.get(table.ops[op].extension!)!.info(),
  };
}

/** The contract's routes alone (a server with no extension). */
export const CONTRACT_TABLE = routeTable(CONTRACT_OPERATIONS);
