// Builds the cell tree: the 1° grid, child blocks where a cell is crossed by a boundary, and
// geometry records (parts clipped to the cell, quantised) at the leaves. Everything the runtime
// would otherwise compute per lookup is decided here: overlap order, layering, coastal fallbacks.

import { childCell } from '../../src/format/leaves.js';
import { countryByte, GRID_COLS, GRID_ROWS } from '../../src/format/layout.js';
import type { Part } from '../sources/parts.js';
import type { DefaultBox, IndexBuilder, IndexOptions, Overlap } from './builder.js';
import type { Box } from './clip.js';
import { createCoastalGaps } from './coastal-gaps.js';
import { Grow } from './grow.js';
import { type Piece, partition, wholePieces } from './partition.js';
import { createRegions, usedSubdivisions } from './regions.js';
import { resolveCell } from './resolve.js';

export type { IndexOptions } from './builder.js';

export interface BuiltIndex {
  grid: Uint32Array;
  /** Per level-0 cell: its single country + 2 (1 = none), or 0 when mixed. */
  gridCountry: Uint8Array;
  blocks: Uint32Array;
  /** Per block entry: the child's single country + 2 (1 = none), 0 when it holds several. */
  blockCountry: Uint8Array;
  records: Uint32Array;
  regions: Uint16Array;
  stats: Record<string, number>;
  gapDistancesKm: number[];
  /** Country overlaps the ranking resolved: area hidden under the winner, km² (whole-cell resolution). */
  overlaps: Overlap[];
  /** Subdivisions some cell of the index can answer. */
  usedSubdivisions: number[];
  /** Boxes (subdivision, cell union per level-0 cell) where a subdivision answers as a leaf's default. */
  defaultBoxes: DefaultBox[];
}

/** Level 0: every part goes to the 1° cells it touches, and each cell is resolved in grid order. */
function resolveGrid(
  b: IndexBuilder,
  countryParts: Part[],
  subdivisionParts: Part[],
): { grid: Uint32Array; gridCountry: Uint8Array } {
  const world: Box = { x0: -180, y0: -90, x1: 180, y1: 90 };
  const toGrid = (parts: Part[]) =>
    partition(wholePieces(parts, b.opts.vertexBoundM), world, GRID_COLS, GRID_ROWS, b.opts.margin);
  const cellCountry = toGrid(countryParts);
  const cellSub = toGrid(subdivisionParts);
  const grid = new Uint32Array(GRID_COLS * GRID_ROWS);
  const gridCountry = new Uint8Array(GRID_COLS * GRID_ROWS);
  const byRank = (x: Piece, y: Piece) => x.part.rank - y.part.rank;
  for (let i = 0; i < GRID_COLS * GRID_ROWS; i++) {
    const cell = childCell(world, GRID_COLS, GRID_ROWS, i % GRID_COLS, (i / GRID_COLS) | 0);
    const resolved = resolveCell(b, cell, cellCountry[i].sort(byRank), cellSub[i].sort(byRank), 0);
    grid[i] = resolved.entry;
    gridCountry[i] = countryByte(resolved.country);
    // Drop the cell's pieces once resolved, so their clipped rings can be collected.
    cellCountry[i] = [];
    cellSub[i] = [];
  }
  return { grid, gridCountry };
}

/** Each country's gap reach (km): the build's, or the policy's for that country. */
function reachOf(opts: IndexOptions, countryCount: number): Float64Array {
  const km = new Float64Array(countryCount).fill(opts.gapKm);
  for (const [c, reach] of opts.gapKmByCountry ?? []) km[c] = reach;
  return km;
}

export function buildIndex(
  countryParts: Part[],
  subdivisionParts: Part[],
  countryCount: number,
  opts: IndexOptions,
  /** Each subdivision's parent subdivision index, or -1 (policy/hierarchy.ts). */
  subdivisionParents?: Int32Array,
): BuiltIndex {
  const regions = createRegions(subdivisionParts, countryCount);
  const b: IndexBuilder = {
    opts,
    blocks: new Grow(Uint32Array),
    blockCountry: new Grow(Uint8Array),
    records: new Grow(Uint32Array),
    regions,
    gaps: createCoastalGaps(subdivisionParts, regions.hasSubdivisions, reachOf(opts, countryCount), subdivisionParents),
    stats: {
      tables: 0,
      seaDropped: 0,
      blocks: 0,
      records: 0,
      leafCells: 0,
      fullCells: 0,
      fallbackCells: 0,
      fallbackMisses: 0,
      maxLeafVertices: 0,
    },
    coordVertices: 0,
    overlaps: new Map(),
    defaultBoxes: new Map(),
  };
  const { grid, gridCountry } = resolveGrid(b, countryParts, subdivisionParts);
  b.stats.fallbackMisses = b.gaps.misses;

  // Pad so a block pointer near the end still has a whole block after it (the reader checks that).
  const pad = Math.max(...opts.fanouts.map((f) => f * f));
  b.blocks.reserve(pad);
  b.blockCountry.reserve(pad);
  return {
    grid,
    gridCountry,
    blocks: b.blocks.result(),
    blockCountry: b.blockCountry.result(),
    records: b.records.result(),
    regions: Uint16Array.from(regions.list),
    stats: {
      ...b.stats,
      regions: regions.list.length >> 1,
      blockEntries: b.blocks.length,
      recordWords: b.records.length,
      coordVertices: b.coordVertices,
    },
    gapDistancesKm: b.gaps.distancesKm,
    overlaps: [...b.overlaps.values()].sort((x, y) => y.km2 - x.km2),
    defaultBoxes: [...b.defaultBoxes.entries()].sort((x, y) => x[0] - y[0]).map(([, box]) => box),
    usedSubdivisions: usedSubdivisions(regions),
  };
}
