// `geolookup export`: writes a layer's boundaries as GeoJSON, newline-delimited
// GeoJSON or CSV with WKT, streaming with backpressure so memory stays bounded
// whatever the output size.

import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { readDataset, type Dataset } from '../format/dataset.js';
import { GeoLookupError } from '../lookup/errors.js';
import { EXPORT_FORMATS, EXPORT_LAYERS, exportChunks, type ExportFormat, type ExportLayer } from '../export/rows.js';
import { checkFor, defaultDataPath, readFile } from '../node/data-path.js';

const EXIT = { ok: 0, error: 1, badInput: 2 } as const;

export const EXPORT_HELP = `geolookup export: the boundaries as the lookup answers them, for spatial joins elsewhere.

Usage:
  geolookup export --layer country|subdivision --format geojson|geojsonseq|csv-wkt [--data FILE] [-o FILE]

  --layer    country (ISO 3166-1 alpha-3) or subdivision (ISO 3166-2)
  --format   geojson     one FeatureCollection
             geojsonseq  one Feature per line (newline-delimited GeoJSON)
             csv-wkt     layer,code,name,country,wkt (WKT MULTIPOLYGON, lon lat, EPSG:4326)
  --data     dataset built by build-data (default: the embedded world dataset)
  -o FILE    write to FILE instead of stdout

One row per code per 1° grid cell (whole cells of one code merged along each row).`;

/** Reads a dataset file, as a DataError naming the file when it is missing, unreadable or damaged. */
export function loadDatasetFile(path: string): Dataset {
  const bytes = readFile(path);
  return readDataset(bytes, path, checkFor(path, bytes));
}

/**
 * Writes the export to `stream`, waiting for 'drain' whenever the stream's
 * buffer is full; chunks are gathered to about 64 KiB per write.
 */
export async function writeExport(
  ds: Dataset,
  layer: ExportLayer,
  format: ExportFormat,
  stream: Writable,
): Promise<void> {
  let failure: Error | null = null;
  const onError = (e: Error) => (failure = e);
  stream.on('error', onError);
  try {
    let buf = '';
    const write = async (s: string) => {
      if (failure) throw failure;
      if (!stream.write(s)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('error', done);
            stream.off('close', done);
            resolve();
          };
          stream.on('drain', done);
          stream.on('error', done);
          stream.on('close', done);
        });
      }
      if (failure) throw failure;
    };
    for (const chunk of exportChunks(ds, layer, format)) {
      buf += chunk;
      if (buf.length >= 65536) {
        await write(buf);
        buf = '';
      }
    }
    if (buf) await write(buf);
  } finally {
    stream.off('error', onError);
  }
}

/**
 * Checks the arguments and loads the dataset synchronously (bad input → 2,
 * a missing or damaged dataset → 1, with the message on `err`), then writes in
 * the background; a failure there sets process.exitCode to 1.
 */
export function runExport(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  let layer: string | undefined;
  let format: string | undefined;
  let data: string | undefined;
  let output: string | undefined;
  const bad = (msg: string) => {
    err(`geolookup export: ${msg}\n\n${EXPORT_HELP}`);
    return EXIT.badInput;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const [name, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '-h' || name === '--help') {
      out(EXPORT_HELP);
      return EXIT.ok;
    } else if (name === '--layer') layer = value();
    else if (name === '--format') format = value();
    else if (name === '--data') data = value();
    else if (name === '-o' || name === '--output') output = value();
    else return bad(`unexpected argument "${a}"`);
  }
  if (!layer || !(EXPORT_LAYERS as readonly string[]).includes(layer))
    return bad(`--layer must be one of ${EXPORT_LAYERS.join(', ')}`);
  if (!format || !(EXPORT_FORMATS as readonly string[]).includes(format))
    return bad(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  if (output === '') return bad('-o needs a file name');
  let ds: Dataset;
  try {
    ds = loadDatasetFile(data ?? defaultDataPath());
  } catch (e) {
    if (!(e instanceof GeoLookupError)) throw e;
    err(`geolookup export: ${e.message}`);
    return EXIT.error;
  }
  const stream = output ? createWriteStream(output) : process.stdout;
  writeExport(ds, layer as ExportLayer, format as ExportFormat, stream)
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
}
