// Hans Island (Tartupaluk), split between Canada and Greenland by the 2022 treaty, from a data pack
// beside the project (../shared/data/, its README gives provenance and checksum). The land source
// predates the treaty; the pack's polygons cover sea too, so they rank after the maritime layer
// (policy/ranking.ts rankPatchAfterSea) and answer only where no other layer does.
// The pack is optional (data-packs.ts).

import type { SourceInfo } from '../../src/format/dataset.js';
import type { CodeTables } from './code-tables.js';
import type { DataPack } from './data-packs.js';
import { readGeoJSON } from './geojson.js';
import { type Part, toParts } from './parts.js';

/** The pack as a dataset source; without the pack, an entry saying it was not found (no sha256). */
export function hansIslandSource(pack: DataPack): SourceInfo {
  const osm = { licence: 'ODbL-1.0', attribution: '© OpenStreetMap contributors' };
  if (!pack.sha256)
    return {
      name: `data pack ${pack.file}`,
      version: 'not found',
      ...osm,
      role: 'not used: Hans Island answers no country',
    };
  return {
    name: `Hans Island 2022 treaty (data pack ${pack.file})`,
    version: '2023-10-02 osm-boundaries via zbycz/which-country',
    date: '2023-10-02',
    ...osm,
    url: 'https://www.openstreetmap.org/copyright',
    role: 'Hans Island per the 2022 treaty, where no other layer answers',
    sha256: pack.sha256,
  };
}

/** The pack's CAN and GRL polygons as unranked country parts; an unknown code fails. */
export function readHansIsland(path: string, tables: CodeTables): Part[] {
  const parts: Part[] = [];
  for (const f of readGeoJSON(path)) {
    const code = String(f.properties?.A3 ?? '');
    const idx = tables.countryIndex.get(code);
    if (idx === undefined) throw new Error(`${path}: country code "${code}" is not ISO 3166-1 alpha-3`);
    tables.countries[idx].covered = true;
    parts.push(...toParts(f, 'country', idx, -1, `${path} ${code}`));
  }
  return parts;
}
