// The GeoJSON the map draws: the world's countries (computed in the background from the start),
// one country's subdivisions, and single outlines for the answer's highlight. Features carry
// the code and its name from the answering dataset.

import type { CodeTables } from './codes.js';
import { type Outlines, PRIORITY } from './outlines.js';

/** Decimals of the world layer (about 1 km): an overview, drawn under the finer layers. */
export const WORLD_DIGITS = 2;
/** Decimals of subdivisions and highlights (about 100 m). */
export const DETAIL_DIGITS = 3;

export interface Progress {
  done: number;
  total: number;
  /** Countries whose outline failed (their codes), reported rather than hidden. */
  failed: string[];
}

export interface Collections {
  /** The countries FeatureCollection once every outline is in, else how far the work is. */
  countries(): { json: string } | Progress;
  /** The FeatureCollection of an alpha-3 country's subdivisions; null for a code the dataset does not know. */
  subdivisionsOf(alpha3: string): Promise<string> | null;
  /** One code's Feature (geometry null when it holds no area); null for an unknown code. */
  feature(code: string): Promise<string> | null;
}

export function outlineCollections(outlines: Outlines, tables: CodeTables): Collections {
  const { codes } = tables;
  const nameOf = (code: string) => codes.countries[code]?.name ?? codes.subdivisions[code]?.name ?? '';
  const featureJson = (code: string, geometry: string | null) =>
    `{"type":"Feature","properties":${JSON.stringify({ code, name: nameOf(code) })},"geometry":${geometry ?? 'null'}}`;
  /** The features of `list` that have an area, in order; failed codes go to `failed`. */
  const collect = async (list: string[], digits: number, priority: number, failed: string[], onDone = () => {}) => {
    const features = await Promise.all(
      list.map(async (code) => {
        try {
          const g = await outlines.geometry(code, digits, priority);
          return g === null ? null : featureJson(code, g);
        } catch {
          failed.push(code);
          return null;
        } finally {
          onDone();
        }
      }),
    );
    return `{"type":"FeatureCollection","features":[${features.filter((f) => f !== null).join(',')}]}`;
  };

  const progress: Progress = { done: 0, total: tables.covered.length, failed: [] };
  let world: string | null = null;
  void collect(tables.covered, WORLD_DIGITS, PRIORITY.countries, progress.failed, () => progress.done++).then(
    (json) => (world = json),
  );
  const bySubdivisions = new Map<string, Promise<string>>();

  return {
    countries: () => (world !== null ? { json: world } : progress),
    subdivisionsOf(alpha3) {
      const held = tables.heldIn.get(alpha3);
      if (held === undefined) return null;
      let p = bySubdivisions.get(alpha3);
      if (p === undefined) bySubdivisions.set(alpha3, (p = collect(held, DETAIL_DIGITS, PRIORITY.subdivisions, [])));
      return p;
    },
    feature(code) {
      if (!Object.hasOwn(codes.countries, code) && !Object.hasOwn(codes.subdivisions, code)) return null;
      return outlines.geometry(code, DETAIL_DIGITS, PRIORITY.highlight).then(
        (g) => featureJson(code, g),
        () => featureJson(code, null),
      );
    },
  };
}
