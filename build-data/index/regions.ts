// Region ids: what a cell answers, one id per (country, subdivision) pair the data holds.
// 0 = no country; then per country in code order, (country, none) and its subdivisions in code order.

import { NO_SUBDIVISION16 } from '../../src/format/layout.js';
import type { Part } from '../sources/parts.js';

export interface Regions {
  /** Flat (country, subdivision) pairs, indexed by region id: the dataset's regions section. */
  list: number[];
  ids: Map<number, number>;
  /** Ids some cell answers. */
  used: Set<number>;
  /** Per country: whether any subdivision part belongs to it. */
  hasSubdivisions: boolean[];
}

export function createRegions(subdivisionParts: Part[], countryCount: number): Regions {
  const ids = new Map<number, number>();
  const list: number[] = [NO_SUBDIVISION16, NO_SUBDIVISION16];
  const subsOfCountry: number[][] = Array.from({ length: countryCount }, () => []);
  for (const p of subdivisionParts)
    if (p.subdivision >= 0 && !subsOfCountry[p.country].includes(p.subdivision))
      subsOfCountry[p.country].push(p.subdivision);
  for (let c = 0; c < countryCount; c++) {
    ids.set(c * 65536 + NO_SUBDIVISION16, list.length >> 1);
    list.push(c, NO_SUBDIVISION16);
    for (const s of subsOfCountry[c].sort((a, b) => a - b)) {
      ids.set(c * 65536 + s, list.length >> 1);
      list.push(c, s);
    }
  }
  return { list, ids, used: new Set(), hasSubdivisions: subsOfCountry.map((s) => s.length > 0) };
}

/** The id answering country c (-1: none) and subdivision s (-1: none), marked used. */
export function regionId(regions: Regions, c: number, s: number): number {
  const id = c < 0 ? 0 : regions.ids.get(c * 65536 + (s < 0 ? NO_SUBDIVISION16 : s))!;
  regions.used.add(id);
  return id;
}

/** Subdivisions some cell answers. */
export function usedSubdivisions(regions: Regions): number[] {
  return [...regions.used].map((r) => regions.list[2 * r + 1]).filter((s) => s !== NO_SUBDIVISION16);
}
