// `geolookup batch`: CSV / NDJSON rows in, the same rows with country and subdivision out, in
// order, on every core.
//
// The main thread only moves bytes: it reads the input in jobs cut at record boundaries
// (input.ts), hands each job to the least busy worker and writes results back in input order
// (schedule.ts). Workers share one copy of the dataset (a SharedArrayBuffer read once).

import { createWriteStream, readFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { readDataset } from '../format/dataset.js';
import { ValidationError } from '../lookup/errors.js';
import { checkFor, resolveDataPath } from '../node/data-path.js';
import { csvHeaderRead, resolveColumns } from './columns.js';
import { delimiterByte, formatFromName, sniffFormat } from './format.js';
import { framingFor } from './framing.js';
import { openInput, readHead, readJobs, readShared, readUntil } from './input.js';
import { startPool } from './pool.js';
import { type BatchField, type BatchFormat, type ChunkStats, oversizeRow, type RowExtension } from './rows.js';
import type { BatchValues } from '../extend/extension.js';
import { findExtensions, openExtension } from '../extend/loader.js';
import { lookupOf } from '../lookup/engine.js';
import { createEvents, finishOutput, runJobs, watchOutput } from './schedule.js';

export type { BatchField } from './rows.js';

/** Told how far the batch is, for a progress display. */
export interface Progress {
  /** Once, before the first row is written; `size` is the input's bytes, 0 when unknown. */
  start(size: number): void;
  /** After each job written: input bytes and rows done so far. */
  update(bytes: number, rows: number): void;
  /** Once at the end, also after a failure. */
  stop(): void;
}

export interface BatchOptions {
  /** Input file; '-' or undefined reads `stdin`. */
  input?: string;
  /** Output file; undefined writes `stdout`. */
  output?: string;
  /** Default: from the extension (.ndjson, .jsonl → ndjson), else sniffed ("{" first → ndjson), else csv. */
  format?: BatchFormat;
  /** Column (CSV) or member (NDJSON) names; default: latitude / lat and longitude / lon / lng / long, any case. */
  lat?: string;
  lon?: string;
  /** Which answer columns to append, always in the order country, subdivision. Default both. */
  fields?: BatchField[];
  /**
   * The installed extensions' batch flags, by flag name without dashes (`{ timezone: true }`,
   * `{ within: '500' }`): their columns follow the fields', in the extensions' name order. A flag
   * no extension takes, a bad value, or an extension that cannot answer over this dataset (borders
   * over the lite one) fails the run before any input is read.
   */
  extensions?: BatchValues;
  /** CSV field separator, one character. Default: the header's (comma, tab, semicolon or bar), else ','. */
  delimiter?: string;
  /** Worker threads. Default: os.availableParallelism(). */
  workers?: number;
  /** Dataset file. Default: the embedded world dataset. */
  data?: string;
  progress?: Progress;
  /** Aborting it stops reading: the rows already read are written, and the summary says `interrupted`. */
  signal?: AbortSignal;
  stdin?: Readable;
  stdout?: Writable;
}

export interface BatchSummary extends ChunkStats {
  seconds: number;
  rowsPerSecond: number;
  /**
   * From the start of the run to the first job handed to a worker: dataset read and check,
   * workers started, header read.
   */
  startupSeconds: number;
  /** Rows per second from the first job handed out to the end: the pipeline's throughput once running. */
  rowsPerSecondAfterStartup: number;
  workers: number;
  /** Peak resident memory of the whole process (all threads), MB. */
  peakRssMB: number;
  /** The signal stopped the run before the end of the input: the counts are of the rows written. */
  interrupted: boolean;
}

interface Opened {
  file: FileHandle | null;
  pool: Worker[];
}

/** Runs a whole batch; resolves with the counts once every row is written. */
export async function batch(opts: BatchOptions = {}): Promise<BatchSummary> {
  // The input file is closed and the workers stopped whatever happens, also on errors before
  // any row is read (a missing column, a damaged dataset).
  const opened: Opened = { file: null, pool: [] };
  try {
    return await batchWith(opts, opened);
  } finally {
    await opened.file?.close();
    for (const w of opened.pool) w.removeAllListeners('exit');
    await Promise.all(opened.pool.map((w) => w.terminate()));
  }
}

function workerCount(workers: number | undefined): number {
  const n = workers ?? availableParallelism();
  if (!Number.isInteger(n) || n < 1)
    throw new ValidationError(`--workers must be a whole number of at least 1, got ${n}.`, {
      workers: ['bad worker count'],
    });
  return n;
}

async function batchWith(opts: BatchOptions, opened: Opened): Promise<BatchSummary> {
  const t0 = performance.now();
  const workers = workerCount(opts.workers);
  const delimiter = delimiterByte(opts.delimiter);
  const dataPath = resolveDataPath(opts.data);
  const fields = opts.fields ?? ['country', 'subdivision'];
  const shared = readShared(dataPath); // a missing dataset is reported before stdin is waited for
  // Before any input is read (stdin waited for): a bad flag, or an extension that cannot answer here.
  const extensions = askedExtensions(opts.extensions ?? {}, fields, shared, dataPath);
  const input = await openInput(opts, opened);
  const head = await readHead(input.readInto);
  const format = opts.format ?? formatFromName(input.name) ?? sniffFormat(head);
  const spareInputs: ArrayBuffer[] = [];
  const columnOptions = {
    lat: opts.lat,
    lon: opts.lon,
    delimiter: opts.delimiter,
    fields,
    extensions,
  };
  // CSV: the header is read whole first (it names the columns and the delimiter, which the
  // quoting rule needs to find where records end); the rows start right after it. NDJSON's
  // settings need no rows (members are found per row).
  const first =
    format === 'csv' ? await readUntil(input.readInto, head, csvHeaderRead(opts.delimiter, delimiter)) : head;
  const columns = resolveColumns(first.length > 0 ? first : null, format, delimiter, columnOptions);
  const { settings, header, headerBytes } = columns;
  const framing = framingFor(format, settings.delimiter);
  const jobs = readJobs(input.readInto, first.subarray(headerBytes), framing, spareInputs);
  const firstJob = await jobs.next();
  const rows = firstJob.done ? null : firstJob.value;

  const events = createEvents();
  if (rows)
    startPool(opened.pool, {
      workers,
      dataset: shared,
      dataPath,
      settings,
      rows: rows instanceof Uint8Array ? rows : new Uint8Array(0),
      framing,
      fail: events.fail,
    });
  const bytes = new Uint8Array(shared);
  readDataset(bytes, dataPath, checkFor(dataPath, bytes)); // DataError on a damaged file, before any row goes out

  // Only now, with the input's columns known to be there, is an output file created (or truncated).
  const output: Writable = opts.output !== undefined ? createWriteStream(opts.output) : (opts.stdout ?? process.stdout);
  if (header) output.write(header);
  const progress = opts.progress;
  progress?.start(input.size);
  const stats: ChunkStats = { rows: 0, found: 0, notFound: 0, errors: 0 };
  let bytesDone = headerBytes;
  const stopWatching = watchOutput(output, events);
  let firstJobAt = 0;
  try {
    if (rows) {
      firstJobAt = await runJobs({
        pool: opened.pool,
        output,
        events,
        first: rows,
        jobs,
        signal: opts.signal,
        oversize: Buffer.from(oversizeRow(settings) + settings.eol),
        spareInputs,
        onWritten: (done) => {
          stats.rows += done.rows;
          stats.found += done.found;
          stats.notFound += done.notFound;
          stats.errors += done.errors;
          bytesDone += done.input.length;
          progress?.update(bytesDone, stats.rows);
        },
      });
    }
    await finishOutput(output, opts.output !== undefined);
  } finally {
    if (events.failure && opts.output !== undefined) output.destroy();
    stopWatching();
    progress?.stop();
  }
  return summarize(stats, t0, firstJobAt, workers, opts.signal?.aborted === true);
}

/**
 * The extensions the batch's flags ask for columns of, each opened once over the dataset and its
 * rows made, so a bad flag, a missing data file or a pair refused (DataError) fails here.
 */
function askedExtensions(
  values: BatchValues,
  fields: readonly BatchField[],
  shared: SharedArrayBuffer,
  dataPath: string,
): RowExtension[] {
  const found = findExtensions().filter((e) => e.batch !== undefined);
  const flags = new Set(found.flatMap((e) => e.batch!.options.map((o) => o.flag)));
  for (const [flag, value] of Object.entries(values))
    if (value !== undefined && !flags.has(flag))
      throw new ValidationError(`--${flag} is an option of no installed extension.`, { [flag]: ['unknown option'] });
  const asked: RowExtension[] = [];
  let geo: ReturnType<typeof lookupOf> | null = null;
  for (const e of found) {
    const own = Object.fromEntries(e.batch!.options.map((o) => [o.flag, values[o.flag]]));
    const columns = e.batch!.columns(own, fields);
    if (typeof columns === 'string') throw new ValidationError(`${columns}.`, { [e.name]: [columns] });
    if (columns.length === 0) continue;
    const bytes = new Uint8Array(shared);
    geo ??= lookupOf(bytes, dataPath, checkFor(dataPath, bytes));
    e.batch!.rows(openExtension(e, geo, false), own, fields);
    asked.push({ name: e.name, columns, values: own });
  }
  return asked;
}

function summarize(
  stats: ChunkStats,
  t0: number,
  firstJobAt: number,
  workers: number,
  interrupted: boolean,
): BatchSummary {
  const end = performance.now();
  const seconds = (end - t0) / 1000;
  const startupSeconds = ((firstJobAt || end) - t0) / 1000;
  return {
    ...stats,
    seconds,
    rowsPerSecond: stats.rows / seconds,
    startupSeconds,
    rowsPerSecondAfterStartup: seconds > startupSeconds ? stats.rows / (seconds - startupSeconds) : 0,
    workers,
    peakRssMB: peakRssKB() / 1024,
    interrupted,
  };
}

/**
 * Peak resident memory of this process (all threads). Linux's VmHWM belongs to this
 * process image only; getrusage's maxRSS also counts the parent's memory when the
 * parent spawned us (the high-water mark survives exec), so it is the fallback.
 */
function peakRssKB(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'latin1'));
    if (m) return Number(m[1]);
  } catch {
    /* not Linux */
  }
  return process.resourceUsage().maxRSS;
}
