// The batch's CSV reading against Python's csv module (test/support/csv_reference.py) on seeded
// generated files: the records and fields of the output equal the reference's records of the
// input, each with the library's answer for its own coordinates appended, whatever the job cuts.
// GEOLOOKUP_DIFF_FILES sets the file count (default a quick sample; CI's long variant: 100,000).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/format/dataset.js';
import { csvHeaderRead, resolveColumns } from '../../src/batch/columns.js';
import { csvCells, lastRecordEnd, processCsv } from '../../src/batch/csv.js';
import type { RowSettings } from '../../src/batch/rows.js';
import { ValidationError } from '../../src/lookup/errors.js';
import type { GeoLookup } from '../../src/index.js';
import { fixtureBytes, loadFixture } from '../fixtures/datasets.js';
import { type GeneratedCsv, generateCsv } from '../support/csv-gen.js';
import { prng, type Rng } from '../support/sample-points.js';
import { programMissing, skipWithout } from '../support/system.js';

const FILES = Number(process.env.GEOLOOKUP_DIFF_FILES ?? 2000);
const SEED = Number(process.env.GEOLOOKUP_DIFF_SEED ?? 46);
const REFERENCE = fileURLToPath(new URL('../support/csv_reference.py', import.meta.url));
const UNCLOSED = 'The row ends inside a quoted field: a quote opened and never closed.';

interface Parsed {
  records: string[][];
  unclosed: boolean;
}

/** Python's records of each file (fields as latin-1: one code point per byte). */
function reference(files: { bytes: Uint8Array; delimiter: number }[]): Parsed[] {
  const parts: Buffer[] = [];
  for (const f of files) {
    const head = Buffer.alloc(5);
    head[0] = f.delimiter;
    head.writeUInt32LE(f.bytes.length, 1);
    parts.push(head, Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.length));
  }
  const run = spawnSync('python3', [REFERENCE], { input: Buffer.concat(parts), maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`csv_reference.py: ${run.error ?? run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString());
}

const cellTables = new Map<string, ReturnType<typeof csvCells>>();

/** The batch's output for a whole file, its rows cut into jobs at random windows as readJobs cuts them. */
function batchOutput(ds: ReturnType<typeof readDataset>, file: GeneratedCsv, r: Rng) {
  const atEnd = csvHeaderRead(file.given ? String.fromCharCode(file.delimiter) : undefined, file.delimiter);
  expect(atEnd(file.bytes, true)).toBe(true);
  const { settings, header, headerBytes } = resolveColumns(file.bytes, 'csv', file.given ? file.delimiter : 44, {
    delimiter: file.given ? String.fromCharCode(file.delimiter) : undefined,
    fields: file.fields,
  });
  expect(settings.delimiter).toBe(file.delimiter);
  const key = `${settings.delimiter} ${settings.country} ${settings.subdivision} ${settings.eol}`;
  if (!cellTables.has(key)) cellTables.set(key, csvCells(ds, settings));
  const cells = cellTables.get(key)!;
  const parts: Uint8Array[] = [header!];
  const stats = { rows: 0, found: 0, notFound: 0, errors: 0 };
  const rest = file.bytes.subarray(headerBytes);
  for (let at = 0; at < rest.length; ) {
    let job: Uint8Array | null = null;
    for (let window = 1 + Math.floor(r() * 64); job === null; window *= 2) {
      if (at + window >= rest.length) job = rest.subarray(at);
      else {
        const cut = lastRecordEnd(rest.subarray(at, at + window), settings.delimiter);
        if (cut > 0) job = rest.subarray(at, at + cut);
      }
    }
    const res = processCsv(ds, settings, cells, job);
    parts.push(res.out.slice(0, res.length));
    for (const k of ['rows', 'found', 'notFound', 'errors'] as const) stats[k] += res[k];
    at += job.length;
  }
  return { out: Buffer.concat(parts), settings, stats };
}

/** latin-1 field → the text the batch decodes (UTF-8, invalid bytes as U+FFFD). */
const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** The cells the library gives a row's coordinate fields. */
function answer(lookup: GeoLookup, settings: RowSettings, fields: string[]): string[] {
  const lat = settings.latColumn < fields.length ? utf8(fields[settings.latColumn]) : undefined;
  const lon = settings.lonColumn < fields.length ? utf8(fields[settings.lonColumn]) : undefined;
  let codes: (string | null)[];
  let error = '';
  try {
    codes = [
      ...(settings.country ? [lookup.tryCountryFromGps(lat as string, lon as string)] : []),
      ...(settings.subdivision ? [lookup.trySubdivisionFromGps(lat as string, lon as string)] : []),
    ];
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    codes = [...(settings.country ? [null] : []), ...(settings.subdivision ? [null] : [])];
    error = e.message;
  }
  return [...codes.map((c) => c ?? ''), latin1(error)];
}

describe.skipIf(
  skipWithout(
    "CSV differential against Python's csv",
    programMissing('python3', 'python3 is not on PATH (its csv module is the reference)'),
  ),
)(`CSV against Python's csv module on ${FILES} generated files (seed ${SEED})`, () => {
  // About 3 ms a file here (the Python reference included): the long variant needs minutes.
  const timeout = 60_000 + 20 * FILES;
  it('every record gives one row, in order, its fields intact and its own answer appended', { timeout }, () => {
    const ds = readDataset(fixtureBytes('iso'));
    const lookup = loadFixture('iso');
    const r = prng(SEED);
    const totals = { files: 0, rows: 0, found: 0, errors: 0, unclosed: 0, bytes: 0 };
    for (let done = 0; done < FILES; ) {
      const files = Array.from({ length: Math.min(2000, FILES - done) }, () => generateCsv(r));
      const ours = files.map((f) => batchOutput(ds, f, r));
      const refIn = reference(files);
      const refOut = reference(ours.map((o, i) => ({ bytes: o.out, delimiter: files[i].delimiter })));
      files.forEach((file, i) => {
        const { settings, stats } = ours[i];
        const [head, ...rows] = refIn[i].records;
        const got = refOut[i].records;
        const where = `file ${done + i} (seed ${SEED})`;
        const added = [...file.fields, 'error'];
        const want = [[...head, ...added]];
        const counts = { rows: rows.length, found: 0, notFound: 0, errors: 0 };
        rows.forEach((fields, j) => {
          const open = refIn[i].unclosed && j === rows.length - 1;
          const cells = open ? [...file.fields.map(() => ''), UNCLOSED] : answer(lookup, settings, fields);
          const padded = [...fields.slice(0, head.length), ...Array(Math.max(0, head.length - fields.length)).fill('')];
          want.push([...padded, ...cells, ...fields.slice(head.length)]);
          if (cells[cells.length - 1] !== '') counts.errors++;
          else if (cells[0] !== '') counts.found++;
          else counts.notFound++;
        });
        expect(got, where).toEqual(want);
        expect(refOut[i].unclosed, where).toBe(false);
        expect(stats, where).toEqual(counts);
        totals.files++;
        totals.rows += counts.rows;
        totals.found += counts.found;
        totals.errors += counts.errors;
        totals.unclosed += refIn[i].unclosed ? 1 : 0;
        totals.bytes += file.bytes.length;
      });
      done += files.length;
    }
    console.log(`csv differential: ${JSON.stringify(totals)}`);
    // The generator reaches what it is for: answers, errors and unclosed quotes all occur.
    expect(totals.found).toBeGreaterThan(totals.files / 2);
    expect(totals.errors).toBeGreaterThan(totals.files / 2);
    expect(totals.unclosed).toBeGreaterThan(0);
  });
});
