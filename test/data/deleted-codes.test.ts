// ISO 3166-2 codes that are no longer current (build-data/policy/deleted-codes.json), checked
// against both references the build reads and enumerated one by one against the world dataset:
// none is answered or listed, each is refused as bad input naming its successor, and the land of
// the one the pinned list carried into our answers (former FATA, PK-TA) answers Khyber Pakhtunkhwa.
import { readFileSync } from 'node:fs';
import { iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { ISO_CODES_JSON, isoCodesInstalled, readIsoCodes } from '../../build-data/sources/iso-codes.js';
import type { DeletedSubdivision } from '../../src/format/dataset.js';
import * as geo from '../../src/index.js';
import { ValidationError } from '../../src/index.js';
import { skipWithout } from '../support/system.js';

const table: { deleted: Record<string, DeletedSubdivision> } = JSON.parse(
  readFileSync('build-data/policy/deleted-codes.json', 'utf8'),
);
const policy = JSON.parse(readFileSync('build-data/policy/policy.json', 'utf8'));
const reviewed: Record<string, string> = policy.currentNotInIsoCodes;
const deleted = Object.entries(table.deleted);
const pinned = new Set(iso31662.map((s) => s.code));
const missing = isoCodesInstalled()
  ? null
  : `${ISO_CODES_JSON} is absent (sudo bash scripts/system-deps.sh installs iso-codes)`;
const isoCodes = new Set(missing ? [] : readIsoCodes().map((e) => e.code));
const subdivisions = geo.subdivisions();
const listed = new Map(subdivisions.map((s) => [s.code, s]));

describe.skipIf(skipWithout('deleted codes against Debian iso-codes', missing))(
  'the deleted-code table against Debian iso-codes',
  () => {
    it('holds every code one reference lists and the other lacks, unless reviewed as newer than iso-codes', () => {
      const differ = [...pinned].filter((c) => !isoCodes.has(c)).concat([...isoCodes].filter((c) => !pinned.has(c)));
      const unexplained = differ.filter((c) => !(c in table.deleted) && !(c in reviewed));
      expect(unexplained).toEqual([]);
      // A reviewed exception is a pinned code iso-codes lacks, never a deleted one.
      for (const c of Object.keys(reviewed)) {
        expect(pinned.has(c) && !isoCodes.has(c), c).toBe(true);
        expect(c in table.deleted, c).toBe(false);
        expect(reviewed[c].length, c).toBeGreaterThan(0);
      }
    });

    it('answers only codes current in both references, or reviewed as newer than iso-codes', () => {
      const answered = subdivisions.filter((s) => s.covered).map((s) => s.code);
      expect(answered.filter((c) => !isoCodes.has(c) && !(c in reviewed))).toEqual([]);
    });
  },
);

describe('the deleted-code table', () => {
  it('holds the 24 codes the pinned list still carries after ISO deleted them (or never assigned them)', () => {
    expect(deleted.filter(([c]) => pinned.has(c)).length).toBe(24);
  });

  it('names for every deleted code successors that are current, listed and of the same country', () => {
    for (const [code, d] of deleted) {
      expect(d.change.length, code).toBeGreaterThan(0);
      for (const s of d.successors) {
        expect(s.slice(0, 3), `${code} → ${s}`).toBe(code.slice(0, 3));
        expect(listed.has(s), `${code} → ${s}`).toBe(true);
        expect(s in table.deleted, `${code} → ${s}`).toBe(false);
      }
    }
  });

  it('is what the world dataset carries', () => {
    expect(geo.datasetInfo().deletedSubdivisions).toEqual(table.deleted);
  });
});

describe('every deleted code, one by one, in the world dataset', () => {
  it.each(deleted)('%s is not answered, not listed, and refused naming its successor', (code, d) => {
    expect(listed.has(code)).toBe(false);
    for (const c of [code, code.toLowerCase()]) {
      let error: unknown;
      try {
        geo.isInSubdivision(c, 33.0, 70.07);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      const problem = (error as ValidationError).toProblem();
      expect(problem).toMatchObject({ status: 400, title: 'Bad Request', type: expect.stringContaining('validation') });
      const [message] = problem.errors!.subdivisionCode!;
      expect(message).toContain(`"${code}"`);
      for (const s of d.successors) expect(message).toContain(`"${s}"`);
      if (d.successors.length === 0) expect(message).toContain('no code replaced it');
      expect(problem.detail).toContain(message.slice(1));
    }
    expect(() => geo.boundingBox(code)).toThrow(ValidationError);
    // Bad coordinates are listed with it, in one error.
    try {
      geo.isInSubdivision(code, 95, 0);
    } catch (e) {
      expect(Object.keys((e as ValidationError).errors).sort()).toEqual(['latitude', 'subdivisionCode']);
    }
  });

  it('answers none of them', () => {
    const answered = subdivisions.filter((s) => s.covered).map((s) => s.code);
    expect(answered.filter((c) => c in table.deleted)).toEqual([]);
  });
});

describe('the codes the issue found missing', () => {
  // Corse recoded in 2020, São Tomé island split into six districts in 2020, Nouakchott into three
  // regions in 2015, and Estonia's counties recoded in 2020.
  const issue: [string, string[]][] = [
    ['FR-COR', ['FR-20R']],
    ['ST-S', ['ST-01', 'ST-02', 'ST-03', 'ST-04', 'ST-05', 'ST-06']],
    ['MR-NKC', ['MR-13', 'MR-14', 'MR-15']],
    ['EE-44', ['EE-45']],
    ['EE-57', ['EE-56']],
    ['EE-59', ['EE-60']],
    ['EE-65', ['EE-64']],
    ['EE-70', ['EE-71']],
    ['EE-78', ['EE-79']],
    ['EE-82', ['EE-81']],
    ['EE-86', ['EE-87']],
  ];
  it.each(issue)('%s is refused naming %j', (code, successors) => {
    expect(geo.datasetInfo().deletedSubdivisions?.[code]?.successors).toEqual(successors);
    let error: unknown;
    try {
      geo.isInSubdivision(code, 0, 0);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    for (const s of successors) expect((error as ValidationError).message).toContain(`"${s}"`);
  });
});

describe('former FATA (PK-TA until 2019)', () => {
  // Agencies' towns of the former tribal areas: Miranshah (North Waziristan), Wana (South
  // Waziristan), Parachinar (Kurram), Landi Kotal (Khyber), Khar (Bajaur).
  const towns: [string, number, number][] = [
    ['Miranshah', 33.0, 70.07],
    ['Wana', 32.3, 69.57],
    ['Parachinar', 33.9, 70.1],
    ['Landi Kotal', 34.1, 71.14],
    ['Khar', 34.73, 71.52],
  ];
  it.each(towns)('%s answers PK-KP, and isInSubdivision("PK-KP") is true there', (_name, lat, lon) => {
    expect(geo.subdivisionFromGps(lat, lon)).toBe('PK-KP');
    expect(geo.isInSubdivision('PK-KP', lat, lon)).toBe(true);
  });
});
