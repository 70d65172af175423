// A leaf's gap table (build-data/index/coastal-gaps.ts): where a country's subdivision pieces leave
// part of the window uncovered, each table cell answers the subdivision nearest its centre.
// Outlines ISO does not nest may overlap (Bangsamoro's over Basilan's), so their summed areas
// can pass the window's while a strait between them is uncovered; and a province and the region
// drawn with its very shore tie on distance, where the part the lookup ranks first must answer.

import { describe, expect, it } from 'vitest';
import { partArea } from '../../build-data/index/clip.js';
import { createCoastalGaps, gapTable } from '../../build-data/index/coastal-gaps.js';
import type { Piece } from '../../build-data/index/partition.js';
import { bboxOf, type Part } from '../../build-data/sources/parts.js';
import { TABLE_GRID } from '../../src/format/layout.js';

const REGION = 0;
const PROVINCE = 1;
const OTHER = 2;
const cell = { x0: 0, y0: 0, x1: 0.125, y1: 0.125 };

/** A part of subdivision `s` with lookup rank `rank`: the box [x0, x1] × [0, 0.125]. */
function strip(s: number, rank: number, x0: number, x1: number): Part {
  const rings = [Float64Array.of(x0, 0, x1, 0, x1, 0.125, x0, 0.125)];
  return { layer: 'subdivision', country: 0, subdivision: s, rank, rings, bbox: bboxOf(rings), area: partArea(rings) };
}

/** The table for parts listed in rank order (as a leaf lists its pieces), with ISO parents `parents`. */
function table(parts: Part[], parents = [-1, -1, -1]): Int32Array | null {
  const g = createCoastalGaps(parts, [true], Float64Array.of(25), Int32Array.from(parents));
  const items: Piece[] = parts.map((part) => ({ part, rings: part.rings, full: false }));
  return gapTable(g, 0, items, cell, cell);
}

/** The table's answers along one row (they do not vary by row here). */
const row = (t: Int32Array) => Array.from(t.subarray(0, TABLE_GRID));

describe('gap tables', () => {
  it('sees a strait between outlines whose areas, overlapping, sum past the window', () => {
    // Province and region both hold x < 0.08; another unit holds x > 0.1; the strait between is sea.
    const parts = [strip(PROVINCE, 0, 0, 0.08), strip(OTHER, 1, 0.1, 0.125), strip(REGION, 2, 0, 0.08)];
    const t = table(parts);
    expect(t).not.toBeNull();
    // Table cell 5's centre (x ≈ 0.086) is in the strait, nearest the shared shore.
    expect(row(t!)).toEqual([PROVINCE, PROVINCE, PROVINCE, PROVINCE, PROVINCE, PROVINCE, OTHER, OTHER]);
  });

  it('takes the part ranked first where two outlines draw the same shore, whatever their order', () => {
    const parts = [strip(REGION, 2, 0, 0.08), strip(OTHER, 1, 0.1, 0.125), strip(PROVINCE, 0, 0, 0.08)];
    const g = createCoastalGaps(parts, [true], Float64Array.of(25), Int32Array.of(-1, -1, -1));
    const items = [parts[2], parts[1], parts[0]].map((part) => ({ part, rings: part.rings, full: false }));
    expect(row(gapTable(g, 0, items, cell, cell)!)[5]).toBe(PROVINCE);
  });

  it('sets no table where the outlines cover every table cell, overlapping or not', () => {
    expect(table([strip(PROVINCE, 0, 0, 0.1), strip(OTHER, 1, 0.1, 0.125), strip(REGION, 2, 0, 0.1)])).toBeNull();
    expect(table([strip(PROVINCE, 0, 0, 0.1), strip(OTHER, 1, 0.1, 0.125)])).toBeNull();
  });
});
