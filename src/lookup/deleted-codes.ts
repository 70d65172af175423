// ISO 3166-2 codes ISO no longer lists (the dataset's deletedSubdivisions): isInSubdivision refuses
// them as bad input naming the code that replaced them, rather than answering from a stale outline
// or calling a code users copied from an older list unknown.

import type { DatasetMeta, DeletedSubdivision } from '../format/dataset.js';
import type { ValidationError } from './errors.js';
import { codeError } from './validate.js';

/** The field error for a deleted code: what it was, what replaced it, and why. */
export function deletedProblem(code: string, d: DeletedSubdivision): string {
  const use =
    d.successors.length === 0
      ? 'no code replaced it'
      : d.successors.length === 1
        ? `use "${d.successors[0]}"`
        : `use one of ${d.successors.map((s) => `"${s}"`).join(', ')}`;
  return `subdivisionCode "${code}" (${d.name}) is no longer an ISO 3166-2 code: ${use} (${d.change})`;
}

/** The ValidationError for `upper` when the dataset lists it as deleted, else null. */
export function deletedCodeError(meta: DatasetMeta, upper: string, lat: unknown, lon: unknown): ValidationError | null {
  const table = meta.deletedSubdivisions;
  const d = table && Object.hasOwn(table, upper) ? table[upper] : undefined;
  return d ? codeError('subdivisionCode', deletedProblem(upper, d), lat, lon) : null;
}
