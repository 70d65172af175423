// `geolookup export`: a layer's boundaries as GeoJSON, newline-delimited GeoJSON or CSV with
// WKT (src/export/ writes them), or as GeoParquet through @geolookup/geoparquet, loaded when
// named; this file reads the flags only.

import { createWriteStream } from 'node:fs';
import { dissolveDataset } from '../export/dissolve.js';
import { EXPORT_FORMATS, EXPORT_LAYERS, type ExportFormat, type ExportLayer, PACKAGE_FORMATS } from '../export/rows.js';
import { loadDatasetFile, writeExport } from '../export/write.js';
import type { Dataset } from '../format/dataset.js';
import { GeoLookupError } from '../lookup/errors.js';
import { resolveDataPath } from '../node/data-path.js';
import { defineCommand, EXIT, type Print, runCommand, UsageError, DATA_OPTION } from './args.js';

const EXPORT = defineCommand({
  name: 'geolookup export',
  summary: 'the boundaries as the lookup answers them, for spatial joins elsewhere.',
  usage: [
    'geolookup export --layer country|subdivision --format geojson|geojsonseq|csv-wkt [--data FILE] [-o FILE]',
    'geolookup export --layer country|subdivision --format geoparquet -o FILE [--data FILE]',
  ],
  options: {
    layer: { type: 'string', value: 'L', help: 'country (ISO 3166-1 alpha-3) or subdivision (ISO 3166-2)' },
    format: {
      type: 'string',
      value: 'F',
      help:
        'geojson     one FeatureCollection\n' +
        'geojsonseq  one Feature per line (newline-delimited GeoJSON)\n' +
        'csv-wkt     layer,code,name,country,wkt (WKT MULTIPOLYGON, lon lat, EPSG:4326)\n' +
        'geoparquet  GeoParquet 1.1, one row per code, dissolved (needs @geolookup/geoparquet)',
    },
    data: DATA_OPTION,
    output: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE instead of stdout' },
  },
  notes:
    'geojson, geojsonseq, csv-wkt: one row per code per 1° grid cell (whole cells of one code merged\n' +
    'along each row). geoparquet: one row per code, dissolved across cells.',
  exit: '0 written, 2 bad options, 1 a missing or damaged dataset or a failed write.',
});

const isOneOf = <T extends string>(list: readonly T[], v: string | undefined): v is T =>
  v !== undefined && (list as readonly string[]).includes(v);

/**
 * Checks the arguments and loads the dataset synchronously (bad input → 2, a missing or
 * damaged dataset → 1, with the message on `err`), then writes in the background; a failure
 * there sets process.exitCode to 1.
 */
export function runExport(argv: string[], out: Print, err: Print): number {
  return runCommand(EXPORT, argv, out, err, ({ values, positionals }) => {
    const { layer, format, output } = values;
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (!isOneOf<ExportLayer>(EXPORT_LAYERS, layer))
      throw new UsageError(`--layer must be one of ${EXPORT_LAYERS.join(', ')}`);
    const parquet = format === 'geoparquet';
    if (!parquet && !isOneOf<ExportFormat>(EXPORT_FORMATS, format))
      throw new UsageError(`--format must be one of ${[...EXPORT_FORMATS, 'geoparquet'].join(', ')}`);
    if (output === '') throw new UsageError('-o needs a file name');
    if (parquet && output === undefined) throw new UsageError('--format geoparquet needs -o FILE (Parquet is binary)');
    let ds: Dataset;
    try {
      ds = loadDatasetFile(resolveDataPath(values.data));
    } catch (e) {
      if (!(e instanceof GeoLookupError)) throw e;
      err(`geolookup export: ${e.message}`);
      return EXIT.error;
    }
    if (parquet) {
      writeParquet(ds, layer, output!, err).then((code) => {
        if (code !== EXIT.ok) process.exitCode = code;
      });
      return EXIT.ok;
    }
    const stream = output ? createWriteStream(output) : process.stdout;
    writeExport(ds, layer, format as ExportFormat, stream)
      .then(() => {
        if (output) stream.end();
      })
      .catch((e: NodeJS.ErrnoException) => {
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        if (e.code === 'EPIPE') return;
        err(`geolookup export: ${e.message}`);
        process.exitCode = EXIT.error;
      });
    return EXIT.ok;
  });
}

// A variable specifier: bundlers leave the import alone, and the core builds without the package.
const GEOPARQUET = PACKAGE_FORMATS.geoparquet;

/** The layer dissolved, one row per code, written by @geolookup/geoparquet; the exit status. */
async function writeParquet(ds: Dataset, layer: ExportLayer, output: string, err: Print): Promise<number> {
  let pkg: {
    writeGeoParquet(
      regions: Iterable<unknown>,
      filename: string,
      options?: { metadata?: Record<string, string> },
    ): unknown;
  };
  try {
    pkg = await import(/* @vite-ignore */ /* webpackIgnore: true */ GEOPARQUET);
  } catch (e) {
    // Only the package itself missing; a dependency of it missing is its own error, shown as it is.
    const missing = (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(e).includes(`'${GEOPARQUET}`);
    if (!missing) throw e;
    err(
      `geolookup export: --format geoparquet is in ${GEOPARQUET}; install it beside geolookup: npm install ${GEOPARQUET}`,
    );
    return EXIT.error;
  }
  try {
    const sources = ds.meta.sources.map((s) => `${s.name} ${s.version} (${s.licence})`).join('; ');
    pkg.writeGeoParquet(dissolveDataset(ds, layer), output, { metadata: { 'geolookup:sources': sources } });
    return EXIT.ok;
  } catch (e) {
    err(`geolookup export: ${(e as Error).message}`);
    return EXIT.error;
  }
}
