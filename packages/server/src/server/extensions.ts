// The operations a server answers: the contract's four on its dataset, and the operations of each
// extension geolookup's loader finds installed (geolookup/extend, docs/EXTENDING.md in geolookup).
// Without the package its routes are no routes: the 404 of any unknown path, no OpenAPI path, no
// metrics label. An extension that cannot answer over the server's dataset (its open() throws
// DataError: borders over the lite dataset) is logged and left out.

import { DataError, type GeoLookup } from 'geolookup';
import {
  CONTRACT_OPERATIONS,
  type Extension,
  findExtensions,
  type OperationTarget,
  openExtension,
  operationsOf,
} from 'geolookup/extend';
import { datasetEtag } from './responses.js';
import { type RouteTable, routeTable } from './routes.js';

export interface Operations {
  /** The routes of the operations this server answers. */
  readonly table: RouteTable;
  /** By table.ops index: what callOperation runs the operation on. */
  readonly targets: readonly OperationTarget[];
  /** The extensions answering here (their operations are in the OpenAPI document). */
  readonly extensions: readonly Extension[];
  /**
   * By table.ops index: the ETag of the operation's answers. The contract's name the server's
   * dataset (server.etag); an extension's name its own data, read at its first use.
   */
  etag(op: number): string;
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
  const etags = table.ops.map((op) => (op.extension === undefined ? etag : ''));
  return {
    table,
    targets,
    extensions: opened.map((o) => o.extension),
    etag(op) {
      let tag = etags[op];
      if (tag === '') tag = etags[op] = datasetEtag({ meta: byName.get(table.ops[op].extension!)!.info() });
      return tag;
    },
  };
}

/** The contract's routes alone (a server with no extension). */
export const CONTRACT_TABLE = routeTable(CONTRACT_OPERATIONS);
