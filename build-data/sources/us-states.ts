// US Census Bureau TIGER/Line 2016 states (npm `boundaries`, public domain). The state polygons
// reach across bays, sounds and the Great Lakes to each state's water boundary.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Geometry } from './geojson.js';
import type { OfficialArea } from './official-area.js';

/**
 * FIPS state code → ISO 3166-2 code: the 50 states and DC. The five inhabited territories
 * (60, 66, 69, 72, 78) are ISO 3166-1 countries of their own, answered by the country layer.
 */
const FIPS: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
};

/** `boundaries`' files/USA-NN.json: { id: 'USA-NN', type: 'state', name, area: geometry }. */
export function readUsStates(dir: string): OfficialArea[] {
  return Object.entries(FIPS).map(([fips, abbr]) => {
    const file = join(dir, `USA-${fips}.json`);
    if (!existsSync(file)) throw new Error(`${file}: missing (US state boundaries)`);
    const j = JSON.parse(readFileSync(file, 'utf8')) as { id?: string; type?: string; name?: string; area?: Geometry };
    if (j.id !== `USA-${fips}` || j.type !== 'state')
      throw new Error(`${file}: expected state USA-${fips}, got ${j.type} ${j.id}`);
    return { code: `US-${abbr}`, name: j.name ?? '', geometry: j.area, where: file };
  });
}
