// The areas every code of a layer holds inside a box, as the lookup answers them: the export's
// exact trapezoids of each 1° cell the box touches, dissolved per code across those cells, so a
// map tile drawn from them has no cell seams. What the playground's vector tiles are cut from.

import { datasetOf, type GeoLookup } from '../lookup/engine.js';
import { ValidationError } from '../lookup/errors.js';
import { EdgeSet, dissolve } from './geometry.js';
import type { MultiPolygon } from './geometry-of.js';
import { cellTrapezoids, type ExportLayer, layerReader, roundPolygons } from './rows.js';

/** One code's area within the cells of a box. */
export interface AreaIn {
  /** Alpha-3 (country layer) or the ISO 3166-2 code subdivisionFromGps answers (subdivision layer). */
  code: string;
  geometry: MultiPolygon;
}

/**
 * Each code of `layer` with its area in the 1° cells that [west, south, east, north] touches,
 * whole cells (the area reaches past the box to the cells' edges), one MultiPolygon per code.
 */
export function geometryIn(lookup: GeoLookup, layer: ExportLayer, box: [number, number, number, number]): AreaIn[] {
  const [west, south, east, north] = box;
  if (layer !== 'country' && layer !== 'subdivision')
    throw new ValidationError(`No such layer: ${String(layer)}`, { layer: ['must be country or subdivision'] });
  if (!(west <= east && south <= north && west >= -180 && east <= 180 && south >= -90 && north <= 90))
    throw new ValidationError('The box must be [west, south, east, north] within [-180, -90, 180, 90]', {
      box: ['must be [west, south, east, north] with west ≤ east and south ≤ north, in degrees'],
    });
  const ds = datasetOf(lookup);
  const reader = layerReader(ds, layer);
  const sets = new Map<number, EdgeSet>();
  const c0 = Math.max(0, Math.floor(west + 180));
  const c1 = Math.min(359, Math.ceil(east + 180) - 1);
  const r0 = Math.max(0, Math.floor(south + 90));
  const r1 = Math.min(179, Math.ceil(north + 90) - 1);
  for (let row = r0; row <= Math.max(r0, r1); row++)
    for (let col = c0; col <= Math.max(c0, c1); col++)
      cellTrapezoids(ds, reader, col, row, (k, yb, yt, xl0, xr0, xl1, xr1) => {
        let set = sets.get(k);
        if (set === undefined) sets.set(k, (set = new EdgeSet()));
        set.addTrapezoid(yb, yt, xl0, xr0, xl1, xr1);
      });
  const codes = layer === 'country' ? ds.countryCodes : ds.subdivisionCodes;
  const out: AreaIn[] = [];
  for (const k of [...sets.keys()].sort((a, b) => a - b)) {
    const coordinates = roundPolygons(dissolve(sets.get(k)!)).map((poly) =>
      poly.map((ring) => {
        const pts: number[][] = [];
        for (let i = 0; i < ring.length; i += 2) pts.push([ring[i], ring[i + 1]]);
        pts.push(pts[0]);
        return pts;
      }),
    );
    if (coordinates.length > 0) out.push({ code: codes[k], geometry: { type: 'MultiPolygon', coordinates } });
  }
  return out;
}
