// The OSM source repeats a territory's polygons inside its sovereign's feature (French Polynesia
// in FRA, Åland in FIN, Taiwan in CHN, Crimea in both RUS and UKR). Of identical parts, the
// country with the least land keeps it: the territory with its own ISO 3166-1 code.

import type { CountryInfo } from '../../src/format/dataset.js';
import type { Part } from '../sources/parts.js';

export interface DuplicateLog {
  kept: string;
  dropped: string;
  parts: number;
}

/** Removes, in place, every copy of a part that another country with less land also holds. */
export function dropDuplicateParts(parts: Part[], countries: CountryInfo[]): DuplicateLog[] {
  const total = new Map<number, number>();
  for (const p of parts) total.set(p.country, (total.get(p.country) ?? 0) + p.area);
  const key = (p: Part) => [p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1, p.area].map((v) => v.toPrecision(12)).join(',');
  const groups = new Map<string, Part[]>();
  for (const p of parts) groups.set(key(p), [...(groups.get(key(p)) ?? []), p]);
  const drop = new Set<Part>();
  const log = new Map<string, DuplicateLog>();
  for (const g of groups.values()) {
    if (new Set(g.map((p) => p.country)).size < 2) continue;
    const keeper = g.reduce((a, b) => (total.get(b.country)! < total.get(a.country)! ? b : a));
    for (const p of g) {
      if (p.country === keeper.country) continue;
      drop.add(p);
      const k = `${countries[keeper.country].code}<${countries[p.country].code}`;
      const e = log.get(k) ?? { kept: countries[keeper.country].code, dropped: countries[p.country].code, parts: 0 };
      e.parts++;
      log.set(k, e);
    }
  }
  const keep = parts.filter((p) => !drop.has(p));
  parts.length = 0;
  parts.push(...keep);
  return [...log.values()].sort((a, b) => (a.kept + a.dropped < b.kept + b.dropped ? -1 : 1));
}
