// policy disputes: where two countries' polygons overlap in a disputed area, the policy names the
// winner, and the winner answers throughout the overlap.

import { partContains } from '../index/clip.js';
import type { Part } from '../sources/parts.js';
import type { Policy } from './policy.js';
import { assignRanks } from './ranking.js';

/**
 * In each layer, the loser's part holding the dispute's point is ranked just after the winner's
 * part holding it; then all layers are renumbered together. A land layer missing either part fails
 * when `strict`, else the dispute is returned as not applied (an OSM extract, sources/osm-extract.ts).
 */
export function applyDisputes(
  layers: Part[][],
  policy: Policy,
  countryIndex: Map<string, number>,
  strict = true,
): string[] {
  const notApplied: string[] = [];
  for (const d of policy.disputes ?? []) {
    const [x, y] = d.at;
    layers.forEach((parts, layer) => {
      const holding = (code: string) =>
        parts.find((q) => q.country === countryIndex.get(code) && partContains(q.rings, x, y));
      const winner = holding(d.winner);
      const loser = holding(d.over);
      if (layer === 0 && (!winner || !loser)) {
        const why = `policy.json dispute "${d.area}": no land part of ${winner ? d.over : d.winner} holds [${x}, ${y}]`;
        if (strict) throw new Error(why);
        notApplied.push(
          `${why}; ${winner ? `${d.winner} answers there` : loser ? `${d.over} answers there` : 'neither answers'}`,
        );
      }
      if (winner && loser && loser.rank < winner.rank) loser.rank = winner.rank + 0.5;
    });
  }
  assignRanks(layers.flat(), (a, b) => a.rank - b.rank);
  return notApplied;
}
