// Record slots (layout.ts): a lookup reaches a leaf record under a depth-1 block from its
// blockregion8 byte, and most points skip its edges. A sub-cell gets a region only where no record edge comes
// near it, read with the runtime's own record test at its centre: exact by construction (test/data/slots.test.ts).

import {
  ITEM_MASK,
  itemEntry,
  readArcs,
  SLOT_GRID,
  SLOT_MIXED,
  SUB_GRID,
  TABLE_GRID,
  TAG_BLOCK,
  TAG_RECORD,
  TAG_SHIFT,
  TAG_TABLE,
  tableEntry,
  VALUE_MASK,
} from '../../src/format/layout.js';
import { evalRecord } from '../../src/lookup/locate.js';
import type { BuiltIndex } from './build-index.js';

export interface SlotTables {
  slots: Uint32Array;
  subcodes: Uint16Array;
  subwords: Uint32Array;
  /** Per block entry, its slot's number within its depth-1 block, -1 for none (depth1.ts names them). */
  slotOf: Int8Array;
}

/** Quantised units a record edge must stay clear of a sub-cell by (float error is ~1e-11). */
const CLEARANCE = 1e-6;
const PALETTE = 3;

/** Slots for the record children of the depth-1 blocks, in grid order; none when the caller asks (a countries-only dataset: country lookups never read slots). */
export function slotTables(
  index: BuiltIndex,
  fanout: number,
  margin: number,
  quant: number,
  withSlots = true,
): SlotTables {
  const { grid, blocks, records } = index;
  const qscale = quant / (1 + 2 * margin);
  const slotOf = new Int8Array(blocks.length).fill(-1);
  const children = fanout * fanout;
  const out: number[] = [];
  const subcodes: number[] = [];
  const answers = new Int32Array(SLOT_GRID * SLOT_GRID);
  const subAnswers = new Int32Array(SUB_GRID * SUB_GRID);
  for (let cell = 0; withSlots && cell < grid.length; cell++) {
    if (grid[cell] >>> TAG_SHIFT !== TAG_BLOCK) continue;
    const off = grid[cell] & VALUE_MASK;
    let slot = 0;
    for (let k = 0; k < children; k++) {
      const e = blocks[off + k];
      if (e >>> TAG_SHIFT !== TAG_RECORD) continue;
      slotOf[off + k] = slot++;
      const arcs: number[][] = [];
      arcsIn(records, e & VALUE_MASK, quant, arcs);
      const at = (i: number, j: number, n: number) => answerIn(records, e, arcs, i, j, n, margin, qscale);
      for (let c = 0; c < answers.length; c++) answers[c] = at(c % SLOT_GRID, Math.floor(c / SLOT_GRID), SLOT_GRID);
      const words = packSlot(answers, e & VALUE_MASK);
      // Country lookups read the child's country byte here (layout.ts).
      words[1] = (words[1] | (index.blockCountry[off + k] << 16)) >>> 0;
      words[3] = subcodes.length;
      const palette = [words[0] & 0xffff, words[0] >>> 16, words[1]];
      for (let c = 0; c < answers.length; c++) {
        if (codeOf(words, c) !== SLOT_MIXED) continue;
        const i0 = (c % SLOT_GRID) * SUB_GRID;
        const j0 = Math.floor(c / SLOT_GRID) * SUB_GRID;
        for (let b = 0; b < subAnswers.length; b++)
          subAnswers[b] = at(i0 + (b % SUB_GRID), j0 + Math.floor(b / SUB_GRID), SLOT_GRID * SUB_GRID);
        subcodes.push(packCodes(subAnswers, palette));
      }
      out.push(...words);
    }
  }
  return { slots: Uint32Array.from(out), ...dictionary(subcodes), slotOf };
}

/**
 * The mixed sub-cells' code words as indexes into the distinct words, most used first (ties by
 * value, so the build is deterministic): a few thousand patterns repeat over a million sub-cells.
 */
function dictionary(words: number[]): { subcodes: Uint16Array; subwords: Uint32Array } {
  const uses = new Map<number, number>();
  for (const w of words) uses.set(w, (uses.get(w) ?? 0) + 1);
  const subwords = Uint32Array.from([...uses].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([w]) => w));
  if (subwords.length > 0x10000)
    throw new Error(`${subwords.length} distinct sub-cell code words: more than a Uint16 indexes`);
  const index = new Map(Array.from(subwords, (w, i) => [w, i]));
  return { subcodes: Uint16Array.from(words, (w) => index.get(w)!), subwords };
}

/**
 * The region at every point of the closed cell (i, j) of an n × n split of the record's child cell,
 * or -1 where an edge (of the record or one it leads to) comes near it: then its centre's answer,
 * read with the runtime's own record test, holds everywhere in it.
 */
function answerIn(
  records: Uint32Array,
  record: number,
  arcs: number[][],
  i: number,
  j: number,
  n: number,
  margin: number,
  qscale: number,
): number {
  const box = Float64Array.of(
    (i / n + margin) * qscale - CLEARANCE,
    (j / n + margin) * qscale - CLEARANCE,
    ((i + 1) / n + margin) * qscale + CLEARANCE,
    ((j + 1) / n + margin) * qscale + CLEARANCE,
  );
  if (arcs.some((arc) => touches(arc, box))) return -1;
  const centre = Float64Array.of(((i + 0.5) / n + margin) * qscale, ((j + 0.5) / n + margin) * qscale);
  let r = record;
  do r = evalRecord(records, r & VALUE_MASK, centre);
  while (r >>> TAG_SHIFT === TAG_RECORD);
  if (r >>> TAG_SHIFT !== TAG_TABLE) return r;
  // A default table: the answer holds over the sub-cell only if every table cell it meets agrees.
  let answer = -1;
  for (let tj = Math.floor((j * TABLE_GRID) / n); tj < Math.ceil(((j + 1) * TABLE_GRID) / n); tj++) {
    for (let ti = Math.floor((i * TABLE_GRID) / n); ti < Math.ceil(((i + 1) * TABLE_GRID) / n); ti++) {
      const v = tableEntry(records, r, tj * TABLE_GRID + ti);
      if (answer >= 0 && v !== answer) return -1;
      answer = v;
    }
  }
  return answer;
}

/** One slot's words: the (up to) three most frequent sub-cell regions as its palette, then the codes. */
function packSlot(answers: Int32Array, record: number): number[] {
  const count = new Map<number, number>();
  for (const a of answers) if (a >= 0) count.set(a, (count.get(a) ?? 0) + 1);
  // Most frequent first, ties by region id: the same input always packs the same way.
  const palette = [...count]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, PALETTE)
    .map(([r]) => r);
  while (palette.length < PALETTE) palette.push(0);
  const words = [palette[0] | (palette[1] << 16), palette[2], record, 0];
  for (let w = 0; w < answers.length; w += 16) words.push(packCodes(answers.subarray(w, w + 16), palette));
  return words.map((w) => w >>> 0);
}

/** Up to 16 answers as 2-bit codes from the low bits: the palette index, or SLOT_MIXED (-1 or not in it). */
function packCodes(answers: Int32Array, palette: number[]): number {
  let word = 0;
  for (let c = 0; c < answers.length; c++) {
    const p = answers[c] < 0 ? -1 : palette.indexOf(answers[c]);
    word |= (p < 0 ? SLOT_MIXED : p) << (c << 1);
  }
  return word >>> 0;
}

function codeOf(words: number[], c: number): number {
  return (words[4 + (c >>> 4)] >>> ((c & 15) << 1)) & 3;
}

/** The arcs (flat [x0, y0, x1, y1, …] in window units) of record r and of the records its entries lead to. */
function arcsIn(records: Uint32Array, r: number, quant: number, out: number[][]): void {
  const def = records[r + 1];
  if (def >>> TAG_SHIFT === TAG_RECORD) arcsIn(records, def & VALUE_MASK, quant, out);
  for (let i = 0; i < (records[r] & ITEM_MASK); i++) {
    const e = itemEntry(records, r, i);
    if (e >>> TAG_SHIFT === TAG_RECORD) arcsIn(records, e & VALUE_MASK, quant, out);
  }
  const first = out.length;
  readArcs(records, r, quant, (arc, _mask, x, y) => (out[first + arc] ??= []).push(x, y));
}

/** Whether any edge of the arc meets the closed box [x0, y0, x1, y1]. */
function touches(arc: number[], box: Float64Array): boolean {
  const [x0, y0, x1, y1] = box;
  for (let q = 2; q < arc.length; q += 2) {
    const ax = arc[q - 2],
      ay = arc[q - 1],
      bx = arc[q],
      by = arc[q + 1];
    if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
    // The box's corners all on one side of the edge's line: no contact.
    const dx = bx - ax,
      dy = by - ay;
    const s1 = Math.sign(dx * (y0 - ay) - dy * (x0 - ax));
    const s2 = Math.sign(dx * (y0 - ay) - dy * (x1 - ax));
    const s3 = Math.sign(dx * (y1 - ay) - dy * (x0 - ax));
    const s4 = Math.sign(dx * (y1 - ay) - dy * (x1 - ax));
    if (s1 !== 0 && s1 === s2 && s1 === s3 && s1 === s4) continue;
    return true;
  }
  return false;
}
