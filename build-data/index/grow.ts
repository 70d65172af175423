// Append-only typed arrays for the index writer.

type TypedCtor<T> = { new (n: number): T };

export class Grow<T extends Uint32Array | Uint16Array | Uint8Array> {
  data: T;
  length = 0;
  constructor(
    private Ctor: TypedCtor<T>,
    initial = 1 << 16,
  ) {
    this.data = new Ctor(initial);
  }
  reserve(n: number): number {
    const at = this.length;
    if (at + n > this.data.length) {
      let size = this.data.length * 2;
      while (size < at + n) size *= 2;
      const next = new this.Ctor(size);
      next.set(this.data);
      this.data = next;
    }
    this.length += n;
    return at;
  }
  push(v: number): number {
    const at = this.reserve(1);
    this.data[at] = v;
    return at;
  }
  result(): T {
    return this.data.slice(0, this.length) as T;
  }
}
