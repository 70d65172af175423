// The checksum's lane sums in WebAssembly SIMD, run in place over a file read into a
// WebAssembly.Memory (src/node/data-path.ts): one i32x4.add per four words is exactly one step of
// the four lanes (docs/FORMAT.md, Checksum), a few times faster than the JS loop at start-up
// (docs/PERFORMANCE.md). Where WebAssembly or its SIMD is missing, callers keep the JS loop.

/** The module's source; WASM_HEX is its binary (test/unit/checksum-simd.test.ts assembles one into the other). */
export const WAT = `(module
  (import "env" "memory" (memory 1))
  (func (export "sum") (param $p i32) (param $end i32) (param $lanes i32)
    (local $a v128) (local $b v128)
    (local.set $a (v128.load (local.get $lanes)))
    (local.set $b (v128.load offset=16 (local.get $lanes)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $a (i32x4.add (local.get $a) (v128.load align=1 (local.get $p))))
        (local.set $b (i32x4.add (local.get $b) (local.get $a)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    (v128.store (local.get $lanes) (local.get $a))
    (v128.store offset=16 (local.get $lanes) (local.get $b))))`;

export const WASM_HEX =
  '0061736d0100000001070160037f7f7f00020f0103656e76066d656d6f727902' +
  '0001030201000707010373756d00000a52015001027b2002fd00040021032002' +
  'fd000410210402400340200020014f0d0120032000fd000000fdae0121032004' +
  '2003fdae012104200041106a21000c000b0b20022003fd0b040020022004fd0b' +
  '04100b';

const PAGE = 65536;
const LANE_BYTES = 32;

type Sum = (from: number, to: number, lanes: number) => void;
/** Memories made by simdBytes: their summing function and where its 32 bytes of lanes live. */
const summers = new WeakMap<ArrayBufferLike, { sum: Sum; lanesAt: number }>();
let module: WebAssembly.Module | null | undefined;

function compiled(): WebAssembly.Module | null {
  if (module !== undefined) return module;
  try {
    const bytes = new Uint8Array(WASM_HEX.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(WASM_HEX.slice(2 * i, 2 * i + 2), 16);
    module = new WebAssembly.Module(bytes);
  } catch {
    module = null; // no WebAssembly (--jitless), no SIMD on this CPU, or code generation disallowed
  }
  return module;
}

/** `size` zeroed bytes the checksum can sum in place, or null where WebAssembly SIMD is unavailable. */
export function simdBytes(size: number): Uint8Array | null {
  const wasm = compiled();
  if (!wasm) return null;
  try {
    const pages = Math.ceil((size + 15 + LANE_BYTES) / PAGE);
    const memory = new WebAssembly.Memory({ initial: pages });
    const instance = new WebAssembly.Instance(wasm, { env: { memory } });
    summers.set(memory.buffer, { sum: instance.exports.sum as Sum, lanesAt: pages * PAGE - LANE_BYTES });
    return new Uint8Array(memory.buffer, 0, size);
  } catch {
    return null; // address space refused (ulimit -v): the caller reads into an ordinary buffer
  }
}

/**
 * Adds the first `words` 32-bit words of `bytes` (a multiple of 4) into `lanes` ([a0..a3, b0..b3])
 * when `bytes` lies in memory made by simdBytes; false, with `lanes` untouched, otherwise.
 */
export function sumLanesInPlace(bytes: Uint8Array, words: number, lanes: Int32Array): boolean {
  const summer = summers.get(bytes.buffer);
  if (!summer) return false;
  const scratch = new Int32Array(bytes.buffer, summer.lanesAt, 8);
  scratch.set(lanes);
  summer.sum(bytes.byteOffset, bytes.byteOffset + words * 4, summer.lanesAt);
  lanes.set(scratch);
  return true;
}
