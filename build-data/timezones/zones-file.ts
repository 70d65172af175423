// geo-tz's leaves → one GeoJSON feature per answer (a zone, or an ordered list of overlapping
// zones), the zone file a custom build reads: code Z000…, name the zones space-separated.

import type { Feature, Position } from '../sources/geojson.js';
import { type Leaf, quadRing } from './geo-tz.js';
import { disjointPieces } from './overlaps.js';

export interface ZoneFile {
  features: Feature[];
  /** Answers with more than one zone ("Asia/Urumqi Asia/Shanghai") → pieces. */
  overlaps: Map<string, number>;
  zones: Set<string>;
  leaves: number;
}

/**
 * geo-tz looks a point up within ±89.9999° × ±179.9999°, clamping any farther one to that edge,
 * where its point-in-polygon test counts the boundary in. A piece reaching the edge is therefore
 * widened to the globe's (±180°, ±90°): the dataset then answers those points as geo-tz does, with
 * no clamping at lookup (packages/timezones/test/timezones.test.ts, "the poles, band edges and the antimeridian").
 */
function widenToGlobe(polygons: Position[][][]): Position[][][] {
  const EDGE_LON = 179.9999 - 1e-7;
  const EDGE_LAT = 89.9999 - 1e-7;
  for (const polygon of polygons)
    for (const ring of polygon)
      for (const p of ring) {
        if (Math.abs(p[0]) >= EDGE_LON) p[0] = Math.sign(p[0]) * 180;
        if (Math.abs(p[1]) >= EDGE_LAT) p[1] = Math.sign(p[1]) * 90;
      }
  return polygons;
}

export function zoneFile(leaves: Iterable<Leaf>): ZoneFile {
  const byAnswer = new Map<string, Position[][][]>();
  const overlaps = new Map<string, number>();
  const zones = new Set<string>();
  let n = 0;
  const add = (answer: string[], polygons: Position[][][]) => {
    const key = answer.join(' ');
    for (const z of answer) zones.add(z);
    if (answer.length > 1) overlaps.set(key, (overlaps.get(key) ?? 0) + 1);
    const list = byAnswer.get(key);
    if (list) list.push(...polygons);
    else byAnswer.set(key, [...polygons]);
  };
  for (const leaf of leaves) {
    n++;
    if ('zones' in leaf) add(leaf.zones, widenToGlobe([[quadRing(leaf.quad)]]));
    else for (const p of disjointPieces(leaf.features)) add(p.zones, widenToGlobe(p.polygons));
  }
  // IANA names use '/', '+' and mixed case, outside the code alphabet: codes are opaque, names exact.
  const keys = [...byAnswer.keys()].sort();
  const features: Feature[] = keys.map((name, i) => ({
    properties: { code: `Z${String(i).padStart(3, '0')}`, name },
    geometry: { type: 'MultiPolygon', coordinates: byAnswer.get(name)! },
  }));
  return { features, overlaps, zones, leaves: n };
}
