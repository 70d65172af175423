// Browser / worker / Electron-renderer entry: no Node built-ins. The app fetches
// the dataset file itself and hands over its bytes.
import { createGeoLookupFromBytes, type GeoLookup } from './lookup/engine.js';
import type { BinaryInput } from './format/container.js';

export * from './exports.js';
import { geometryOf as geometryFrom, type MultiPolygon } from './export/geometry-of.js';
import { type DissolvedRegion, dissolveLayer } from './export/dissolve.js';
import { deFactoAreaAt as areaAt } from './lookup/de-facto.js';
import type { DeFactoArea } from './format/dataset.js';

/**
 * The GeoJSON MultiPolygon a country or subdivision code holds in `lookup`'s answers (see the Node
 * entry): about 18 ms for Luxembourg, under 1 s for the largest countries.
 */
export function geometryOf(code: string, lookup: GeoLookup): MultiPolygon {
  return geometryFrom(lookup, code);
}

/** The de facto area of `lookup`'s metadata the point lies in, or null (see the Node entry). */
export function deFactoAreaAt(
  latitude: number | string,
  longitude: number | string,
  lookup: GeoLookup,
): DeFactoArea | null {
  return areaAt(lookup, latitude, longitude);
}

/** Every code of a layer as one dissolved MultiPolygon each, one at a time (see the Node entry). */
export function regionGeometries(layer: 'country' | 'subdivision', lookup: GeoLookup): Generator<DissolvedRegion> {
  return dissolveLayer(lookup, layer);
}

/** The four operations over a dataset given as bytes (e.g. `await (await fetch(url)).arrayBuffer()`). */
export function createGeoLookup(options: { data: BinaryInput } | BinaryInput): GeoLookup {
  const data =
    options instanceof Uint8Array ||
    options instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== 'undefined' && options instanceof SharedArrayBuffer)
      ? options
      : (options as { data: BinaryInput }).data;
  return createGeoLookupFromBytes(data, 'dataset');
}
