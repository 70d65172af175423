// Vector tiles (Mapbox Vector Tile 2.1) of a dataset's answers: one layer per answer layer
// (country, subdivision) with each feature's code, and a label layer of points inside each part.
// geojson-vt cuts and simplifies, vt-pbf encodes. Areas come from geometryIn (the export's exact
// geometry, dissolved across cells), so a drawn region is the region the lookup answers.

import geojsonvt, { type Index, type Tile } from 'geojson-vt';
import type { GeoLookup, MultiPolygon } from 'geolookup';
import { geometryIn } from 'geolookup/extend';
import vtpbf from 'vt-pbf';
import { labelPoint } from './label.js';

export const TILE_LAYERS = ['country', 'subdivision'] as const;
export type TileLayer = (typeof TILE_LAYERS)[number];

/** Tiles exist to this zoom; a map draws closer by scaling them (0.15 m a unit at the equator). */
export const MAX_TILE_ZOOM = 16;
/**
 * Tiles up to this zoom hold countries only, cut from one world-wide index (the overview): the
 * world's exact geometry takes a minute or more to compute (bench), a block's a second or two.
 */
export const OVERVIEW_MAX_ZOOM = 7;
/** Above the overview, tiles of both layers are cut from blocks: the 1° cells under one tile of this zoom. */
export const BLOCK_ZOOM = OVERVIEW_MAX_ZOOM + 1;
export const EXTENT = 4096;
const BUFFER = 64;
/**
 * geojson-vt's tolerance in tile units: 3 of 4096 is 0.4 px of a 512 px tile, at every zoom; at
 * MAX_TILE_ZOOM nothing is simplified.
 */
const TOLERANCE = 3;

/** The [west, south, east, north] of tile (z, x, y) in degrees. */
export function tileBounds(z: number, x: number, y: number): [number, number, number, number] {
  const n = 2 ** z;
  const lat = (t: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * t) / n))) * 180) / Math.PI;
  return [(x / n) * 360 - 180, lat(y + 1), ((x + 1) / n) * 360 - 180, lat(y)];
}

/** Whether (z, x, y) names a tile this tiler makes. */
export function validTile(z: number, x: number, y: number): boolean {
  const n = 2 ** z;
  return (
    Number.isInteger(z) &&
    z >= 0 &&
    z <= MAX_TILE_ZOOM &&
    Number.isInteger(x) &&
    Number.isInteger(y) &&
    x >= 0 &&
    y >= 0 &&
    x < n &&
    y < n
  );
}

/** A number from a code's letters, for the map's colour per code (the same in every tile). */
function hue(code: string): number {
  let h = 0;
  for (let i = 0; i < code.length; i++) h = (h * 31 + code.charCodeAt(i)) % 9973;
  return h;
}

type Feature = { type: 'Feature'; properties: Record<string, string | number>; geometry: object };

/** The features of one layer's areas: the polygons with their code, and a label point per part. */
function features(areas: Areas): { areas: Feature[]; labels: Feature[] } {
  const out: Feature[] = [];
  const labels: Feature[] = [];
  for (const a of areas) {
    out.push({ type: 'Feature', properties: { code: a.code, hue: hue(a.code) }, geometry: a.geometry });
    for (const polygon of a.geometry.coordinates) {
      const { at, area } = labelPoint(polygon);
      labels.push({
        type: 'Feature',
        properties: { code: a.code, area },
        geometry: { type: 'Point', coordinates: at },
      });
    }
  }
  return { areas: out, labels };
}

const collection = (f: Feature[]) => ({ type: 'FeatureCollection', features: f });

/** geojson-vt indexes of one layer over some area: the polygons and their labels. */
export interface LayerIndex {
  areas: Index;
  labels: Index;
}

/** A layer's areas as geometryIn gives them: each code's multipolygon. */
export type Areas = { code: string; geometry: MultiPolygon }[];

/** Indexes of `layer`'s areas inside `box` (whole cells), for zooms up to `maxZoom`. */
export function layerIndex(
  lookup: GeoLookup,
  layer: TileLayer,
  box: [number, number, number, number],
  maxZoom: number,
): LayerIndex {
  return areasIndex(geometryIn(lookup, layer, box), maxZoom);
}

/** Indexes of these areas for zooms up to `maxZoom`. */
export function areasIndex(areas: Areas, maxZoom: number): LayerIndex {
  const f = features(areas);
  const options = { maxZoom, tolerance: TOLERANCE, extent: EXTENT, buffer: BUFFER, indexMaxZoom: 0 };
  return { areas: geojsonvt(collection(f.areas), options), labels: geojsonvt(collection(f.labels), options) };
}

/** The box of the cells a block's tiles can reach: its tile and the buffer around it. */
export function blockBox(bx: number, by: number): [number, number, number, number] {
  const [w, s, e, n] = tileBounds(BLOCK_ZOOM, bx, by);
  const pad = ((e - w) * BUFFER) / EXTENT;
  // In latitude the buffer is a fraction of the neighbouring tiles' heights.
  const [, s2] = tileBounds(BLOCK_ZOOM, bx, Math.min(by + 1, 2 ** BLOCK_ZOOM - 1));
  const [, , , n2] = tileBounds(BLOCK_ZOOM, bx, Math.max(by - 1, 0));
  return [
    Math.max(-180, w - pad),
    Math.max(-90, s - ((s - s2) * BUFFER) / EXTENT),
    Math.min(180, e + pad),
    Math.min(90, n + ((n2 - n) * BUFFER) / EXTENT),
  ];
}

/** One tile as MVT bytes from the layers' indexes; null when no layer has a feature there. */
export function encodeTile(
  indexes: Partial<Record<TileLayer, LayerIndex>>,
  z: number,
  x: number,
  y: number,
): Uint8Array | null {
  const layers: Record<string, Tile> = {};
  for (const layer of TILE_LAYERS) {
    const index = indexes[layer];
    if (index === undefined) continue;
    const areas = index.areas.getTile(z, x, y);
    if (areas && areas.features.length > 0) layers[layer] = areas;
    const labels = index.labels.getTile(z, x, y);
    if (labels && labels.features.length > 0) layers[`${layer}-label`] = labels;
  }
  if (Object.keys(layers).length === 0) return null;
  return vtpbf.fromGeojsonVt(layers, { version: 2, extent: EXTENT });
}
