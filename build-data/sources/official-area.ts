// One subdivision of an official source, as its reader found it, before the name check.

import type { Geometry } from './geojson.js';

export interface OfficialArea {
  /** The ISO 3166-2 code the reader derived from the source's own key. */
  code: string;
  /** The source's name for it, which must be the reference's name for `code`. */
  name: string;
  geometry: Geometry | undefined;
  /** The file (and feature) it came from, for errors. */
  where: string;
}
