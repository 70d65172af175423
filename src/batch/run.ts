// `geolookup batch`: CSV / NDJSON rows in, the same rows with country and
// subdivision out, in order, on every core.
//
// The main thread only moves bytes: it reads the input in ~1 MiB jobs cut at
// record boundaries, hands each job to the least busy worker (transferring the
// buffer), and writes results back in input order. Workers share one copy of
// the dataset (a SharedArrayBuffer read once). At most two jobs per worker are
// in flight or waiting to be written, and no job is sent while the output asks
// to drain, so memory stays bounded whatever the input size or output speed.

import { closeSync, createWriteStream, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { readDataset } from '../format/dataset.js';
import { DataError, GeoLookupError, ValidationError } from '../lookup/errors.js';
import { checkFor, defaultDataPath } from '../node/data-path.js';
import { firstRecordEnd, lastRecordEnd, splitRecord } from './csv.js';
import { atPath } from './ndjson.js';
import { groupDigits } from '../cli/numbers.js';
import type { BatchFormat, ChunkStats, RowSettings } from './rows.js';
import type { DatasetShare, InitFailed, JobDone, Recycle, RowSetup } from './worker.js';

/** Target job size: large enough that messaging costs nothing, small enough to keep every worker busy. */
const JOB_BYTES = 1 << 20;
/** A record longer than this is almost surely an unbalanced quote swallowing the file. */
const MAX_RECORD_BYTES = 64 << 20;
const JOBS_PER_WORKER = 2;
/** Rows the workers warm up on before the first job (about 9,000 of a typical CSV). */
const WARM_BYTES = 256 << 10;

export type BatchField = 'country' | 'subdivision';

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
  /** CSV field separator, one character. Default ','. */
  delimiter?: string;
  /** Worker threads. Default: os.availableParallelism(). */
  workers?: number;
  /** Dataset file. Default: the embedded world dataset. */
  data?: string;
  /** Progress bar on stderr. Default: when stderr is a terminal. */
  progress?: boolean;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable & { isTTY?: boolean };
}

export interface BatchSummary extends ChunkStats {
  seconds: number;
  rowsPerSecond: number;
  /** From the start of the run to the first job handed to a worker: dataset read and check, workers started, header read. */
  startupSeconds: number;
  /** Rows per second from the first job handed out to the end: the pipeline's throughput once running. */
  rowsPerSecondAfterStartup: number;
  workers: number;
  /** Peak resident memory of the whole process (all threads), MB. */
  peakRssMB: number;
}

const LAT_NAMES = ['latitude', 'lat'];
const LON_NAMES = ['longitude', 'lon', 'lng', 'long'];

/** Reads the dataset file once into memory every worker can see. */
function readShared(path: string): SharedArrayBuffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new DataError(`${path}: cannot read dataset (${(err as NodeJS.ErrnoException).code ?? String(err)})`, {
      cause: err,
    });
  }
  try {
    const size = fstatSync(fd).size;
    const sab = new SharedArrayBuffer(size);
    const view = new Uint8Array(sab);
    for (let off = 0; off < size; ) {
      const n = readSync(fd, view, off, size - off, off);
      if (n === 0) throw new DataError(`${path}: file shrank while being read`);
      off += n;
    }
    return sab;
  } finally {
    closeSync(fd);
  }
}

/**
 * The worker: dist/batch-worker.js / .cjs beside the bundled CLI. Run from the
 * sources (tsx, vitest), src/batch/worker.ts is started through tsx's loader API,
 * since a worker does not inherit the parent's module hooks.
 */
function startWorker(): Worker {
  const url: string | undefined = import.meta.url;
  if (url?.endsWith('.ts')) {
    const api = createRequire(url).resolve('tsx/cjs/api');
    const script = fileURLToPath(new URL('./worker.ts', url));
    const boot = `require(${JSON.stringify(api)}).require(${JSON.stringify(script)}, ${JSON.stringify(script)})`;
    return new Worker(boot, { eval: true });
  }
  if (url) return new Worker(new URL('./batch-worker.js', url));
  return new Worker(join(__dirname, 'batch-worker.cjs'));
}

/** The name as given (exact first, then any case), else the first default present in any case. */
function pickName(names: string[], wanted: string | undefined, defaults: string[]): string | null {
  const norm = names.map((n) => n.trim().toLowerCase());
  const candidates = wanted === undefined ? defaults : [wanted];
  if (wanted !== undefined && names.includes(wanted)) return wanted;
  for (const c of candidates) {
    const i = norm.indexOf(c.trim().toLowerCase());
    if (i >= 0) return names[i];
  }
  return null;
}

function missingColumn(
  what: string,
  flag: string,
  wanted: string | undefined,
  defaults: string[],
  where: string,
): ValidationError {
  const looked =
    wanted === undefined ? `looked for ${defaults.join(', ')}, any case; name it with ${flag}` : `no "${wanted}"`;
  return new ValidationError(`No ${what} column in ${where} (${looked}).`, { [flag.slice(2)]: [`no ${what} column`] });
}

/** Reads input bytes into `target`; resolves with how many (0 at the end). */
type ReadInto = (target: Uint8Array) => Promise<number>;

/** A stream's chunks as a ReadInto (stdin): one copy, from the chunk into the job buffer. */
function streamReader(stream: Readable): ReadInto {
  const chunks = (stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  let chunk: Buffer | null = null;
  let at = 0;
  return async (target) => {
    while (chunk === null || at === chunk.length) {
      const next = await chunks.next();
      if (next.done) return 0;
      chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      at = 0;
    }
    const n = Math.min(target.length, chunk.length - at);
    target.set(chunk.subarray(at, at + n));
    at += n;
    return n;
  };
}

/**
 * Splits the input into jobs of whole records. Bytes are read straight into a job buffer
 * (one the workers handed back when there is one, so no fresh pages per job); only the
 * partial record after the last boundary is copied, into the next job's buffer.
 */
async function* readJobs(
  readInto: ReadInto,
  first: Uint8Array,
  recordEnd: (b: Buffer) => number,
  spare: ArrayBuffer[],
): AsyncGenerator<Uint8Array> {
  let carry = first;
  for (;;) {
    // Room for the carried bytes plus a job's worth (a record longer than a job grows the buffer).
    const room = carry.length + JOB_BYTES;
    let buffer = spare.pop();
    while (buffer !== undefined && buffer.byteLength < room) buffer = spare.pop();
    buffer ??= new ArrayBuffer(Math.max(room, JOB_BYTES + (JOB_BYTES >> 1)));
    const view = new Uint8Array(buffer);
    view.set(carry);
    let total = carry.length;
    let ended = false;
    while (total < room) {
      const n = await readInto(view.subarray(total, room));
      if (n === 0) {
        ended = true;
        break;
      }
      total += n;
    }
    if (ended) {
      if (total > 0) yield new Uint8Array(buffer, 0, total);
      return;
    }
    const end = recordEnd(Buffer.from(buffer, 0, total));
    if (end <= 0 && total > MAX_RECORD_BYTES)
      throw new ValidationError(`A record runs over ${MAX_RECORD_BYTES >> 20} MiB (an unbalanced quote?).`, {});
    const cut = Math.max(0, end);
    carry = view.slice(cut, total); // a copy: the buffer goes to a worker
    if (cut > 0) yield new Uint8Array(buffer, 0, cut);
  }
}

const BOM = [0xef, 0xbb, 0xbf];

function startsWithBom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === BOM[0] && b[1] === BOM[1] && b[2] === BOM[2];
}

function sniffFormat(b: Uint8Array): BatchFormat {
  for (let i = startsWithBom(b) ? 3 : 0; i < b.length; i++) {
    const c = b[i];
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0x1e) continue; // 0x1e: RFC 8142 record separator
    return c === 123 ? 'ndjson' : 'csv';
  }
  return 'csv';
}

function formatFromName(name: string | undefined): BatchFormat | undefined {
  if (!name) return undefined;
  if (/\.(ndjson|jsonl|geojsonl|geojsons|geojsonseq)$/i.test(name)) return 'ndjson';
  if (/\.(csv|tsv|txt)$/i.test(name)) return 'csv';
  return undefined;
}

type NdjsonKeys = Pick<RowSettings, 'latKey' | 'lonKey' | 'latPath' | 'lonPath'>;

/** `a.b.0` → ['a', 'b', 0]: digits name an array element. */
const memberPath = (name: string) => name.split('.').map((k) => (/^(0|[1-9]\d*)$/.test(k) ? Number(k) : k));

/**
 * NDJSON coordinates, from the first object among the first lines that has them: top-level
 * members (as named, or the default names in any case); else, for names with dots, the member
 * path they spell (`--lat position.lat`); else, without names, a GeoJSON Point feature's
 * geometry.coordinates ([longitude, latitude]).
 */
function ndjsonKeys(job: Uint8Array, opts: BatchOptions): NdjsonKeys {
  const text = new TextDecoder().decode(job.subarray(0, Math.min(job.length, JOB_BYTES)));
  const lines = text.split('\n').slice(0, 1000);
  const latPath = opts.lat?.includes('.') ? memberPath(opts.lat) : null;
  const lonPath = opts.lon?.includes('.') ? memberPath(opts.lon) : null;
  // One coordinate in a row: its top-level member, else the path its dotted name spells.
  const find = (
    row: object,
    keys: string[],
    wanted: string | undefined,
    defaults: string[],
    path: (string | number)[] | null,
  ) => {
    const key = pickName(keys, wanted, defaults);
    if (key !== null) return { key, path: null };
    if (path !== null && atPath(row, path) !== undefined) return { key: wanted!, path };
    return null;
  };
  for (const line of lines) {
    let row: unknown;
    try {
      row = JSON.parse(line.replace(/^\x1e+/, '')); // as processNdjson: record separators only
    } catch {
      continue;
    }
    if (!row || typeof row !== 'object' || Array.isArray(row)) continue;
    const keys = Object.keys(row);
    const lat = find(row, keys, opts.lat, LAT_NAMES, latPath);
    const lon = find(row, keys, opts.lon, LON_NAMES, lonPath);
    if (lat !== null && lon !== null) return { latKey: lat.key, lonKey: lon.key, latPath: lat.path, lonPath: lon.path };
    const geometry = atPath(row, ['geometry']) as { type?: unknown; coordinates?: unknown } | undefined;
    if (
      opts.lat === undefined &&
      opts.lon === undefined &&
      atPath(row, ['type']) === 'Feature' &&
      geometry?.type === 'Point' &&
      Array.isArray(geometry.coordinates)
    ) {
      return {
        latKey: 'geometry.coordinates.1',
        lonKey: 'geometry.coordinates.0',
        latPath: ['geometry', 'coordinates', 1],
        lonPath: ['geometry', 'coordinates', 0],
      };
    }
  }
  if (opts.lat !== undefined && opts.lon !== undefined) return { latKey: opts.lat, lonKey: opts.lon, latPath, lonPath };
  throw missingColumn(
    'latitude/longitude',
    '--lat',
    undefined,
    LAT_NAMES,
    'the first 1,000 NDJSON rows (nor GeoJSON Point features)',
  );
}

function delimiterByte(d: string | undefined): number {
  if (d === undefined) return 44;
  const s = d === 'tab' || d === '\\t' ? '\t' : d;
  if (s.length !== 1 || s.charCodeAt(0) > 127 || s === '"' || s === '\n' || s === '\r') {
    throw new ValidationError(
      `--delimiter must be one ASCII character other than a quote or a line break, got ${JSON.stringify(d)}.`,
      { delimiter: ['bad delimiter'] },
    );
  }
  return s.charCodeAt(0);
}

/** Tried in this order on the header when --delimiter is not given: comma, tab, semicolon, bar. */
const SNIFFED_DELIMITERS = [44, 9, 59, 124];

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

interface Opened {
  file: FileHandle | null;
  pool: Worker[];
}

async function batchWith(opts: BatchOptions, opened: Opened): Promise<BatchSummary> {
  const t0 = performance.now();
  const stderr = opts.stderr ?? process.stderr;
  const fields = opts.fields ?? ['country', 'subdivision'];
  const workers = opts.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1)
    throw new ValidationError(`--workers must be a whole number of at least 1, got ${workers}.`, {
      workers: ['bad worker count'],
    });
  let delimiter = delimiterByte(opts.delimiter);

  const dataPath = opts.data ?? defaultDataPath();
  const shared = readShared(dataPath); // a missing dataset is reported before stdin is waited for

  const fromFile = opts.input !== undefined && opts.input !== '-';
  let size = 0;
  let readInto: ReadInto;
  if (fromFile) {
    // Read with positionless reads straight into job buffers (no stream chunks to copy from).
    const fh = (opened.file = await open(opts.input!, 'r'));
    const st = await fh.stat();
    size = st.size;
    if (opts.output !== undefined) {
      // Writing to the input would truncate it before it is read.
      const target = await stat(opts.output).catch(() => null);
      if (target && target.ino === st.ino && target.dev === st.dev) {
        throw new ValidationError(
          `The output ${opts.output} is the input file; writing it would destroy the input. Choose another output.`,
          { output: ['same file as the input'] },
        );
      }
    }
    readInto = async (target) => (await fh.read(target, 0, target.length, null)).bytesRead;
  } else {
    if (opts.stdin === undefined) {
      try {
        const st = fstatSync(0);
        if (st.isFile()) size = st.size; // `< file`: percent and ETA work for redirected input too
      } catch {
        /* no stdin */
      }
    }
    readInto = streamReader(opts.stdin ?? process.stdin);
  }
  // The first bytes decide the format (and hold the CSV header).
  const head = new Uint8Array(64 << 10);
  let headLength = 0;
  for (let n = -1; n !== 0 && headLength < head.length; headLength += n) n = await readInto(head.subarray(headLength));
  const firstChunk = Buffer.from(head.buffer, 0, headLength);
  const format = opts.format ?? formatFromName(fromFile ? opts.input : undefined) ?? sniffFormat(firstChunk);
  const spareInputs: ArrayBuffer[] = [];
  const recordEnd = format === 'csv' ? lastRecordEnd : (b: Buffer) => b.lastIndexOf(10) + 1;
  const jobs = readJobs(readInto, firstChunk, recordEnd, spareInputs);

  const stats: ChunkStats = { rows: 0, found: 0, notFound: 0, errors: 0 };
  let bytesDone = 0;

  const firstJob = await jobs.next();
  let rest: Uint8Array | null = firstJob.done ? null : firstJob.value;
  const settings: RowSettings = {
    format,
    delimiter,
    latColumn: -1,
    lonColumn: -1,
    latKey: '',
    lonKey: '',
    latPath: null,
    lonPath: null,
    country: fields.includes('country'),
    subdivision: fields.includes('subdivision'),
    eol: '\n',
  };
  let header: Buffer | null = null;
  if (rest && format === 'csv') {
    const job = rest;
    let headerEnd = firstRecordEnd(job);
    if (headerEnd < 0) headerEnd = job.length;
    let contentEnd = headerEnd;
    if (contentEnd > 0 && job[contentEnd - 1] === 10) contentEnd--;
    if (contentEnd > 0 && job[contentEnd - 1] === 13) contentEnd--;
    const bom = startsWithBom(job) ? 3 : 0;
    // Without --delimiter, the header decides: the first of , tab ; | that splits it into the
    // coordinate columns (spreadsheets in many locales export ';', TSV files use tabs).
    if (opts.delimiter === undefined) {
      const found = SNIFFED_DELIMITERS.find((d) => {
        const split = splitRecord(job, bom, contentEnd, d);
        return pickName(split, opts.lat, LAT_NAMES) !== null && pickName(split, opts.lon, LON_NAMES) !== null;
      });
      if (found !== undefined) settings.delimiter = delimiter = found;
    }
    const names = splitRecord(job, bom, contentEnd, delimiter);
    const latName = pickName(names, opts.lat, LAT_NAMES);
    if (latName === null)
      throw missingColumn('latitude', '--lat', opts.lat, LAT_NAMES, `the header (columns: ${names.join(', ')})`);
    const lonName = pickName(names, opts.lon, LON_NAMES);
    if (lonName === null)
      throw missingColumn('longitude', '--lon', opts.lon, LON_NAMES, `the header (columns: ${names.join(', ')})`);
    settings.latColumn = names.indexOf(latName);
    settings.lonColumn = names.indexOf(lonName);
    const eol = headerEnd > contentEnd ? Buffer.from(job.subarray(contentEnd, headerEnd)).toString('latin1') : '\n';
    settings.eol = eol;
    const d = String.fromCharCode(delimiter);
    const extra = [...fields.filter((f) => f === 'country'), ...fields.filter((f) => f === 'subdivision'), 'error']
      .map((f) => d + f)
      .join('');
    header = Buffer.concat([job.subarray(0, contentEnd), Buffer.from(extra + eol)]);
    bytesDone += headerEnd;
    rest = headerEnd < job.length ? job.slice(headerEnd) : null;
  } else if (rest) {
    Object.assign(settings, ndjsonKeys(rest, opts));
  }

  // A failure anywhere (a worker, the output) ends the run; `turn` waits for the next event.
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const turn = () => new Promise<void>((resolve) => (wake = resolve));
  const fail = (e: Error) => {
    failure ??= e;
    signal();
  };

  // The workers start once the input's columns are known to be there (a worker stopped while
  // it loads its modules can leave a file descriptor open). A thread and its modules take
  // ~30 ms to start, time this thread spends checking the dataset: the workers lay their
  // views over the shared bytes unchecked meanwhile, and rows go out only once it passed.
  // With the settings goes a sample of the first rows: the workers warm their row code up on it
  // while this thread checks the dataset (their output is discarded; see batch-worker.ts). Only
  // with a core to spare: with a worker on every core the warm-up would slow the check, which
  // every row waits for, as much as it speeds the first jobs; they then get the first line only.
  const pool = opened.pool;
  const load: number[] = [];
  if (rest) {
    const sample = Buffer.from(rest.buffer, rest.byteOffset, Math.min(rest.length, WARM_BYTES));
    const warm =
      workers < availableParallelism()
        ? sample.subarray(0, recordEnd(sample))
        : rest.subarray(0, format === 'csv' ? Math.max(0, firstRecordEnd(rest)) : rest.indexOf(10) + 1);
    for (let i = 0; i < workers; i++) {
      const worker = startWorker();
      worker.on('error', fail);
      worker.on('exit', (code) => code !== 0 && fail(new Error(`batch worker ${i} exited with code ${code}`)));
      worker.postMessage({ dataset: shared, name: dataPath } satisfies DatasetShare);
      worker.postMessage({ settings, warm: new Uint8Array(warm) } satisfies RowSetup); // a copy: a view would clone its whole buffer
      pool.push(worker);
      load.push(0);
    }
  }
  const bytes = new Uint8Array(shared);
  readDataset(bytes, dataPath, checkFor(dataPath, bytes)); // DataError on a damaged file, before any row goes out

  // Only now, with the input's columns known to be there, is an output file created (or truncated).
  const output: Writable = opts.output !== undefined ? createWriteStream(opts.output) : (opts.stdout ?? process.stdout);
  if (header) output.write(header);

  const progress = (opts.progress ?? stderr.isTTY === true) ? startProgress(stderr, size) : null;

  let firstJobAt = 0;
  const ready = new Map<number, JobDone>();
  let nextOut = 0;
  let inFlight = 0;
  const onDone = (w: number, done: JobDone) => {
    load[w]--;
    ready.set(done.seq, done);
    for (let r = ready.get(nextOut); r !== undefined; r = ready.get(nextOut)) {
      ready.delete(nextOut++);
      inFlight--;
      const worker = pool[w];
      const outBuffer = r.out.buffer as ArrayBuffer;
      // Once written, the output buffer goes back for reuse (to the worker that just reported:
      // any worker can fill any buffer).
      output.write(Buffer.from(outBuffer, r.out.byteOffset, r.length), () =>
        worker.postMessage({ recycle: outBuffer } satisfies Recycle, [outBuffer]),
      );
      if (spareInputs.length < 2 * pool.length * JOBS_PER_WORKER) spareInputs.push(r.input.buffer as ArrayBuffer);
      stats.rows += r.rows;
      stats.found += r.found;
      stats.notFound += r.notFound;
      stats.errors += r.errors;
      bytesDone += r.input.length;
      progress?.update(bytesDone, stats.rows);
    }
    signal();
  };
  output.on('drain', signal);
  // A reader that stops early (`| head`) ends the run with one line, not a stack trace (the code marks it as expected).
  output.on('error', (e: NodeJS.ErrnoException) =>
    fail(
      e.code === 'EPIPE'
        ? Object.assign(new Error('the output was closed before the end (EPIPE)'), { code: 'EPIPE' })
        : e,
    ),
  );
  const needDrain = () => output.writableNeedDrain === true;

  try {
    if (rest) {
      pool.forEach((worker, i) => {
        worker.on('message', (m: JobDone | InitFailed) => {
          if ('error' in m)
            fail(m.error.name === 'DataError' ? new DataError(m.error.message) : new Error(m.error.message));
          else onDone(i, m);
        });
      });
      const send = (bytes: Uint8Array, seq: number) => {
        let w = 0;
        for (let i = 1; i < pool.length; i++) if (load[i] < load[w]) w = i;
        load[w]++;
        inFlight++;
        pool[w].postMessage({ seq, bytes }, [bytes.buffer as ArrayBuffer]);
      };
      let seq = 0;
      firstJobAt = performance.now();
      send(rest, seq++);
      for (let job = await jobs.next(); !job.done; job = await jobs.next()) {
        while (failure === null && (inFlight >= workers * JOBS_PER_WORKER || needDrain())) await turn();
        if (failure) throw failure;
        send(job.value, seq++);
      }
      while (failure === null && inFlight > 0) await turn();
      if (failure) throw failure;
    }
    if (opts.output !== undefined) {
      await new Promise<void>((resolve, reject) => {
        output.once('error', reject);
        output.end(resolve);
      });
    } else if (needDrain()) await new Promise((resolve) => output.once('drain', resolve));
  } finally {
    if (failure && opts.output !== undefined) output.destroy();
    output.off('drain', signal);
    progress?.stop();
  }

  const end = performance.now();
  const seconds = (end - t0) / 1000;
  const startupSeconds = ((firstJobAt || end) - t0) / 1000;
  const summary: BatchSummary = {
    ...stats,
    seconds,
    rowsPerSecond: stats.rows / seconds,
    startupSeconds,
    rowsPerSecondAfterStartup: seconds > startupSeconds ? stats.rows / (seconds - startupSeconds) : 0,
    workers,
    peakRssMB: peakRssKB() / 1024,
  };
  stderr.write(
    `geolookup batch: ${groupDigits(stats.rows)} rows, ${groupDigits(stats.found)} found, ${groupDigits(stats.notFound)} not found, ${groupDigits(stats.errors)} errors; ` +
      `${seconds.toFixed(2)} s, ${groupDigits(summary.rowsPerSecond)} rows/s, ${workers} worker${workers === 1 ? '' : 's'}, peak RSS ${summary.peakRssMB.toFixed(0)} MB; ` +
      `${groupDigits(summary.rowsPerSecondAfterStartup)} rows/s after ${startupSeconds.toFixed(2)} s of start-up\n`,
  );
  return summary;
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

/** Percent and ETA by bytes when the input size is known (a file); rows and rows/s always. */
function startProgress(stream: Writable, size: number): { update(bytes: number, rows: number): void; stop(): void } {
  const format =
    size > 0
      ? '{bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}'
      : '{rows} rows | {rate} rows/s';
  const bar = new cliProgress.SingleBar(
    { format, stream, fps: 5, etaBuffer: 30, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  const t0 = performance.now();
  bar.start(size > 0 ? size : 1, 0, { rows: '0', rate: '0' });
  return {
    update(bytes, rows) {
      const s = (performance.now() - t0) / 1000;
      bar.update(size > 0 ? Math.min(bytes, size) : 0, {
        rows: groupDigits(rows),
        rate: groupDigits(s > 0 ? rows / s : 0),
      });
    },
    stop: () => bar.stop(),
  };
}

export const BATCH_HELP = `geolookup batch: country and subdivision for every row of a CSV or NDJSON file.

Usage:
  geolookup batch [FILE|-] [options] > out.csv       FILE, or stdin when absent or "-"

Options:
  --format csv|ndjson      default: by extension (.ndjson, .jsonl, .geojsonl, .geojsons, .geojsonseq),
                           else "{" first means NDJSON
  --lat NAME, --lon NAME   coordinate columns / members (default: latitude|lat, longitude|lon|lng|long, any case;
                           NDJSON: a.b.0 is a member path; GeoJSON Point features need no names)
  --fields LIST            answer columns to append: country,subdivision (default both)
  --delimiter C            CSV field separator (default: the first of , tab ; | that finds the
                           coordinate columns in the header, else ","; "tab" for TSV)
  --workers N              worker threads (default: all cores, here ${availableParallelism()})
  --output FILE, -o FILE   write there instead of stdout
  --data FILE              another dataset built by build-data
  --no-progress            no progress bar even on a terminal

Every row comes out once, in input order, with its own bytes and then the country,
subdivision and error cells (NDJSON: "country", "subdivision" members, "error" on bad rows).
Not found leaves the cells empty (null); a bad coordinate keeps the row and puts the
ValidationError text in error. Blank lines are dropped. A summary goes to stderr, and a
progress bar when stderr is a terminal.
Exit status: 0 done (bad rows included), 2 bad options or no coordinate columns, 1 other error.`;

/** Parses argv, starts the batch, returns 0 at once (the exit code is set when it ends) or 2 for bad options. */
export function runBatch(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const opts: BatchOptions = {};
  const valued = new Set([
    '--format',
    '--lat',
    '--lon',
    '--fields',
    '--delimiter',
    '--workers',
    '--output',
    '-o',
    '--data',
  ]);
  const pos: string[] = [];
  const bad = (msg: string) => {
    err(`geolookup batch: ${msg}\n\n${BATCH_HELP}`);
    return 2;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-' || !a.startsWith('-')) {
      pos.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq === -1 ? a : a.slice(0, eq);
    if (name === '-h' || name === '--help') {
      out(BATCH_HELP);
      return 0;
    }
    if (name === '--no-progress') {
      opts.progress = false;
      continue;
    }
    if (!valued.has(name)) return bad(`unknown option ${name}`);
    const value = eq === -1 ? argv[++i] : a.slice(eq + 1);
    if (value === undefined) return bad(`${name} needs a value`);
    if (name === '--format') {
      if (value !== 'csv' && value !== 'ndjson') return bad(`--format must be csv or ndjson, got "${value}"`);
      opts.format = value;
    } else if (name === '--lat') opts.lat = value;
    else if (name === '--lon') opts.lon = value;
    else if (name === '--fields') {
      const list = value.split(',').map((f) => f.trim().toLowerCase());
      if (!list.length || list.some((f) => f !== 'country' && f !== 'subdivision'))
        return bad(`--fields takes country, subdivision or both, got "${value}"`);
      opts.fields = list as BatchField[];
    } else if (name === '--delimiter') opts.delimiter = value;
    else if (name === '--workers') {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!(n >= 1 && n <= 256)) return bad(`--workers must be a whole number from 1 to 256, got "${value}"`);
      opts.workers = n;
    } else if (name === '--output' || name === '-o') opts.output = value;
    else opts.data = value;
  }
  if (pos.length > 1) return bad(`takes one input file, got ${pos.length}`);
  opts.input = pos[0];
  batch(opts).catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    err(`geolookup batch: ${message}`);
    process.exitCode = e instanceof ValidationError ? 2 : 1;
    if (!(e instanceof GeoLookupError) && !(e as NodeJS.ErrnoException)?.code) err(String((e as Error)?.stack ?? e));
  });
  return 0;
}
