// The borders file, written by build-data/ (this package's) and read by read.ts: the container every
// geolookup data file shares (kind 3), whose payload is a section table and the sections below.
// docs/FORMAT.md in this package specifies every byte; a change here is a new BORDERS_VERSION.

export const KIND_BORDERS = 3;
export const BORDERS_VERSION = 1;

/** Vertex units per degree: 2^18, so a unit is 3.8e-6° (0.42 m of latitude) and ±180° fits an i32. */
export const UNITS_PER_DEGREE = 2 ** 18;

/**
 * Edges longer than this on either axis are split by the writer, so that a straight edge in the
 * reader's local frame follows the straight lon/lat edge, and a delta (≤ 2,622 units, zigzag
 * below 2^14) takes at most two varint bytes, as the reader decodes it.
 */
export const MAX_EDGE_DEGREES = 0.01;

/** At most this many vertices per chunk (a chunk is one Flatbush item). */
export const CHUNK_VERTICES = 32;

/** The far tables: 1/4° cells, row-major from the south-west, the distance from each centre. */
export const FAR_CELLS_PER_DEGREE = 4;
export const FAR_COLS = 360 * FAR_CELLS_PER_DEGREE;
export const FAR_ROWS = 180 * FAR_CELLS_PER_DEGREE;
/** A far table's unit, metres: a value is the centre's distance rounded down to it. */
export const FAR_UNIT_M = 500;
/** The far tables look this far: the value FAR_CAP_M / FAR_UNIT_M means "at least this far". */
export const FAR_CAP_M = 100_000;

/** The layers a query asks about: where countryFromGps changes, and where subdivisionFromGps does. */
export const LAYERS = ['country', 'subdivision'] as const;
export type Layer = (typeof LAYERS)[number];

/** The sections, in file order. */
export const SECTIONS = [
  'meta',
  'regions',
  'flatbush',
  'origins',
  'starts',
  'sides',
  'stream',
  'farcountry',
  'farsubdivision',
] as const;
export type Section = (typeof SECTIONS)[number];
