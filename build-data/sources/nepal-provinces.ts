// Nepal's seven provinces (2015 constitution), from Open Knowledge Nepal's Local Boundaries
// (okfnepal/localboundaries, css/province.topojson at 2f74fb5, 2022-03-30; CC BY 4.0) as a data pack
// beside the project (../shared/data/, its README gives provenance and checksum). They replace
// Natural Earth's 14 zones, which split six provinces (replacements.ts); the pack is optional
// (data-packs.ts). Its outlines draw Nepal's 2020 map, Kalapani–Lipulekh–Limpiyadhura included:
// the index answers a country's subdivisions only where the country layer answers that country
// (index/layers.ts), so there the country layer's IND and India's subdivision answer, not NP-P7.

import { iso31662 } from 'iso-3166';
import type { SourceInfo } from '../../src/format/dataset.js';
import type { DataPack } from './data-packs.js';
import { readGeoJSON } from './geojson.js';
import type { OfficialArea } from './official-area.js';

export const NEPAL_PROVINCES_SOURCE = "Nepal provinces of Open Knowledge Nepal's Local Boundaries";

const ATTRIBUTION = 'Nepal provinces: Open Knowledge Nepal, Local Boundaries (CC BY 4.0)';

/** The pack as a dataset source; without the pack, an entry saying it was not found (no sha256). */
export function nepalProvincesSource(pack: DataPack): SourceInfo {
  const terms = { licence: 'CC-BY-4.0', attribution: ATTRIBUTION };
  if (!pack.sha256)
    return {
      name: `data pack ${pack.file}`,
      version: 'not found',
      ...terms,
      role: "not used: Nepal's subdivisions from Natural Earth's zones (Madhesh and Lumbini answer no code)",
    };
  return {
    name: `${NEPAL_PROVINCES_SOURCE} (data pack ${pack.file})`,
    version: '2022-03-30 okfnepal/localboundaries@2f74fb5 (css/province.topojson)',
    date: '2022-03-30',
    ...terms,
    url: 'https://github.com/okfnepal/localboundaries',
    role: "Nepal's seven provinces (ISO 3166-2:NP), in place of Natural Earth's zones, answered only within the country layer's NPL",
    sha256: pack.sha256,
    countries: ['NP'],
  };
}

/** Letters without their diacritics: ISO writes Koshī, Bāgmatī, Gaṇḍakī; the pack Koshi, Bagmati, Gandaki. */
function plain(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '');
}

const isoName = new Map(iso31662.map((s) => [s.code, s.name]));

/**
 * The pack's seven features, each coded by `iso2` (NP-P1 … NP-P7), which must be an ISO 3166-2:NP
 * code, once each, and whose `name` must be that code's ISO name but for diacritics; the name kept
 * is ISO's. Anything else fails the build.
 */
export function readNepalProvinces(path: string): OfficialArea[] {
  const out: OfficialArea[] = [];
  for (const f of readGeoJSON(path)) {
    const code = String(f.properties?.iso2 ?? '');
    const name = String(f.properties?.name ?? '');
    const where = `${path} ${code} (${f.properties?.source_name ?? name})`;
    const iso = isoName.get(code);
    if (!code.startsWith('NP-') || iso === undefined) throw new Error(`${where}: not an ISO 3166-2:NP code`);
    if (plain(name) !== plain(iso)) throw new Error(`${where}: "${name}" is not ${code} (${iso})`);
    if (out.some((a) => a.code === code)) throw new Error(`${where}: ${code} twice`);
    out.push({ code, name: iso, geometry: f.geometry ?? undefined, where });
  }
  const provinces = iso31662.filter((s) => s.code.startsWith('NP-P')).length;
  if (out.length !== provinces) throw new Error(`${path}: ${out.length} provinces, expected ${provinces}`);
  return out;
}
