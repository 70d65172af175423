// The load-time pointer walk (src/format/verify.ts, readDataset's 'full' check) on the fixture: a
// file whose checksum was recomputed after an edit must still fail at load with a DataError naming
// the file, never load a pointer that a lookup would follow out of its array or round in a loop.
// Targeted edits, one per rule, then seeded word flips in the pointer sections. The same over the
// world dataset, at random: test/contract/corruption.test.ts.
import { describe, expect, it } from 'vitest';
import { HEADER_BYTES } from '../../src/format/container.js';
import { readDataset } from '../../src/format/dataset.js';
import {
  DELTA_WIDTH_BITS,
  ITEM_MASK,
  RECORD_COUNT_BITS_AT,
  HALF_RECORD,
  RECORD_HALF_ITEMS,
  RECORD_HEADER,
  RECORD_SUBDIVISIONS,
  RECORD_WORDS_AT,
  streamStart,
  SECTIONS,
  SLOT_WORDS,
  tableWords,
  TAG_BLOCK,
  TAG_RECORD,
  TAG_SHIFT,
  TAG_TABLE,
  VALUE_MASK,
  type SectionName,
} from '../../src/format/layout.js';
import { createGeoLookupFromBytes, type GeoLookup } from '../../src/lookup/engine.js';
import { DataError, GeoLookupError } from '../../src/lookup/errors.js';
import { prng } from '../support/sample-points.js';
import { fixtureBytes, reseal, sectionHalves, sectionOf, sectionWords } from '../fixtures/datasets.js';

const NAME = 'iso.geolookup';
const intact = readDataset(fixtureBytes('iso'), NAME);
const regionCount = intact.regionCountry.length;
const countryCount = intact.countryCodes.length;

/** The message of the DataError loading `file` gives; fails the test when it loads or throws anything else. */
function loadError(file: Uint8Array): string {
  try {
    createGeoLookupFromBytes(file, NAME);
  } catch (e) {
    expect(e, String((e as Error)?.stack ?? e)).toBeInstanceOf(DataError);
    const message = (e as DataError).message;
    expect(message.startsWith(`${NAME}: `), message).toBe(true);
    return message;
  }
  throw new Error('the damaged file loaded');
}

/** The fixture with `edit` applied to one section's words, re-sealed. */
function edited(section: SectionName, edit: (words: Uint32Array, file: Uint8Array) => void): Uint8Array {
  const file = fixtureBytes('iso');
  edit(sectionWords(file, section), file);
  return reseal(file);
}

/** Record starts, by the record layout (src/format/layout.ts): header, entries, arcs, default table. */
function recordStarts(records: Uint32Array): number[] {
  const starts: number[] = [];
  for (let r = 0; r < records.length; ) {
    starts.push(r);
    const end = streamStart(records, r) + (records[r] >>> RECORD_WORDS_AT);
    r = records[r + 1] >>> TAG_SHIFT === TAG_TABLE ? end + tableWords(records[end]) : end;
  }
  return starts;
}

const starts = recordStarts(intact.records);
const tagOf = (e: number) => e >>> TAG_SHIFT;
const entry = (tag: number, value: number) => ((tag << TAG_SHIFT) | value) >>> 0;

describe('the fixture has every kind of pointer the walk checks', () => {
  it('grid blocks, child blocks, records pointed at from blocks and records, record slots', () => {
    expect(starts.length).toBeGreaterThan(10);
    expect(starts.at(-1)).toBeLessThan(intact.records.length);
    expect([...intact.grid].some((e) => tagOf(e) === TAG_BLOCK)).toBe(true);
    expect([...intact.blocks].some((e) => tagOf(e) === TAG_BLOCK)).toBe(true);
    expect([...intact.blocks].some((e) => tagOf(e) === TAG_RECORD)).toBe(true);
    expect(starts.some((r) => tagOf(intact.records[r + 1]) === TAG_TABLE)).toBe(true);
    expect(intact.slots.length).toBeGreaterThan(0);
    expect(intact.subcodes.length).toBeGreaterThan(0);
  });
});

describe('a re-sealed edit that breaks a rule → DataError naming the rule', () => {
  const firstTag = (words: Uint32Array, tag: number) => words.findIndex((e) => tagOf(e) === tag);
  const cases: [string, () => Uint8Array, RegExp][] = [
    [
      'a grid region beyond the region table',
      () => edited('grid', (g) => void (g[firstTag(g, 0)] = regionCount)),
      new RegExp(`region ${regionCount} out of range \\(corrupted index\\)`),
    ],
    [
      'a grid block number past the depth-1 blocks',
      () => edited('grid', (g) => void (g[firstTag(g, TAG_BLOCK)] = entry(TAG_BLOCK, intact.depth1Bases.length / 4))),
      /depth-1 block \d+ out of range/,
    ],
    [
      'a grid record pointer inside a record',
      () => edited('grid', (g) => void (g[firstTag(g, 0)] = entry(TAG_RECORD, 1))),
      /record pointer 1 invalid/,
    ],
    [
      'a grid record pointer past the records',
      () => edited('grid', (g) => void (g[0] = entry(TAG_RECORD, intact.records.length))),
      new RegExp(`record pointer ${intact.records.length} invalid`),
    ],
    ['a grid entry with tag 3', () => edited('grid', (g) => void (g[0] = entry(TAG_TABLE, 0))), /unknown entry tag 3/],
    [
      'a child block pointing back at its own block (a loop)',
      () =>
        edited('blocks', (b) => {
          const i = firstTag(b, TAG_BLOCK);
          b[i] = entry(TAG_BLOCK, i - (i % 64));
        }),
      /block entry \d+ \(\d+, blockcountry \d+\) is invalid/,
    ],
    [
      'a block region beyond the region table',
      () =>
        edited('blocks', (b) => {
          b[firstTag(b, 0)] = regionCount;
        }),
      /block entry \d+ .* is invalid/,
    ],
    [
      'a block record pointer inside a record',
      () =>
        edited('blocks', (b) => {
          const i = firstTag(b, TAG_RECORD);
          b[i] = entry(TAG_RECORD, (b[i] & VALUE_MASK) + 1);
        }),
      /block entry \d+ .* is invalid/,
    ],
    [
      'a blockcountry beyond the country table',
      () => edited('blocks', (_b, file) => void (file[sectionOf(file, 'blockcountry').offset] = countryCount + 2)),
      /block entry 0 .* blockcountry \d+\) is invalid/,
    ],
    [
      'a record claiming more arc words than the array holds',
      () => edited('records', (r) => void (r[starts[3]] = 0xfffff001)),
      new RegExp(`record at ${starts[3]} is malformed or holds an invalid entry`),
    ],
    [
      'a record default region beyond the region table',
      () => edited('records', (r) => void (r[starts[0] + 1] = regionCount)),
      /record at 0 is malformed/,
    ],
    [
      'a half item beyond the region table',
      () =>
        edited('records', (r) => {
          const s = starts.find((x) => (r[x] & RECORD_HALF_ITEMS) !== 0 && (r[x] & ITEM_MASK) > 0)!;
          r[s + RECORD_HEADER] = (r[s + RECORD_HEADER] & 0xffff0000) | regionCount;
        }),
      /record at \d+ is malformed/,
    ],
    [
      'an arc reaching past its record',
      () => edited('records', (r) => void (r[withItems(r)] -= 1 << RECORD_WORDS_AT)),
      /record at \d+ is malformed/,
    ],
    [
      'an arc of one vertex',
      () => edited('records', (r) => setArcField(r, 0, countBits(r), 1)),
      /record at \d+ is malformed/,
    ],
    [
      'an arc naming no item',
      () => edited('records', (r) => setArcField(r, countBits(r), r[withItems(r)] & ITEM_MASK, 0)),
      /record at \d+ is malformed/,
    ],
    [
      'a delta width that misreads the arc (16 where the deltas are narrower)',
      () =>
        edited('records', (r) => setArcField(r, countBits(r) + (r[withItems(r)] & ITEM_MASK), DELTA_WIDTH_BITS, 15)),
      /record at \d+ is malformed/,
    ],
    [
      'bits after the last arc',
      () =>
        edited('records', (r) => {
          const s = withItems(r);
          r[streamStart(r, s) + (r[s] >>> RECORD_WORDS_AT) - 1] |= 0x80000000;
        }),
      /record at \d+ is malformed/,
    ],
    [
      'more items than an arc mask can name',
      () => edited('records', (r) => void (r[withItems(r)] = ((r[withItems(r)] & ~ITEM_MASK) | 17) >>> 0)),
      /record at \d+ is malformed/,
    ],
    [
      'a record pointing back at an earlier record (a loop)',
      () =>
        edited('records', (r) =>
          setFirstItem(
            r,
            withItems(r, 1),
            () => entry(TAG_RECORD, 0),
            () => HALF_RECORD,
          ),
        ),
      /record at \d+ is malformed/,
    ],
    [
      'a record pointer forward into the middle of a record',
      () =>
        edited('records', (r) =>
          setFirstItem(
            r,
            withItems(r),
            () => entry(TAG_RECORD, starts.at(-1)! + 1),
            () => HALF_RECORD + 1,
          ),
        ),
      new RegExp(`record pointer (${starts.at(-1)! + 1}|${withItems(intact.records) + 1}) invalid`),
    ],
    [
      'a default table outside a record of one country',
      () =>
        edited('records', (r) => {
          const s = starts.find((x) => tagOf(r[x + 1]) === TAG_TABLE)!;
          r[s] &= ~RECORD_SUBDIVISIONS;
        }),
      /record at \d+ is malformed/,
    ],
    [
      'a default table region beyond the region table',
      () =>
        edited('records', (r) => {
          const s = starts.find((x) => tagOf(r[x + 1]) === TAG_TABLE)!;
          r[r[s + 1] & VALUE_MASK] = regionCount;
        }),
      /record at \d+ is malformed/,
    ],
    [
      'a slot palette region beyond the region table',
      () => edited('slots', (s) => void (s[0] = (s[0] & 0xffff0000) | regionCount)),
      /slot 0 names a region out of range or misplaces its sub-cell codes/,
    ],
    [
      "a slot's record pointer inside a record",
      () => edited('slots', (s) => void (s[2] += 1)),
      /slot 0: record pointer \d+ invalid/,
    ],
    [
      'a slot count the subcodes do not match',
      () => edited('slots', (s) => void (s[SLOT_WORDS + 3] += 1)),
      /slot 1 names a region out of range or misplaces its sub-cell codes/,
    ],
    [
      'a gridcountry beyond the country table',
      () => edited('grid', (_g, file) => void (file[sectionOf(file, 'gridcountry').offset + 5] = countryCount + 2)),
      new RegExp(`gridcountry names country ${countryCount}`),
    ],
    [
      'a boxcodes subdivision beyond the code table',
      () => edited('boxcodes', (c) => void (c[0] = -1 - intact.subdivisionCodes.length)),
      /boxcodes names code -\d+ beyond the code tables/,
    ],
    [
      'a region naming a country beyond the code table',
      () => edited('regions', (_w, file) => void (sectionHalves(file, 'regions')[2] = countryCount)),
      new RegExp(`region 1 names country ${countryCount} beyond the code table`),
    ],
    [
      'a region naming a subdivision beyond the code table',
      () => edited('regions', (_w, file) => void (sectionHalves(file, 'regions')[3] = 0xfffe)),
      /region 1 names subdivision 65534 beyond the code table/,
    ],
  ];
  it.each(cases)('%s', (_case, damage, why) => {
    expect(loadError(damage())).toMatch(why);
  });
});

describe('the section table and the metadata', () => {
  const table = (file: Uint8Array) => new DataView(file.buffer, HEADER_BYTES);
  const cases: [string, (file: Uint8Array) => void, RegExp][] = [
    ['a section count that is not the format', (f) => table(f).setUint32(0, SECTIONS.length + 1, true), /malformed/],
    [
      'a section past the payload',
      (f) => table(f).setUint32(12 + SECTIONS.indexOf('records') * 8, 1 << 30, true),
      /section records out of/,
    ],
    [
      'a section offset off the 8-byte grid',
      (f) => table(f).setUint32(8 + 3 * 8, sectionAt(f, 3) + 4, true),
      /blocks out/,
    ],
    ['a ragged section', (f) => table(f).setUint32(12 + 3 * 8, sectionLength(f, 3) - 2, true), /blocks has a ragged/],
    ['a short grid', (f) => table(f).setUint32(12 + 1 * 8, sectionLength(f, 1) - 4, true), /grid has 64799 cells/],
    ['metadata that is not JSON', (f) => void (f[sectionOf(f, 'meta').offset] = 0x7e), /metadata is not valid JSON/],
    ['no code tables', (f) => writeMeta(f, (m) => delete m.countries), /lacks code tables or index parameters/],
    ['a fanout of zero', (f) => writeMeta(f, (m) => void (m.params.fanouts[1] = 0)), /fanouts are not small positive/],
    ['a margin of one', (f) => writeMeta(f, (m) => void (m.params.margin = 1)), /margin out of range/],
    ['a parent cycle', (f) => writeMeta(f, cycle), /subdivision FJ-\w+ is its own ancestor \(corrupted metadata\)/],
    [
      'a code that is a number',
      (f) => writeMeta(f, (m) => void (m.countries!.code[0] = 4)),
      /a country code is not a string/,
    ],
  ];
  it.each(cases)('%s → DataError', (_case, damage, why) => {
    const file = fixtureBytes('iso');
    damage(file);
    expect(loadError(reseal(file))).toMatch(why);
  });
});

describe('how much each check level verifies', () => {
  const badPointer = () => edited('grid', (g) => void (g[0] = entry(TAG_RECORD, 1)));
  it("'full' walks the pointers; 'checksum' and 'none' trust the bytes as built", () => {
    expect(() => readDataset(badPointer(), NAME, 'full')).toThrow(DataError);
    expect(() => readDataset(badPointer(), NAME, 'checksum')).not.toThrow();
    expect(() => readDataset(badPointer(), NAME, 'none')).not.toThrow();
  });
  it("'none' skips the checksum too, 'checksum' does not", () => {
    const file = fixtureBytes('iso');
    file[sectionOf(file, 'records').offset + 8] ^= 4;
    expect(() => readDataset(file, NAME, 'checksum')).toThrow(/checksum mismatch/);
    expect(() => readDataset(file, NAME, 'none')).not.toThrow();
  });
});

describe('seeded word flips, re-sealed, in the sections lookups follow', () => {
  const FLIPS = 25;
  const points = samplePoints();
  const baseline = answers(createGeoLookupFromBytes(fixtureBytes('iso'), NAME));
  const flips: SectionName[] = [
    'grid',
    'blocks',
    'records',
    'slots',
    'subcodes',
    'subwords',
    'blockregion8',
    'depth1bases',
  ];
  it.each(flips)('%s: DataError, or a dataset whose lookups all return', (section) => {
    const r = prng(SECTIONS.indexOf(section) + 100);
    const tally = { refused: 0, same: 0, different: 0 };
    for (let k = 0; k < FLIPS; k++) {
      const file = fixtureBytes('iso');
      const { offset, length } = sectionOf(file, section);
      const at = offset + 4 * Math.floor((r() * length) / 4);
      // Low bits move a pointer a little, high bits change its tag; both are common damage.
      file[at + (k & 3)] ^= 1 << Math.floor(r() * 8);
      let geo: GeoLookup;
      try {
        geo = createGeoLookupFromBytes(reseal(file), NAME);
      } catch (e) {
        expect(e, String((e as Error)?.stack ?? e)).toBeInstanceOf(DataError);
        tally.refused++;
        continue;
      }
      const got = answers(geo);
      for (const code of got) if (code !== null && code !== '!') expect(code).toMatch(/^[A-Z]{3}$|^[A-Z]{2}-\w{1,3}$/);
      tally[got.every((v, i) => v === baseline[i]) ? 'same' : 'different']++;
    }
    expect(tally.refused + tally.same + tally.different).toBe(FLIPS);
    // Most grid and block words are region ids far below 2^8: a flip there is mostly out of range.
    if (section === 'grid' || section === 'blocks') expect(tally.refused).toBeGreaterThan(0);
  });

  /** Country and subdivision at each point; '!' where a lookup threw a GeoLookupError. */
  function answers(geo: GeoLookup): (string | null)[] {
    const out: (string | null)[] = [];
    for (const [lat, lon] of points) {
      for (const ask of [geo.tryCountryFromGps, geo.trySubdivisionFromGps]) {
        try {
          out.push(ask(lat, lon));
        } catch (e) {
          if (!(e instanceof GeoLookupError)) throw e;
          out.push('!');
        }
      }
    }
    return out;
  }
});

/** Points over the fixture's shapes (test/fixtures/README.md) and around them. */
function samplePoints(): [number, number][] {
  const r = prng(77);
  const boxes = [
    [29, 43, 41, 49],
    [9, 41, 15, 47],
    [176, -20, 180, -15],
    [-180, -20, -177, -15],
    [19, 59, 31, 71],
  ];
  const out: [number, number][] = [];
  for (const [x0, y0, x1, y1] of boxes) {
    for (let i = 0; i < 200; i++) out.push([y0 + r() * (y1 - y0), x0 + r() * (x1 - x0)]);
  }
  return out;
}

function sectionAt(file: Uint8Array, i: number): number {
  return new DataView(file.buffer, HEADER_BYTES).getUint32(8 + i * 8, true);
}

function sectionLength(file: Uint8Array, i: number): number {
  return new DataView(file.buffer, HEADER_BYTES).getUint32(12 + i * 8, true);
}

/** The metadata fields the edits below touch (the code tables as columns). */
interface Meta {
  countries?: { code: unknown[] };
  subdivisions: { code: string[]; parent: (number | string)[] };
  params: { fanouts: number[]; margin: unknown };
  stats: object;
}

/** Rewrites the metadata JSON in place (padded with spaces, so no section moves). */
function writeMeta(file: Uint8Array, edit: (meta: Meta) => void): void {
  const { offset, length } = sectionOf(file, 'meta');
  const meta = JSON.parse(new TextDecoder().decode(file.subarray(offset, offset + length)));
  meta.stats = {};
  edit(meta);
  const text = new TextEncoder().encode(JSON.stringify(meta));
  expect(text.length).toBeLessThanOrEqual(length);
  file.fill(0x20, offset, offset + length);
  file.set(text, offset);
}

/** FJ-05's parent is FJ-E: make FJ-E's parent FJ-05. */
function cycle(meta: Meta): void {
  const { code, parent } = meta.subdivisions;
  parent[code.indexOf('FJ-E')] = code.indexOf('FJ-05');
}

/** The first record start at or after `from` whose record has items. */
function withItems(records: Uint32Array, from = 0): number {
  return starts.find((r) => r >= from && (records[r] & ITEM_MASK) > 0)!;
}

/** Sets the first item of the record at r: `whole()` as an entry, or `half()` where items are halves. */
function setFirstItem(records: Uint32Array, r: number, whole: () => number, half: () => number): void {
  const at = r + RECORD_HEADER;
  if (records[r] & RECORD_HALF_ITEMS) records[at] = ((records[at] & 0xffff0000) | half()) >>> 0;
  else records[at] = whole();
}

/** The count width of the first record with items (layout.ts, the record's head word). */
function countBits(records: Uint32Array): number {
  return (records[withItems(records)] >>> RECORD_COUNT_BITS_AT) & 15;
}

/** Sets `width` bits at bit `at` of the first record with items' arc stream (a field of its first arc). */
function setArcField(records: Uint32Array, at: number, width: number, value: number): void {
  const r = withItems(records);
  const first = streamStart(records, r);
  for (let b = 0; b < width; b++) {
    const w = first + ((at + b) >>> 5);
    const bit = 1 << ((at + b) & 31);
    records[w] = ((value >>> b) & 1 ? records[w] | bit : records[w] & ~bit) >>> 0;
  }
}
