// Reads the dataset's resolved cells back as geometry: every leaf cell with its
// window and its entry, and a record's entries with its arcs in lon/lat. This
// module, src/lookup/locate.ts, verify.ts and the build's slot tables
// (build-data/index/slots.ts) are the only readers of the record and depth-1
// layouts, so a change to the format is made in these four places.

import type { Dataset } from './dataset.js';
import {
  BR8_NO_COUNTRY,
  BR8_SLOT,
  BR8_SPAN,
  DEPTH1_BASE_WORDS,
  defaultRegion,
  GRID_COLS,
  ITEM_MASK,
  itemEntry,
  RECORD_SUBDIVISIONS,
  readArcs,
  SLOT_WORDS,
  TABLE_GRID,
  TAG_BLOCK,
  TAG_RECORD,
  TAG_SHIFT,
  TAG_TABLE,
  tableEntry,
  VALUE_MASK,
} from './layout.js';

/** A half-open cell [x0, x1) × [y0, y1) in degrees (x = longitude, y = latitude). */
export interface Cell {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What a leaf cell holds: a region id, a record, or (country lookups) one country for the whole cell. */
export type LeafEntry =
  | { kind: 'region'; region: number }
  | { kind: 'record'; record: number }
  /** Country index, -1 for none: a gridcountry / blockcountry entry that a country lookup stops at. */
  | { kind: 'country'; country: number };

export interface LeafRecord {
  /** Country index for a record that lists one country's subdivisions, else -1. */
  country: number;
  /** The items' entries, in test order. */
  items: LeafEntry[];
  /**
   * The record's arcs in lon/lat, flat [x0, y0, x1, y1, …], open lines: every edge that can change
   * the answer in the cell, each of some items' boundaries.
   */
  lines: Float64Array[];
  /** Where no item holds the point: an entry, or a default table (its cells' regions, row-major from the SW). */
  fallback: LeafEntry | { kind: 'table'; cells: Cell[]; regions: number[] };
}

function leafEntry(e: number): LeafEntry {
  const tag = e >>> TAG_SHIFT;
  if (tag === TAG_RECORD) return { kind: 'record', record: e & VALUE_MASK };
  return { kind: 'region', region: e & VALUE_MASK };
}

/**
 * Child (i, j) of a cell split nx × ny; the last row and column end exactly on the parent's
 * edge. The builder cuts cells with it too, so the readers here see the cells it resolved.
 */
export function childCell(cell: Cell, nx: number, ny: number, i: number, j: number): Cell {
  const w = (cell.x1 - cell.x0) / nx;
  const h = (cell.y1 - cell.y0) / ny;
  return {
    x0: cell.x0 + i * w,
    y0: cell.y0 + j * h,
    x1: i === nx - 1 ? cell.x1 : cell.x0 + (i + 1) * w,
    y1: j === ny - 1 ? cell.y1 : cell.y0 + (j + 1) * h,
  };
}

/** Cell k of a leaf's default table (TABLE_GRID per side, row-major from the south-west). */
export function tableCell(cell: Cell, k: number): Cell {
  return childCell(cell, TABLE_GRID, TABLE_GRID, k % TABLE_GRID, Math.floor(k / TABLE_GRID));
}

/**
 * Visits the leaves of level-0 cell (col, row), south-west first, as the lookup
 * descends: with `countryOnly`, a gridcountry or blockcountry entry naming a single
 * country ends the descent there, as it does for countryFromGps.
 */
export function forEachLeaf(
  ds: Dataset,
  col: number,
  row: number,
  countryOnly: boolean,
  visit: (cell: Cell, entry: LeafEntry) => void,
): void {
  const i = row * GRID_COLS + col;
  const x0 = col - 180;
  const y0 = row - 90;
  if (countryOnly && ds.gridCountry[i] !== 0) {
    visit({ x0, y0, x1: x0 + 1, y1: y0 + 1 }, { kind: 'country', country: ds.gridCountry[i] - 2 });
    return;
  }
  const walk = (e: number, cell: Cell, depth: number): void => {
    if (e >>> TAG_SHIFT !== TAG_BLOCK) {
      visit(cell, leafEntry(e));
      return;
    }
    const f = ds.fanouts[depth];
    // A depth-1 block is a number whose children are bytes; deeper blocks are offsets in blocks.
    const first = depth === 0 ? (e & VALUE_MASK) * f * f : e & VALUE_MASK;
    for (let cy = 0; cy < f; cy++) {
      for (let cx = 0; cx < f; cx++) {
        const child = childCell(cell, f, f, cx, cy);
        const at = first + cy * f + cx;
        const country = depth === 0 ? depth1Country(ds, at) : ds.blockCountry[at];
        if (countryOnly && country !== 0) visit(child, { kind: 'country', country: country - 2 });
        else walk(depth === 0 ? depth1Entry(ds, at) : ds.blocks[at], child, depth + 1);
      }
    }
  };
  walk(ds.grid[i], { x0, y0, x1: x0 + 1, y1: y0 + 1 }, 0);
}

/**
 * What the blockregion8 byte of depth-1 child `at` (block number · fanout² + child) names
 * (layout.ts): a region, the first word of its record slot, or its wide entry's offset in blocks.
 * locate.ts reads the bytes the same way, inline.
 */
function depth1Child(ds: Dataset, at: number): { region: number } | { slot: number } | { wide: number } {
  const f0 = ds.fanouts[0];
  const b = Math.floor(at / (f0 * f0)) * DEPTH1_BASE_WORDS;
  const [slotBase, regionBase, wideBase, n] = ds.depth1Bases.subarray(b, b + DEPTH1_BASE_WORDS);
  const v = ds.blockRegion8[at];
  if (v < BR8_SPAN) return { region: regionBase + v };
  if (v === BR8_NO_COUNTRY) return { region: 0 };
  const j = v - BR8_SLOT;
  return j < n ? { slot: (slotBase + j) * SLOT_WORDS } : { wide: wideBase + j - n };
}

/** The entry depth-1 child `at` stands for: a region, a record or a child block. */
export function depth1Entry(ds: Dataset, at: number): number {
  const c = depth1Child(ds, at);
  if ('region' in c) return c.region;
  if ('slot' in c) return ((TAG_RECORD << TAG_SHIFT) | ds.slots[c.slot + 2]) >>> 0;
  return ds.blocks[c.wide];
}

/**
 * The country of depth-1 child `at` as blockcountry would give it (country + 2, 1 none, 0 several):
 * its region's, or the byte beside its slot or wide entry.
 */
export function depth1Country(ds: Dataset, at: number): number {
  const c = depth1Child(ds, at);
  if ('region' in c) return ds.regionCountry[c.region] + 2;
  if ('slot' in c) return ds.slots[c.slot + 1] >>> 16;
  return ds.blockCountry[c.wide];
}

/** Country index of a record that lists one country's subdivisions, else -1. */
export function recordCountry(ds: Dataset, record: number): number {
  ds.recordPages.needAll();
  if ((ds.records[record] & RECORD_SUBDIVISIONS) === 0) return -1;
  return ds.regionCountry[defaultRegion(ds.records, record)];
}

/**
 * Every region a record can answer (its items, nested records and default entry or table), each
 * passed to `visit`, maybe more than once; the arcs are not decoded. Lets a reader skip a leaf
 * whose regions all lie outside (or all inside) the set it draws.
 */
export function recordRegions(ds: Dataset, record: number, visit: (region: number) => void): void {
  ds.recordPages.needAll();
  const rec = ds.records;
  const entry = (e: number): void => {
    if (e >>> TAG_SHIFT === TAG_RECORD) recordRegions(ds, e & VALUE_MASK, visit);
    else visit(e & VALUE_MASK);
  };
  for (let i = 0; i < (rec[record] & ITEM_MASK); i++) entry(itemEntry(rec, record, i));
  const def = rec[record + 1];
  if (def >>> TAG_SHIFT !== TAG_TABLE) entry(def);
  else for (let k = 0; k < TABLE_GRID * TABLE_GRID; k++) visit(tableEntry(rec, def, k));
}

/**
 * A leaf record with its arcs in lon/lat. Vertices are quantised over the cell window (the cell
 * plus a margin on every side); the runtime tests the point against them in window units, so the
 * affine map back to degrees gives the same answer for every point in the cell up to
 * floating-point rounding.
 */
export function readRecord(ds: Dataset, record: number, cell: Cell): LeafRecord {
  // Readers of records one by one visit most of them (export, geometryOf): all in memory at once.
  ds.recordPages.needAll();
  const rec = ds.records;
  const sx = (cell.x1 - cell.x0) / ds.qscale;
  const sy = (cell.y1 - cell.y0) / ds.qscale;
  const ox = cell.x0 - (cell.x1 - cell.x0) * ds.margin;
  const oy = cell.y0 - (cell.y1 - cell.y0) * ds.margin;
  const items: LeafEntry[] = [];
  for (let i = 0; i < (rec[record] & ITEM_MASK); i++) items.push(leafEntry(itemEntry(rec, record, i)));
  const arcs: number[][] = [];
  readArcs(rec, record, ds.meta.params.quant, (arc, _mask, x, y) => (arcs[arc] ??= []).push(ox + x * sx, oy + y * sy));
  const lines = arcs.map((a) => Float64Array.from(a));
  const def = rec[record + 1];
  if (def >>> TAG_SHIFT !== TAG_TABLE)
    return { country: recordCountry(ds, record), items, lines, fallback: leafEntry(def) };
  const cells: Cell[] = [];
  const regions: number[] = [];
  for (let k = 0; k < TABLE_GRID * TABLE_GRID; k++) {
    cells.push(tableCell(cell, k));
    regions.push(tableEntry(rec, def, k));
  }
  return { country: recordCountry(ds, record), items, lines, fallback: { kind: 'table', cells, regions } };
}
