// Resolves a cell: its country pieces, its subdivision pieces per country and the default that
// answers the rest, then either one region for the whole cell, a child block, or a leaf record.

import { childCell } from '../../src/format/leaves.js';
import { countryByte, TAG_BLOCK, TAG_SHIFT } from '../../src/format/layout.js';
import type { CellEntry, IndexBuilder } from './builder.js';
import type { Box } from './clip.js';
import {
  dropSeaUnderLand,
  type Layer,
  layer,
  recordHidden,
  type SubdivisionLayer,
  subdivisionLayers,
  trimTrailing,
} from './layers.js';
import { writeLeaf } from './leaf.js';
import { countVertices, expand, type Piece, partition } from './partition.js';
import { regionId } from './regions.js';

/** Resolves `cell` from its pieces, both in rank order, at `depth` (0: the 1° grid). */
export function resolveCell(b: IndexBuilder, cell: Box, cPieces: Piece[], sPieces: Piece[], depth: number): CellEntry {
  const { opts, regions } = b;
  const win = expand(cell, opts.margin);
  const stage1 = layer(dropSeaUnderLand(b, cPieces, win), (full, hidden) =>
    recordHidden(b.overlaps, full, hidden, cell),
  );
  const defaultCountry = stage1.full ? stage1.full.part.country : -1;
  // What the leaf record lists: pieces at the end that give the default's answer
  // change nothing, so they go. Children still receive every piece: the overlap report counts what hides what.
  const cItems = trimTrailing(stage1.items, (p) => p.part.country, defaultCountry);
  const countries = new Set<number>();
  for (const p of cItems) countries.add(p.part.country);
  if (stage1.full) countries.add(defaultCountry);
  const stage2 = subdivisionLayers(sPieces, countries);

  const uniform = cItems.length === 0 ? defaultCountry + 2 : 0;
  if (cItems.length === 0) {
    const s = defaultCountry < 0 ? null : stage2.get(defaultCountry)!;
    if (!s || (s.kept.length === 0 && (s.full || !regions.hasSubdivisions[defaultCountry]))) {
      b.stats.fullCells++;
      return { entry: regionId(regions, defaultCountry, s?.full ? s.full.part.subdivision : -1), country: uniform };
    }
  }

  let vertices = countVertices(cItems);
  let needsFallback = false;
  for (const [c, s] of stage2) {
    vertices += countVertices(s.kept);
    if (!s.full && regions.hasSubdivisions[c]) needsFallback = true;
  }
  const split =
    depth < opts.fanouts.length &&
    (depth === 0 || vertices > opts.maxLeafVertices || (needsFallback && depth < opts.fallbackDepth));
  if (split) return { entry: splitCell(b, cell, stage1, stage2, depth), country: uniform };
  return writeLeaf(b, { cell, win, cItems, stage2, defaultCountry, vertices }, uniform);
}

/** A block of fanout² children, each resolved from the pieces that can still matter there. */
function splitCell(
  b: IndexBuilder,
  cell: Box,
  stage1: Layer,
  stage2: Map<number, SubdivisionLayer>,
  depth: number,
): number {
  const f = b.opts.fanouts[depth];
  const at = b.blocks.reserve(f * f);
  b.blockCountry.reserve(f * f);
  b.stats.blocks++;
  // Partial pieces and the first full one per layer: the rest are hidden throughout the cell.
  const cKeep = stage1.full ? [...stage1.items, stage1.full] : stage1.items;
  const sKeep: Piece[] = [];
  for (const s of stage2.values()) sKeep.push(...s.items, ...(s.full ? [s.full] : []));
  const childC = partition(cKeep, cell, f, f, b.opts.margin);
  const childS = partition(sKeep, cell, f, f, b.opts.margin);
  for (let k = 0; k < f * f; k++) {
    // Resolve first, then store: the child's own blocks can outgrow blocks.data and replace it, and
    // `blocks.data[at + k] = resolveCell(…)` would write into the array left behind.
    const child = resolveCell(b, childCell(cell, f, f, k % f, (k / f) | 0), childC[k], childS[k], depth + 1);
    b.blocks.data[at + k] = child.entry;
    // Country lookups read this beside the entry and stop when the child holds one country.
    b.blockCountry.data[at + k] = countryByte(child.country);
  }
  return ((TAG_BLOCK << TAG_SHIFT) | at) >>> 0;
}
