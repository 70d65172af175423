// One geometry per code, as the lookup answers it: the export's exact pieces of every 1° cell,
// dissolved across cells (shared cell and leaf sides cancel), so a code is one seamless
// MultiPolygon. For geometryOf, the playground's tiles and the one-row-per-code export formats.

import type { Dataset } from '../format/dataset.js';
import { datasetOf, type GeoLookup } from '../lookup/engine.js';
import { ValidationError } from '../lookup/errors.js';
import { EdgeSet, dissolve, type FlatPolygon } from './geometry.js';
import { cellBoundary, type ExportLayer, exportRows, layerReader, roundPolygons } from './rows.js';

/** A GeoJSON MultiPolygon (RFC 7946): outer rings counter-clockwise, holes clockwise, rings closed. */
export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: number[][][][];
}

/** One code of a layer, dissolved. */
export interface DissolvedRegion {
  layer: ExportLayer;
  /** ISO 3166-1 alpha-3 (country layer) or ISO 3166-2 code (subdivision layer). */
  code: string;
  name: string;
  /** Alpha-3 code of the country the region belongs to (the region's own code on the country layer). */
  country: string;
  /** [west, south, east, north] of the geometry's vertices. */
  bbox: [number, number, number, number];
  geometry: MultiPolygon;
}

/**
 * The area where `lookup` answers `code` on `layer`, dissolved: on the country layer where
 * isInCountry(code) is true, on the subdivision layer where isInSubdivision(code) is (a parent
 * code: the union of its descendants; a territory's code in its sovereign's list, as US-PR: the
 * territory too). Coordinates rounded to 10 decimals (0.01 mm), every ring closed. Bad or unknown
 * codes throw what isInCountry / isInSubdivision throw; an empty MultiPolygon when the code holds
 * no area.
 */
export function dissolveCode(lookup: GeoLookup, layer: ExportLayer, code: string): MultiPolygon {
  // The same checks and errors as the membership tests (a valid point, so only the code can fail).
  const subdivision = layer === 'subdivision';
  if (subdivision) lookup.isInSubdivision(code, 0, 0);
  else lookup.isInCountry(code, 0, 0);
  const ds = datasetOf(lookup);
  const upper = code.toUpperCase();
  // A territory's code in its sovereign's list (US-PR) stands for the territory (PRI), and is also a
  // subdivision code the subdivision layer may answer on its own: both count, as for isInSubdivision.
  const country = ds.aliasCountry.get(upper) ?? (subdivision ? -1 : (ds.countryByCode.get(upper) ?? -1));
  const sub = subdivision ? (ds.subdivisionByCode.get(upper) ?? -1) : -1;
  const inside = within(ds, country, sub);
  const reader = layerReader(ds, sub < 0 ? 'country' : 'region');
  const holds = sub < 0 ? (c: number) => c === country : inside.region;
  const set = new EdgeSet();
  for (const cell of cellsOf(ds, inside)) {
    cellBoundary(ds, reader, cell % 360, Math.floor(cell / 360), holds, set);
  }
  return multiPolygonOf(dissolve(set));
}

/**
 * Every code the layer answers, one region each, dissolved; in the order their last rows of the
 * grid are passed (south to north). Regions never overlap: a parent subdivision's row is where the
 * layer answers that code itself, not its descendants. A generator over the grid, holding only the
 * codes whose area the walk is inside of (their cell-dissolved rings), never the whole layer.
 * `only` restricts the walk to some level-0 cells (column from -180°, row from -90°).
 */
export function dissolveLayer(
  lookup: GeoLookup,
  layer: ExportLayer,
  only?: (col: number, row: number) => boolean,
): Generator<DissolvedRegion> {
  // Checked now, not at the first next(): a bad layer fails where it is passed.
  if (layer !== 'country' && layer !== 'subdivision')
    throw new ValidationError("The layer must be 'country' or 'subdivision'.", {
      layer: ["must be 'country' or 'subdivision'"],
    });
  return dissolveDataset(datasetOf(lookup), layer, only);
}

/** dissolveLayer over a dataset read directly (the CLI's export). */
export function* dissolveDataset(
  ds: Dataset,
  layer: ExportLayer,
  only?: (col: number, row: number) => boolean,
): Generator<DissolvedRegion> {
  const lastRow = lastRows(ds, layer);
  const open = new Map<string, { code: string; name: string; country: string; set: EdgeSet; lastRow: number }>();
  const byLast: string[][] = [];
  let next = 0;
  // Dissolves and yields the codes whose last row is below `row`.
  const finish = function* (row: number): Generator<DissolvedRegion> {
    for (; next < row; next++) {
      const due = byLast[next];
      if (!due) continue;
      for (const code of due.sort()) {
        const r = open.get(code)!;
        open.delete(code);
        const geometry = multiPolygonOf(dissolve(r.set));
        if (geometry.coordinates.length === 0) continue;
        yield { layer, code: r.code, name: r.name, country: r.country, bbox: bboxOf(geometry), geometry };
      }
    }
  };
  for (const piece of exportRows(ds, layer, only)) {
    // Rows come south to north: every code whose last row lies below this piece is complete.
    const pieceRow = piece.bbox[1] + 90;
    yield* finish(pieceRow);
    let r = open.get(piece.code);
    if (!r) {
      // A code whose boxes end below the piece (not expected) stays open to the walk's end.
      const last = Math.max(lastRow.get(piece.code) ?? pieceRow, pieceRow);
      r = { code: piece.code, name: piece.name, country: piece.country, set: new EdgeSet(), lastRow: last };
      open.set(piece.code, r);
      (byLast[last] ??= []).push(piece.code);
    }
    addPolygons(r.set, piece.polygons);
  }
  yield* finish(byLast.length);
}

/** The rings of cell-dissolved polygons as edges (interior on the left) for one more dissolve. */
function addPolygons(set: EdgeSet, polygons: FlatPolygon[]): void {
  for (const poly of polygons)
    for (const r of poly) {
      const n = r.length;
      for (let i = 0; i < n; i += 2) set.add(r[i], r[i + 1], r[(i + 2) % n], r[(i + 3) % n]);
    }
}

/** Rounded (10 decimals), closed rings as a GeoJSON MultiPolygon. */
function multiPolygonOf(polygons: FlatPolygon[]): MultiPolygon {
  const coordinates = roundPolygons(polygons).map((poly) =>
    poly.map((ring) => {
      const pts: number[][] = [];
      for (let i = 0; i < ring.length; i += 2) pts.push([ring[i], ring[i + 1]]);
      pts.push(pts[0]);
      return pts;
    }),
  );
  return { type: 'MultiPolygon', coordinates };
}

function bboxOf(g: MultiPolygon): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of g.coordinates)
    for (const [x, y] of poly[0]) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  return b;
}

/**
 * The last grid row (from -90°) where each code of the layer can answer: the top of its boxes in
 * the dataset's index (a subdivision's own parts and default areas, a country's parts).
 */
function lastRows(ds: Dataset, layer: ExportLayer): Map<string, number> {
  const out = new Map<string, number>();
  const country = layer === 'country';
  ds.parts.search(-180, -90, 180, 90, (i, _x0, _y0, _x1, y1) => {
    const c = ds.partCodes[i];
    if (country !== c >= 0) return false;
    const code = country ? ds.countryCodes[c] : ds.subdivisionCodes[-1 - c];
    const row = Math.min(179, Math.floor(y1 + 90));
    if (row > (out.get(code) ?? -1)) out.set(code, row);
    return false;
  });
  return out;
}

/** Which regions and which box codes (boxcodes) the code holds: its country, or its subdivision and descendants. */
function within(ds: Dataset, country: number, sub: number) {
  const underSub = (s: number): boolean => {
    for (; s >= 0; s = ds.subdivisionParent[s]) if (s === sub) return true;
    return false;
  };
  return {
    region: (r: number) =>
      r > 0 && ((country >= 0 && ds.regionCountry[r] === country) || (sub >= 0 && underSub(ds.regionSubdivision[r]))),
    boxCode: (c: number) => (c >= 0 ? c === country : sub >= 0 && underSub(-1 - c)),
  };
}

/** Level-0 cells (row · 360 + column) that a box of the code touches: where it can answer. */
function cellsOf(ds: Dataset, inside: ReturnType<typeof within>): number[] {
  const cells = new Set<number>();
  // The filter sees every item's box and keeps none.
  ds.parts.search(-180, -90, 180, 90, (i, x0, y0, x1, y1) => {
    if (!inside.boxCode(ds.partCodes[i])) return false;
    for (let row = Math.max(0, Math.floor(y0 + 90)); row <= Math.min(179, Math.floor(y1 + 90)); row++)
      for (let col = Math.max(0, Math.floor(x0 + 180)); col <= Math.min(359, Math.floor(x1 + 180)); col++)
        cells.add(row * 360 + col);
    return false;
  });
  return [...cells].sort((a, b) => a - b);
}
