// What every dist-data file's payload shares: sections behind a table of (offset, length) pairs,
// each 8-byte aligned so a reader can lay typed arrays over them (docs/FORMAT.md), and box
// coordinates rounded outwards to float32 for Flatbush indexes.

const align8 = (n: number) => (n + 7) & ~7;

export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** The payload: section count, a reserved word, (offset, length) per section, then the sections. */
export function packSections(sections: readonly Uint8Array[]): Uint8Array {
  let size = align8(8 + sections.length * 8);
  const offsets: number[] = [];
  for (const s of sections) {
    offsets.push(size);
    size = align8(size + s.byteLength);
  }
  const payload = new Uint8Array(size);
  const dv = new DataView(payload.buffer);
  dv.setUint32(0, sections.length, true);
  sections.forEach((s, i) => {
    dv.setUint32(8 + i * 8, offsets[i], true);
    dv.setUint32(12 + i * 8, s.byteLength, true);
    payload.set(s, offsets[i]);
  });
  return payload;
}

const f32 = new Float32Array(1);
const f32bits = new Int32Array(f32.buffer);

/** The largest float32 at most v (v finite, within float32 range). */
export function float32Below(v: number): number {
  f32[0] = v;
  if (f32[0] <= v) return f32[0];
  if (f32[0] > 0) f32bits[0]--;
  else if (f32[0] < 0) f32bits[0]++;
  else f32[0] = -1.401298464324817e-45;
  return f32[0];
}

/** The smallest float32 at least v. */
export function float32Above(v: number): number {
  return -float32Below(-v);
}
