// The depth-1 level in its compact form (layout.ts): blocks hung from the grid keep no entry per
// child. A child is a byte in blockregion8 (a region near the block's base, a record slot, no
// country, or the index of a "wide" entry); only wide children (a child block, a region far from
// the base, a record without a slot) keep an entry, with its country byte, at the front of
// `blocks`. Deeper blocks follow, unchanged but for their offsets.

import {
  BR8_NO_COUNTRY,
  BR8_SLOT,
  BR8_SLOTS,
  BR8_SPAN,
  DEPTH1_BASE_WORDS,
  TAG_BLOCK,
  TAG_SHIFT,
  VALUE_MASK,
} from '../../src/format/layout.js';
import type { BuiltIndex } from './build-index.js';

export interface Depth1Tables {
  /** The grid with each block entry naming its depth-1 block's number instead of an offset. */
  grid: Uint32Array;
  /** Wide entries of the depth-1 blocks, then the deeper blocks. */
  blocks: Uint32Array;
  blockCountry: Uint8Array;
  /** Per depth-1 block: slot base, region base, wide base, slot count. */
  depth1Bases: Uint32Array;
  /** Per depth-1 child (block number · fanout² + child). */
  blockRegion8: Uint8Array;
}

/** `slotOf`: per entry of the built blocks, the child's slot number within its block, -1 for none (slots.ts). */
export function depth1Tables(index: BuiltIndex, fanout: number, slotOf: Int8Array): Depth1Tables {
  const { blocks, blockCountry } = index;
  const children = fanout * fanout;
  if (children > BR8_SLOTS)
    throw new Error(`first fanout ${fanout}: at most 8, a depth-1 block's children are named by one byte`);
  const grid = index.grid.slice();
  const depth1 = new Uint8Array(blocks.length);
  const owners: number[] = [];
  for (let cell = 0; cell < grid.length; cell++) {
    if (grid[cell] >>> TAG_SHIFT !== TAG_BLOCK) continue;
    const off = grid[cell] & VALUE_MASK;
    depth1.fill(1, off, off + children);
    grid[cell] = ((TAG_BLOCK << TAG_SHIFT) | owners.length) >>> 0;
    owners.push(off);
  }
  const blockRegion8 = new Uint8Array(owners.length * children);
  const depth1Bases = new Uint32Array(owners.length * DEPTH1_BASE_WORDS);
  const wide: number[] = [];
  const wideCountry: number[] = [];
  let slotBase = 0;
  owners.forEach((off, d) => {
    const base = regionBase(blocks, off, children);
    let slots = 0;
    for (let k = 0; k < children; k++) if (slotOf[off + k] >= 0) slots++;
    depth1Bases.set([slotBase, base, wide.length, slots], d * DEPTH1_BASE_WORDS);
    slotBase += slots;
    let wides = 0;
    for (let k = 0; k < children; k++) {
      const e = blocks[off + k];
      const at = d * children + k;
      if (slotOf[off + k] >= 0) blockRegion8[at] = BR8_SLOT + slotOf[off + k];
      else if (e === 0) blockRegion8[at] = BR8_NO_COUNTRY;
      else if (e >>> TAG_SHIFT === 0 && e >= base && e < base + BR8_SPAN) blockRegion8[at] = e - base;
      else {
        blockRegion8[at] = BR8_SLOT + slots + wides++;
        wide.push(e);
        wideCountry.push(blockCountry[off + k]);
      }
    }
  });
  // Deeper blocks move down by the depth-1 entries before them and up by the wide entries.
  const moved = new Int32Array(blocks.length + 1);
  for (let i = 0; i < blocks.length; i++) moved[i + 1] = moved[i] + depth1[i];
  const relocate = (e: number) =>
    e >>> TAG_SHIFT === TAG_BLOCK
      ? ((TAG_BLOCK << TAG_SHIFT) | (wide.length + (e & VALUE_MASK) - moved[e & VALUE_MASK])) >>> 0
      : e;
  const kept = blocks.length - moved[blocks.length];
  const outBlocks = new Uint32Array(wide.length + kept);
  const outCountry = new Uint8Array(wide.length + kept);
  wide.forEach((e, i) => {
    outBlocks[i] = relocate(e);
    outCountry[i] = wideCountry[i];
  });
  for (let i = 0, j = wide.length; i < blocks.length; i++) {
    if (depth1[i]) continue;
    outBlocks[j] = relocate(blocks[i]);
    outCountry[j++] = blockCountry[i];
  }
  return { grid, blocks: outBlocks, blockCountry: outCountry, depth1Bases, blockRegion8 };
}

/**
 * The region base of a depth-1 block: the base whose span holds most of its region children (the
 * lowest such, so the build stays deterministic); the rest are wide.
 */
function regionBase(blocks: Uint32Array, off: number, children: number): number {
  const ids: number[] = [];
  for (let k = 0; k < children; k++)
    if (blocks[off + k] >>> TAG_SHIFT === 0 && blocks[off + k] > 0) ids.push(blocks[off + k]);
  ids.sort((a, b) => a - b);
  let base = 0;
  let most = 0;
  for (let i = 0, j = 0; i < ids.length; i++) {
    while (j < ids.length && ids[j] - ids[i] < BR8_SPAN) j++;
    if (j - i > most) [most, base] = [j - i, ids[i]];
  }
  return base;
}
