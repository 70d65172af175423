// `geolookup batch`: the flags, the progress bar and the summary line of src/batch/run.ts's batch().

import { availableParallelism } from 'node:os';
import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import { type BatchField, type BatchOptions, type BatchSummary, batch, type Progress } from '../batch/run.js';
import { GeoLookupError, ValidationError } from '../lookup/errors.js';
import { findExtensions } from '../extend/loader.js';
import {
  defineCommand,
  EXIT,
  type OptionSpecs,
  type Print,
  runCommand,
  UsageError,
  wholeNumber,
  DATA_OPTION,
} from './args.js';
import { groupDigits } from './numbers.js';

const BATCH_SPEC = {
  name: 'geolookup batch',
  summary: 'country and subdivision for every row of a CSV or NDJSON file.',
  usage: [['geolookup batch [FILE|-] [options] > out.csv', 'FILE, or stdin when absent or "-"']],
  options: {
    format: {
      type: 'string',
      value: 'csv|ndjson',
      help: 'default: by extension (.ndjson, .jsonl, .geojsonl, .geojsons, .geojsonseq),\nelse "{" first means NDJSON',
    },
    lat: {
      type: 'string',
      value: 'NAME',
      help: 'latitude column / member (default: latitude|lat, any case;\nNDJSON: a.b.0 is a member path)',
    },
    lon: {
      type: 'string',
      value: 'NAME',
      help:
        'longitude column / member (default: longitude|lon|lng|long, any case;\n' +
        'GeoJSON Point features need no names)',
    },
    fields: {
      type: 'string',
      value: 'LIST',
      help: 'answer columns to append: country,subdivision (default both)',
    },
    delimiter: {
      type: 'string',
      value: 'C',
      help:
        'CSV field separator (default: the first of , tab ; | that finds the\n' +
        'coordinate columns in the header, else ","; "tab" for TSV)',
    },
    workers: {
      type: 'string',
      value: 'N',
      help: `worker threads (default: all cores, here ${availableParallelism()})`,
    },
    output: { type: 'string', short: 'o', value: 'FILE', help: 'write there instead of stdout' },
    data: DATA_OPTION,
    'no-progress': { type: 'boolean', help: 'no progress bar even on a terminal' },
  },
  notes: [
    'Every row comes out once, in input order, with its own bytes and then the country,',
    "subdivision, installed extensions' (--timezone …) and error cells (NDJSON: members of those",
    'names, "error" on bad rows only).',
    'A CSV row shorter than the header is padded with empty fields to its width first; fields',
    "beyond the header's width follow the error cell.",
    'Not found leaves the cells empty (null); a bad coordinate keeps the row, leaves every answer',
    'cell empty (null) and puts the ValidationError text in error. Blank lines are dropped. A',
    'summary goes to stderr, and a progress bar when stderr is a terminal.',
    '',
    'Extensions installed beside geolookup add flags and columns (docs/EXTENDING.md), listed',
    'above with their package: --timezone, for one, appends the IANA zone of every valid point:',
    '  geolookup batch points.csv --fields country --timezone -o out.csv',
  ].join('\n'),
  exit:
    '0 done (bad rows included), 2 bad options or no coordinate columns, 1 other error\n' +
    "(an extension's data missing among them), 130 interrupted (SIGINT: the rows in flight are\n" +
    'written first, then how many on stderr).',
} as const;

/** The command with the batch flags of the extensions installed (geolookup/extend's loader). */
function batchCommand() {
  const options: OptionSpecs = { ...BATCH_SPEC.options };
  for (const e of findExtensions())
    for (const o of e.batch?.options ?? [])
      options[o.flag] = {
        type: o.value === undefined ? 'boolean' : 'string',
        value: o.value,
        help: `${o.help} (${e.name})`,
      };
  const usage = BATCH_SPEC.usage.map((u): [string, string] => [u[0], u[1]]);
  return { spec: defineCommand({ ...BATCH_SPEC, usage, options }), own: new Set(Object.keys(BATCH_SPEC.options)) };
}

type BatchValues = Record<string, string | boolean | undefined>;

/** The batch options from the flags; a UsageError for a bad value. */
function batchOptions(values: BatchValues, positionals: string[], own: Set<string>): BatchOptions {
  const opts: BatchOptions = {};
  const format = values.format as string | undefined;
  const fields = values.fields as string | undefined;
  if (format !== undefined) {
    if (format !== 'csv' && format !== 'ndjson')
      throw new UsageError(`--format must be csv or ndjson, got "${format}"`);
    opts.format = format;
  }
  if (values.lat !== undefined) opts.lat = values.lat as string;
  if (values.lon !== undefined) opts.lon = values.lon as string;
  if (fields !== undefined) {
    const list = fields.split(',').map((f) => f.trim().toLowerCase());
    if (!list.length || list.some((f) => f !== 'country' && f !== 'subdivision'))
      throw new UsageError(`--fields takes country, subdivision or both, got "${fields}"`);
    opts.fields = list as BatchField[];
  }
  const extensions = Object.fromEntries(Object.entries(values).filter(([flag]) => !own.has(flag) && flag !== 'help'));
  if (Object.keys(extensions).length > 0) opts.extensions = extensions;
  if (values.delimiter !== undefined) opts.delimiter = values.delimiter as string;
  const workers = wholeNumber(values.workers as string | undefined, '--workers', 1, 256);
  if (workers !== undefined) opts.workers = workers;
  if (values.output !== undefined) opts.output = values.output as string;
  if (values.data !== undefined) opts.data = values.data as string;
  if (positionals.length > 1) throw new UsageError(`takes one input file, got ${positionals.length}`);
  opts.input = positionals[0];
  return opts;
}

/** Percent and ETA by bytes when the input size is known (a file); rows and rows/s always. */
function progressBar(stream: Writable): Progress {
  let bar: cliProgress.SingleBar | null = null;
  let size = 0;
  let t0 = 0;
  return {
    start(inputSize) {
      size = inputSize;
      const format =
        size > 0
          ? '{bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}'
          : '{rows} rows | {rate} rows/s';
      bar = new cliProgress.SingleBar(
        { format, stream, fps: 5, etaBuffer: 30, hideCursor: true, clearOnComplete: true },
        cliProgress.Presets.shades_classic,
      );
      t0 = performance.now();
      bar.start(size > 0 ? size : 1, 0, { rows: '0', rate: '0' });
    },
    update(bytes, rows) {
      const s = (performance.now() - t0) / 1000;
      bar?.update(size > 0 ? Math.min(bytes, size) : 0, {
        rows: groupDigits(rows),
        rate: groupDigits(s > 0 ? rows / s : 0),
      });
    },
    stop: () => bar?.stop(),
  };
}

/** "1 row", "2 rows", digits grouped. */
const count = (n: number, noun: string) => `${groupDigits(n)} ${noun}${n === 1 ? '' : 's'}`;

/** The line on stderr at the end of a run. */
export function summaryLine(s: BatchSummary): string {
  const n = groupDigits;
  return (
    `geolookup batch: ${count(s.rows, 'row')}, ${n(s.found)} found, ${n(s.notFound)} not found, ${count(s.errors, 'error')}; ` +
    `${s.seconds.toFixed(2)} s, ${n(s.rowsPerSecond)} rows/s, ${s.workers} worker${s.workers === 1 ? '' : 's'}, ` +
    `peak RSS ${s.peakRssMB.toFixed(0)} MB; ` +
    `${n(s.rowsPerSecondAfterStartup)} rows/s after ${s.startupSeconds.toFixed(2)} s of start-up`
  );
}

/** Parses argv, starts the batch, returns 0 at once (the exit code is set when it ends) or 2 for bad options. */
export function runBatch(argv: string[], out: Print, err: Print): number {
  const { spec, own } = batchCommand();
  return runCommand(spec, argv, out, err, ({ values, positionals }) => {
    const opts = batchOptions(values as BatchValues, positionals, own);
    if (!values['no-progress'] && process.stderr.isTTY === true) opts.progress = progressBar(process.stderr);
    // The first Ctrl-C stops reading and lets the rows in flight be written; a second one quits at once.
    const interrupt = new AbortController();
    const onSigint = () => {
      interrupt.abort();
      process.once('SIGINT', () => process.exit(EXIT.interrupted));
    };
    process.once('SIGINT', onSigint);
    opts.signal = interrupt.signal;
    batch(opts).then(
      (summary) => {
        process.off('SIGINT', onSigint);
        err(summaryLine(summary));
        if (summary.interrupted) {
          err(
            `geolookup batch: interrupted by SIGINT: ${count(summary.rows, 'row')} written, in input order; ` +
              'the rest of the input was not read.',
          );
          // The output is flushed (batch() waited for it); a read of stdin still pending must not hold the exit.
          process.exit(EXIT.interrupted);
        }
      },
      (e: unknown) => {
        process.off('SIGINT', onSigint);
        const message = e instanceof Error ? e.message : String(e);
        err(`geolookup batch: ${message}`);
        process.exitCode = e instanceof ValidationError ? EXIT.badInput : EXIT.error;
        if (!(e instanceof GeoLookupError) && !(e as NodeJS.ErrnoException)?.code)
          err(String((e as Error)?.stack ?? e));
      },
    );
    return EXIT.ok;
  });
}
