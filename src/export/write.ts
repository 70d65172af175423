// Writes an export to a stream with backpressure, so memory stays bounded whatever the
// output size, and loads the dataset file it is made from.

import type { Writable } from 'node:stream';
import { readDataset, type Dataset } from '../format/dataset.js';
import { checkFor, readFile } from '../node/data-path.js';
import { exportChunks, type ExportFormat, type ExportLayer } from './rows.js';

/** Chunks are gathered to about this many characters per write. */
const WRITE_CHARS = 65536;

/** Reads a dataset file, as a DataError naming the file when it is missing, unreadable or damaged. */
export function loadDatasetFile(path: string): Dataset {
  const bytes = readFile(path);
  return readDataset(bytes, path, checkFor(path, bytes));
}

/** Resolves once the stream drains, errors or closes, whichever comes first. */
function drained(stream: Writable): Promise<void> {
  return new Promise<void>((resolve) => {
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

/**
 * Writes the export to `stream`, waiting for 'drain' whenever the stream's buffer is full;
 * rejects with the stream's error if it fails.
 */
export async function writeExport(
  ds: Dataset,
  layer: ExportLayer,
  format: ExportFormat,
  stream: Writable,
): Promise<void> {
  let failure: Error | null = null;
  const onError = (e: Error) => {
    failure = e;
  };
  stream.on('error', onError);
  try {
    const write = async (s: string) => {
      if (failure) throw failure;
      if (!stream.write(s)) await drained(stream);
      if (failure) throw failure;
    };
    let buf = '';
    for (const chunk of exportChunks(ds, layer, format)) {
      buf += chunk;
      if (buf.length >= WRITE_CHARS) {
        await write(buf);
        buf = '';
      }
    }
    if (buf) await write(buf);
  } finally {
    stream.off('error', onError);
  }
}
