// tbb's "all" product has areas two zones both claim (Xinjiang: Asia/Urumqi and Asia/Shanghai;
// disputed borders), where geo-tz lists every zone whose feature holds the point, in the leaf's
// feature order. The dataset answers one code per point, so a leaf's overlapping features become
// disjoint pieces, each labelled by the ordered list of zones holding it.

import polygonClipping, { type MultiPolygon } from 'polygon-clipping';
import { clipRing } from '../index/clip.js';
import type { Feature, Position } from '../sources/geojson.js';
import { polygonsOf } from '../sources/geojson.js';
import { closedRing, flatRing } from '../sources/parts.js';

/** A disjoint piece: the zones geo-tz answers at its points, in geo-tz's order. */
export interface Piece {
  zones: string[];
  polygons: Position[][][];
}

type Box = [number, number, number, number];

function boxOf(polygons: Position[][][]): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polygons)
    for (const [x, y] of p[0]) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  return b;
}

const meets = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/** The polygons cut to a box (Sutherland-Hodgman: exact area, maybe degenerate edges on the box's sides). */
function cut(polygons: MultiPolygon, b: Box): MultiPolygon {
  const box = { x0: b[0], y0: b[1], x1: b[2], y1: b[3] };
  const out: MultiPolygon = [];
  for (const p of polygons) {
    const rings = p.map((r) => clipRing(flatRing(r as Position[], 'overlap test'), box));
    if (rings[0]) out.push(rings.filter((r) => r !== null).map((r) => closedRing(r) as [number, number][]));
  }
  return out;
}

/**
 * Whether two features share area, not just edges (neighbours do). Most pairs are neighbours
 * with large outlines: both are cut to the box their boxes share first, which keeps the answer
 * (the shared area lies inside it) and makes polygon-clipping's work small.
 */
function overlap(a: MultiPolygon, b: MultiPolygon, boxA: Box, boxB: Box): boolean {
  const both: Box = [
    Math.max(boxA[0], boxB[0]),
    Math.max(boxA[1], boxB[1]),
    Math.min(boxA[2], boxB[2]),
    Math.min(boxA[3], boxB[3]),
  ];
  try {
    return polygonClipping.intersection(cut(a, both), cut(b, both)).length > 0;
  } catch {
    return polygonClipping.intersection(a, b).length > 0; // a cut's degenerate edges refused: the whole
  }
}

/**
 * The leaf's features as disjoint pieces. Features no other one overlaps (by area: neighbours
 * share edges) stay as they are; each group of overlapping ones is overlaid in leaf order.
 */
export function disjointPieces(features: Feature[]): Piece[] {
  const polys = features.map((f) => polygonsOf(f.geometry) as MultiPolygon);
  const zone = features.map((f) => String(f.properties?.tzid));
  const boxes = polys.map((p) => boxOf(p as Position[][][]));
  // Union-find over overlapping pairs (polygon-clipping: area, not shared edges).
  const group = features.map((_f, i) => i);
  const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i])));
  for (let i = 0; i < polys.length; i++)
    for (let j = i + 1; j < polys.length; j++)
      if (meets(boxes[i], boxes[j]) && overlap(polys[i], polys[j], boxes[i], boxes[j])) group[find(j)] = find(i);
  const members = new Map<number, number[]>();
  for (let i = 0; i < polys.length; i++) members.set(find(i), [...(members.get(find(i)) ?? []), i]);
  const out: Piece[] = [];
  for (const list of members.values()) {
    if (list.length === 1) out.push({ zones: [zone[list[0]]], polygons: polys[list[0]] as Position[][][] });
    else out.push(...overlay(list.map((i) => ({ zones: [zone[i]], geom: polys[i] }))));
  }
  return out;
}

/** Adds features one by one, in order: each existing piece splits into inside and outside it. */
function overlay(features: { zones: string[]; geom: MultiPolygon }[]): Piece[] {
  let pieces: { zones: string[]; geom: MultiPolygon }[] = [];
  for (const f of features) {
    const next: typeof pieces = [];
    for (const p of pieces) {
      const inside = polygonClipping.intersection(p.geom, f.geom);
      const outside = polygonClipping.difference(p.geom, f.geom);
      if (inside.length) next.push({ zones: [...p.zones, ...f.zones], geom: inside });
      if (outside.length) next.push({ zones: p.zones, geom: outside });
    }
    const own = pieces.length ? polygonClipping.difference(f.geom, ...pieces.map((p) => p.geom)) : f.geom;
    if (own.length) next.push({ zones: f.zones, geom: own });
    pieces = next;
  }
  return pieces.map((p) => ({ zones: p.zones, polygons: p.geom as Position[][][] }));
}
