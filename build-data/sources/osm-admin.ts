// OpenStreetMap administrative boundaries that carry an ISO 3166-2 tag, all admin levels, as of
// May 2020 (data pack osm-admin-2020, ~110 m precision, ODbL). Codes are as OSM had them in 2020:
// policy/osm-remap.json brings them to the reference; policy/subdivision-source.ts decides per
// country whether they replace Natural Earth.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { SourceInfo, SubdivisionInfo } from '../../src/format/dataset.js';
import { currentCode, type Remap } from '../policy/remap.js';
import type { CodeTables } from './code-tables.js';
import type { DataPack } from './data-packs.js';
import type { Feature } from './geojson.js';
import { interiorPoint, partContains } from '../index/clip.js';
import { type Part, toParts } from './parts.js';

export const OSM_ADMIN_SOURCE = 'OpenStreetMap admin boundaries 2020 (data pack osm-admin-2020)';

/** One feature per line: properties iso2 (the 2020 tag), name, admin_level, osm_id. */
export function readOsmAdmin(path: string): Feature[] {
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  const features: Feature[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const f = JSON.parse(line) as Feature;
    if (typeof f.properties?.iso2 !== 'string') throw new Error(`${path}: a feature without iso2`);
    features.push(f);
  }
  return features;
}

export function osmAdminSource(pack: DataPack): SourceInfo {
  const osm = { licence: 'ODbL-1.0', attribution: '© OpenStreetMap contributors' };
  if (!pack.sha256)
    return { name: `data pack ${pack.file}`, version: 'not found', ...osm, role: 'not used: no OSM subdivisions' };
  return {
    name: OSM_ADMIN_SOURCE,
    version: '2020-05-07 via hyperknot/country-levels-export@536b869',
    date: '2020-05-07',
    ...osm,
    url: 'https://www.openstreetmap.org/copyright',
    role: 'subdivision outlines (~110 m) for the countries the build chooses them for (see the data report)',
    sha256: pack.sha256,
  };
}

/**
 * OSM features (the pack's, or an extract's: sources/osm-extract.ts) as unranked subdivision parts of their code's country: codes brought to the
 * reference by the remap, and codes that stand for a whole country (aliases such as FR-NC, level-2
 * relations) left to the country layer. Features with no current code (logged in the remap) are
 * `uncoded`: subdivision -1, ranked after every coded outline, so that their land answers no
 * subdivision rather than a neighbour's through the nearest-subdivision fill.
 */
export function osmParts(
  features: Feature[],
  path: string,
  tables: CodeTables,
  remap: Remap,
  aliases: Set<string>,
): { parts: Part[]; uncoded: Part[] } {
  const parts: Part[] = [];
  const uncoded: Part[] = [];
  for (const f of features) {
    // Level 2 is a whole country (GB-UKM): the country layer answers it, and its territorial sea
    // would hide the nearest-subdivision rule offshore.
    if (Number(f.properties!.admin_level) <= 2) continue;
    const raw = String(f.properties!.iso2);
    const code = currentCode(remap, raw, '', tables.subdivisionIndex);
    if (code === undefined || (code !== null && aliases.has(code))) continue;
    const c = tables.alpha2Index.get((code ?? raw).slice(0, 2));
    if (c === undefined) continue;
    if (code === null) {
      uncoded.push(...toParts(f, 'subdivision', c, -1, `${path} ${raw}`));
      continue;
    }
    const s = tables.subdivisionIndex.get(code);
    if (s === undefined) throw new Error(`osm-remap.json maps "${raw}" to "${code}", which is not in the reference`);
    parts.push(...toParts(f, 'subdivision', c, s, `${path} ${raw}`));
  }
  return { parts, uncoded };
}

/**
 * Drops a code's parts where its descendants in the layer cover at least `share` of its area: the
 * deepest code answers there anyway (smaller parts rank first), and slivers between the children
 * get the nearest subdivision. A part counts toward its nearest ancestor in the layer only if it
 * lies inside it: a stale ISO parent link (Sarangani in Davao Region) must not drop a parent.
 */
export function dropCoveredParents(
  parts: Part[],
  subdivisions: SubdivisionInfo[],
  index: Map<string, number>,
  share = 0.99,
): Part[] {
  const partsOf = new Map<number, Part[]>();
  const area = new Map<number, number>();
  for (const p of parts) {
    const own = partsOf.get(p.subdivision);
    if (own) own.push(p);
    else partsOf.set(p.subdivision, [p]);
    area.set(p.subdivision, (area.get(p.subdivision) ?? 0) + p.area);
  }
  const covered = new Map<number, number>();
  for (const p of parts) {
    let up = index.get(subdivisions[p.subdivision].parent);
    while (up !== undefined && !partsOf.has(up)) up = index.get(subdivisions[up].parent);
    if (up === undefined) continue;
    const [x, y] = interiorPoint(p.rings, p.bbox);
    if (partsOf.get(up)!.some((q) => partContains(q.rings, x, y))) covered.set(up, (covered.get(up) ?? 0) + p.area);
  }
  return parts.filter((p) => (covered.get(p.subdivision) ?? 0) < share * area.get(p.subdivision)!);
}
