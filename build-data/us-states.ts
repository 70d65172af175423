// The US states and DC from the Census Bureau's TIGER/Line 2016 boundaries (npm `boundaries`,
// public domain), in place of Natural Earth's admin-1 outlines for the United States.
//
// Why: Natural Earth draws state lines at about 1 km, so towns on a state line answered the
// other state (Kansas City's Kansas suburbs answered US-MO, Ohio River towns the other bank:
// 70 of GeoNames' 16,677 US cities). TIGER/Line follows the legal lines with a vertex every few
// tens of metres (State Line Road in Kansas City), and 1 of those cities disagrees with it.
// Its state polygons also reach across bays, sounds and the Great Lakes to the state's water
// boundary, so a point in Lake Michigan answers the state whose water it is.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso31662 } from 'iso-3166';
import type { Feature, Geometry } from './sources.js';

/**
 * FIPS state code → ISO 3166-2 code: the 50 states and DC. The five inhabited territories
 * (60, 66, 69, 72, 78) are ISO 3166-1 countries of their own; their answer comes from the
 * country layer (US-PR and the like are aliases, policy.json).
 */
const FIPS: Record<string, string> = {
  '01': 'AL', '02': 'AK', '04': 'AZ', '05': 'AR', '06': 'CA', '08': 'CO', '09': 'CT', '10': 'DE', '11': 'DC',
  '12': 'FL', '13': 'GA', '15': 'HI', '16': 'ID', '17': 'IL', '18': 'IN', '19': 'IA', '20': 'KS', '21': 'KY',
  '22': 'LA', '23': 'ME', '24': 'MD', '25': 'MA', '26': 'MI', '27': 'MN', '28': 'MS', '29': 'MO', '30': 'MT',
  '31': 'NE', '32': 'NV', '33': 'NH', '34': 'NJ', '35': 'NM', '36': 'NY', '37': 'NC', '38': 'ND', '39': 'OH',
  '40': 'OK', '41': 'OR', '42': 'PA', '44': 'RI', '45': 'SC', '46': 'SD', '47': 'TN', '48': 'TX', '49': 'UT',
  '50': 'VT', '51': 'VA', '53': 'WA', '54': 'WV', '55': 'WI', '56': 'WY',
};

export const US_STATES_SOURCE = 'US Census Bureau TIGER/Line 2016 states (via boundaries)';


/**
 * One GeoJSON feature per state, coded `US-XX`. Fails on anything unexpected (a missing file,
 * another geometry type, a name that is not the ISO name of the code), so a new package
 * release cannot silently move a code onto the wrong outline.
 */
export function readUsStates(dir: string): Feature[] {
  const isoName = new Map(iso31662.map((s) => [s.code, s.name]));
  return Object.entries(FIPS).map(([fips, abbr]) => {
    const file = join(dir, `USA-${fips}.json`);
    if (!existsSync(file)) throw new Error(`${file}: missing (US state boundaries)`);
    const j = JSON.parse(readFileSync(file, 'utf8')) as { id?: string; type?: string; name?: string; area?: Geometry };
    const code = `US-${abbr}`;
    if (j.id !== `USA-${fips}` || j.type !== 'state') throw new Error(`${file}: expected state USA-${fips}, got ${j.type} ${j.id}`);
    if (j.name !== isoName.get(code)) throw new Error(`${file}: "${j.name}" is not ${code} (${isoName.get(code)})`);
    if (j.area?.type !== 'Polygon' && j.area?.type !== 'MultiPolygon') throw new Error(`${file}: no polygon`);
    return { properties: { iso_3166_2: code, name: j.name }, geometry: j.area };
  });
}
