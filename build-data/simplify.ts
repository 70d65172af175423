// The lite build's one extra step: the ranked parts simplified by mapshaper (Douglas-Peucker, a
// tolerance in metres), one source layer at a time, so a border two parts of a layer share is one
// arc, simplified once: neighbours gain no slivers or gaps. The policy's ranks stay as they were.

import Flatbush from 'flatbush';
import mapshaper from 'mapshaper';
import type { Simplification } from '../src/format/dataset.js';
import { METRES_PER_DEGREE } from '../src/format/layout.js';
import { partContains, type Ring, segmentDistance } from './index/clip.js';
import { type Feature, polygonsOf } from './sources/geojson.js';
import { bboxOf, closedRing, flatRing, type Part, vertexCount } from './sources/parts.js';

/** Douglas-Peucker tolerances, metres: arcs two countries or two subdivisions share, and every other arc. */
export interface Tolerances {
  borderM: number;
  subdivisionBorderM: number;
  coastM: number;
}

export type Simplified = Omit<Simplification, 'vertexBoundM'>;

/**
 * One layer through mapshaper: each part's simplified rings, or null where the part collapsed.
 * Douglas-Peucker thresholds are computed once on the layer's topology; an arc two codes share
 * (a border) keeps vertices down to `borderM`, any other arc (a coast, the sea's outer limit)
 * down to `coastM`: borders decide answers, while a coast moved inland lands in the same
 * country's territorial sea.
 */
function simplifyLayer(parts: Part[], borderM: number, coastM: number): (Ring[] | null)[] {
  const { internal } = mapshaper;
  const dataset = internal.importGeoJSON({
    type: 'FeatureCollection',
    features: parts.map((p, i) => ({
      type: 'Feature',
      properties: { i },
      geometry: { type: 'Polygon', coordinates: p.rings.map(closedRing) },
    })),
  });
  internal.buildTopology(dataset);
  const arcs = dataset.arcs;
  const opts = internal.getStandardSimplifyOpts(dataset, { method: 'dp' });
  internal.simplifyPaths(arcs, opts);
  // The code each arc belongs to, or SHARED once two codes use it.
  const SHARED = -1;
  const UNSET = -2;
  const owner = new Int32Array(arcs.size()).fill(UNSET);
  dataset.layers[0].shapes.forEach((shape, i) => {
    const code = codeOf(parts[i]) + 1;
    for (const path of shape ?? [])
      for (const id of path) {
        const a = id < 0 ? ~id : id;
        owner[a] = owner[a] === UNSET || owner[a] === code ? code : SHARED;
      }
  });
  const { zz, nn } = arcs.getVertexData();
  const scale = coastM / borderM;
  for (let a = 0, v = 0; a < nn.length; v += nn[a], a++)
    if (owner[a] === SHARED) for (let j = v; j < v + nn[a]; j++) zz[j] *= scale;
  arcs.setThresholds(zz);
  arcs.setRetainedInterval(internal.convertSimplifyInterval(coastM, dataset, opts));
  internal.finalizeSimplification(dataset, opts);
  const [out] = internal.exportGeoJSON(dataset, {});
  const features = JSON.parse(String(out.content)).features as (Feature & { properties: { i: number } })[];
  const rings: (Ring[] | null)[] = parts.map(() => null);
  for (const f of features) {
    const kept = polygonsOf(f.geometry)
      .flat()
      .map((r) => flatRing(r, 'simplified part'))
      .filter((r) => r.length >= 6);
    if (kept.length > 0) rings[f.properties.i] = kept;
  }
  return rings;
}

/** A point inside the outer ring: the middle of the first span a horizontal line at `y` crosses, or null. */
function spanMiddle(ring: Ring, y: number): [number, number] | null {
  const xs: number[] = [];
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const ya = ring[j + 1],
      yb = ring[i + 1];
    if (ya > y !== yb > y) xs.push(ring[j] + ((y - ya) / (yb - ya)) * (ring[i] - ring[j]));
  }
  xs.sort((a, b) => a - b);
  return xs.length >= 2 ? [(xs[0] + xs[1]) / 2, y] : null;
}

/** Points inside a part, spread over it: span middles at five heights, and a 4 × 4 grid's points inside. */
function samplePoints(p: Part): [number, number][] {
  const { x0, y0, x1, y1 } = p.bbox;
  const out: [number, number][] = [];
  for (let k = 1; k <= 5; k++) {
    const m = spanMiddle(p.rings[0], y0 + ((y1 - y0) * k) / 6);
    if (m && partContains(p.rings, m[0], m[1])) out.push(m);
  }
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) {
      const x = x0 + ((x1 - x0) * (i + 0.5)) / 4;
      const y = y0 + ((y1 - y0) * (j + 0.5)) / 4;
      if (partContains(p.rings, x, y)) out.push([x, y]);
    }
  return out;
}

const codeOf = (p: Part) => (p.layer === 'country' ? p.country : p.subdivision);

/** Metres across a box's diagonal, on a local equirectangular plane. */
function acrossM(b: Part['bbox']): number {
  const k = Math.cos((((b.y0 + b.y1) / 2) * Math.PI) / 180);
  return Math.hypot((b.x1 - b.x0) * k, b.y1 - b.y0) * METRES_PER_DEGREE;
}

/** The code that answers at (x, y) among the simplified parts `index` holds (by rank), or null. */
function winnerAt(index: Flatbush, kept: number[], parts: Part[], simplified: (Ring[] | null)[], x: number, y: number) {
  let winner: Part | null = null;
  for (const k of index.search(x, y, x, y)) {
    const q = parts[kept[k]];
    if ((!winner || q.rank < winner.rank) && partContains(simplified[kept[k]]!, x, y)) winner = q;
  }
  return winner;
}

/**
 * Which parts come back unsimplified: a collapsed part, or a small one (under `smallM` across),
 * where another code (or, for countries, no code) now answers at one of its sample points (an
 * enclave: Baarle, Büsingen, Llívia; Melilla, whose coast and sea a 5 km chord would cut through);
 * and each code's largest part when none of its parts survived (a microstate, an atoll), so no
 * region vanishes. The other collapsed parts lie in their own country's territorial sea, or in no
 * subdivision, where the coastal fallback answers the nearest.
 */
function restore(parts: Part[], simplified: (Ring[] | null)[], smallM: number): boolean[] {
  const back = parts.map(() => false);
  const kept = parts.map((_, i) => i).filter((i) => simplified[i]);
  const index = new Flatbush(Math.max(1, kept.length));
  for (const i of kept) {
    const b = bboxOf(simplified[i]!);
    index.add(b.x0, b.y0, b.x1, b.y1);
  }
  if (kept.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  const survivors = new Set(kept.map((i) => `${parts[i].layer}:${codeOf(parts[i])}`));
  const largest = new Map<string, number>();
  parts.forEach((p, i) => {
    const key = `${p.layer}:${codeOf(p)}`;
    if (
      !simplified[i] &&
      !survivors.has(key) &&
      (largest.get(key) === undefined || p.area > parts[largest.get(key)!].area)
    )
      largest.set(key, i);
    if (simplified[i] && acrossM(p.bbox) >= smallM) return;
    for (const [x, y] of samplePoints(p)) {
      const winner = winnerAt(index, kept, parts, simplified, x, y);
      if (winner ? codeOf(winner) !== codeOf(p) : p.layer === 'country') {
        back[i] = true;
        break;
      }
    }
  });
  for (const i of largest.values()) back[i] = true;
  return back;
}

/**
 * Simplifies each layer's parts (land, sea and subdivisions apart: their outlines come
 * from different sources and cross everywhere) and drops the parts that collapse, but for those
 * restore() brings back. Rewrites `layers` in place; every vertex kept is a source vertex.
 */
export function simplifyParts(layers: Part[][], t: Tolerances): Simplified {
  const all = layers.flat();
  const stats: Simplified = {
    ...t,
    vertices: { before: vertexCount(all), after: 0 },
    parts: { before: all.length, after: 0, restored: 0 },
    largestDisplacementM: 0,
    largestDisplacementAt: [0, 0],
  };
  const simplified: (Ring[] | null)[] = [];
  for (const layer of layers) {
    if (layer.length === 0) continue; // a custom build has no sea or subdivisions; mapshaper refuses an empty layer
    const border = layer[0].layer === 'subdivision' ? t.subdivisionBorderM : t.borderM;
    simplified.push(...simplifyLayer(layer, border, t.coastM));
  }
  // Countries and subdivisions are ranked apart, so each decides its restores on its own.
  const back = all.map(() => false);
  for (const layer of ['country', 'subdivision'] as const) {
    const at = all.map((_, i) => i).filter((i) => all[i].layer === layer);
    const b = restore(
      at.map((i) => all[i]),
      at.map((i) => simplified[i]),
      4 * t.coastM,
    );
    at.forEach((i, k) => {
      back[i] = b[k];
      if (b[k]) simplified[i] = null;
    });
  }
  let i = 0;
  for (const layer of layers) {
    const keep: Part[] = [];
    for (const p of layer) {
      const rings = simplified[i];
      if (rings) {
        measure(stats, p.rings[0], rings);
        p.rings = rings;
        p.bbox = bboxOf(rings);
        keep.push(p);
      } else if (back[i]) {
        stats.parts.restored++;
        keep.push(p);
      }
      i++;
    }
    layer.splice(0, layer.length, ...keep);
  }
  stats.vertices.after = vertexCount(layers.flat());
  stats.parts.after = layers.reduce((n, l) => n + l.length, 0);
  return stats;
}

/**
 * Grows the largest displacement by this part's: each vertex of its source outer ring to the
 * nearest simplified edge (holes that closed, islands in a sea part, are not borders moved).
 */
function measure(stats: Simplified, outer: Ring, after: Ring[]): void {
  const ends: number[] = [];
  for (const r of after) {
    for (let j = 0; j < r.length; j += 2) {
      const k = (j + 2) % r.length;
      ends.push(r[j], r[j + 1], r[k], r[k + 1]);
    }
  }
  const index = new Flatbush(ends.length / 4);
  for (let e = 0; e < ends.length; e += 4)
    index.add(
      Math.min(ends[e], ends[e + 2]),
      Math.min(ends[e + 1], ends[e + 3]),
      Math.max(ends[e], ends[e + 2]),
      Math.max(ends[e + 1], ends[e + 3]),
    );
  index.finish();
  for (let j = 0; j < outer.length; j += 2) {
    const x = outer[j],
      y = outer[j + 1];
    const cos = Math.max(0.01, Math.cos((y * Math.PI) / 180));
    let best = Infinity;
    // Widen until an edge is found.
    for (let reach = (4 * stats.coastM) / METRES_PER_DEGREE; best === Infinity && reach < 720; reach *= 4) {
      for (const e of index.search(x - reach / cos, y - reach, x + reach / cos, y + reach)) {
        const d = segmentDistance(x, y, ends[4 * e], ends[4 * e + 1], ends[4 * e + 2], ends[4 * e + 3], cos);
        if (d < best) best = d;
      }
    }
    if (best * METRES_PER_DEGREE > stats.largestDisplacementM) {
      stats.largestDisplacementM = best * METRES_PER_DEGREE;
      stats.largestDisplacementAt = [x, y];
    }
  }
}
