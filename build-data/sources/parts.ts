// Polygon parts: one polygon of a source feature as flat rings, the unit the policy ranks and
// the index clips. Every source reader ends here.

import { type Box, partArea, type Ring } from '../index/clip.js';
import { type Feature, type Position, polygonsOf } from './geojson.js';

export interface Part {
  layer: 'country' | 'subdivision';
  /** A territorial-sea part: ranked after all land, answers only where no land is. */
  sea?: boolean;
  country: number;
  /** Subdivision index; -1 for a subdivision-layer area with no valid code. */
  subdivision: number;
  /** Tested before parts of higher rank: smaller areas first, so enclaves win. */
  rank: number;
  rings: Ring[];
  bbox: Box;
  area: number;
}

/** Rewrites a source polygon ([outer, ...holes]) before it becomes a part: policy/holes.ts. */
export type PolygonFilter = (polygon: Position[][]) => Position[][];

/** Flat ring without the closing vertex; consecutive duplicates removed. */
export function flatRing(ring: Position[], where: string): Ring {
  const out: number[] = [];
  for (const p of ring) {
    const x = p[0],
      y = p[1];
    if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90) {
      throw new Error(`${where}: coordinate [${x}, ${y}] outside the globe (split polygons at the antimeridian)`);
    }
    const n = out.length;
    if (n >= 2 && out[n - 2] === x && out[n - 1] === y) continue;
    out.push(x, y);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return Float64Array.from(out);
}

/** A flat ring as a GeoJSON ring: [x, y] positions, closed. */
export function closedRing(r: Ring): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i < r.length; i += 2) ring.push([r[i], r[i + 1]]);
  ring.push([r[0], r[1]]);
  return ring;
}

export function bboxOf(rings: Ring[]): Box {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const r of rings) {
    for (let i = 0; i < r.length; i += 2) {
      if (r[i] < x0) x0 = r[i];
      if (r[i] > x1) x1 = r[i];
      if (r[i + 1] < y0) y0 = r[i + 1];
      if (r[i + 1] > y1) y1 = r[i + 1];
    }
  }
  return { x0, y0, x1, y1 };
}

/** The feature's polygons with area, as unranked parts; `where` names the feature in errors. */
export function toParts(
  feature: Feature,
  layer: Part['layer'],
  country: number,
  subdivision: number,
  where: string,
  filter?: PolygonFilter,
): Part[] {
  const parts: Part[] = [];
  for (const poly of polygonsOf(feature.geometry)) {
    const rings = (filter ? filter(poly) : poly).map((r) => flatRing(r, where)).filter((r) => r.length >= 6);
    if (rings.length === 0) continue;
    const area = partArea(rings);
    if (!(area > 0)) continue;
    parts.push({ layer, country, subdivision, rank: 0, rings, bbox: bboxOf(rings), area });
  }
  return parts;
}

export function vertexCount(parts: Part[]): number {
  let n = 0;
  for (const p of parts) for (const r of p.rings) n += r.length >> 1;
  return n;
}
