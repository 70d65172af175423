// GeoJSON input: the feature shape every source reader returns.

import { readFileSync } from 'node:fs';

export type Position = number[];
export type Geometry =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };
export interface Feature {
  properties: Record<string, unknown> | null;
  geometry: Geometry | null;
}

export function readGeoJSON(path: string): Feature[] {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  if (json?.type !== 'FeatureCollection' || !Array.isArray(json.features))
    throw new Error(`${path}: not a GeoJSON FeatureCollection`);
  return json.features;
}

/** The polygons of a feature; other geometry types hold no area and are skipped. */
export function polygonsOf(g: Geometry | null): Position[][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}
