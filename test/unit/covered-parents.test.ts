// The OSM layer drops a parent outline where its children cover it (build-data/sources/osm-admin.ts),
// so slivers between children answer the nearest child, not the parent. A child counts only where
// it lies inside the parent: ISO's parent links can be stale (Sarangani and South Cotabato still
// under Davao Region), and counting them dropped Davao Region, so Davao City answered a province.

import { describe, expect, it } from 'vitest';
import type { SubdivisionInfo } from '../../src/format/dataset.js';
import { interiorPoint, partArea, partContains } from '../../build-data/index/clip.js';
import { dropCoveredParents } from '../../build-data/sources/osm-admin.js';
import { bboxOf, type Part } from '../../build-data/sources/parts.js';

const codes = ['XX-P', 'XX-A', 'XX-B', 'XX-F'];
const subdivisions: SubdivisionInfo[] = codes.map((code) => ({
  code,
  name: code,
  parent: code === 'XX-P' ? 'XX' : 'XX-P',
  country: 'XX',
  covered: false,
}));
const index = new Map(codes.map((c, i) => [c, i]));

/** A part of code `code`: the box [x0, x1] × [y0, y1]. */
function box(code: string, x0: number, y0: number, x1: number, y1: number): Part {
  const rings = [Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1)];
  return {
    layer: 'subdivision',
    country: 0,
    subdivision: index.get(code)!,
    rank: 0,
    rings,
    bbox: bboxOf(rings),
    area: partArea(rings),
  };
}
const kept = (parts: Part[]) => [
  ...new Set(dropCoveredParents(parts, subdivisions, index).map((p) => codes[p.subdivision])),
];

describe('dropCoveredParents', () => {
  it('drops a parent its children cover, and keeps one they leave a tenth of', () => {
    const parent = box('XX-P', 0, 0, 10, 10);
    expect(kept([parent, box('XX-A', 0, 0, 5, 10), box('XX-B', 5, 0, 10, 10)])).toEqual(['XX-A', 'XX-B']);
    expect(kept([parent, box('XX-A', 0, 0, 5, 10), box('XX-B', 5, 0, 10, 9)])).toEqual(['XX-P', 'XX-A', 'XX-B']);
  });

  it('does not count a child that lies outside the parent its ISO link names', () => {
    const parts = [box('XX-P', 0, 0, 10, 10), box('XX-A', 0, 0, 5, 10), box('XX-F', 20, 0, 30, 10)];
    expect(kept(parts)).toEqual(['XX-P', 'XX-A', 'XX-F']);
  });

  it("finds a point inside a part even where its box's centre is not (a ring with a hole, a C shape)", () => {
    const ring = [Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10), Float64Array.of(2, 2, 8, 2, 8, 8, 2, 8)];
    const c = [Float64Array.of(0, 0, 10, 0, 10, 1, 1, 1, 1, 9, 10, 9, 10, 10, 0, 10)];
    for (const rings of [ring, c]) {
      const [x, y] = interiorPoint(rings, bboxOf(rings));
      expect(partContains(rings, x, y)).toBe(true);
    }
  });
});
