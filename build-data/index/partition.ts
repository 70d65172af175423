// Pieces: parts clipped to the window of the cell being resolved, and how a cell hands its pieces
// to its children.

import { METRES_PER_DEGREE, VERTEX_BOUND_M } from '../../src/format/layout.js';
import { childCell } from '../../src/format/leaves.js';
import type { Part } from '../sources/parts.js';
import { type Box, clipPart, partArea, type Ring } from './clip.js';

export interface Piece {
  part: Part;
  /** Rings clipped to the current window; empty when the part covers the window. */
  rings: Ring[];
  full: boolean;
}

const AREA_EPS = 1e-11;

/**
 * The antimeridian is no boundary, but sources split polygons there, so a point on x = ±180 would
 * sit on a ring edge and quantise outside. Vertices on ±180 move outward, past every valid
 * longitude and past the records' rounding: 1e-5° where rounding stays within VERTEX_BOUND_M,
 * twice the bound where it is coarser (the lite build); the canonical features keep the source
 * coordinates. Guarded by test/data/lite.test.ts (Fiji's sea at -179.9996).
 */
function antimeridianPush(vertexBoundM: number): number {
  return vertexBoundM <= VERTEX_BOUND_M ? 1e-5 : (2 * vertexBoundM) / METRES_PER_DEGREE;
}

function openAntimeridian(r: Ring, push: number): Ring {
  let out: Ring | null = null;
  for (let i = 0; i < r.length; i += 2) {
    const x = r[i];
    if (x !== 180 && x !== -180) continue;
    out ??= Float64Array.from(r);
    out[i] = x + Math.sign(x) * push;
  }
  return out ?? r;
}

/** Parts as the world cell's pieces, their rings opened at the antimeridian. */
export function wholePieces(parts: Part[], vertexBoundM: number): Piece[] {
  const push = antimeridianPush(vertexBoundM);
  return parts.map((p) => ({ part: p, rings: p.rings.map((r) => openAntimeridian(r, push)), full: false }));
}

export function countVertices(pieces: Piece[]): number {
  let n = 0;
  for (const p of pieces) for (const r of p.rings) n += r.length >> 1;
  return n;
}

/** The cell grown by `margin` (a fraction of its side) on every side: the window its records cover. */
export function expand(cell: Box, margin: number): Box {
  const mx = (cell.x1 - cell.x0) * margin;
  const my = (cell.y1 - cell.y0) * margin;
  return { x0: cell.x0 - mx, y0: cell.y0 - my, x1: cell.x1 + mx, y1: cell.y1 + my };
}

/** Clips pieces to a window and drops those that leave nothing. */
function clipPieces(pieces: Piece[], window: Box): Piece[] {
  const out: Piece[] = [];
  const area = (window.x1 - window.x0) * (window.y1 - window.y0);
  for (const p of pieces) {
    if (p.full) {
      out.push(p);
      continue;
    }
    const rings = clipPart(p.rings, window);
    if (!rings) continue;
    const a = partArea(rings);
    if (a <= area * AREA_EPS) continue;
    if (a >= area * (1 - AREA_EPS)) out.push({ part: p.part, rings: [], full: true });
    else out.push({ part: p.part, rings, full: false });
  }
  return out;
}

/**
 * Splits pieces over an nx × ny grid of child cells by recursive halving, so a long ring is
 * clipped O(log n) times instead of once per child. Each child gets its pieces clipped to its
 * window (cell plus margin) and classified.
 */
export function partition(pieces: Piece[], cell: Box, nx: number, ny: number, margin: number): Piece[][] {
  const out: Piece[][] = Array.from({ length: nx * ny }, () => []);
  const mx = ((cell.x1 - cell.x0) / nx) * margin;
  const my = ((cell.y1 - cell.y0) / ny) * margin;
  const rangeWindow = (i0: number, i1: number, j0: number, j1: number): Box => {
    const a = childCell(cell, nx, ny, i0, j0);
    const b = childCell(cell, nx, ny, i1, j1);
    return { x0: a.x0 - mx, y0: a.y0 - my, x1: b.x1 + mx, y1: b.y1 + my };
  };
  const rec = (pcs: Piece[], i0: number, i1: number, j0: number, j1: number): void => {
    if (pcs.length === 0) return;
    if (i0 === i1 && j0 === j1) {
      out[j0 * nx + i0] = clipPieces(pcs, rangeWindow(i0, i0, j0, j0));
      return;
    }
    const alongX = i1 - i0 >= j1 - j0;
    const mid = alongX ? (i0 + i1) >> 1 : (j0 + j1) >> 1;
    const halves = alongX
      ? [
          [i0, mid, j0, j1],
          [mid + 1, i1, j0, j1],
        ]
      : [
          [i0, i1, j0, mid],
          [i0, i1, mid + 1, j1],
        ];
    for (const [a0, a1, b0, b1] of halves) {
      const win = rangeWindow(a0, a1, b0, b1);
      const sub: Piece[] = [];
      for (const p of pcs) {
        if (p.full) sub.push(p);
        else {
          const rings = clipPart(p.rings, win);
          if (rings) sub.push({ part: p.part, rings, full: false });
        }
      }
      rec(sub, a0, a1, b0, b1);
    }
  };
  rec(pieces, 0, nx - 1, 0, ny - 1);
  return out;
}
