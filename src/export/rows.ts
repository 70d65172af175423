// The boundaries as the lookup answers them, after the overlap policy and code
// reconciliation, for spatial joins elsewhere (PostGIS, DuckDB, BigQuery,
// Sedona). Rows come from the dataset's own resolved cells, one row per code
// per 1° cell (runs of whole 1° cells of one code along a row of the grid
// merge into one rectangle), so a point covered by a row of code X is a point
// where the lookup answers X, except on the row's edges.

import type { Dataset } from '../format/dataset.js';
import { forEachLeaf, readRecord, recordCountry, recordRegions, type Cell, type LeafEntry } from '../format/leaves.js';
import { dissolve, EdgeSet, type FlatPolygon, polygonsOf, splitAtRepeats, trapezoids } from './geometry.js';
import { locator } from '../lookup/locate.js';
import { leafBoundary } from './boundary.js';
import { GRID_COLS, GRID_ROWS, TABLE_GRID } from '../format/layout.js';

export type ExportLayer = 'country' | 'subdivision';
export type ExportFormat = 'geojson' | 'geojsonseq' | 'csv-wkt';
export const EXPORT_LAYERS: readonly ExportLayer[] = ['country', 'subdivision'];
export const EXPORT_FORMATS: readonly ExportFormat[] = ['geojson', 'geojsonseq', 'csv-wkt'];
/** Formats written by a package of their own, loaded when named (docs/ARCHITECTURE.md). */
export const PACKAGE_FORMATS = { geoparquet: '@geolookup/geoparquet' } as const;

/**
 * Decimal places of exported coordinates: 1e-10° ≈ 0.01 mm, far inside the 1 m
 * quantisation bound, and fine enough that rounding folds no centimetre-sized zig-zag onto
 * itself (every row ST_IsValid: test/integration/export.test.ts).
 */
const EXPORT_DECIMALS = 10;

export interface ExportRow {
  layer: ExportLayer;
  /** ISO 3166-1 alpha-3 (country layer) or ISO 3166-2 code (subdivision layer). */
  code: string;
  name: string;
  /** Alpha-3 code of the country the row belongs to (the row's own code on the country layer). */
  country: string;
  /** The grid cell the row lies in: [west, south, east, north], whole degrees. */
  bbox: [number, number, number, number];
  /** Polygons [outer, ...holes], rings flat [x0, y0, x1, y1, …] (lon, lat), not closed; outers counter-clockwise. */
  polygons: FlatPolygon[];
}

function rectangle(x0: number, y0: number, x1: number, y1: number): FlatPolygon[] {
  return [[Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1)]];
}

/**
 * Rows of one layer in grid order (south to north, west to east). A generator,
 * so a writer holds one 1° cell's geometry at a time. `only` restricts the
 * export to some level-0 cells (column from -180°, row from -90°).
 */
export function* exportRows(
  ds: Dataset,
  layer: ExportLayer,
  only?: (col: number, row: number) => boolean,
): Generator<ExportRow> {
  const countryLayer = layer === 'country';
  const subdivisionCountry = new Int32Array(ds.subdivisionCodes.length).fill(-1);
  for (let r = 0; r < ds.regionSubdivision.length; r++)
    if (ds.regionSubdivision[r] >= 0) subdivisionCountry[ds.regionSubdivision[r]] = ds.regionCountry[r];
  const countryNames = ds.meta.countries.map((c) => c.name);
  const subdivisionNames = ds.meta.subdivisions.map((s) => s.name);
  const row = (code: number, bbox: ExportRow['bbox'], polygons: FlatPolygon[]): ExportRow =>
    countryLayer
      ? { layer, code: ds.countryCodes[code], name: countryNames[code], country: ds.countryCodes[code], bbox, polygons }
      : {
          layer,
          code: ds.subdivisionCodes[code],
          name: subdivisionNames[code],
          country: ds.countryCodes[subdivisionCountry[code]] ?? '',
          bbox,
          polygons,
        };

  const reader = layerReader(ds, layer);

  for (let r = 0; r < GRID_ROWS; r++) {
    let runCode = -1;
    let runStart = 0;
    const flush = (end: number): ExportRow | null => {
      const out =
        runCode >= 0
          ? row(
              runCode,
              [runStart - 180, r - 90, end - 180, r - 89],
              rectangle(runStart - 180, r - 90, end - 180, r - 89),
            )
          : null;
      runCode = -1;
      return out;
    };
    for (let c = 0; c < GRID_COLS; c++) {
      if (only && !only(c, r)) {
        // A run of whole cells ends at a cell left out.
        const done = flush(c);
        if (done) yield done;
        continue;
      }
      const sets = new Map<number, EdgeSet>();
      const setOf = (code: number) => {
        let s = sets.get(code);
        if (!s) sets.set(code, (s = new EdgeSet()));
        return s;
      };
      const { leaves, uniform } = cellTrapezoids(ds, reader, c, r, (k, yb, yt, xl0, xr0, xl1, xr1) =>
        setOf(k).addTrapezoid(yb, yt, xl0, xr0, xl1, xr1),
      );
      if (leaves === 1 && uniform !== undefined) {
        if (uniform !== runCode) {
          const done = flush(c);
          if (done) yield done;
          runCode = uniform;
          runStart = c;
        }
        continue;
      }
      const done = flush(c);
      if (done) yield done;
      for (const code of [...sets.keys()].sort((a, b) => a - b)) {
        const polygons = dissolve(sets.get(code)!);
        if (polygons.length) yield row(code, [c - 180, r - 90, c - 179, r - 89], polygons);
      }
    }
    const done = flush(GRID_COLS);
    if (done) yield done;
  }
}

/** How one layer reads the dataset: its descent, the code of a whole leaf, the code at a point. */
export interface LayerReader {
  countryOnly: boolean;
  /** The code a leaf entry gives its whole cell (-1: none), or undefined when geometry decides. */
  direct(e: LeafEntry): number | undefined;
  /** The code at (x, y) = (lon, lat), -1 for none. */
  classify(x: number, y: number): number;
  /** Lines that can change the answer in a leaf whose record is `record`. */
  linesOf(record: number, cell: Cell, out: Float64Array[]): void;
  /** Every code (-1: none) a leaf whose record is `record` can answer somewhere, maybe more. */
  answersOf(record: number): Set<number>;
}

/** Country indexes (the country layer), subdivision indexes (the subdivision layer) or region ids. */
export function layerReader(ds: Dataset, layer: ExportLayer | 'region'): LayerReader {
  const countryOnly = layer === 'country';
  const byRegion = layer === 'region';
  const { locate, locateCountry } = locator(ds);
  const linesOf = (record: number, cell: Cell, out: Float64Array[]): void => {
    const rec = readRecord(ds, record, cell);
    out.push(...rec.lines);
    for (const entry of rec.items) if (!countryOnly && entry.kind === 'record') linesOf(entry.record, cell, out);
    // A default record continues this one (a leaf of more than 16 items) or, for subdivisions, nests.
    const next = rec.fallback.kind === 'record' ? rec.fallback.record : -1;
    if (next >= 0 && (!countryOnly || recordCountry(ds, next) < 0)) linesOf(next, cell, out);
    // A default table's answer changes between its cells: their edges cut the leaf like rings.
    if (!countryOnly && rec.fallback.kind === 'table') {
      const { cells, regions } = rec.fallback;
      cells.forEach((t, k) => {
        const east = k % TABLE_GRID < TABLE_GRID - 1 && regions[k + 1] !== regions[k];
        const north = k + TABLE_GRID < regions.length && regions[k + TABLE_GRID] !== regions[k];
        if (east || north) out.push(Float64Array.of(t.x0, t.y0, t.x1, t.y0, t.x1, t.y1, t.x0, t.y1, t.x0, t.y0));
      });
    }
  };
  const codeOf = countryOnly
    ? (r: number) => ds.regionCountry[r]
    : byRegion
      ? (r: number) => r
      : (r: number) => ds.regionSubdivision[r];
  const answers = new Map<number, Set<number>>();
  const answersOf = (record: number): Set<number> => {
    let codes = answers.get(record);
    if (!codes) {
      const found = new Set<number>();
      recordRegions(ds, record, (r) => found.add(codeOf(r)));
      answers.set(record, (codes = found));
    }
    return codes;
  };
  return {
    countryOnly,
    answersOf,
    direct: (e) => {
      if (e.kind === 'country') return e.country;
      if (e.kind === 'region')
        return byRegion ? e.region : countryOnly ? ds.regionCountry[e.region] : ds.regionSubdivision[e.region];
      if (countryOnly && recordCountry(ds, e.record) >= 0) return recordCountry(ds, e.record);
      return undefined;
    },
    classify: countryOnly
      ? (x, y) => locateCountry(y, x)
      : byRegion
        ? (x, y) => locate(y, x)
        : (x, y) => ds.regionSubdivision[locate(y, x)],
    linesOf,
  };
}

/**
 * Cuts level-0 cell (col, row) into trapezoids of one code each (whole leaves where one code
 * answers) and hands those with a code (>= 0) to `add`. Returns the number of leaves and, for a
 * cell that is one leaf, its code.
 */
export function cellTrapezoids(
  ds: Dataset,
  reader: LayerReader,
  col: number,
  row: number,
  add: (code: number, yb: number, yt: number, xl0: number, xr0: number, xl1: number, xr1: number) => void,
): { leaves: number; uniform: number | undefined } {
  let uniform: number | undefined;
  let leaves = 0;
  forEachLeaf(ds, col, row, reader.countryOnly, (cell, e) => {
    leaves++;
    const code = reader.direct(e);
    if (code !== undefined) {
      if (cell.x1 - cell.x0 === 1) uniform = code;
      if (code >= 0) add(code, cell.y0, cell.y1, cell.x0, cell.x1, cell.x0, cell.x1);
      return;
    }
    const lines: Float64Array[] = [];
    reader.linesOf((e as { record: number }).record, cell, lines);
    trapezoids(lines, cell.x0, cell.y0, cell.x1, cell.y1, reader.classify, (k, yb, yt, xl0, xr0, xl1, xr1) => {
      if (k >= 0) add(k, yb, yt, xl0, xr0, xl1, xr1);
    });
  });
  return { leaves, uniform };
}

// ── Writers ──────────────────────────────────────────────────────────────────

const SCALE = 10 ** EXPORT_DECIMALS;
const num = (v: number): string => String(Math.round(v * SCALE) / SCALE);

/**
 * Rings whose box is under this many degrees on both sides (about 0.1 m, inside the 1 m
 * quantisation bound) are slivers where table cells meet: dropped, or two of them can overlap.
 */
const SLIVER_DEG = 1e-6;

function isSliver(r: Float64Array): boolean {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let i = 0; i < r.length; i += 2) {
    x0 = Math.min(x0, r[i]);
    x1 = Math.max(x1, r[i]);
    y0 = Math.min(y0, r[i + 1]);
    y1 = Math.max(y1, r[i + 1]);
  }
  return x1 - x0 < SLIVER_DEG && y1 - y0 < SLIVER_DEG;
}

/**
 * Inserts into each horizontal or vertical edge the ring's own vertices that lie inside it: where
 * two cells cut one source segment a rounding apart, the ring can run through its own vertex along
 * a cell side. The vertex then repeats, and splitAtRepeats makes simple rings of it.
 */
function insertTouchingVertices(r: Float64Array): Float64Array {
  const byY = new Map<number, number[]>();
  const byX = new Map<number, number[]>();
  for (let i = 0; i < r.length; i += 2) {
    byY.get(r[i + 1])?.push(r[i]) ?? byY.set(r[i + 1], [r[i]]);
    byX.get(r[i])?.push(r[i + 1]) ?? byX.set(r[i], [r[i + 1]]);
  }
  const out: number[] = [];
  let inserted = false;
  const n = r.length;
  for (let i = 0; i < n; i += 2) {
    const [ax, ay, bx, by] = [r[i], r[i + 1], r[(i + 2) % n], r[(i + 3) % n]];
    out.push(ax, ay);
    const horizontal = ay === by;
    if (!horizontal && ax !== bx) continue;
    const [a, b] = horizontal ? [ax, bx] : [ay, by];
    const inside = (horizontal ? byY.get(ay) : byX.get(ax))!.filter((v) => (v - a) * (v - b) < 0);
    if (inside.length === 0) continue;
    inserted = true;
    inside.sort((p, q) => (b > a ? p - q : q - p));
    for (const v of inside) out.push(horizontal ? v : ax, horizontal ? ay : v);
  }
  return inserted ? Float64Array.from(out) : r;
}

/** A ring rounded to the export's decimals, repeated consecutive points dropped, not closed. */
function roundRing(ring: Float64Array): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < ring.length; i += 2) {
    const x = Math.round(ring[i] * SCALE) / SCALE;
    const y = Math.round(ring[i + 1] * SCALE) / SCALE;
    const n = out.length;
    if (n === 0 || out[n - 2] !== x || out[n - 1] !== y) out.push(x, y);
  }
  while (out.length > 2 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return Float64Array.from(out);
}

/**
 * Rounded rings, not closed. Rounding can make a ring touch itself (two points a rounding apart
 * become one): such a polygon is re-split into simple rings. Rings left with fewer than three
 * points, and slivers, go (a polygon whose outer ring goes, with its holes). Every row ST_IsValid: test/data/oracle.test.ts.
 */
export function roundPolygons(polygons: FlatPolygon[]): FlatPolygon[] {
  const out: FlatPolygon[] = [];
  for (const poly of polygons) {
    const rings = poly.map((r) => insertTouchingVertices(roundRing(r)));
    if (rings[0].length < 6 || isSliver(rings[0])) continue;
    const kept = rings.filter((r) => r.length >= 6 && !isSliver(r));
    const split = kept.map(splitAtRepeats);
    if (split.every((x) => x === null)) out.push(kept);
    else out.push(...polygonsOf(kept.flatMap((r, i) => split[i] ?? [r]).filter((r) => !isSliver(r))));
  }
  return out;
}

/** Rounded polygons as closed rings of "x y" strings. */
function roundedPolygons(polygons: FlatPolygon[]): string[][][] {
  return roundPolygons(polygons).map((poly) =>
    poly.map((r) => {
      const pts: string[] = [];
      for (let i = 0; i < r.length; i += 2) pts.push(`${num(r[i])} ${num(r[i + 1])}`);
      pts.push(pts[0]);
      return pts;
    }),
  );
}

const wktOf = (polys: string[][][]): string =>
  `MULTIPOLYGON(${polys.map((p) => `(${p.map((r) => `(${r.join(',')})`).join(',')})`).join(',')})`;

function geoJsonOf(row: ExportRow, polys: string[][][]): string {
  const coords = polys
    .map((p) => `[${p.map((r) => `[${r.map((pt) => `[${pt.replace(' ', ',')}]`).join(',')}]`).join(',')}]`)
    .join(',');
  const props = JSON.stringify({ layer: row.layer, code: row.code, name: row.name, country: row.country });
  return `{"type":"Feature","properties":${props},"bbox":${JSON.stringify(row.bbox)},"geometry":{"type":"MultiPolygon","coordinates":[${coords}]}}`;
}

const csvField = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

const CSV_HEADER = 'layer,code,name,country,wkt';

const csvOf = (row: ExportRow, polys: string[][][]) =>
  `${row.layer},${csvField(row.code)},${csvField(row.name)},${csvField(row.country)},"${wktOf(polys)}"`;

/**
 * The export as text chunks, each ending in a newline: a header or opening
 * first (csv-wkt, geojson), one chunk per row, a closing last (geojson).
 * geojsonseq is one Feature per line (newline-delimited GeoJSON, no RS byte).
 * Rows with nothing left after rounding (slivers) are not written.
 */
export function* exportChunks(
  ds: Dataset,
  layer: ExportLayer,
  format: ExportFormat,
  only?: (col: number, row: number) => boolean,
): Generator<string> {
  if (format === 'csv-wkt') yield `${CSV_HEADER}\n`;
  if (format === 'geojson') yield '{"type":"FeatureCollection","features":[\n';
  let first = true;
  for (const row of exportRows(ds, layer, only)) {
    const polys = roundedPolygons(row.polygons);
    if (polys.length === 0) continue;
    if (format === 'csv-wkt') yield `${csvOf(row, polys)}\n`;
    else if (format === 'geojsonseq') yield `${geoJsonOf(row, polys)}\n`;
    else {
      yield `${first ? '' : ',\n'}${geoJsonOf(row, polys)}`;
      first = false;
    }
  }
  if (format === 'geojson') yield '\n]}\n';
}

/**
 * Adds to `set` the boundary, inside level-0 cell (col, row), of the codes `holds` accepts: whole
 * leaves as rectangles, the other leaves' edges from their lines (boundary.ts).
 */
export function cellBoundary(
  ds: Dataset,
  reader: LayerReader,
  col: number,
  row: number,
  holds: (code: number) => boolean,
  set: EdgeSet,
): void {
  // A cell whose leaves all hold the set is one rectangle (most cells inside a large country).
  let whole = true;
  forEachLeaf(ds, col, row, reader.countryOnly, (_cell, e) => {
    const code = whole ? reader.direct(e) : undefined;
    if (code === undefined || code < 0 || !holds(code)) whole = false;
  });
  if (whole) {
    set.addTrapezoid(row - 90, row - 89, col - 180, col - 179, col - 180, col - 179);
    return;
  }
  forEachLeaf(ds, col, row, reader.countryOnly, (cell, e) => {
    const code = reader.direct(e);
    if (code !== undefined) {
      if (code >= 0 && holds(code)) set.addTrapezoid(cell.y0, cell.y1, cell.x0, cell.x1, cell.x0, cell.x1);
      return;
    }
    // A leaf whose regions the set holds none of (or all of) needs no lines: most leaves of a
    // small country's cells. answersOf may list more codes than the leaf answers, never fewer.
    const record = (e as { record: number }).record;
    let some = false;
    let every = true;
    for (const k of reader.answersOf(record)) {
      if (k >= 0 && holds(k)) some = true;
      else every = false;
    }
    if (!some) return;
    if (every) {
      set.addTrapezoid(cell.y0, cell.y1, cell.x0, cell.x1, cell.x0, cell.x1);
      return;
    }
    const lines: Float64Array[] = [];
    reader.linesOf(record, cell, lines);
    const held = (k: number) => k >= 0 && holds(k);
    if (leafBoundary(lines, cell.x0, cell.y0, cell.x1, cell.y1, reader.classify, held, set)) return;
    trapezoids(lines, cell.x0, cell.y0, cell.x1, cell.y1, reader.classify, (k, yb, yt, xl0, xr0, xl1, xr1) => {
      if (held(k)) set.addTrapezoid(yb, yt, xl0, xr0, xl1, xr1);
    });
  });
}
