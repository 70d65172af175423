// What an extension adds to `geolookup batch`: its flags, the columns they ask for, and in each
// worker the values of those columns at a row's point (src/batch/extensions.ts writes them).

import type { OpenedExtension } from './extension.js';

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
  /** Once in each worker: the row's values of those columns at a valid point, in their order. */
  rows(
    opened: OpenedExtension,
    values: BatchValues,
    fields: readonly ('country' | 'subdivision')[],
  ): (latitude: number, longitude: number) => readonly BatchValue[];
}
