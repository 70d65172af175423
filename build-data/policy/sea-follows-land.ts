// policy seaFollowsLand: OSM's maritime polygons include the land they surround, and a sovereign's
// polygon may hold a territory's island group whole (France's around Guadeloupe). A sea part goes
// to the territory with the most land inside it, so an island group and its waters share one code.

import type { CountryInfo } from '../../src/format/dataset.js';
import { partContains } from '../index/clip.js';
import type { Part } from '../sources/parts.js';
import type { Policy } from './policy.js';

export interface SeaReassigned {
  from: string;
  to: string;
  parts: number;
  landDeg2: number;
}

/**
 * "SOV>TERRITORY" pairs a sea part may move along: only a sovereign's sea, only to its own
 * territories, which the alias table names (FR-971 → GLP) plus the policy's extra pairs.
 */
export function territoryPairs(
  policy: Policy,
  countries: CountryInfo[],
  alpha2Index: Map<string, number>,
): Set<string> {
  const pairs = new Set<string>(
    Object.entries(policy.seaFollowsLandExtra ?? {}).flatMap(([sov, ts]) => ts.map((t) => `${sov}>${t}`)),
  );
  for (const [code, territory] of Object.entries(policy.aliases)) {
    const sov = countries[alpha2Index.get(code.slice(0, 2)) ?? -1]?.code;
    if (sov) pairs.add(`${sov}>${territory}`);
  }
  return pairs;
}

/**
 * Moves each sea part to the country with the most land inside it when that is a territory of the
 * part's own country (never a neighbour: the small parts along land borders stay). Land inside is
 * tested by one vertex of each land part's outer ring, since these polygons include the coastline.
 */
export function seaFollowsLand(
  seaParts: Part[],
  landParts: Part[],
  countries: { code: string }[],
  pairs: Set<string>,
): SeaReassigned[] {
  const moved = new Map<string, SeaReassigned>();
  for (const sea of seaParts) {
    const landIn = new Map<number, number>();
    for (const l of landParts) {
      const b = l.bbox;
      if (b.x0 < sea.bbox.x0 || b.x1 > sea.bbox.x1 || b.y0 < sea.bbox.y0 || b.y1 > sea.bbox.y1) continue;
      if (partContains(sea.rings, l.rings[0][0], l.rings[0][1]))
        landIn.set(l.country, (landIn.get(l.country) ?? 0) + l.area);
    }
    // Ties keep the part's own country (strictly more land is needed to move it).
    let best = sea.country;
    let bestArea = landIn.get(best) ?? 0;
    for (const [c, a] of landIn) if (a > bestArea) [best, bestArea] = [c, a];
    if (best === sea.country || !pairs.has(`${countries[sea.country].code}>${countries[best].code}`)) continue;
    const key = `${sea.country}>${best}`;
    const m = moved.get(key) ?? { from: countries[sea.country].code, to: countries[best].code, parts: 0, landDeg2: 0 };
    m.parts++;
    m.landDeg2 += landIn.get(best)!;
    moved.set(key, m);
    sea.country = best;
  }
  return [...moved.values()].sort((a, b) => (a.from + a.to).localeCompare(b.from + b.to));
}
