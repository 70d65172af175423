// A leaf: per country, a subdivision record (or a region when nothing needs testing), then the
// country record pointing at them. A country's default subdivision answers where no piece does.

import { MAX_RECORD_SPAN_WORDS } from '../../src/format/record-pages.js';
import { tableCell } from '../../src/format/leaves.js';
import { GRID_COLS, GRID_ROWS, HALF_RECORD, TAG_RECORD, TAG_SHIFT, TAG_TABLE } from '../../src/format/layout.js';
import type { CellEntry, IndexBuilder } from './builder.js';
import { type Box, growBox, partContains } from './clip.js';
import { gapTable, nearestSubdivision } from './coastal-gaps.js';
import { type SubdivisionLayer, trimTrailing } from './layers.js';
import type { Piece } from './partition.js';
import {
  cellSpan,
  packRecords,
  quantiseItems,
  quantShift,
  type RecordItem,
  type RecordWords,
  recordSize,
  packTable,
  writeRecord,
} from './records.js';
import { regionId } from './regions.js';

export interface Leaf {
  cell: Box;
  /** The cell plus margin: the frame records are quantised to. */
  win: Box;
  /** Country pieces the record lists, in rank order. */
  cItems: Piece[];
  /** Per country of the cell: its subdivision layer. */
  stage2: Map<number, SubdivisionLayer>;
  /** The country answering where no listed piece does, -1 for none. */
  defaultCountry: number;
  vertices: number;
}

interface SubdivisionRecord {
  defaultEntry: number;
  items: RecordItem[];
  country: number;
  /** Region ids per table cell, when the default varies over the leaf. */
  table: number[] | null;
}

/** Writes the leaf's records; `uniform` is the cell's single country + 2 (1 = none), 0 when mixed. */
export function writeLeaf(b: IndexBuilder, leaf: Leaf, uniform: number): CellEntry {
  b.stats.leafCells++;
  b.stats.maxLeafVertices = Math.max(b.stats.maxLeafVertices, leaf.vertices);
  const shift = quantShift(leaf.cell, b.opts.margin, b.opts.quant, b.opts.vertexBoundM);
  const countryEntry = new Map<number, number>();
  const pending: SubdivisionRecord[] = [];
  for (const c of [...leaf.stage2.keys()].sort((x, y) => x - y)) {
    const s = leaf.stage2.get(c)!;
    const { sDefault, table } = subdivisionDefault(b, c, s, leaf.cell, leaf.win);
    // With a table every polygon stays: the trimmed ones would answer a table cell's default.
    const kept = s.full ? s.kept : table ? s.items : trimTrailing(s.items, (p) => p.part.subdivision, sDefault);
    const items = quantiseItems(kept, (p) => regionId(b.regions, c, p.part.subdivision), leaf.win, shift, b.opts.quant);
    const regions = table ? Array.from(table, (v) => regionId(b.regions, c, v)) : null;
    if (items.length === 0 && !regions) countryEntry.set(c, regionId(b.regions, c, sDefault));
    else pending.push({ defaultEntry: regionId(b.regions, c, sDefault), items, country: c, table: regions });
  }
  return writeLeafRecords(b, leaf, shift, pending, countryEntry, uniform);
}

/**
 * Country c's default subdivision in the leaf: the one covering it, else the one holding its
 * centre, else the nearest within gapKm; and a table of defaults where the nearest varies.
 */
function subdivisionDefault(
  b: IndexBuilder,
  c: number,
  s: SubdivisionLayer,
  cell: Box,
  win: Box,
): { sDefault: number; table: Int32Array | null } {
  if (s.full) return { sDefault: s.full.part.subdivision, table: null };
  const cx = (cell.x0 + cell.x1) / 2;
  const cy = (cell.y0 + cell.y1) / 2;
  let sDefault: number;
  const inside = s.items.find((p) => partContains(p.rings, cx, cy));
  if (inside) sDefault = inside.part.subdivision;
  else {
    b.stats.fallbackCells++;
    sDefault = nearestSubdivision(b.gaps, c, cx, cy);
  }
  const table = b.regions.hasSubdivisions[c] ? gapTable(b.gaps, c, s.items, cell, win) : null;
  // The default answers the rest of the cell, which can reach past the subdivision's own
  // polygons (coast, fallback): its box must cover that for bounding-box queries.
  if (table) {
    b.stats.tables++;
    for (let k = 0; k < table.length; k++) if (table[k] >= 0) growDefaultBox(b, table[k], tableCell(cell, k));
  } else if (sDefault >= 0) growDefaultBox(b, sDefault, cell);
  return { sDefault, table };
}

function growDefaultBox(b: IndexBuilder, subdivision: number, cell: Box): void {
  const key = subdivision * GRID_COLS * GRID_ROWS + Math.floor(cell.y0 + 90) * GRID_COLS + Math.floor(cell.x0 + 180);
  const box = b.defaultBoxes.get(key);
  if (!box) b.defaultBoxes.set(key, { ...cell, subdivision });
  else growBox(box, cell);
}

/** The country record first, so nested records always sit at higher offsets; then each country's. */
function writeLeafRecords(
  b: IndexBuilder,
  leaf: Leaf,
  shift: number,
  pending: SubdivisionRecord[],
  countryEntry: Map<number, number>,
  uniform: number,
): CellEntry {
  const [lo, hi] = cellSpan(b.opts.margin, shift, b.opts.quant);
  const cItems = quantiseItems(leaf.cItems, (p) => p.part.country, leaf.win, shift, b.opts.quant);
  const chains = pending.map((p) => ({ ...p, chain: packRecords(p.items, lo, hi, shift, true) }));
  // The country record's items point at the subdivision records: reserve it before them.
  const stage1 = cItems.length ? packRecords(cItems, lo, hi, shift, false) : [];
  if (stage1.length) halveCountryItems(stage1, chains, countryEntry);
  const stage1At = stage1.length ? b.records.reserve(chainSize(stage1)) : -1;
  for (const { defaultEntry, chain, country, table } of chains) {
    const at = writeChain(b, chain, country, defaultEntry, table);
    countryEntry.set(country, ((TAG_RECORD << TAG_SHIFT) | at) >>> 0);
  }
  const defaultEntry = leaf.defaultCountry < 0 ? 0 : countryEntry.get(leaf.defaultCountry)!;
  // Every other country's piece vanished in quantisation (a sliver): one country answers.
  if (stage1At < 0) return { entry: defaultEntry, country: leaf.defaultCountry + 2 };
  for (const r of stage1) r.entries = r.entries.map((c) => countryEntry.get(c)!);
  writeChain(b, stage1, -1, defaultEntry, null, stage1At);
  return { entry: ((TAG_RECORD << TAG_SHIFT) | stage1At) >>> 0, country: uniform };
}

/**
 * Lists the country records' items as halves (layout.ts) when every region among them fits 15
 * bits and every subdivision chain starts within 32,767 words of the record naming it: decided
 * before the country chain is reserved, from the sizes of the chains written right after it.
 */
function halveCountryItems(
  stage1: RecordWords[],
  chains: { country: number; chain: RecordWords[]; table: number[] | null }[],
  countryEntry: Map<number, number>,
): void {
  for (const r of stage1) r.half = true;
  const chainAt = new Map<number, number>();
  let end = chainSize(stage1);
  for (const c of chains) {
    chainAt.set(c.country, end);
    end += chainSize(c.chain) + (c.table ? packTable(c.table).length : 0);
  }
  let start = 0;
  const fits = (c: number) =>
    chainAt.has(c) ? chainAt.get(c)! - start < HALF_RECORD : countryEntry.get(c)! < HALF_RECORD;
  for (const r of stage1) {
    if (!r.entries.every(fits)) {
      for (const s of stage1) s.half = false;
      return;
    }
    start += recordSize(r);
  }
}

function chainSize(chain: RecordWords[]): number {
  return chain.reduce((n, r) => n + recordSize(r), 0);
}

/**
 * Writes a chain of records (packRecords), each one's default the next, the last one's `defaultEntry`
 * or its default table; at `at` when reserved already. Returns the first record's offset.
 */
function writeChain(
  b: IndexBuilder,
  chain: RecordWords[],
  country: number,
  defaultEntry: number,
  table: number[] | null,
  at = -1,
): number {
  const tableWords = table ? packTable(table) : [];
  const first = at >= 0 ? at : b.records.reserve(chainSize(chain) + tableWords.length);
  let p = first;
  chain.forEach((r, i) => {
    const end = p + recordSize(r);
    const last = i === chain.length - 1;
    // The runtime brings a record in by the page it starts on and the next (src/format/record-pages.ts).
    if (end - p + (last ? tableWords.length : 0) > MAX_RECORD_SPAN_WORDS)
      throw new Error(
        `a record of ${r.vertices} vertices spans more than ${MAX_RECORD_SPAN_WORDS} words: use deeper fanouts`,
      );
    const def = !last
      ? ((TAG_RECORD << TAG_SHIFT) | end) >>> 0
      : table
        ? ((TAG_TABLE << TAG_SHIFT) | end) >>> 0
        : defaultEntry;
    b.coordVertices += writeRecord(b.records.data, def, r, p, country >= 0);
    b.stats.records++;
    p = end;
  });
  b.records.data.set(tableWords, p);
  return first;
}
