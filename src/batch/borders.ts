// `--distance`, `--nearest`, `--within M`: columns answered by the optional package
// @geolookup/borders, over the batch's own dataset. As with --timezone the core neither depends on
// the package nor bundles it: the main thread resolves it and checks that its lines were drawn
// from the dataset (the lite one is refused before any input is read); each worker loads it.

import { createRequire } from 'node:module';
import type { GeoLookup } from '../lookup/engine.js';
import { NotFoundError } from '../lookup/errors.js';
import type { NearestAnswer, RegionsAnswer } from '../operations.js';
import type { RowSettings } from './rows.js';

export const BORDERS_PACKAGE = '@geolookup/borders';

/** The border columns asked for: plain data, sent to every worker. */
export interface BorderColumns {
  /** distance_m: metres to the nearest change of any requested field's answer; empty past maxKm. */
  distance: boolean;
  /** nearest, nearest_m: the first requested field's region at the point, else the nearest within maxKm. */
  nearest: boolean;
  /** within: every region of the requested fields within this many metres, nearest first; null: no column. */
  withinM: number | null;
  /** How far distance_m and nearest search, in km. */
  maxKm: number;
}

export interface BorderLookup {
  distanceToBorder(lat: number, lon: number, o: { maxKm: number; layer: 'country' | 'subdivision' }): number | null;
  nearestCountry(lat: number, lon: number, o: { maxKm: number }): NearestAnswer;
  nearestSubdivision(lat: number, lon: number, o: { maxKm: number }): NearestAnswer;
  regionsWithin(lat: number, lon: number, radiusM: number): RegionsAnswer;
}

interface BordersPackage {
  createBorderLookup(o: { geo: GeoLookup | Uint8Array | string; data: string }): BorderLookup;
  bordersDataPath(): string;
}

/** The columns' names, in the order they follow the answer (and timezone) columns. */
export function borderColumnNames(b: BorderColumns | null): string[] {
  if (b === null) return [];
  return [
    ...(b.distance ? ['distance_m'] : []),
    ...(b.nearest ? ['nearest', 'nearest_m'] : []),
    ...(b.withinM !== null ? ['within'] : []),
  ];
}

/** The package at `path` over `geo`: its DataError (lines from another dataset, the lite one) is thrown here. */
export function loadBorders(path: string, geo: GeoLookup | Uint8Array | string): BorderLookup {
  const pkg = createRequire(path)(path) as BordersPackage;
  return pkg.createBorderLookup({ geo, data: pkg.bordersDataPath() });
}

/** The border lookup settings.borders needs. */
export function needBorders(lookup: BorderLookup | null): BorderLookup {
  if (lookup === null) throw new Error(`settings.borders needs a border lookup (${BORDERS_PACKAGE})`);
  return lookup;
}

/** A border column's value: metres, a code, a list of codes, or null (none within reach). */
export type BorderValue = string | number | string[] | null;

/**
 * The values of settings.borders' columns (borderColumnNames order) at a valid point, over
 * `lookup`. Metres are given to the centimetre (the stated bound is 1 m).
 */
export function borderValues(
  lookup: BorderLookup,
  settings: RowSettings,
): (latitude: number, longitude: number) => BorderValue[] {
  const b = settings.borders!;
  const layers = [
    ...(settings.country ? (['country'] as const) : []),
    ...(settings.subdivision ? (['subdivision'] as const) : []),
  ];
  const metres = (m: number) => Math.round(m * 100) / 100;
  return (lat, lon) => {
    const out: BorderValue[] = [];
    if (b.distance) {
      let least: number | null = null;
      for (const layer of layers) {
        const m = lookup.distanceToBorder(lat, lon, { maxKm: b.maxKm, layer });
        if (m !== null && (least === null || m < least)) least = m;
      }
      out.push(least === null ? null : metres(least));
    }
    if (b.nearest) {
      const near = nearest(lookup, layers[0], lat, lon, b.maxKm);
      out.push(near?.code ?? null, near ? metres(near.distanceM) : null);
    }
    if (b.withinM !== null) {
      const r = lookup.regionsWithin(lat, lon, b.withinM);
      out.push(
        [...(settings.country ? r.countries : []), ...(settings.subdivision ? r.subdivisions : [])].map((x) => x.code),
      );
    }
    return out;
  };
}
/** The region at the point or the nearest within maxKm; null when there is none. */
function nearest(
  lookup: BorderLookup,
  layer: 'country' | 'subdivision',
  lat: number,
  lon: number,
  maxKm: number,
): NearestAnswer | null {
  try {
    return layer === 'country'
      ? lookup.nearestCountry(lat, lon, { maxKm })
      : lookup.nearestSubdivision(lat, lon, { maxKm });
  } catch (e) {
    if (e instanceof NotFoundError) return null;
    throw e;
  }
}
