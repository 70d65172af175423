// An extension declares itself with one descriptor: its operations and how it opens over a core
// lookup. The descriptor module loads no dataset (a remote client uses its operations alone); open
// loads the package's entry and data when a front end first needs them. docs/EXTENDING.md.

import type { GeoLookup } from '../lookup/engine.js';
import { CONTRACT_OPERATIONS, type Operation, type OperationTarget } from './operations.js';

export interface ExtensionContext {
  /** The core lookup the front end answers with. */
  readonly geo: GeoLookup;
  /** geo is the embedded world dataset (no --data, no `data` option, no $GEOLOOKUP_DATA). */
  readonly embedded: boolean;
  /** The package's Node entry (CommonJS, so open stays synchronous), required on this call. */
  readonly entry: () => Record<string, unknown>;
}

export interface OpenedExtension {
  /** A method per operation id, as its Operation describes it. */
  readonly target: OperationTarget;
  /** The metadata of the data it answers from (sources, versions): the server's ETag, `--version`. */
  info(): unknown;
}

export interface Extension {
  /** The package's name as npm installs it; each operation's `extension`. */
  readonly name: string;
  readonly operations: readonly Operation[];
  /**
   * What answers the operations over `context.geo`. A DataError when the extension cannot answer
   * over that dataset (its data drawn from another); front ends then leave its operations out.
   */
  open(context: ExtensionContext): OpenedExtension;
  /** Columns it adds to `geolookup batch`, if any. */
  readonly batch?: BatchColumns;
}

/**
 * The descriptor checked and its operations stamped with its name: a TypeError naming the package
 * and the field for a descriptor this core cannot use (another version's).
 */
export function checkExtension(value: unknown, where: string): Extension {
  const e = value as Extension;
  const bad = (what: string) => new TypeError(`${where}: not a geolookup extension descriptor (${what})`);
  if (typeof e?.name !== 'string' || e.name === '') throw bad('no name');
  if (!Array.isArray(e.operations) || e.operations.length === 0) throw bad('no operations');
  if (typeof e.open !== 'function') throw bad('no open()');
  for (const op of e.operations)
    for (const field of ['id', 'command', 'path', 'summary', 'answer'] as const)
      if (typeof op?.[field] !== 'string') throw bad(`an operation without ${field}`);
  return { ...e, operations: e.operations.map((op) => ({ ...op, extension: e.name })) };
}

/**
 * The contract's operations, then each extension's in the given order: a TypeError when two claim
 * the same id, command or route (the one table every front end iterates).
 */
export function operationsOf(extensions: readonly Extension[]): readonly Operation[] {
  const ops = [...CONTRACT_OPERATIONS, ...extensions.flatMap((e) => e.operations)];
  for (const key of ['id', 'command', 'path'] as const) {
    const seen = new Map<string, Operation>();
    for (const op of ops) {
      const other = seen.get(op[key]);
      if (other)
        throw new TypeError(
          `${op.extension ?? 'geolookup'} and ${other.extension ?? 'geolookup'} both declare the ${key} "${op[key]}"`,
        );
      seen.set(op[key], op);
    }
  }
  return ops;
}

// What an extension adds to `geolookup batch`: its flags, the columns they ask for, and in each
// worker the values of those columns at a row's point (src/batch/extension-cells.ts writes them).

export interface BatchOption {
  /** The flag without its dashes: 'timezone', 'max-km'. */
  readonly flag: string;
  readonly help: string;
  /** Its value's placeholder ('KM'); absent: a flag without a value. */
  readonly value?: string;
}

/** The batch's own options and the extensions' as given: plain data, sent to every worker. */
export type BatchValues = Readonly<Record<string, string | boolean | undefined>>;

/** A cell: text, a number, a list of codes, or null (empty in CSV, null in NDJSON). */
export type BatchValue = string | number | readonly string[] | null;

export interface BatchColumns {
  readonly options: readonly BatchOption[];
  /**
   * The columns `values` ask for, after the core's answer columns (`fields`), or [] when none; or,
   * for a bad value, what is wrong, naming the flag (a usage error: exit 2 before any input is read).
   */
  columns(values: BatchValues, fields: readonly ('country' | 'subdivision')[]): readonly string[] | string;
  /**
   * Once in each worker: the row's values of those columns at a valid point, in their order. The
   * array is read before the next call: a row function may fill and return the same one each time.
   */
  rows(
    opened: OpenedExtension,
    values: BatchValues,
    fields: readonly ('country' | 'subdivision')[],
  ): (latitude: number, longitude: number) => readonly BatchValue[];
}
