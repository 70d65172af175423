// The borders file's bytes (packages/borders/docs/FORMAT.md) from the encoded lines and far tables.

import { KIND_BORDERS, sealOf, wrapPayload } from 'geolookup/extend';
import type { Dataset } from 'geolookup/extend';
import type { BordersMeta } from '../src/read.js';
import {
  BORDERS_VERSION,
  type Layer,
  MAX_EDGE_DEGREES,
  SECTIONS,
  type Section,
  UNITS_PER_DEGREE,
} from '../src/layout.js';
import { bytesOf, packSections } from 'geolookup/extend';
import { type EncodedLines, SIMPLIFY_M } from './encode.js';

/** Region id → country index (-1 for region 0) and subdivision index (-1 for none). */
export function regionCodes(ds: Dataset) {
  return {
    country: Int32Array.from(ds.regionCountry, (c, r) => (r === 0 ? -1 : c)),
    subdivision: Int32Array.from(ds.regionSubdivision, (s, r) => (r === 0 ? -1 : s)),
    countries: ds.countryCodes.length,
    subdivisions: ds.subdivisionCodes.length,
  };
}

export function bordersFile(
  ds: Dataset,
  datasetBytes: Uint8Array,
  encoded: EncodedLines,
  far: Record<Layer, Uint8Array>,
): Uint8Array {
  // Rounding to the unit moves a vertex by at most half its diagonal.
  const quantisationM = (Math.SQRT2 / 2) * (111_320 / UNITS_PER_DEGREE);
  const meta: BordersMeta = {
    version: BORDERS_VERSION,
    dataset: {
      name: ds.meta.name,
      seal: sealOf(datasetBytes),
      stats: ds.meta.stats,
      countries: ds.countryCodes.length,
      subdivisions: ds.subdivisionCodes.length,
    },
    params: {
      simplifyM: SIMPLIFY_M,
      unitDegrees: 1 / UNITS_PER_DEGREE,
      maxEdgeDegrees: MAX_EDGE_DEGREES,
      quantisationM: Math.round(quantisationM * 1000) / 1000,
      boundM: Math.round((SIMPLIFY_M + quantisationM) * 1000) / 1000,
    },
    stats: { lines: encoded.lines, vertices: encoded.vertices, chunks: encoded.sides.length / 2 },
    sources: ds.meta.sources,
  };
  // The region table: (country, subdivision or 0xFFFF) per region, as the dataset's.
  const regionPairs = new Uint16Array(2 * ds.regionCountry.length);
  ds.regionCountry.forEach((c, r) => {
    regionPairs[2 * r] = Math.max(0, c);
    regionPairs[2 * r + 1] = ds.regionSubdivision[r] < 0 ? 0xffff : ds.regionSubdivision[r];
  });
  const sections: Record<Section, Uint8Array> = {
    meta: new TextEncoder().encode(JSON.stringify(meta)),
    regions: bytesOf(regionPairs),
    flatbush: encoded.flatbush,
    origins: bytesOf(encoded.origins),
    starts: bytesOf(encoded.starts),
    sides: bytesOf(encoded.sides),
    stream: encoded.stream,
    farcountry: far.country,
    farsubdivision: far.subdivision,
  };
  return wrapPayload(KIND_BORDERS, packSections(SECTIONS.map((name) => sections[name])));
}
