// Subdivision parents: the world dataset holds the pinned iso-3166 codes with Debian iso-codes'
// parent links (build-data/policy/hierarchy.ts), every link not taken is in the data report with a
// reason, and isInSubdivision of a parent answers exactly for the points of its descendants.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { REASONS, reconcileHierarchy } from '../../build-data/policy/hierarchy.js';
import { ISO_CODES_JSON, readIsoCodes } from '../../build-data/sources/iso-codes.js';
import { datasetInfo, isInSubdivision, subdivisions, trySubdivisionFromGps } from '../../src/index.js';
import { cityPoints, prng } from '../support/sample-points.js';
import { skipWithout } from '../support/system.js';

const report = fileURLToPath(new URL('../../dist-data/world.REPORT.md', import.meta.url));
const missing = existsSync(ISO_CODES_JSON)
  ? null
  : `${ISO_CODES_JSON} is absent (sudo bash scripts/system-deps.sh installs iso-codes)`;

describe('reconcileHierarchy', () => {
  const pinned = [
    { code: 'XA-A', parent: 'XA' },
    { code: 'XA-B', parent: 'XA' },
    { code: 'XA-C', parent: 'XA-B' },
    { code: 'XA-D', parent: 'XA-B' },
    { code: 'XA-E', parent: 'XA-A' },
  ];
  const h = reconcileHierarchy(pinned, [
    { code: 'XA-A', parent: 'XA-E' }, // E is already under A
    { code: 'XA-B', parent: 'XA-A' }, // adopted
    { code: 'XA-C', parent: 'XA-A' }, // ours (B) lies within A once B's link is taken
    { code: 'XA-D', parent: 'XA' }, // no parent named
    { code: 'XA-E', parent: 'XA-Z' }, // Z is not a pinned code
    { code: 'XA-Y', parent: 'XA' },
  ]);

  it('adopts a link to a known code and logs each one it does not take with its reason', () => {
    expect(Object.fromEntries(h.parents)).toEqual({
      'XA-A': 'XA',
      'XA-B': 'XA-A',
      'XA-C': 'XA-B',
      'XA-D': 'XA-B',
      'XA-E': 'XA-A',
    });
    expect(h.adopted).toEqual(['XA-B']);
    expect(h.notAdopted.map((n) => [n.code, n.reason])).toEqual([
      ['XA-A', REASONS.cycle],
      ['XA-C', REASONS.finer],
      ['XA-D', REASONS.noParent],
      ['XA-E', REASONS.parentUnknown],
    ]);
    expect(h.notInPinned).toEqual(['XA-Y']);
  });

  it('fails with the way to install iso-codes when its file is absent', () => {
    expect(() => readIsoCodes('/nonexistent/iso_3166-2.json')).toThrow(/scripts\/system-deps\.sh.*iso-codes/);
  });
});

describe.skipIf(skipWithout('iso-codes hierarchy tests', missing))('the world dataset hierarchy', () => {
  const isoCodes = missing ? [] : readIsoCodes();
  const theirs = new Map(isoCodes.map((e) => [e.code, e.parent]));
  // The pinned codes less those ISO deleted (build-data/policy/deleted-codes.json), which the dataset leaves out.
  const deleted = JSON.parse(readFileSync('build-data/policy/deleted-codes.json', 'utf8')).deleted;
  const pinned = new Map(iso31662.filter((s) => !(s.code in deleted)).map((s) => [s.code, s.parent]));
  const reconciled = reconcileHierarchy(iso31662, isoCodes);
  const notAdopted = new Map(reconciled.notAdopted.map((n) => [n.code, n]));
  const subs = subdivisions();
  const byCode = new Map(subs.map((s) => [s.code, s]));

  it('records iso-codes among the sources', () => {
    expect(datasetInfo().sources.some((s) => s.name === 'Debian iso-codes' && s.licence === 'LGPL-2.1-or-later')).toBe(
      true,
    );
  });

  it("gives every subdivision iso-codes' parent where it names one of ours, else ours with a listed reason", () => {
    expect(subs.map((s) => s.code).sort()).toEqual([...pinned.keys()].sort());
    const text = readFileSync(report, 'utf8');
    let adopted = 0;
    for (const s of subs) {
      expect(s.parent, s.code).toBe(reconciled.parents.get(s.code));
      const ic = theirs.get(s.code);
      if (ic === undefined || ic === s.parent) {
        if (ic !== undefined && ic !== pinned.get(s.code)) adopted++;
        continue;
      }
      const n = notAdopted.get(s.code);
      expect(n, s.code).toBeDefined();
      expect(s.parent, s.code).toBe(pinned.get(s.code));
      expect(text).toContain(`| ${s.code} | ${ic} | ${s.parent} | ${n!.reason} |`);
    }
    expect(adopted).toBe(reconciled.adopted.length);
    expect(adopted).toBeGreaterThan(400);
    for (const [code, parent] of [
      ['GB-CMA', 'GB-ENG'],
      ['GB-EDH', 'GB-SCT'],
      ['BE-VAN', 'BE-VLG'],
      ['BE-WLG', 'BE-WAL'],
      ['EE-130', 'EE-45'],
    ])
      expect(byCode.get(code)!.parent, code).toBe(parent);
    expect(text).toContain(
      `Not adopted, not in the pinned reference: ${reconciled.notInPinned.length} iso-codes codes`,
    );
  });

  it('covers every ancestor of a covered code', () => {
    for (const s of subs.filter((x) => x.covered)) {
      for (let p = byCode.get(s.parent); p; p = byCode.get(p.parent))
        expect(p.covered, `${p.code} over ${s.code}`).toBe(true);
    }
    for (const code of ['GB-ENG', 'GB-SCT', 'GB-WLS', 'GB-NIR', 'BE-VLG', 'BE-WAL'])
      expect(byCode.get(code)!.covered).toBe(true);
  });

  it.each([
    ['Westminster', 51.5007, -0.1246, 'GB-ENG', true],
    ['Edinburgh', 55.9533, -3.1883, 'GB-SCT', true],
    ['Antwerp', 51.2194, 4.4025, 'BE-VLG', true],
    ['Edinburgh', 55.9533, -3.1883, 'GB-ENG', false],
    ['Antwerp', 51.2194, 4.4025, 'BE-WAL', false],
  ] as const)('%s (%d, %d) in %s: %s', (_, lat, lon, code, want) => {
    expect(isInSubdivision(code, lat, lon)).toBe(want);
  });

  it('answers isInSubdivision of a parent exactly for the points of its descendants (20k city points)', () => {
    const aliases = new Set(Object.keys(datasetInfo().aliases ?? {}));
    const parentsByCountry = new Map<string, string[]>();
    for (const s of subs) {
      const p = byCode.get(s.parent);
      if (!p?.covered || aliases.has(p.code)) continue;
      const list = parentsByCountry.get(p.country) ?? [];
      if (!list.includes(p.code)) list.push(p.code);
      parentsByCountry.set(p.country, list);
    }
    const { lat, lon } = cityPoints(20_000, 25);
    const r = prng(2025);
    let positives = 0;
    let negatives = 0;
    for (let i = 0; i < lat.length; i++) {
      const own = trySubdivisionFromGps(lat[i], lon[i]);
      if (own === null) continue;
      const chain = new Set<string>();
      for (let s = byCode.get(own); s; s = byCode.get(s.parent)) chain.add(s.code);
      const candidates = parentsByCountry.get(byCode.get(own)!.country) ?? [];
      const asked = candidates.length ? [candidates[Math.floor(r() * candidates.length)]] : [];
      for (const code of chain) if (candidates.includes(code)) asked.push(code);
      for (const code of asked) {
        const want = chain.has(code);
        if (want) positives++;
        else negatives++;
        expect(isInSubdivision(code, lat[i], lon[i]), `${code} at ${lat[i]}, ${lon[i]} (${own})`).toBe(want);
      }
    }
    expect(positives).toBeGreaterThan(1000);
    expect(negatives).toBeGreaterThan(1000);
  });
});
