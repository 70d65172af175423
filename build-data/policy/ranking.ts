// Overlap order: a point takes the answer of the lowest-ranked part holding it.

import type { Part } from '../sources/parts.js';

/** Numbers parts offset, offset + 1, … in `cmp` order; ties keep input order, so ranks are total. */
export function assignRanks(parts: Part[], cmp: (a: Part, b: Part) => number, offset = 0): void {
  const order = parts.map((_p, i) => i).sort((a, b) => cmp(parts[a], parts[b]) || a - b);
  for (let r = 0; r < order.length; r++) parts[order[r]].rank = offset + r;
}

/** Smaller areas first (enclaves win); ties broken by codes so the order is total. */
export function rankByArea(parts: Part[], key: (p: Part) => string): void {
  assignRanks(parts, (a, b) => a.area - b.area || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
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
