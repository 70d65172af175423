// The batch's NDJSON rows against JSON.parse on seeded generated files (test/support/ndjson-gen.ts):
// one output row per input record, in order, each the input object with its answer members set
// (replacing members of those names) for the coordinates the documented rule finds, or the row's
// error, the row's own bytes kept; and summary counts that match. Rows go through processNdjson
// in jobs cut at random line ends over two workers' row state, and some files through batch().
// GEOLOOKUP_DIFF_FILES sets the file count (default a quick sample; CI's long variant: 100,000),
// GEOLOOKUP_DIFF_SEED the seed.
import { framingFor } from '../../src/batch/framing.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/batch/columns.js';
import { type NdjsonCells, ndjsonCells, processNdjson } from '../../src/batch/ndjson.js';
import type { RowSettings } from '../../src/batch/rows.js';
import { batch } from '../../src/batch/run.js';
import { type Dataset, readDataset } from '../../src/format/dataset.js';
import { fixtureBytes, fixturePath, loadFixture, scratchPath } from '../fixtures/datasets.js';
import { type Counts, checkNdjson, type GeneratedNdjson, generateNdjson, longRow } from '../support/ndjson-gen.js';
import { prng, type Rng } from '../support/sample-points.js';

const FILES = Number(process.env.GEOLOOKUP_DIFF_FILES ?? 3000);
const SEED = Number(process.env.GEOLOOKUP_DIFF_SEED ?? 46);
/** batch() runs: files are drawn RUNS × PER_RUN and each run takes the files of one option set, largest first. */
const PER_RUN = 300;
const RUNS = Math.max(2, Math.ceil(FILES / 1500));
const TIMEOUT = Math.max(120_000, FILES * 10);

/** Where the reader cuts NDJSON jobs. */
const lastLineEnd = framingFor('ndjson', 44).lastEnd;

const options = (f: GeneratedNdjson) => ({ lat: f.lat, lon: f.lon, fields: f.fields });

/** Two workers' row state per option set, kept from file to file as a worker keeps it from job to job. */
const workerState = new Map<string, { settings: RowSettings; cells: NdjsonCells[] }>();

/** A file's rows through processNdjson, in jobs cut at random windows as the reader cuts them, each to one of two workers. */
function rowsOutput(ds: Dataset, file: GeneratedNdjson, r: Rng) {
  const key = JSON.stringify(options(file));
  let state = workerState.get(key);
  if (!state) {
    const { settings } = resolveColumns(null, 'ndjson', 44, options(file));
    state = { settings, cells: [ndjsonCells(ds, settings), ndjsonCells(ds, settings)] };
    workerState.set(key, state);
  }
  const { settings, cells } = state;
  const parts: Uint8Array[] = [];
  const stats: Counts = { rows: 0, found: 0, notFound: 0, errors: 0 };
  const b = file.bytes;
  for (let at = 0; at < b.length; ) {
    let job: Uint8Array | null = null;
    for (let window = 1 + Math.floor(r() * 2048); job === null; window *= 2) {
      if (at + window >= b.length) job = b.subarray(at);
      else {
        const cut = lastLineEnd(b.subarray(at, at + window));
        if (cut > 0) job = b.subarray(at, at + cut);
      }
    }
    const res = processNdjson(ds, settings, cells[r() < 0.5 ? 0 : 1], job);
    parts.push(res.out.slice(0, res.length));
    for (const k of ['rows', 'found', 'notFound', 'errors'] as const) stats[k] += res[k];
    at += job.length;
  }
  return { out: Buffer.concat(parts), stats };
}

describe(`NDJSON rows against JSON.parse on ${FILES} generated files (seed ${SEED})`, () => {
  const lookup = loadFixture('iso');

  it('processNdjson: every record one row, in order, the input object with its own answer', {
    timeout: TIMEOUT,
  }, () => {
    const ds = readDataset(fixtureBytes('iso'));
    const r = prng(SEED);
    const totals = { files: 0, rows: 0, found: 0, errors: 0, bytes: 0 };
    for (let i = 0; i < FILES; i++) {
      const file = generateNdjson(r);
      const { out, stats } = rowsOutput(ds, file, r);
      const want = checkNdjson(file.bytes, out, options(file), lookup, `file ${i} (seed ${SEED})`);
      expect(stats, `file ${i} (seed ${SEED})`).toEqual(want);
      totals.files++;
      totals.rows += want.rows;
      totals.found += want.found;
      totals.errors += want.errors;
      totals.bytes += file.bytes.length;
    }
    console.log(`ndjson differential: ${JSON.stringify(totals)}`);
    // The generator reaches what it is for: answers and errors both occur, on most files.
    expect(totals.found).toBeGreaterThan(totals.files);
    expect(totals.errors).toBeGreaterThan(totals.files / 2);
  });

  it('batch(): the same on whole runs, a row over 1 MiB first, summary counts as written', {
    timeout: TIMEOUT,
  }, async () => {
    const r = prng(SEED + 1);
    const groups = new Map<string, GeneratedNdjson[]>();
    for (let i = 0; i < RUNS * PER_RUN; i++) {
      const file = generateNdjson(r);
      const key = JSON.stringify(options(file));
      groups.set(key, [...(groups.get(key) ?? []), file]);
    }
    const runs = [...groups.values()].sort((a, b) => b.length - a.length).slice(0, RUNS);
    const totals = { runs: runs.length, files: runs.flat().length, rows: 0 };
    for (const [n, files] of runs.entries()) {
      const opts = options(files[0]);
      const nl = Uint8Array.of(10);
      const parts = files.flatMap((f) => [f.bytes, nl]);
      parts.splice(2 * Math.floor(r() * files.length), 0, longRow(r, opts), nl); // between two files
      const input = Buffer.concat([longRow(r, opts), nl, ...parts]);
      const file = scratchPath(`ndjson-diff-${SEED}-${n}.ndjson`);
      const outFile = `${file}.out`;
      writeFileSync(file, input);
      const summary = await batch({
        ...opts,
        input: file,
        output: outFile,
        format: 'ndjson',
        data: fixturePath('iso'),
        workers: 2,
      });
      const where = `batch run ${n} ${JSON.stringify(opts)} (seed ${SEED})`;
      const want = checkNdjson(input, readFileSync(outFile), opts, lookup, where);
      const { rows, found, notFound, errors } = summary;
      expect({ rows, found, notFound, errors }, where).toEqual(want);
      totals.rows += rows;
    }
    console.log(`ndjson differential, batch(): ${JSON.stringify(totals)}`);
  });
});
