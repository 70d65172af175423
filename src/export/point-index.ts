// Exact ids for points (x, y) in one open-addressing hash over the doubles' bits: the dissolve's
// vertex lookups, without building a string per point (which cost most of its time).

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

function hashOf(x: number, y: number): number {
  bits[0] = x;
  let h = Math.imul(words[0] ^ Math.imul(words[1], 0x27d4eb2d), 0x9e3779b1);
  bits[0] = y;
  h = Math.imul(h ^ words[0], 0x85ebca6b) ^ Math.imul(words[1], 0xc2b2ae35);
  return (h ^ (h >>> 15)) >>> 0;
}

export class PointIndex {
  /** Coordinates of point id i at [2i], [2i + 1]. */
  xy: Float64Array;
  size = 0;
  private slots: Int32Array;

  constructor(expected = 64) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.slots = new Int32Array(cap).fill(-1);
    this.xy = new Float64Array(Math.max(8, expected * 2));
  }

  /** The id of (x, y), added if new. */
  idOf(x: number, y: number): number {
    const mask = this.slots.length - 1;
    let s = hashOf(x, y) & mask;
    for (;;) {
      const id = this.slots[s];
      if (id < 0) break;
      if (this.xy[2 * id] === x && this.xy[2 * id + 1] === y) return id;
      s = (s + 1) & mask;
    }
    const id = this.size++;
    if (2 * this.size > this.xy.length) {
      const grown = new Float64Array(this.xy.length * 2);
      grown.set(this.xy);
      this.xy = grown;
    }
    this.xy[2 * id] = x;
    this.xy[2 * id + 1] = y;
    this.slots[s] = id;
    if (2 * this.size > this.slots.length) this.rehash();
    return id;
  }

  /** The id of (x, y), or -1 when it was never added. */
  find(x: number, y: number): number {
    const mask = this.slots.length - 1;
    for (let s = hashOf(x, y) & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s];
      if (id < 0) return -1;
      if (this.xy[2 * id] === x && this.xy[2 * id + 1] === y) return id;
    }
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let s = hashOf(this.xy[2 * id], this.xy[2 * id + 1]) & mask;
      while (slots[s] >= 0) s = (s + 1) & mask;
      slots[s] = id;
    }
    this.slots = slots;
  }
}
