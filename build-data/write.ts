// Serialises the built index and the canonical features into dist-data files.

import Flatbush from 'flatbush';
import { encode } from 'geobuf';
import Pbf from 'pbf';
import { KIND_DATASET, KIND_FEATURES, wrapPayload } from '../src/format/container.js';
import { SECTIONS } from '../src/format/layout.js';
import type { StoredMeta } from '../src/format/dataset.js';
import { countryColumns, subdivisionColumns } from '../src/format/meta-tables.js';
import type { BuildConfig } from './config.js';
import type { BuiltIndex, IndexOptions } from './index/build-index.js';
import { depth1Tables } from './index/depth1.js';
import { slotTables } from './index/slots.js';
import type { SourceInfo } from '../src/format/dataset.js';
import type { Sources } from './sources/load.js';
import { OSM_ADMIN_SOURCE } from './sources/osm-admin.js';
import { type Box, growBox } from './index/clip.js';
import { closedRing, type Part } from './sources/parts.js';
import { bytesOf, float32Above, float32Below, packSections } from '../src/format/sections.js';

/**
 * The Flatbush over the boxes of every part, plus the boxes where a subdivision answers as a
 * leaf's default (coast and fallback), so a box query finds every region the lookups can answer
 * inside it; boxcodes names each item (country >= 0, subdivision -1 - s). A code's boxes that lie
 * in one grid cell of `cellDeg` (1°, the lite build's 10°) merge into one (a superset still), and
 * coordinates round outwards to float32.
 */
function partIndex(src: Sources, index: BuiltIndex, cellDeg: number): { flatbush: Uint8Array; boxcodes: Int32Array } {
  const items: { code: number; box: Box }[] = [];
  const merged = new Map<string, Box>();
  const add = (code: number, b: Box) => {
    const col = Math.floor((b.x0 + 180) / cellDeg);
    const row = Math.floor((b.y0 + 90) / cellDeg);
    if (b.x1 > (col + 1) * cellDeg - 180 || b.y1 > (row + 1) * cellDeg - 90) {
      items.push({ code, box: { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 } });
      return;
    }
    const key = `${code}:${row}:${col}`;
    const m = merged.get(key);
    if (m) {
      growBox(m, b);
      return;
    }
    const box = { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
    merged.set(key, box);
    items.push({ code, box });
  };
  for (const p of src.countryParts) add(p.country, p.bbox);
  for (const p of src.subdivisionParts) if (p.subdivision >= 0) add(-1 - p.subdivision, p.bbox);
  for (const b of index.defaultBoxes) add(-1 - b.subdivision, b);
  const fb = new Flatbush(Math.max(1, items.length), 16, Float32Array);
  const codes = new Int32Array(Math.max(1, items.length));
  items.forEach(({ code, box }, i) => {
    fb.add(float32Below(box.x0), float32Below(box.y0), float32Above(box.x1), float32Above(box.y1));
    codes[i] = code;
  });
  if (items.length === 0) fb.add(0, 0, 0, 0);
  fb.finish();
  return { flatbush: new Uint8Array(fb.data as ArrayBuffer), boxcodes: codes };
}

export function writeDataset(src: Sources, index: BuiltIndex, config: BuildConfig, params: IndexOptions): Uint8Array {
  const meta: StoredMeta = {
    name: config.name,
    codes: config.codes,
    params: { fanouts: params.fanouts, margin: params.margin, quant: params.quant },
    sources: withOsmCountries(config.sources, src),
    countries: countryColumns(src.countries),
    subdivisions: subdivisionColumns(src.subdivisions),
    aliases: src.aliases,
    subdivisionGapKm: params.gapKm,
    ...(params.gapKmByCountry?.size
      ? {
          subdivisionGapKmByCountry: Object.fromEntries(
            [...params.gapKmByCountry].map(([c, km]) => [src.countries[c].code, km]),
          ),
        }
      : {}),
    stats: { ...index.stats, countryParts: src.countryParts.length, subdivisionParts: src.subdivisionParts.length },
    ...(config.codes === 'iso' ? { disputes: src.policy.disputes } : {}),
    ...(src.deleted ? { deletedSubdivisions: src.deleted.deleted } : {}),
    ...(src.deFacto?.length ? { deFacto: src.deFacto } : {}),
    ...(src.simplified ? { simplification: { ...src.simplified, vertexBoundM: params.vertexBoundM } } : {}),
  };
  const { flatbush, boxcodes } = partIndex(src, index, params.boxCellDeg);
  // Slots serve region lookups among subdivisions; in a countries-only build those answer
  // nothing, so the slot tables are left out.
  const withSlots = params.slots && src.subdivisionParts.length > 0;
  const { slots, subcodes, subwords, slotOf } = slotTables(
    index,
    params.fanouts[0],
    params.margin,
    params.quant,
    withSlots,
  );
  const depth1 = depth1Tables(index, params.fanouts[0], slotOf);
  const sections: Record<string, Uint8Array> = {
    meta: new TextEncoder().encode(JSON.stringify(meta)),
    grid: bytesOf(depth1.grid),
    gridcountry: bytesOf(index.gridCountry),
    blocks: bytesOf(depth1.blocks),
    blockcountry: bytesOf(depth1.blockCountry),
    records: bytesOf(index.records),
    regions: bytesOf(index.regions),
    flatbush,
    boxcodes: bytesOf(boxcodes),
    depth1bases: bytesOf(depth1.depth1Bases),
    slots: bytesOf(slots),
    blockregion8: bytesOf(depth1.blockRegion8),
    subcodes: bytesOf(subcodes),
    subwords: bytesOf(subwords),
  };
  const payload = packSections(SECTIONS.map((name) => sections[name]));
  return wrapPayload(KIND_DATASET, payload);
}

function multiPolygon(parts: Part[]): number[][][][] {
  return parts.map((p) => p.rings.map(closedRing));
}

/** Canonical features after policy and remapping, for export and rebuilding. */
export function writeFeatures(src: Sources): Uint8Array {
  const features: object[] = [];
  const byCountry = new Map<number, Part[]>();
  for (const p of src.countryParts) byCountry.set(p.country, [...(byCountry.get(p.country) ?? []), p]);
  for (const [c, parts] of [...byCountry].sort((a, b) => a[0] - b[0])) {
    features.push({
      type: 'Feature',
      properties: { layer: 'country', code: src.countries[c].code },
      geometry: { type: 'MultiPolygon', coordinates: multiPolygon(parts) },
    });
  }
  const bySub = new Map<number, Part[]>();
  for (const p of src.subdivisionParts)
    if (p.subdivision >= 0) bySub.set(p.subdivision, [...(bySub.get(p.subdivision) ?? []), p]);
  for (const [s, parts] of [...bySub].sort((a, b) => a[0] - b[0])) {
    features.push({
      type: 'Feature',
      properties: {
        layer: 'subdivision',
        code: src.subdivisions[s].code,
        country: src.countries[parts[0].country].code,
      },
      geometry: { type: 'MultiPolygon', coordinates: multiPolygon(parts) },
    });
  }
  const pbf = new Pbf();
  const bytes = encode({ type: 'FeatureCollection', features } as never, pbf);
  return wrapPayload(KIND_FEATURES, bytes);
}

/** The OSM source names the countries whose subdivisions it gives (policy/subdivision-source.ts). */
function withOsmCountries(sources: SourceInfo[], src: Sources): SourceInfo[] {
  const chosen = src.subdivisionSources.filter((c) => c.source === 'osm').map((c) => c.country);
  return sources.map((s) => (s.name === OSM_ADMIN_SOURCE ? { ...s, countries: chosen } : s));
}
