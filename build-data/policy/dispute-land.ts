// policy disputes in an OSM extract that draws the disputed area inside the loser's country outline
// alone (JOSM's boundaries.osm puts Crimea in Russia's) while outlining it as the winner's
// subdivisions (UA-43, UA-40): those outlines become the winner's land, so the policy's answer
// holds. Only where the winner has no land at the dispute's point; reported.

import { interiorPoint, partContains } from '../index/clip.js';
import type { CodeTables } from '../sources/code-tables.js';
import type { Feature } from '../sources/geojson.js';
import { type Part, toParts } from '../sources/parts.js';
import type { Policy } from './policy.js';

export interface DisputeLand {
  area: string;
  winner: string;
  /** The subdivision codes (as the extract tags them) whose outlines became the winner's land. */
  from: string[];
}

/**
 * For each dispute whose point no winner part holds but a loser part does: the winner's
 * subdivision outlines (by their code's alpha-2) lying inside that loser part, as winner land parts.
 */
export function disputeLandFromSubdivisions(
  policy: Policy,
  landParts: Part[],
  subdivisions: Feature[],
  tables: CodeTables,
  where: string,
): { parts: Part[]; log: DisputeLand[] } {
  const parts: Part[] = [];
  const log: DisputeLand[] = [];
  for (const d of policy.disputes ?? []) {
    const [x, y] = d.at;
    const [winner, loser] = [tables.countryIndex.get(d.winner), tables.countryIndex.get(d.over)];
    const holds = (c: number | undefined) => landParts.find((p) => p.country === c && partContains(p.rings, x, y));
    const lost = holds(loser);
    if (winner === undefined || holds(winner) || !lost) continue;
    const a2 = tables.countries[winner].alpha2;
    const own: Part[] = [];
    const from: string[] = [];
    for (const f of subdivisions) {
      const code = String(f.properties?.iso2 ?? '');
      if (!code.startsWith(`${a2}-`)) continue;
      const candidates = toParts(f, 'country', winner, -1, `${where} ${code}`);
      const inside = candidates.filter((p) => {
        const [px, py] = interiorPoint(p.rings, p.bbox);
        return partContains(lost.rings, px, py);
      });
      if (inside.length === 0) continue;
      own.push(...inside);
      from.push(code);
    }
    if (!own.some((p) => partContains(p.rings, x, y))) continue;
    tables.countries[winner].covered = true;
    parts.push(...own);
    log.push({ area: d.area, winner: d.winner, from: from.sort() });
  }
  return { parts, log };
}
