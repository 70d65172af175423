// Corrupted data files: seeded truncations, extensions and byte flips of every dist-data file
// the runtime reads. Each must fail to load with a DataError naming the file and the problem,
// or (a change outside checked content: the reserved header bytes) load and answer exactly as
// the intact file does on a sample of points. A second set flips bytes and then recomputes the
// checksum, so the structural checks behind it (section table, code tables, pointers) are what
// stands between the damage and a lookup: those must give a DataError or well-formed answers,
// never another exception; how many answer differently is counted (such a file is a different,
// validly sealed file, so a different answer is not a silent corruption).
//
// One copy of the file is mutated in place and restored after each case; the checksum pass over
// the payload dominates, so CORRUPTION_RUNS (default 1,000 per file) and CORRUPTION_VALID_RUNS
// (default 100) size the run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prng, cityPoints, spherePoints } from '../support/sample-points.js';
import {
  checkByteOrder,
  checksum32,
  HEADER_BYTES,
  hostLittleEndian,
  KIND_FEATURES,
  unwrapPayload,
} from '../../src/format/container.js';
import { createGeoLookupFromBytes, type GeoLookup } from '../../src/lookup/engine.js';
import { createGeoLookup, DataError, defaultDataPath, GeoLookupError } from '../../src/index.js';
import { BR8_NO_COUNTRY, BR8_SLOT, DEPTH1_BASE_WORDS, SECTIONS, SLOT_WORDS } from '../../src/format/layout.js';

const RUNS = Number(process.env.CORRUPTION_RUNS ?? 1000);
const VALID_RUNS = Number(process.env.CORRUPTION_VALID_RUNS ?? 100);
const SEED = Number(process.env.CORRUPTION_SEED ?? 8);
const TIMEOUT = Math.max(120_000, (RUNS + VALID_RUNS * 10) * 200);

const DATASET = defaultDataPath();
const FEATURES = DATASET.replace(/\.geolookup$/, '.geobuf');
const RESERVED = [24, 32] as const; // header bytes no reader checks

const tmp = mkdtempSync(join(tmpdir(), 'geolookup-corrupt-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// ---- the sample the intact dataset answers ----

const sample = (() => {
  const c = cityPoints(200, 31);
  const s = spherePoints(100, 32);
  return { lat: [...c.lat, ...s.lat, 90, -90, 0, 0], lon: [...c.lon, ...s.lon, 180, -180, 180, -180] };
})();

/** Answers of all four operations on the sample, as one comparable list; throws whatever a lookup throws. */
function answers(geo: GeoLookup, ref?: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < sample.lat.length; i++) {
    const a = sample.lat[i];
    const b = sample.lon[i];
    const c = geo.tryCountryFromGps(a, b);
    const s = geo.trySubdivisionFromGps(a, b);
    // the intact file's codes, so a damaged file is asked the same questions
    const askC = ref ? ref[4 * i] : c;
    const askS = ref ? ref[4 * i + 1] : s;
    out.push(
      String(c),
      String(s),
      askC === 'null' || askC === null ? '-' : String(geo.isInCountry(askC, a, b)),
      askS === 'null' || askS === null ? '-' : String(safe(() => geo.isInSubdivision(askS, a, b))),
    );
  }
  return out;
}
/** A code the damaged file no longer knows is a 404, an acceptable answer here. */
function safe(f: () => boolean): string {
  try {
    return String(f());
  } catch (e) {
    if (e instanceof GeoLookupError && e.status === 404) return '404';
    throw e;
  }
}

type Outcome = 'DataError' | 'same' | 'different';

/** Loads `bytes` as the dataset `name` and classifies the result; any exception but a DataError fails the test. */
function tryLoad(bytes: Uint8Array, baseline: string[]): { outcome: Outcome; message?: string } {
  let geo: GeoLookup;
  try {
    geo = createGeoLookupFromBytes(bytes, DATASET);
  } catch (e) {
    expect(e, `load threw ${(e as Error)?.stack ?? String(e)}`).toBeInstanceOf(DataError);
    const err = e as DataError;
    expect(err.message.startsWith(`${DATASET}: `), err.message).toBe(true);
    expect(err.toProblem()).toMatchObject({ status: 500, type: 'https://geolookup.dev/problems/data' });
    return { outcome: 'DataError', message: err.message };
  }
  let got: string[];
  try {
    got = answers(geo, baseline);
  } catch (e) {
    throw new Error(`a damaged dataset loaded, then a lookup threw: ${(e as Error)?.stack ?? String(e)}`);
  }
  for (let i = 0; i < got.length; i += 4) {
    if (got[i] !== 'null') expect(got[i]).toMatch(/^[A-Z0-9_.-]{1,63}$/); // still a code, whatever it is
  }
  return { outcome: got.every((v, i) => v === baseline[i]) ? 'same' : 'different' };
}

/** What each kind of damage must be reported as. */
const EXPECT: Record<string, RegExp> = {
  truncate: /too short|truncated/,
  extend: /extended/,
  payload: /checksum mismatch/,
  header: /bad magic|format version|holds|unknown kind|truncated or extended|checksum mismatch/,
};

function header(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
}

const counts: Record<string, Record<string, number>> = {};
const count = (file: string, kind: string, outcome: string) => {
  const k = `${kind}:${outcome}`;
  (counts[file] ??= {})[k] = (counts[file][k] ?? 0) + 1;
};
afterAll(() => console.log(`corruption: outcomes per file and mutation kind ${JSON.stringify(counts)}`));

/**
 * The seeded unchecked-damage plan shared by both files: truncations, extensions, header
 * flips (every header byte is hit) and payload flips of 1-4 nearby bytes.
 */
function* plan(
  n: number,
  size: number,
  seed: number,
): Generator<{ kind: string; at: number; len: number; xor: number[] }> {
  const r = prng(seed);
  for (let i = 0; i < n; i++) {
    const u = i / n;
    if (u < 0.15) yield { kind: 'truncate', at: Math.floor(r() * size), len: 0, xor: [] };
    else if (u < 0.25) yield { kind: 'extend', at: size, len: 1 + Math.floor(r() * 64), xor: [] };
    else if (u < 0.4) yield { kind: 'header', at: i % HEADER_BYTES, len: 1, xor: [1 + Math.floor(r() * 255)] };
    else {
      const len = 1 + Math.floor(r() * 4);
      yield {
        kind: 'payload',
        at: HEADER_BYTES + Math.floor(r() * (size - HEADER_BYTES - len)),
        len,
        xor: Array.from({ length: len }, () => 1 + Math.floor(r() * 255)),
      };
    }
  }
}

/** The metadata JSON as the re-sealed cases below edit it, out of its declared shape. */
interface EditedMeta {
  countries: { code: unknown[]; name: unknown[]; covered: unknown };
  subdivisions: { code: string[]; parent: unknown[] };
  params: { fanouts: number[]; margin: unknown; quant: unknown };
}

/** The index of a subdivision whose parent is another subdivision. */
function childIn(m: EditedMeta): number {
  const i = m.subdivisions.parent.findIndex((p) => typeof p === 'number');
  if (i < 0) throw new Error('no subdivision with a subdivision parent in the metadata');
  return i;
}

/**
 * Applies one planned mutation to `work` (a copy of the file with 64 spare bytes after it),
 * hands the damaged view to `check`, and restores the bytes.
 */
function mutate(
  work: Uint8Array,
  size: number,
  m: { kind: string; at: number; len: number; xor: number[] },
  r: () => number,
  check: (view: Uint8Array) => void,
): void {
  if (m.kind === 'truncate') {
    check(work.subarray(0, m.at));
    return;
  }
  if (m.kind === 'extend') {
    for (let k = 0; k < m.len; k++) work[size + k] = Math.floor(r() * 256);
    check(work.subarray(0, size + m.len));
    return;
  }
  const saved = work.slice(m.at, m.at + m.len);
  for (let k = 0; k < m.len; k++) work[m.at + k] ^= m.xor[k];
  try {
    check(work.subarray(0, size));
  } finally {
    work.set(saved, m.at);
  }
}

describe(`corrupted dist-data files (${RUNS} mutations per file + ${VALID_RUNS} re-sealed, seed ${SEED})`, () => {
  const original = readFileSync(DATASET);
  const size = original.length;
  // One working copy, 8-byte aligned, with room to extend.
  const work = new Uint8Array(new ArrayBuffer(size + 64));
  work.set(original);
  const intact = createGeoLookupFromBytes(work.subarray(0, size), DATASET);
  const baseline = answers(intact);

  it(
    `${DATASET.split('/').pop()}: truncated, extended, flipped → DataError naming the file and the problem, or identical answers`,
    () => {
      const r = prng(SEED * 7 + 1);
      for (const m of plan(RUNS, size, SEED)) {
        mutate(work, size, m, r, (view) => {
          const reserved = m.kind === 'header' && m.at >= RESERVED[0] && m.at < RESERVED[1];
          const { outcome, message } = tryLoad(view, baseline);
          count('world.geolookup', reserved ? 'reserved' : m.kind, outcome);
          if (reserved) expect(outcome).toBe('same');
          else {
            expect(outcome, `${m.kind} at ${m.at}`).toBe('DataError');
            expect(message).toMatch(EXPECT[m.kind]);
          }
        });
      }
      expect(Buffer.compare(work.subarray(0, size), original)).toBe(0); // every case restored its bytes
    },
    TIMEOUT,
  );

  it(
    `${DATASET.split('/').pop()}: flips re-sealed with a fresh checksum → DataError or well-formed answers, never a crash`,
    () => {
      const r = prng(SEED * 7 + 2);
      const payload = work.subarray(HEADER_BYTES, size);
      const pv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
      const sections = SECTIONS.map((name, i) => ({
        name,
        off: pv.getUint32(8 + i * 8, true),
        len: pv.getUint32(12 + i * 8, true),
      }));
      const table = { name: 'section table', off: 0, len: 8 + SECTIONS.length * 8 };
      const targets = [table, ...sections.filter((s) => s.len > 0)];
      const sum = header(work).getUint32(20, true);
      for (let i = 0; i < VALID_RUNS; i++) {
        const t = targets[i % targets.length];
        const len = 1 + Math.floor(r() * 2);
        const at = t.off + Math.floor(r() * Math.max(1, t.len - len));
        const saved = payload.slice(at, at + len);
        for (let k = 0; k < len; k++) payload[at + k] ^= 1 + Math.floor(r() * 255);
        header(work).setUint32(20, checksum32(payload), true);
        try {
          const { outcome } = tryLoad(work.subarray(0, size), baseline);
          count('world.geolookup', `resealed ${t.name}`, outcome);
        } finally {
          payload.set(saved, at);
          header(work).setUint32(20, sum, true);
        }
      }
      expect(Buffer.compare(work.subarray(0, size), original)).toBe(0);
      // Record the tally in the log; a different answer from a re-sealed file is allowed, a crash is not.
      const c = counts['world.geolookup'];
      const total = Object.entries(c)
        .filter(([k]) => k.startsWith('resealed'))
        .reduce((n, [, v]) => n + v, 0);
      expect(total).toBe(VALID_RUNS);
    },
    TIMEOUT,
  );

  // Metadata that is valid JSON of the wrong shape, re-sealed: the checksum passes, so the
  // reader's own checks must refuse it (each of these would otherwise load, crash or loop).
  const metaCases: [string, (m: EditedMeta) => unknown, RegExp][] = [
    ['a null country code', (m) => void (m.countries.code[0] = null), /country code is not a string/],
    ['a subdivision code that is a number', (m) => void ((m.subdivisions.code as unknown[])[5] = 42), /not a string/],
    ['a country name missing', (m) => void m.countries.name.pop(), /columns of different lengths/],
    [
      'a covered flag that is not 0 or 1',
      (m) => void (m.countries.covered = 'x'.repeat(m.countries.code.length)),
      /flag/,
    ],
    [
      'a parent past the table',
      (m) => void (m.subdivisions.parent[3] = m.subdivisions.code.length),
      /parent out of range/,
    ],
    ['a parent that is null', (m) => void (m.subdivisions.parent[3] = null), /parent out of range/],
    [
      'a subdivision that is its own parent',
      (m) => void (m.subdivisions.parent[childIn(m)] = childIn(m)),
      /own ancestor/,
    ],
    [
      'a two-step parent cycle',
      (m) => {
        const child = childIn(m);
        m.subdivisions.parent[m.subdivisions.parent[child] as number] = child;
      },
      /own ancestor/,
    ],
    ['no fanouts', (m) => void (m.params.fanouts = []), /fanouts/],
    ['a fractional fanout', (m) => void (m.params.fanouts[0] = 2.5), /fanouts/],
    [
      'a first fanout whose children a byte cannot name',
      (m) => void (m.params.fanouts[0] = 9),
      /first index fanout 9 above 8/,
    ],
    ['a margin that is a string', (m) => void (m.params.margin = 'x'), /margin/],
    ['window units past 16 bits', (m) => void (m.params.quant = 70000), /window units out of range/],
    ['no window units', (m) => void delete m.params.quant, /window units out of range/],
    ['metadata that is an array', () => [], /lacks code tables/],
    ['metadata that is null', () => null, /lacks code tables/],
  ];
  it.each(metaCases)('re-sealed metadata with %s → DataError', (_name, edit, why) => {
    const pv = new DataView(work.buffer, HEADER_BYTES, size - HEADER_BYTES);
    const off = HEADER_BYTES + pv.getUint32(8, true);
    const len = pv.getUint32(12, true);
    const meta = JSON.parse(new TextDecoder().decode(work.subarray(off, off + len)));
    meta.stats = {}; // room for edits that lengthen the text; no lookup reads the statistics
    const edited = edit(meta);
    const text = Buffer.from(JSON.stringify(edited === undefined ? meta : edited));
    expect(text.length).toBeLessThanOrEqual(len);
    const copy = new Uint8Array(new ArrayBuffer(size));
    copy.set(work.subarray(0, size));
    copy.fill(0x20, off, off + len); // JSON allows the trailing spaces, so no offset moves
    copy.set(text, off);
    header(copy).setUint32(20, checksum32(copy.subarray(HEADER_BYTES)), true);
    const { outcome, message } = tryLoad(copy, baseline);
    expect(outcome).toBe('DataError');
    expect(message).toMatch(why);
  });

  // The depth-1 tables are read without blocks: slot and wide bases count on from the block
  // before, a record slot is a pointer the lookup follows. Each moved by one, checksum re-sealed,
  // must not load.
  const sectionBytes = (name: string) => {
    const pv = new DataView(work.buffer, HEADER_BYTES, size - HEADER_BYTES);
    const i = SECTIONS.indexOf(name as (typeof SECTIONS)[number]);
    const off = HEADER_BYTES + pv.getUint32(8 + i * 8, true);
    return { off, bytes: work.slice(off, off + pv.getUint32(12 + i * 8, true)) };
  };
  /** The offset of word `word` of the first depth-1 block whose that word is non-zero, and the word plus one. */
  const baseWord = (word: number): [number, number, number] => {
    const { off, bytes } = sectionBytes('depth1bases');
    const bases = new Uint32Array(bytes.buffer);
    const at = bases.findIndex((v, i) => i % DEPTH1_BASE_WORDS === word && v > 0);
    return [off + at * 4, bases[at] + 1, 4];
  };
  const depth1Cases: [string, () => [number, number, number]][] = [
    ['a depth-1 slot base', () => baseWord(0)],
    ['a depth-1 wide base', () => baseWord(2)],
    ['a depth-1 slot count', () => baseWord(3)],
    [
      'a blockregion8 slot byte',
      () => {
        const { off, bytes } = sectionBytes('blockregion8');
        const at = bytes.findIndex((v) => v >= BR8_SLOT && v < BR8_NO_COUNTRY - 1);
        return [off + at, bytes[at] + 1, 1];
      },
    ],
  ];
  it.each(depth1Cases)('re-sealed %s moved by one → DataError naming the depth-1 entry', (_name, find) => {
    const [at, value, width] = find();
    expect(at).toBeGreaterThan(HEADER_BYTES);
    const copy = new Uint8Array(new ArrayBuffer(size));
    copy.set(work.subarray(0, size));
    if (width === 4) new DataView(copy.buffer).setUint32(at, value >>> 0, true);
    else copy[at] = value;
    header(copy).setUint32(20, checksum32(copy.subarray(HEADER_BYTES)), true);
    const { outcome, message } = tryLoad(copy, baseline);
    expect(outcome).toBe('DataError');
    expect(message).toMatch(/depth-1 (block|child) \d+: /);
  });

  // A mixed sub-cell's codes are found by counting: a slot's subcodes index, or a sub-cell code
  // turned mixed, would make lookups read another cell's codes (or past the section).
  const subcodeCases: [string, () => [number, number]][] = [
    [
      "a slot's subcodes index",
      () => {
        const { off, bytes } = sectionBytes('slots');
        const words = new Uint32Array(bytes.buffer);
        const w = words.findIndex((v, i) => i % SLOT_WORDS === 3 && v > 0);
        return [off + w * 4, words[w] + 1];
      },
    ],
    [
      'a sub-cell code turned mixed',
      () => {
        const { off, bytes } = sectionBytes('slots');
        const words = new Uint32Array(bytes.buffer);
        const w = words.findIndex((v, i) => i % SLOT_WORDS >= 4 && (v & 3) !== 3);
        return [off + w * 4, words[w] | 3];
      },
    ],
  ];
  it.each(subcodeCases)('re-sealed %s changed → DataError naming the slots', (_name, find) => {
    const [at, value] = find();
    expect(at).toBeGreaterThan(HEADER_BYTES);
    const copy = new Uint8Array(new ArrayBuffer(size));
    copy.set(work.subarray(0, size));
    new DataView(copy.buffer).setUint32(at, value >>> 0, true);
    header(copy).setUint32(20, checksum32(copy.subarray(HEADER_BYTES)), true);
    const { outcome, message } = tryLoad(copy, baseline);
    expect(outcome).toBe('DataError');
    expect(message).toMatch(
      /slot \d+ names a region out of range or misplaces its sub-cell codes|the slots name \d+ mixed sub-cells/,
    );
  });

  it('re-sealed subcodes index past the subwords → DataError naming the entry', () => {
    const { off } = sectionBytes('subcodes');
    const { bytes: words } = sectionBytes('subwords');
    const copy = new Uint8Array(new ArrayBuffer(size));
    copy.set(work.subarray(0, size));
    new DataView(copy.buffer).setUint16(off, words.byteLength / 4, true);
    header(copy).setUint32(20, checksum32(copy.subarray(HEADER_BYTES)), true);
    const { outcome, message } = tryLoad(copy, baseline);
    expect(outcome).toBe('DataError');
    expect(message).toMatch(/subcodes entry 0 names word \d+ of \d+ subwords/);
  });

  it('a big-endian host is refused with its own DataError, not a checksum mismatch', () => {
    expect(hostLittleEndian).toBe(true); // this machine: the check lets datasets through
    expect(() => checkByteOrder(true, 'world.geolookup')).not.toThrow();
    expect(() => checkByteOrder(false, 'world.geolookup')).toThrow(DataError);
    expect(() => checkByteOrder(false, 'world.geolookup')).toThrow(
      /^world\.geolookup: this host is big-endian; geolookup datasets are little-endian/,
    );
  });

  it('damage reported through a file path names that path', () => {
    const bad = Buffer.from(original.subarray(0, 4096));
    const file = join(tmp, 'damaged.geolookup');
    writeFileSync(file, bad);
    expect(() => createGeoLookup(file)).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*truncated`),
    );
  });

  it(
    `${FEATURES.split('/').pop()}: the container reader refuses every unchecked mutation but the reserved bytes`,
    () => {
      const orig = readFileSync(FEATURES);
      const fsize = orig.length;
      const fwork = new Uint8Array(new ArrayBuffer(fsize + 64));
      fwork.set(orig);
      const intactPayload = unwrapPayload(fwork.subarray(0, fsize), KIND_FEATURES, FEATURES).slice();
      const r = prng(SEED * 7 + 3);
      for (const m of plan(RUNS, fsize, SEED + 1)) {
        mutate(fwork, fsize, m, r, (view) => {
          const reserved = m.kind === 'header' && m.at >= RESERVED[0] && m.at < RESERVED[1];
          let payload: Uint8Array | undefined;
          try {
            payload = unwrapPayload(view, KIND_FEATURES, FEATURES);
          } catch (e) {
            expect(e).toBeInstanceOf(DataError);
            expect((e as Error).message.startsWith(`${FEATURES}: `)).toBe(true);
            expect((e as Error).message).toMatch(EXPECT[m.kind]);
            expect(reserved).toBe(false);
            count('world.geobuf', m.kind, 'DataError');
            return;
          }
          expect(reserved, `${m.kind} at ${m.at} was accepted`).toBe(true);
          expect(Buffer.compare(payload, intactPayload)).toBe(0);
          count('world.geobuf', 'reserved', 'same');
        });
      }
      expect(Buffer.compare(fwork.subarray(0, fsize), orig)).toBe(0);
    },
    TIMEOUT,
  );
});
