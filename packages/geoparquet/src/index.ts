// GeoParquet 1.1 from dissolved regions (geolookup's regionGeometries): one row per code, the
// geometry as WKB, a bbox struct column as its covering, and the `geo` file metadata. Parquet
// itself is written by hyparquet-writer; row groups go to the file as they fill, so memory holds
// one row group.

import type { DissolvedRegion } from 'geolookup';
import { fileWriter, geojsonToWkb, ParquetWriter } from 'hyparquet-writer';

export interface GeoParquetOptions {
  /** Rows per row group at most (default 64): a country's row can hold megabytes of WKB. */
  rowGroupRows?: number;
  /** A row group closes once its WKB reaches this many bytes (default 32 MB). */
  rowGroupBytes?: number;
  /** Extra key-value metadata for the file footer (e.g. the dataset's sources). */
  metadata?: Record<string, string>;
}

export interface GeoParquetSummary {
  rows: number;
  /** [xmin, ymin, xmax, ymax] of every row. */
  bbox: [number, number, number, number];
}

/** Column names and their order. */
export const GEOPARQUET_COLUMNS = ['layer', 'code', 'name', 'country', 'geometry', 'bbox'] as const;

const SCHEMA = [
  { name: 'root', num_children: 6 },
  { name: 'layer', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'code', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'name', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'country', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  // Plain BYTE_ARRAY holding WKB, as GeoParquet 1.1 specifies (no Parquet GEOMETRY logical type,
  // which older readers do not know).
  { name: 'geometry', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
  { name: 'bbox', repetition_type: 'REQUIRED', num_children: 4 },
  { name: 'xmin', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'ymin', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'xmax', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'ymax', type: 'DOUBLE', repetition_type: 'REQUIRED' },
] as const;

/** The `geo` file metadata (GeoParquet 1.1) for the rows written. */
export function geoMetadata(bbox: [number, number, number, number]): object {
  return {
    version: '1.1.0',
    primary_column: 'geometry',
    columns: {
      geometry: {
        encoding: 'WKB',
        geometry_types: ['MultiPolygon'],
        // No crs: OGC:CRS84 (longitude, latitude on WGS 84), the default.
        // Straight edges in longitude/latitude, as the lookup tests them.
        edges: 'planar',
        orientation: 'counterclockwise',
        bbox,
        covering: {
          bbox: { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] },
        },
      },
    },
  };
}

/**
 * Writes `regions` to `filename` as GeoParquet 1.1 (overwriting it). Rows keep the order of
 * `regions`; an empty iterable gives a file with no rows.
 */
export function writeGeoParquet(
  regions: Iterable<DissolvedRegion>,
  filename: string,
  options: GeoParquetOptions = {},
): GeoParquetSummary {
  const maxRows = options.rowGroupRows ?? 64;
  const maxBytes = options.rowGroupBytes ?? 32 * 1024 * 1024;
  const writer = new ParquetWriter({
    writer: fileWriter(filename),
    schema: SCHEMA as unknown as ConstructorParameters<typeof ParquetWriter>[0]['schema'],
    // Snappy, hyparquet-writer's built-in codec, which every Parquet reader has.
    codec: 'SNAPPY',
  });
  const total: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  let rows = 0;
  let group = newGroup();
  let bytes = 0;
  const flush = () => {
    if (group.code.length === 0) return;
    writer.write({
      columnData: [
        { name: 'layer', data: group.layer },
        { name: 'code', data: group.code },
        { name: 'name', data: group.name },
        { name: 'country', data: group.country },
        { name: 'geometry', data: group.geometry },
        { name: 'bbox', data: group.bbox },
      ],
      rowGroupSize: group.code.length,
    });
    group = newGroup();
    bytes = 0;
  };
  for (const r of regions) {
    const wkb = geojsonToWkb(r.geometry);
    const [xmin, ymin, xmax, ymax] = r.bbox;
    group.layer.push(r.layer);
    group.code.push(r.code);
    group.name.push(r.name);
    group.country.push(r.country);
    group.geometry.push(wkb);
    group.bbox.push({ xmin, ymin, xmax, ymax });
    total[0] = Math.min(total[0], xmin);
    total[1] = Math.min(total[1], ymin);
    total[2] = Math.max(total[2], xmax);
    total[3] = Math.max(total[3], ymax);
    rows++;
    bytes += wkb.length;
    if (group.code.length >= maxRows || bytes >= maxBytes) flush();
  }
  flush();
  const bbox: [number, number, number, number] = rows ? total : [0, 0, 0, 0];
  writer.kvMetadata = [
    { key: 'geo', value: JSON.stringify(geoMetadata(bbox)) },
    ...Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value })),
  ];
  writer.finish();
  return { rows, bbox };
}

function newGroup() {
  return {
    layer: [] as string[],
    code: [] as string[],
    name: [] as string[],
    country: [] as string[],
    geometry: [] as Uint8Array[],
    bbox: [] as { xmin: number; ymin: number; xmax: number; ymax: number }[],
  };
}
