// Leaf records (layout.ts): a header, the item list (entry, ring count, ring offsets and lengths),
// then every vertex quantised to the window as one Uint32 (x in the low half).

import { QUANT_MAX, TABLE_WORDS } from '../../src/format/layout.js';
import type { Box, Ring } from './clip.js';
import type { Piece } from './partition.js';

/** One record item: the entry a point inside its rings answers, and the rings, quantised. */
export type RecordItem = [entry: number, rings: number[][]];

/** The ring in window units, rounded and clamped; null when fewer than three distinct vertices are left. */
function quantiseRing(r: Ring, win: Box): number[] | null {
  const sx = QUANT_MAX / (win.x1 - win.x0);
  const sy = QUANT_MAX / (win.y1 - win.y0);
  const out: number[] = [];
  const n = r.length >> 1;
  for (let i = 0; i < n; i++) {
    const qx = Math.min(QUANT_MAX, Math.max(0, Math.round((r[2 * i] - win.x0) * sx)));
    const qy = Math.min(QUANT_MAX, Math.max(0, Math.round((r[2 * i + 1] - win.y0) * sy)));
    const m = out.length;
    if (m >= 2 && out[m - 2] === qx && out[m - 1] === qy) continue;
    out.push(qx, qy);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return out.length >= 6 ? out : null;
}

/** The pieces as record items, in order; a piece no ring of which survives quantisation is left out. */
export function quantiseItems(pieces: Piece[], entryOf: (p: Piece) => number, win: Box): RecordItem[] {
  const items: RecordItem[] = [];
  for (const p of pieces) {
    const rings = p.rings.map((r) => quantiseRing(r, win)).filter((r): r is number[] => r !== null);
    if (rings.length) items.push([entryOf(p), rings]);
  }
  return items;
}

function headerSize(items: RecordItem[]): number {
  let n = 3;
  for (const [, rings] of items) n += 2 + 2 * rings.length;
  return n;
}

/** Words the record takes, its default table aside. */
export function recordSize(items: RecordItem[]): number {
  let n = headerSize(items);
  for (const [, rings] of items) for (const r of rings) n += r.length >> 1;
  return n;
}

/**
 * Writes a record at `at` (recordSize words reserved); `country` is set for a country's subdivision
 * record, -1 otherwise. Vertices follow the item list, so the ring test reads memory the header
 * read has just brought in. Returns the vertex words written.
 */
export function writeRecord(
  data: Uint32Array,
  defaultEntry: number,
  items: RecordItem[],
  at: number,
  country: number,
): number {
  data[at] = items.length;
  data[at + 1] = defaultEntry;
  data[at + 2] = country + 1;
  let p = at + 3;
  let v = at + headerSize(items);
  for (const [entry, rings] of items) {
    data[p] = entry;
    data[p + 1] = rings.length;
    p += 2;
    for (const ring of rings) {
      data[p] = v;
      data[p + 1] = ring.length >> 1;
      p += 2;
      for (let i = 0; i < ring.length; i += 2) data[v++] = (ring[i] | (ring[i + 1] << 16)) >>> 0;
    }
  }
  return v - p;
}

/** Writes a default table (region ids, two per word, low half first) at `at`: TABLE_WORDS words. */
export function writeTable(data: Uint32Array, at: number, table: number[]): void {
  for (let k = 0; k < TABLE_WORDS; k++) data[at + k] = (table[2 * k] | (table[2 * k + 1] << 16)) >>> 0;
}
