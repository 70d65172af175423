// The checksum summed in place by WebAssembly SIMD (src/format/checksum-simd.ts) must equal the
// JS loop bit for bit: the same lanes for every length and alignment, the test vectors of
// docs/FORMAT.md, and a damaged file read from disk still refused.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { simdBytes, sumLanesInPlace, WASM_HEX, WAT } from '../../src/format/checksum-simd.js';
import { checksum32, HEADER_BYTES } from '../../src/format/container.js';
import { createGeoLookup, DataError } from '../../src/index.js';
import { readFile } from '../../src/node/data-path.js';
import { fixturePath, scratchPath } from '../fixtures/datasets.js';
import { prng } from '../support/sample-points.js';

/** The same bytes in an ordinary buffer and in memory the SIMD sum reads in place. */
function both(bytes: Uint8Array): [Uint8Array, Uint8Array] {
  const simd = simdBytes(bytes.length);
  if (!simd) throw new Error('no WebAssembly SIMD on this host');
  simd.set(bytes);
  return [bytes, simd];
}

describe('checksum32 in WebAssembly memory', () => {
  it('the embedded module is the assembled WAT', async () => {
    const wabt = await wabtInit();
    const { buffer } = wabt.parseWat('sum.wat', WAT).toBinary({});
    expect(Buffer.from(buffer).toString('hex')).toBe(WASM_HEX);
  });
  it('sums in place on this host (Node on x64 and arm64 has SIMD)', () => {
    const lanes = new Int32Array(8);
    expect(sumLanesInPlace(simdBytes(64) as Uint8Array, 16, lanes)).toBe(true);
    expect(sumLanesInPlace(new Uint8Array(64), 16, lanes)).toBe(false);
  });
  it('gives the test vectors of docs/FORMAT.md', () => {
    const vectors: [Uint8Array, number][] = [
      [new Uint8Array(0), 0x9e3779b1],
      [new TextEncoder().encode('a'), 0x2d2a24a2],
      [new TextEncoder().encode('abcde'), 0x872f98a0],
      [Uint8Array.from({ length: 23 }, (_, i) => i), 0xfa5c6a39],
    ];
    for (const [bytes, sum] of vectors) for (const b of both(bytes)) expect(checksum32(b)).toBe(sum);
  });
  it('equals the JS loop for every length up to 80 bytes, at every alignment, and over 1 MB', () => {
    const r = prng(11);
    const random = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
    for (let n = 0; n <= 80; n++) {
      const [plain, simd] = both(random(n + 3));
      for (const at of [0, 1, 2, 3])
        expect(checksum32(simd.subarray(at, at + n))).toBe(checksum32(plain.subarray(at, at + n)));
    }
    const [plain, simd] = both(random((1 << 20) + 7));
    expect(checksum32(simd)).toBe(checksum32(plain));
  });
  it('reads a dataset file into that memory, and a flipped byte in it is still refused', () => {
    const path = fixturePath('iso');
    const bytes = readFile(path);
    const plain = readFileSync(path);
    expect(sumLanesInPlace(bytes, 0, new Int32Array(8))).toBe(true);
    expect(checksum32(bytes.subarray(HEADER_BYTES))).toBe(checksum32(plain.subarray(HEADER_BYTES)));
    const damaged = Uint8Array.from(plain);
    damaged[damaged.length >> 1] ^= 0x10;
    const scratch = scratchPath('simd-flipped.geolookup');
    writeFileSync(scratch, damaged);
    expect(() => createGeoLookup(scratch)).toThrow(DataError);
    expect(() => createGeoLookup(scratch)).toThrow(/checksum mismatch/);
  });
  it('a pipe, which has no size to read into, loads as before', () => {
    const path = fixturePath('iso');
    const script = `const { createGeoLookup } = await import('./src/index.ts');
      console.log(createGeoLookup(process.argv[1]).tryCountryFromGps(0, 0) ?? 'none');`;
    // bash's process substitution hands node a pipe by path (/dev/fd/N).
    const r = spawnSync('bash', ['-c', `"$NODE" --import tsx --input-type=module -e "$SCRIPT" <(cat "$FILE")`], {
      env: { ...process.env, NODE: process.execPath, SCRIPT: script, FILE: path },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(createGeoLookup(path).tryCountryFromGps(0, 0) ?? 'none');
  });
  it('without WebAssembly (node --jitless) a file loads through the JS loop, same answers, damage refused', () => {
    const path = fixturePath('iso');
    const sphere = Array.from({ length: 2000 }, (_, i) => [((i * 37) % 179) - 89.5, ((i * 53) % 359) - 179.5]);
    const script = `
      const { createGeoLookup } = await import('./src/index.ts');
      const points = ${JSON.stringify(sphere)};
      const lookup = createGeoLookup(${JSON.stringify(path)});
      const answers = points.map(([lat, lon]) => lookup.tryCountryFromGps(lat, lon));
      let refused = '';
      try { createGeoLookup(process.argv[1]); } catch (e) { refused = e.name + ': ' + e.message; }
      console.log(JSON.stringify({ wasm: typeof WebAssembly, answers, refused }));`;
    const damaged = Uint8Array.from(readFileSync(path));
    damaged[damaged.length >> 1] ^= 0x10;
    const scratch = scratchPath('jitless-flipped.geolookup');
    writeFileSync(scratch, damaged);
    const r = spawnSync(
      process.execPath,
      ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script, scratch],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.wasm).toBe('undefined');
    const lookup = createGeoLookup(path);
    expect(out.answers).toEqual(sphere.map(([lat, lon]) => lookup.tryCountryFromGps(lat, lon)));
    expect(out.answers.some((a: string | null) => a !== null)).toBe(true);
    expect(out.refused).toMatch(/^DataError: .*checksum mismatch/);
  });
});
