// deleted-codes.json: ISO 3166-2 codes that are no longer current (deleted, recoded, merged or
// split), each with the code(s) that took its place. The build leaves them out of the code tables,
// so no source outline can answer one, and writes them into the dataset, where isInSubdivision
// turns them into a ValidationError naming the successor (src/lookup/deleted-codes.ts).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeletedSubdivision } from '../../src/format/dataset.js';

export interface DeletedCodes {
  reference: string;
  source: string;
  deleted: Record<string, DeletedSubdivision>;
}

export function readDeletedCodes(policyDir: string): DeletedCodes {
  return JSON.parse(readFileSync(join(policyDir, 'deleted-codes.json'), 'utf8'));
}

/**
 * Every code a dataset answers must be current in both references: the pinned list (the code
 * tables hold nothing else) and Debian's iso-codes, unless policy.json `currentNotInIsoCodes`
 * reviewed it (a code newer than the installed iso-codes). Returns the offending codes.
 */
export function uncheckedCodes(answered: string[], isoCodes: Set<string>, reviewed: Record<string, string>): string[] {
  return answered.filter((c) => !isoCodes.has(c) && reviewed[c] === undefined).sort();
}
