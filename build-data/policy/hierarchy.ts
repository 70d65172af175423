// The ISO 3166-2 parent links: the pinned iso-3166 package says which codes exist, Debian's
// iso-codes completes their parents (it links GB districts to England, Belgian provinces to their
// region). Every iso-codes link not taken is logged with its reason for the data report.

import type { IsoCodesEntry } from '../sources/iso-codes.js';
import type { ParentLinks } from './parent-links.js';

export interface NotAdopted {
  code: string;
  /** iso-codes' parent: a full code, or the country's alpha-2. */
  isoCodes: string;
  ours: string;
  reason: string;
}

export interface Hierarchy {
  /** Every pinned code's parent after reconciliation. */
  parents: Map<string, string>;
  /** Codes whose parent changed to iso-codes'. */
  adopted: string[];
  /** Codes on which both references agree. */
  agreed: number;
  notAdopted: NotAdopted[];
  /** iso-codes codes the pinned reference does not have: none of their links is taken. */
  notInPinned: string[];
  /** Pinned codes iso-codes does not list: their parent stays the pinned one. */
  notInIsoCodes: string[];
}

export const REASONS = {
  noParent: 'iso-codes names no parent; a missing link does not contradict ours',
  parentUnknown: 'iso-codes parent is not in the pinned reference',
  finer: "ours is finer: it lies within iso-codes' parent",
  cycle: 'adopting it would form a cycle',
} as const;

/** Whether `ancestor` is on the chain above `code` (the country's alpha-2 ends every chain). */
function above(parents: Map<string, string>, code: string, ancestor: string): boolean {
  for (let p = parents.get(code); p !== undefined; p = parents.get(p)) if (p === ancestor) return true;
  return false;
}

function decide(code: string, ic: string, parents: Map<string, string>): string | null {
  const country = code.slice(0, 2);
  if (ic === country) return REASONS.noParent;
  if (!parents.has(ic)) return REASONS.parentUnknown;
  if (above(parents, code, ic)) return REASONS.finer;
  if (ic === code || above(parents, ic, code)) return REASONS.cycle;
  return null;
}

/**
 * Codes in both references take iso-codes' parent where it names a pinned code, unless it would
 * close a cycle or ours already lies within it (FR-67 in FR-6AE in FR-GES, where iso-codes lacks
 * FR-6AE). Decided in code order against the links taken so far, so the result is deterministic.
 */
export function reconcileHierarchy(pinned: { code: string; parent: string }[], isoCodes: IsoCodesEntry[]): Hierarchy {
  const parents = new Map(pinned.map((s) => [s.code, s.parent]));
  const theirs = new Map(isoCodes.map((e) => [e.code, e.parent]));
  const h: Hierarchy = { parents, adopted: [], agreed: 0, notAdopted: [], notInPinned: [], notInIsoCodes: [] };
  for (const code of [...parents.keys()].sort()) {
    const ic = theirs.get(code);
    const ours = parents.get(code)!;
    if (ic === undefined) h.notInIsoCodes.push(code);
    else if (ic === ours) h.agreed++;
    else {
      const reason = decide(code, ic, parents);
      if (reason) h.notAdopted.push({ code, isoCodes: ic, ours, reason });
      else {
        parents.set(code, ic);
        h.adopted.push(code);
      }
    }
  }
  h.notInPinned = [...theirs.keys()].filter((c) => !parents.has(c)).sort();
  return h;
}

/**
 * The build's parent links: the pinned ones with the policy's frozen iso-codes links reconciled in,
 * then its ground links, which override both references (parent-links.json). A ground link to an
 * unknown code or one closing a cycle stops the build.
 */
export function policyHierarchy(pinned: { code: string; parent: string }[], links: ParentLinks): Hierarchy {
  const frozen = Object.entries(links.isoCodes).map(([code, parent]) => ({ code, parent }));
  const h = reconcileHierarchy(pinned, frozen);
  for (const [code, g] of Object.entries(links.ground)) {
    if (!h.parents.has(code) || !(h.parents.has(g.parent) || g.parent === code.slice(0, 2)))
      throw new Error(`parent-links.json: ground link ${code} → ${g.parent} names a code the pinned list lacks`);
    if (g.parent === code || above(h.parents, g.parent, code))
      throw new Error(`parent-links.json: ground link ${code} → ${g.parent} closes a cycle`);
    h.parents.set(code, g.parent);
  }
  return h;
}
