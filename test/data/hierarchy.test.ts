// Subdivision parents: the world dataset holds the pinned iso-3166 codes with the parent links of
// build-data/policy/parent-links.json (Debian iso-codes' links, frozen, and the ground's); where
// iso-codes is installed the frozen links equal what it gives and every link not taken is in the data
// report with a reason; isInSubdivision of a parent answers exactly for the points of its descendants.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { policyHierarchy, REASONS, reconcileHierarchy } from '../../build-data/policy/hierarchy.js';
import { isoCodesLinks, readParentLinks } from '../../build-data/policy/parent-links.js';
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

describe.skipIf(skipWithout('iso-codes hierarchy tests', missing))('the frozen links against Debian iso-codes', () => {
  const links = readParentLinks();
  const isoCodes = missing ? [] : readIsoCodes();
  const reconciled = reconcileHierarchy(iso31662, isoCodes);

  it('equal the links the installed iso-codes gives', () => {
    expect(links.isoCodes).toEqual(isoCodesLinks());
    expect(Object.keys(links.isoCodes).length).toBeGreaterThan(400);
  });

  it('lists every iso-codes link not taken in the data report, with its reason', () => {
    const text = readFileSync(report, 'utf8');
    expect(text).toContain(`The installed Debian iso-codes`);
    for (const n of reconciled.notAdopted)
      expect(text).toContain(`| ${n.code} | ${n.isoCodes} | ${n.ours} | ${n.reason} |`);
    expect(text).toContain(`Not taken, not in the pinned reference: ${reconciled.notInPinned.length} iso-codes codes`);
  });
});

describe('the world dataset hierarchy', () => {
  const links = readParentLinks();
  // The pinned codes less those ISO deleted (build-data/policy/deleted-codes.json), which the dataset leaves out.
  const deleted = JSON.parse(readFileSync('build-data/policy/deleted-codes.json', 'utf8')).deleted;
  const pinned = new Map(iso31662.filter((s) => !(s.code in deleted)).map((s) => [s.code, s.parent]));
  const policy = policyHierarchy(iso31662, links);
  const subs = subdivisions();
  const byCode = new Map(subs.map((s) => [s.code, s]));

  it('records iso-codes among the sources, with the release its links were frozen from', () => {
    const s = datasetInfo().sources.find((x) => x.name === 'Debian iso-codes');
    expect(s?.licence).toBe('LGPL-2.1-or-later');
    expect(s?.version).toContain(links.isoCodesVersion);
  });

  it("gives every subdivision the policy's parent: the frozen iso-codes link, the ground's, else the pinned one", () => {
    expect(subs.map((s) => s.code).sort()).toEqual([...pinned.keys()].sort());
    for (const s of subs) {
      const want = links.ground[s.code]?.parent ?? links.isoCodes[s.code] ?? pinned.get(s.code);
      const parent = deleted[want!] ? s.code.slice(0, 2) : want;
      expect(s.parent, s.code).toBe(parent);
      expect(s.parent, s.code).toBe(
        deleted[policy.parents.get(s.code)!] ? s.code.slice(0, 2) : policy.parents.get(s.code),
      );
    }
    for (const [code, parent] of [
      ['GB-CMA', 'GB-ENG'],
      ['GB-EDH', 'GB-SCT'],
      ['BE-VAN', 'BE-VLG'],
      ['BE-WLG', 'BE-WAL'],
      ['EE-130', 'EE-45'],
      ['PH-SCO', 'PH-12'],
      ['PH-SAR', 'PH-12'],
      ['PH-LAN', 'PH-10'],
    ])
      expect(byCode.get(code)!.parent, code).toBe(parent);
    const text = readFileSync(report, 'utf8');
    for (const [code, g] of Object.entries(links.ground))
      expect(text).toContain(`| ${code} | ${g.parent} | ${g.references} |`);
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
    // Executive Order No. 36 (2001): South Cotabato and Sarangani to Region XII, Lanao del Norte to X.
    ['Koronadal', 6.5, 124.85, 'PH-12', true],
    ['Koronadal', 6.5, 124.85, 'PH-11', false],
    ['General Santos', 6.1164, 125.1716, 'PH-12', true],
    ['Alabel', 6.1, 125.29, 'PH-12', true],
    ['Tubod', 8.05, 123.8, 'PH-10', true],
    ['Tubod', 8.05, 123.8, 'PH-12', false],
    ['Iligan', 8.228, 124.2452, 'PH-10', true],
    // Cotabato City, in Bangsamoro since 2019 (policy/osm-remap.json PH-MAG).
    ['Cotabato City', 7.2236, 124.2464, 'PH-14', true],
    ['Cotabato City', 7.2236, 124.2464, 'PH-12', false],
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
