// Overlap order: a point takes the answer of the lowest-ranked part holding it.

import type { SubdivisionInfo } from '../../src/format/dataset.js';
import type { Part } from '../sources/parts.js';

/** Numbers parts offset, offset + 1, … in `cmp` order; ties keep input order, so ranks are total. */
export function assignRanks(parts: Part[], cmp: (a: Part, b: Part) => number, offset = 0): void {
  const order = parts.map((_p, i) => i).sort((a, b) => cmp(parts[a], parts[b]) || a - b);
  for (let r = 0; r < order.length; r++) parts[order[r]].rank = offset + r;
}

/**
 * Smaller areas first (enclaves win); at equal area the deeper code, for a parent outline may
 * reuse its child's very polygon (England's Isles of Scilly: test/data/osm-subdivisions.test.ts);
 * then by key, so the order is total.
 */
export function areaOrder(key: (p: Part) => string, depth: (p: Part) => number = () => 0) {
  return (a: Part, b: Part) =>
    a.area - b.area || depth(b) - depth(a) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

export function rankByArea(parts: Part[], key: (p: Part) => string, depth?: (p: Part) => number): void {
  assignRanks(parts, areaOrder(key, depth));
}

/** A subdivision part's depth in the ISO hierarchy (a country's direct subdivisions are 1; uncoded 0). */
export function subdivisionDepth(subdivisions: SubdivisionInfo[], index: Map<string, number>): (p: Part) => number {
  const memo = new Map<number, number>();
  const depth = (s: number): number => {
    let d = memo.get(s);
    if (d === undefined) {
      const up = index.get(subdivisions[s].parent);
      memo.set(s, (d = up === undefined ? 1 : depth(up) + 1));
    }
    return d;
  };
  return (p) => (p.subdivision < 0 ? 0 : depth(p.subdivision));
}

/**
 * Sea parts rank after every land part, so sea answers only where no land does. Among sea parts
 * the country with less land wins: a territory's waters inside its sovereign's (Svalbard in
 * Norway's), and the land policy's answer in disputed waters (Crimea, Western Sahara).
 */
export function rankSeaAfterLand(seaParts: Part[], landParts: Part[]): void {
  const landArea = new Map<number, number>();
  for (const p of landParts) landArea.set(p.country, (landArea.get(p.country) ?? 0) + p.area);
  const land = (p: Part) => landArea.get(p.country) ?? 0;
  assignRanks(seaParts, (a, b) => land(a) - land(b) || a.area - b.area || a.country - b.country, landParts.length);
  for (const p of seaParts) p.sea = true;
}

/**
 * A patch's parts (sources/hans-island.ts) rank after every land and sea part, so they answer only
 * where neither does; they count as sea, so land covering a cell drops them (index/layers.ts).
 */
export function rankPatchAfterSea(patchParts: Part[], ranked: number): void {
  assignRanks(patchParts, (a, b) => a.area - b.area || a.country - b.country, ranked);
  for (const p of patchParts) p.sea = true;
}
