// policy.json: the reviewed decisions the build applies to the sources (each entry carries its reason).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeFactoWhere } from '../../src/format/dataset.js';

export type FillRule = string | { code: string; within: [number, number, number, number] };

export interface Policy {
  fillCountryHoles: boolean;
  /** Reassign a sovereign's sea part to the territory whose land it surrounds (sea-follows-land.ts). */
  seaFollowsLand?: boolean;
  /** Sovereign → territories beyond those the alias table implies. */
  seaFollowsLandExtra?: Record<string, string[]>;
  noCountry: Record<string, string>;
  /** Natural Earth admin-1 features (by adm1_code) whose outline is land no OSM country polygon holds. */
  landFromAdmin1?: Record<string, { country: string; name: string }>;
  /**
   * Per alpha-2, Natural Earth code → the code its area answers where OSM's outlines leave a unit
   * out; with `within` ([west, south, east, north]), only its area inside that box answers, so
   * a list of boxed rules splits one older unit between the units cut from it.
   */
  osmFill?: Record<string, Record<string, FillRule | FillRule[]>>;
  /** Per alpha-2, how far (km) the nearest-subdivision fill reaches, where not the build's gapKm (index/coastal-gaps.ts). */
  gapKm?: Record<string, number>;
  /** OSM codes whose conflict with Natural Earth was reviewed: OSM is right (policy/subdivision-source.ts). */
  osmConflictsReviewed?: Record<string, string>;
  /** Per alpha-2: OSM's outlines (with fills) are reviewed to be the better source whatever the scores say. */
  osmSourceReviewed?: Record<string, string>;
  /** Codes the build may answer although Debian's iso-codes lacks them (newer than it), each with its reason. */
  currentNotInIsoCodes?: Record<string, string>;
  userAssigned: Record<string, { alpha2: string; name: string; reason: string }>;
  aliases: Record<string, string>;
  disputes: { area: string; at: [number, number]; winner: string; over: string; reason: string }[];
  /** Areas another party administers or claims, for the playground's rule line (policy/de-facto.ts). */
  deFacto?: DeFactoPolicy[];
}

/** A de facto area as policy.json writes it: where is how the area is told (DeFactoArea in the format). */
export interface DeFactoPolicy {
  area: string;
  /** [lon, lat] inside the area, where the dataset must answer `answer`. */
  at: [number, number];
  answer: string;
  where: Omit<DeFactoWhere, 'outline' | 'source'> & { naturalEarth?: string };
  administeredBy: string;
  reason: string;
}

export function readPolicy(policyDir: string): Policy {
  return JSON.parse(readFileSync(join(policyDir, 'policy.json'), 'utf8'));
}
