// One cell's layers: its pieces in rank order, cut at the first that covers the whole window
// (it answers the rest of the cell), for the country layer and per country for subdivisions.

import { type Box, partArea, partContains } from './clip.js';
import type { IndexBuilder, Overlap } from './builder.js';
import { KM_PER_DEG } from './coastal-gaps.js';
import type { Piece } from './partition.js';

export interface Layer {
  /** Pieces before the first full one, in rank order. */
  items: Piece[];
  full: Piece | null;
}

export interface SubdivisionLayer extends Layer {
  /** `items` less the trailing ones that answer what `full` answers anyway. */
  kept: Piece[];
}

/** Pieces in rank order up to the first that covers the whole window; `onHidden` sees what it hides. */
export function layer(pieces: Piece[], onHidden?: (full: Piece, hidden: Piece) => void): Layer {
  const items: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (p.full) {
      if (onHidden) for (let j = i + 1; j < pieces.length; j++) onHidden(p, pieces[j]);
      return { items, full: p };
    }
    items.push(p);
  }
  return { items, full: null };
}

/**
 * Measures an overlap the ranking resolved where the winner covers the whole cell: every
 * lower-ranked piece of another country in it is hidden. Sea under land is the layering, not an overlap.
 */
export function recordHidden(overlaps: Map<string, Overlap>, winner: Piece, hidden: Piece, cell: Box): void {
  const w = winner.part.country;
  const l = hidden.part.country;
  if (l === w || hidden.part.sea !== winner.part.sea) return;
  const deg2 = hidden.full ? (cell.x1 - cell.x0) * (cell.y1 - cell.y0) : partArea(hidden.rings);
  const km2 = deg2 * KM_PER_DEG * KM_PER_DEG * Math.cos((((cell.y0 + cell.y1) / 2) * Math.PI) / 180);
  const k = `${w}>${l}`;
  const e = overlaps.get(k) ?? { winner: w, loser: l, km2: 0 };
  e.km2 += km2;
  overlaps.set(k, e);
}

/** Drops trailing pieces that give the fallback's answer: a point they hold would get it anyway. */
export function trimTrailing(pieces: Piece[], answer: (p: Piece) => number, fallback: number): Piece[] {
  let n = pieces.length;
  while (n > 0 && answer(pieces[n - 1]) === fallback) n--;
  return n === pieces.length ? pieces : pieces.slice(0, n);
}

/** Per country of the cell (in `countries` order): its subdivision layer. */
export function subdivisionLayers(sPieces: Piece[], countries: Set<number>): Map<number, SubdivisionLayer> {
  const out = new Map<number, SubdivisionLayer>();
  for (const c of countries) {
    const s = layer(sPieces.filter((p) => p.part.country === c));
    const kept = s.full ? trimTrailing(s.items, (p) => p.part.subdivision, s.full.part.subdivision) : s.items;
    out.set(c, { ...s, kept });
  }
  return out;
}

/**
 * Sea parts answer only where no land part does; along inland borders the neighbours' land covers
 * the window and the maritime polygons (which repeat those borders) never answer: drop them.
 * Covered: land areas add up to exactly the window and a grid of sample points all fall on land.
 */
export function dropSeaUnderLand(b: IndexBuilder, pieces: Piece[], win: Box): Piece[] {
  if (!pieces.some((p) => p.part.sea) || !pieces.some((p) => !p.part.sea)) return pieces;
  const winArea = (win.x1 - win.x0) * (win.y1 - win.y0);
  let land = 0;
  for (const p of pieces) if (!p.part.sea) land += p.full ? winArea : partArea(p.rings);
  // Equal, not merely at least: a surplus means land parts overlap, and an overlap
  // could hide a gap of the same size that only the sea layer answers.
  if (Math.abs(land - winArea) > winArea * 1e-9) return pieces;
  const n = 12;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const x = win.x0 + ((win.x1 - win.x0) * (i + 0.5)) / n;
      const y = win.y0 + ((win.y1 - win.y0) * (j + 0.5)) / n;
      if (!pieces.some((p) => !p.part.sea && (p.full || partContains(p.rings, x, y)))) return pieces;
    }
  }
  b.stats.seaDropped++;
  return pieces.filter((p) => !p.part.sea);
}
