// `geolookup batch`: the flags, the progress bar and the summary line of src/batch/run.ts's batch().

import { availableParallelism } from 'node:os';
import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import { type BatchField, type BatchOptions, type BatchSummary, batch, type Progress } from '../batch/run.js';
import { GeoLookupError, ValidationError } from '../lookup/errors.js';
import {
  defineCommand,
  EXIT,
  type Parsed,
  type Print,
  runCommand,
  UsageError,
  wholeNumber,
  DATA_OPTION,
} from './args.js';
import { groupDigits } from './numbers.js';

const BATCH = defineCommand({
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
    timezone: {
      type: 'boolean',
      help:
        'also append the IANA time zone (a timezone column / member after them);\n' +
        'needs @geolookup/timezones: npm install @geolookup/timezones',
    },
    distance: {
      type: 'boolean',
      help: 'also append distance_m: metres to the nearest change of any answer asked for\n(empty past --max-km); needs @geolookup/borders, as --nearest and --within do',
    },
    nearest: {
      type: 'boolean',
      help: "also append nearest, nearest_m: the first field's region at the point, else the\nnearest within --max-km (empty when none)",
    },
    within: {
      type: 'string',
      value: 'M',
      help: 'also append within: every region of the fields within M metres, nearest first,\nspace-separated (NDJSON: an array)',
    },
    'max-km': {
      type: 'string',
      value: 'KM',
      help: 'how far --distance and --nearest search (default 50, at most 500)',
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
    'subdivision, timezone (with --timezone) and error cells (NDJSON: members of those names,',
    '"error" on bad rows only).',
    'A CSV row shorter than the header is padded with empty fields to its width first; fields',
    "beyond the header's width follow the error cell.",
    'Not found leaves the cells empty (null); a bad coordinate keeps the row, leaves every answer',
    'cell empty (null) and puts the ValidationError text in error. Blank lines are dropped. A',
    'summary goes to stderr, and a progress bar when stderr is a terminal.',
    '',
    '--timezone answers the IANA zone of every valid point (Etc/GMT-12 … Etc/GMT+12 at sea) from',
    '@geolookup/timezones, installed beside geolookup (npm install @geolookup/timezones);',
    'without it the run stops before reading any input (exit 1). For example:',
    '  geolookup batch points.csv --fields country --timezone -o out.csv',
  ].join('\n'),
  exit:
    '0 done (bad rows included), 2 bad options or no coordinate columns, 1 other error\n' +
    '(--timezone without @geolookup/timezones among them), 130 interrupted (SIGINT: the rows\n' +
    'in flight are written first, then how many on stderr).',
});

type BatchValues = Parsed<typeof BATCH.options>['values'];

/** The batch options from the flags; a UsageError for a bad value. */
function batchOptions(values: BatchValues, positionals: string[]): BatchOptions {
  const opts: BatchOptions = {};
  const { format, fields } = values;
  if (format !== undefined) {
    if (format !== 'csv' && format !== 'ndjson')
      throw new UsageError(`--format must be csv or ndjson, got "${format}"`);
    opts.format = format;
  }
  if (values.lat !== undefined) opts.lat = values.lat;
  if (values.lon !== undefined) opts.lon = values.lon;
  if (fields !== undefined) {
    const list = fields.split(',').map((f) => f.trim().toLowerCase());
    if (!list.length || list.some((f) => f !== 'country' && f !== 'subdivision'))
      throw new UsageError(`--fields takes country, subdivision or both, got "${fields}"`);
    opts.fields = list as BatchField[];
  }
  if (values.timezone) opts.timezone = true;
  if (values.distance || values.nearest || values.within !== undefined) {
    opts.borders = {
      distance: values.distance === true,
      nearest: values.nearest === true,
      withinM: values.within === undefined ? null : decimal(values.within, '--within'),
      maxKm: values['max-km'] === undefined ? 50 : decimal(values['max-km'], '--max-km'),
    };
  } else if (values['max-km'] !== undefined) throw new UsageError('--max-km goes with --distance or --nearest');
  if (values.delimiter !== undefined) opts.delimiter = values.delimiter;
  const workers = wholeNumber(values.workers, '--workers', 1, 256);
  if (workers !== undefined) opts.workers = workers;
  if (values.output !== undefined) opts.output = values.output;
  if (values.data !== undefined) opts.data = values.data;
  if (positionals.length > 1) throw new UsageError(`takes one input file, got ${positionals.length}`);
  opts.input = positionals[0];
  return opts;
}

/** A flag's decimal value (its range is the package's to check); a UsageError for anything else. */
function decimal(value: string, flag: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`${flag} takes a number, got "${value}"`);
  return Number(value);
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
  return runCommand(BATCH, argv, out, err, ({ values, positionals }) => {
    const opts = batchOptions(values, positionals);
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
