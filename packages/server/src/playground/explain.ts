// Why the lookup answers what it does at a point (the playground's "rule" line). Each rule says
// only what the dataset itself shows to be true at the point; where it cannot tell, it says
// nothing (docs/PLAYGROUND.md#the-rule-line lists what is never explained and why).

import { deFactoAreaAt, type GeoLookup } from 'geolookup';
import { type CodeTables, parentsOf } from './codes.js';

/** The rule that decided the answer at a point, in words; what GET /playground/explain returns. */
export interface Explanation {
  /** Short name of the rule, "dispute", "de facto", "enclave" or "no subdivision". */
  rule: string;
  /** One sentence on how the rule applies here. */
  detail: string;
}

/** The rule behind the answer at (lat, lon), or null when no special rule applies. */
export function explainPoint(lookup: GeoLookup, tables: CodeTables, lat: number, lon: number): Explanation | null {
  const country = lookup.tryCountryFromGps(lat, lon);
  if (country === null) return null;
  const subdivision = lookup.trySubdivisionFromGps(lat, lon);
  return (
    dispute(lookup, tables, country, subdivision) ??
    deFacto(lookup, lat, lon) ??
    enclave(lookup, country, lat, lon) ??
    noSubdivision(lookup, tables, country, subdivision)
  );
}

/**
 * A dispute the build's policy settled (meta.disputes) applies where the winner answers and the
 * subdivision is the one the dataset answers at the dispute's own point, or its ISO kin: the
 * dataset keeps no outline of the disputed area, so that subdivision stands for it.
 */
function dispute(
  lookup: GeoLookup,
  tables: CodeTables,
  country: string,
  subdivision: string | null,
): Explanation | null {
  if (subdivision === null) return null;
  for (const d of lookup.meta.disputes ?? []) {
    if (d.winner !== country) continue;
    const there = lookup.trySubdivisionFromGps(d.at[1], d.at[0]);
    if (there !== null && kin(tables, subdivision, there)) {
      return { rule: 'dispute', detail: `${d.area}: answered ${d.winner}, not ${d.over} — ${d.reason}` };
    }
  }
  return null;
}

/** A de facto area of the dataset's metadata (deFactoAreaAt): the area, the answer, who administers it, why. */
function deFacto(lookup: GeoLookup, lat: number, lon: number): Explanation | null {
  const a = deFactoAreaAt(lat, lon, lookup);
  if (a === null) return null;
  const near = a.where.withinKm !== undefined ? `near ${a.area} (within ${a.where.withinKm} km of it)` : a.area;
  return {
    rule: 'de facto',
    detail: `${near}: answered ${a.answer}, administered by ${a.administeredBy} — ${a.reason}`,
  };
}

/** Whether a and b are the same subdivision, or one is an ISO ancestor of the other. */
function kin({ codes }: CodeTables, a: string, b: string): boolean {
  return a === b || parentsOf(a, codes).includes(b) || parentsOf(b, codes).includes(a);
}

/** Half-widths (km) of the square windows searched, smallest first; 30 km is the widest enclave looked for. */
const WINDOW_KM = [1, 2, 4, 8, 16, 32];
/** Cells per window side: 16 m cells in the smallest window, 500 m in the widest. */
const CELLS = 128;
const KM_PER_DEGREE = 111.195;

/**
 * An enclave: the point's country X, flood-filled from the point over a grid of lookups, is closed
 * inside a window and touches one other country Y only. Touching no country (the sea, unclaimed
 * land) or a second country means X is not inside Y alone, in every larger window too.
 */
function enclave(lookup: GeoLookup, country: string, lat: number, lon: number): Explanation | null {
  // Grids near a pole are not squares in degrees; no country answers there anyway.
  if (Math.abs(lat) > 89) return null;
  const kmLon = KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const at = (dxKm: number, dyKm: number) => {
    let pLon = lon + dxKm / kmLon;
    if (pLon >= 180) pLon -= 360;
    else if (pLon < -180) pLon += 360;
    return lookup.tryCountryFromGps(Math.max(-90, Math.min(90, lat + dyKm / KM_PER_DEGREE)), pLon);
  };
  // Most points lie in a country that runs on for 30 km in a straight line: not an enclave, said cheaply.
  for (let b = 0; b < 8; b++) {
    const [dx, dy] = [Math.cos((b * Math.PI) / 4), Math.sin((b * Math.PI) / 4)];
    let km = 0.1;
    while (km <= WINDOW_KM[WINDOW_KM.length - 1] && at(dx * km, dy * km) === country) km += 0.1;
    if (km > WINDOW_KM[WINDOW_KM.length - 1]) return null;
  }
  for (const half of WINDOW_KM) {
    const y = fill(at, country, half);
    if (y === undefined) continue;
    return y === null ? null : enclaveOf(country, y);
  }
  return null;
}

/**
 * Flood fill (8-connected, so a diagonal X corridor still connects) from the window's centre over
 * cells answering `country`: the one other country around the closed region, null when it touches
 * none or two, undefined when the region reaches the window's edge.
 */
function fill(
  at: (dxKm: number, dyKm: number) => string | null,
  country: string,
  half: number,
): string | null | undefined {
  const h = CELLS / 2;
  const cell = half / h;
  const seen = new Uint8Array((CELLS + 1) * (CELLS + 1));
  const stack = [h * (CELLS + 1) + h];
  seen[stack[0]] = 1;
  let other: string | null = null;
  while (stack.length > 0) {
    const k = stack.pop() as number;
    const [i, j] = [Math.floor(k / (CELLS + 1)), k % (CELLS + 1)];
    for (let di = -1; di <= 1; di++) {
      for (let dj = -1; dj <= 1; dj++) {
        const [ni, nj] = [i + di, j + dj];
        if (ni < 0 || nj < 0 || ni > CELLS || nj > CELLS) return undefined;
        const nk = ni * (CELLS + 1) + nj;
        if (seen[nk]) continue;
        seen[nk] = 1;
        const c = at((nj - h) * cell, (ni - h) * cell);
        if (c === country) stack.push(nk);
        else if (c === null || (other !== null && c !== other)) return null;
        else other = c;
      }
    }
  }
  return other;
}

function enclaveOf(x: string, y: string): Explanation {
  return {
    rule: 'enclave',
    detail: `${x} territory surrounded by ${y} (as the dataset answers around it): where sources overlap, the smaller containing polygon wins (docs/POLICY.md#overlaps in the geolookup package)`,
  };
}

/**
 * No subdivision: the build gives a point of X that no subdivision outline holds the nearest
 * subdivision of X within meta.subdivisionGapKm, or X's own reach in subdivisionGapKmByCountry
 * (from the index cell's centre), so a country answer without one means that fill found none.
 * Not "territorial sea": the dataset cannot tell land from water, and such points include land
 * (in Kazakhstan, Greenland, Nepal…) and lakes.
 */
function noSubdivision(
  lookup: GeoLookup,
  tables: CodeTables,
  country: string,
  subdivision: string | null,
): Explanation | null {
  // heldIn lists a country's answerable subdivisions: empty when it has none covered.
  if (subdivision !== null || !tables.heldIn.get(country)?.length) return null;
  const gapKm = lookup.meta.subdivisionGapKmByCountry?.[country] ?? lookup.meta.subdivisionGapKm;
  return {
    rule: 'no subdivision',
    detail:
      `${country} answers here, but no subdivision of ${country} holds this point and none lies within the ${gapKm} km ` +
      'the nearest-subdivision fill reaches (measured from the index cell): open water, or land the subdivision sources leave out',
  };
}
