// parent-links.json: the ISO 3166-2 parent links the pinned iso-3166 package leaves at the country
// or gets wrong, as Debian's iso-codes gives them (frozen here, so a build needs no system package),
// plus reviewed links that follow the ground where both references lag. Debian's file, when it is
// installed, is a second check only (test/data/hierarchy.test.ts): its absence changes no byte.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { iso31662 } from 'iso-3166';
import { readIsoCodes } from '../sources/iso-codes.js';
import { type Hierarchy, reconcileHierarchy } from './hierarchy.js';

export const PARENT_LINKS_JSON = join(dirname(fileURLToPath(import.meta.url)), 'parent-links.json');

export interface GroundLink {
  parent: string;
  /** What the pinned references say instead. */
  references: string;
  source: string;
  since: string;
}

export interface ParentLinks {
  /** The iso-codes release the `isoCodes` links were frozen from, and its date. */
  isoCodesVersion: string;
  isoCodesDate: string;
  note: string;
  /** code → parent: each link iso-codes gives that reconciliation adopted (policy/hierarchy.ts). */
  isoCodes: Record<string, string>;
  /** code → the parent on the ground, applied after reconciliation, with its source. */
  ground: Record<string, GroundLink>;
}

export function readParentLinks(path = PARENT_LINKS_JSON): ParentLinks {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The adopted links of a reconciliation, as `isoCodes` holds them. */
export function adoptedLinks(h: Hierarchy): Record<string, string> {
  return Object.fromEntries(h.adopted.map((code) => [code, h.parents.get(code)!]));
}

/** The links the installed iso-codes would give: what `isoCodes` must equal (the hierarchy test). */
export function isoCodesLinks(isoCodesJson?: string): Record<string, string> {
  return adoptedLinks(reconcileHierarchy(iso31662, readIsoCodes(isoCodesJson)));
}

// `node --import tsx build-data/policy/parent-links.ts VERSION DATE` refreezes `isoCodes` from
// the installed iso-codes, keeping the reviewed ground links.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [version, date] = process.argv.slice(2);
  if (!version || !date) throw new Error('usage: parent-links.ts ISO_CODES_VERSION YYYY-MM-DD');
  const old = readParentLinks();
  const next: ParentLinks = { ...old, isoCodesVersion: version, isoCodesDate: date, isoCodes: isoCodesLinks() };
  writeFileSync(PARENT_LINKS_JSON, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`${Object.keys(next.isoCodes).length} links frozen from iso-codes ${version}`);
}
