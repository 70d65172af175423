// Reads a borders file (docs/FORMAT.md): the container, the section table, and every section laid
// over the payload as typed arrays (no copy), after the checks that keep a damaged file from
// reading out of bounds or naming a region that does not exist. The varint stream is bounded by
// `starts`, so a bad byte there can only misplace a vertex of its own chunk, which the checksum
// already excludes.

import Flatbush from 'flatbush';
import { type BinaryInput, DataError, type SourceInfo } from 'geolookup';
import { readContainer } from 'geolookup/extend';
import {
  BORDERS_VERSION,
  FAR_COLS,
  FAR_ROWS,
  KIND_BORDERS,
  type Layer,
  type Section,
  SECTIONS,
  UNITS_PER_DEGREE,
} from './layout.js';
import type { BorderArrays } from './search.js';

/** What the meta section records. */
export interface BordersMeta {
  version: number;
  /** The lookup dataset the lines were drawn from: its name, seal and statistics. */
  dataset: { name: string; seal: string; stats: Record<string, number>; countries: number; subdivisions: number };
  /** How the lines were made: simplification and rounding (m), vertex unit and longest edge (degrees). */
  params: { simplifyM: number; unitDegrees: number; maxEdgeDegrees: number; quantisationM: number; boundM: number };
  /** Counts: lines as extracted, vertices and chunks as stored. */
  stats: { lines: number; vertices: number; chunks: number };
  /** Sources and licences: those of the dataset (datasetInfo()), from which the lines are derived. */
  sources: SourceInfo[];
}

export interface BordersFile {
  meta: BordersMeta;
  arrays: BorderArrays;
  far: Record<Layer, Uint8Array>;
}

export function readBorders(input: BinaryInput, name = 'borders'): BordersFile {
  const payload = readContainer(input, KIND_BORDERS, name);
  const fail = (what: string): never => {
    throw new DataError(`${name}: ${what} (damaged or not a borders file)`);
  };
  const n = SECTIONS.length;
  const table = new Uint32Array(payload.buffer, payload.byteOffset, Math.min(payload.byteLength >>> 2, 2 + 2 * n));
  if (table.length < 2 + 2 * n || table[0] !== n) fail('bad section table');
  const section = (s: Section): [number, number] => {
    const i = SECTIONS.indexOf(s);
    const offset = table[2 + 2 * i];
    const length = table[3 + 2 * i];
    if (offset % 8 !== 0 || offset + length > payload.byteLength) fail(`section ${s} out of bounds`);
    return [payload.byteOffset + offset, length];
  };
  const typed = <T>(
    s: Section,
    Type: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number },
    count?: number,
  ): T => {
    const [o, len] = section(s);
    const size = Type.BYTES_PER_ELEMENT;
    if (len % size !== 0 || (count !== undefined && len !== count * size))
      fail(`${s}: ${len} bytes${count === undefined ? '' : `, expected ${count * size}`}`);
    return new Type(payload.buffer, o, len / size);
  };

  let meta: BordersMeta;
  try {
    meta = JSON.parse(new TextDecoder().decode(typed('meta', Uint8Array)));
  } catch {
    meta = fail('meta is not JSON');
  }
  if (meta.version !== BORDERS_VERSION)
    throw new DataError(`${name}: borders version ${meta.version}, this package reads ${BORDERS_VERSION}; rebuild it`);

  const regions = typed('regions', Uint16Array);
  const regionCount = regions.length / 2;
  const regionCountry = new Int32Array(regionCount);
  const regionSubdivision = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const c = regions[2 * r];
    const s = regions[2 * r + 1];
    // Region 0 is no country; 0xFFFF is no subdivision.
    regionCountry[r] = r === 0 ? -1 : c;
    regionSubdivision[r] = r === 0 || s === 0xffff ? -1 : s;
    if (r > 0 && (c >= meta.dataset.countries || (s !== 0xffff && s >= meta.dataset.subdivisions)))
      fail(`region ${r} names a code the dataset does not have`);
  }

  const sides = typed('sides', Uint16Array);
  const chunks = sides.length / 2;
  let index: Flatbush;
  try {
    index = Flatbush.from(payload.buffer as ArrayBuffer, section('flatbush')[0]);
  } catch (e) {
    index = fail(`index: ${(e as Error).message}`);
  }
  // A file without lines (a countries-only dataset of one country) keeps a one-item index it never reads.
  if (index.numItems !== Math.max(1, chunks)) fail(`the index holds ${index.numItems} items for ${chunks} chunks`);
  const origins = typed('origins', Int32Array, 2 * chunks);
  const starts = typed('starts', Uint32Array, chunks + 1);
  const stream = typed('stream', Uint8Array);
  if (starts[0] !== 0 || starts[chunks] !== stream.length) fail('starts do not span the stream');
  const limit = 180 * UNITS_PER_DEGREE;
  for (let c = 0; c < chunks; c++) {
    if (starts[c + 1] < starts[c]) fail(`starts go backwards at chunk ${c}`);
    if (sides[2 * c] >= regionCount || sides[2 * c + 1] >= regionCount)
      fail(`chunk ${c} names a region beyond the table`);
    if (Math.abs(origins[2 * c]) > limit || Math.abs(origins[2 * c + 1]) > limit / 2)
      fail(`chunk ${c} starts off the globe`);
  }
  return {
    meta,
    arrays: { index, origins, starts, sides, stream, regionCountry, regionSubdivision },
    far: {
      country: typed('farcountry', Uint8Array, FAR_COLS * FAR_ROWS),
      subdivision: typed('farsubdivision', Uint8Array, FAR_COLS * FAR_ROWS),
    },
  };
}
