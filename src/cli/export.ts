// `geolookup export`: a layer's boundaries as GeoJSON, newline-delimited GeoJSON or CSV with
// WKT (src/export/ writes them); this file reads the flags only.

import { createWriteStream } from 'node:fs';
import { EXPORT_FORMATS, EXPORT_LAYERS, type ExportFormat, type ExportLayer } from '../export/rows.js';
import { loadDatasetFile, writeExport } from '../export/write.js';
import type { Dataset } from '../format/dataset.js';
import { GeoLookupError } from '../lookup/errors.js';
import { resolveDataPath } from '../node/data-path.js';
import { defineCommand, EXIT, type Print, runCommand, UsageError, DATA_OPTION } from './args.js';

const EXPORT = defineCommand({
  name: 'geolookup export',
  summary: 'the boundaries as the lookup answers them, for spatial joins elsewhere.',
  usage: ['geolookup export --layer country|subdivision --format geojson|geojsonseq|csv-wkt [--data FILE] [-o FILE]'],
  options: {
    layer: { type: 'string', value: 'L', help: 'country (ISO 3166-1 alpha-3) or subdivision (ISO 3166-2)' },
    format: {
      type: 'string',
      value: 'F',
      help:
        'geojson     one FeatureCollection\n' +
        'geojsonseq  one Feature per line (newline-delimited GeoJSON)\n' +
        'csv-wkt     layer,code,name,country,wkt (WKT MULTIPOLYGON, lon lat, EPSG:4326)',
    },
    data: DATA_OPTION,
    output: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE instead of stdout' },
  },
  notes: 'One row per code per 1° grid cell (whole cells of one code merged along each row).',
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
    if (!isOneOf<ExportFormat>(EXPORT_FORMATS, format))
      throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
    if (output === '') throw new UsageError('-o needs a file name');
    let ds: Dataset;
    try {
      ds = loadDatasetFile(resolveDataPath(values.data));
    } catch (e) {
      if (!(e instanceof GeoLookupError)) throw e;
      err(`geolookup export: ${e.message}`);
      return EXIT.error;
    }
    const stream = output ? createWriteStream(output) : process.stdout;
    writeExport(ds, layer, format, stream)
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
