// The state one index build writes to: the output arrays, the region table, the coastal-gap
// search and the tallies the report prints.

import type { IndexParams } from '../../src/format/layout.js';
import type { Box } from './clip.js';
import type { CoastalGaps } from './coastal-gaps.js';
import type { Grow } from './grow.js';
import type { Regions } from './regions.js';

export interface IndexOptions extends IndexParams {
  /** Split a leaf holding more vertices than this, while depth allows. */
  maxLeafVertices: number;
  /** Depth to which cells that need the coastal fallback are split, for its precision. */
  fallbackDepth: number;
  /** Coastal fallback: nearest subdivision of the same country within this distance. */
  gapKm: number;
  /** Country index → its own reach where not gapKm (policy.json gapKm). */
  gapKmByCountry?: ReadonlyMap<number, number>;
  /** How far rounding may move a vertex (layout.ts VERTEX_BOUND_M; coarser for the lite build). */
  vertexBoundM: number;
  /** Write the depth-1 slot tables (speed for subdivision lookups, at several MB). */
  slots: boolean;
  /** A code's bounding boxes within one grid cell of this many degrees merge into one. */
  boxCellDeg: number;
}

/** Key order is the order of the dataset's meta.stats: keep it. */
export interface IndexStats {
  tables: number;
  seaDropped: number;
  blocks: number;
  records: number;
  leafCells: number;
  fullCells: number;
  fallbackCells: number;
  fallbackMisses: number;
  maxLeafVertices: number;
}

export interface Overlap {
  winner: number;
  loser: number;
  km2: number;
}

export type DefaultBox = Box & { subdivision: number };

export interface IndexBuilder {
  opts: IndexOptions;
  blocks: Grow<Uint32Array>;
  /** Per block entry: the child's single country + 2 (1 = none), 0 when it holds several. */
  blockCountry: Grow<Uint8Array>;
  records: Grow<Uint32Array>;
  regions: Regions;
  gaps: CoastalGaps;
  stats: IndexStats;
  coordVertices: number;
  /** Country overlaps the ranking resolved, by "winner>loser". */
  overlaps: Map<string, Overlap>;
  /** Per (subdivision, level-0 cell): the union of leaf cells answered by default there. */
  defaultBoxes: Map<number, DefaultBox>;
}

/** What resolving a cell gives its parent: the entry, and its single country + 2 (1 = none), 0 when mixed. */
export interface CellEntry {
  entry: number;
  country: number;
}
