// The border lines as the borders file stores them (packages/borders/docs/FORMAT.md):
// simplified within SIMPLIFY_M (only the vertices left on a near-straight line by the cell cuts
// go), rounded to the file's unit, long edges split so that the local frame's straight edge
// follows the straight lon/lat edge, then cut into chunks of CHUNK_VERTICES, each a Flatbush item.

import Flatbush from 'flatbush';
import simplify from 'simplify-js';
import { CHUNK_VERTICES, MAX_EDGE_DEGREES, UNITS_PER_DEGREE } from '../src/layout.js';
import { float32Above, float32Below } from 'geolookup/extend';
import type { BorderLine } from './extract.js';

/** Douglas-Peucker tolerance in metres (as degrees of latitude, so never more metres east-west). */
export const SIMPLIFY_M = 0.1;
const METRES_PER_DEGREE_LAT = 111_320;

export interface EncodedLines {
  flatbush: Uint8Array;
  origins: Int32Array;
  starts: Uint32Array;
  sides: Uint16Array;
  stream: Uint8Array;
  lines: number;
  vertices: number;
}

/** A growable byte buffer for the varint stream. */
class Bytes {
  buf = new Uint8Array(1 << 20);
  length = 0;
  push(b: number): void {
    if (this.length === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.length++] = b;
  }
  varint(v: number): void {
    let z = v >= 0 ? 2 * v : -2 * v - 1;
    // The reader decodes at most two bytes (layout.ts, MAX_EDGE_DEGREES).
    if (z >= 1 << 14) throw new Error(`borders: a delta of ${v} units, longer than an edge may be`);
    while (z >= 0x80) {
      this.push((z % 0x80) | 0x80);
      z = Math.floor(z / 0x80);
    }
    this.push(z);
  }
}

/** A line's vertices in units, simplified, without repeats, long edges split. */
export function lineUnits(coords: Float64Array): number[] {
  const pts: { x: number; y: number }[] = [];
  for (let i = 0; i < coords.length; i += 2) pts.push({ x: coords[i], y: coords[i + 1] });
  const kept = pts.length > 2 ? simplify(pts, SIMPLIFY_M / METRES_PER_DEGREE_LAT, true) : pts;
  const out: number[] = [];
  const maxEdge = MAX_EDGE_DEGREES * UNITS_PER_DEGREE;
  for (const p of kept) {
    const x = Math.round(p.x * UNITS_PER_DEGREE);
    const y = Math.round(p.y * UNITS_PER_DEGREE);
    const n = out.length;
    if (n > 0) {
      const px = out[n - 2];
      const py = out[n - 1];
      if (px === x && py === y) continue;
      const pieces = Math.ceil(Math.max(Math.abs(x - px), Math.abs(y - py)) / maxEdge);
      for (let k = 1; k < pieces; k++)
        out.push(Math.round(px + ((x - px) * k) / pieces), Math.round(py + ((y - py) * k) / pieces));
    }
    out.push(x, y);
  }
  return out;
}

export function encodeLines(lines: Iterable<BorderLine>): EncodedLines {
  const origins: number[] = [];
  const starts: number[] = [0];
  const sides: number[] = [];
  const boxes: number[] = [];
  const stream = new Bytes();
  let count = 0;
  let vertices = 0;
  for (const line of lines) {
    count++;
    const u = lineUnits(line.coords);
    const n = u.length >> 1;
    vertices += n;
    // Chunks share their end vertices; a line that rounds to one point is a chunk of one vertex.
    for (let first = 0; first === 0 || first < n - 1; first += CHUNK_VERTICES - 1) {
      const last = Math.min(n - 1, first + CHUNK_VERTICES - 1);
      let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
      for (let i = first; i <= last; i++) {
        x0 = Math.min(x0, u[2 * i]);
        x1 = Math.max(x1, u[2 * i]);
        y0 = Math.min(y0, u[2 * i + 1]);
        y1 = Math.max(y1, u[2 * i + 1]);
        if (i > first) {
          stream.varint(u[2 * i] - u[2 * i - 2]);
          stream.varint(u[2 * i + 1] - u[2 * i - 1]);
        }
      }
      origins.push(u[2 * first], u[2 * first + 1]);
      starts.push(stream.length);
      sides.push(line.left, line.right);
      boxes.push(x0 / UNITS_PER_DEGREE, y0 / UNITS_PER_DEGREE, x1 / UNITS_PER_DEGREE, y1 / UNITS_PER_DEGREE);
    }
  }
  const chunks = sides.length / 2;
  const fb = new Flatbush(Math.max(1, chunks), 16, Float32Array);
  for (let c = 0; c < chunks; c++)
    fb.add(
      float32Below(boxes[4 * c]),
      float32Below(boxes[4 * c + 1]),
      float32Above(boxes[4 * c + 2]),
      float32Above(boxes[4 * c + 3]),
    );
  if (chunks === 0) fb.add(0, 0, 0, 0);
  fb.finish();
  return {
    flatbush: new Uint8Array(fb.data as ArrayBuffer),
    origins: Int32Array.from(origins),
    starts: Uint32Array.from(starts),
    sides: Uint16Array.from(sides),
    stream: stream.buf.slice(0, stream.length),
    lines: count,
    vertices,
  };
}
