// `npm run build-data -- --osm` on a hand-written extract (test/fixtures/osm/cases.osm, described in
// test/fixtures/README.md): what JOSM's boundaries.osm lacks (test/data/osm-extract.test.ts has the
// real file). An enclave, a country outline holding its territorial sea, a relation whose ring does
// not close, a code that is no country. Needs osmium-tool (scripts/system-deps.sh).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeoLookup, type GeoLookup } from '../../src/index.js';
import { buildDataset } from '../support/build-dataset.js';
import { programMissing, skipWithout } from '../support/system.js';

const cases = fileURLToPath(new URL('../fixtures/osm/cases.osm', import.meta.url));

const osmiumMissing = () => programMissing('osmium', 'osmium-tool is not installed (scripts/system-deps.sh)');

describe.skipIf(skipWithout('OSM extract fixture build', osmiumMissing()))('--osm on hand-written cases', () => {
  let out: string;
  let osm: GeoLookup;
  let report: string;
  const at = (lat: number, lon: number) => `${osm.tryCountryFromGps(lat, lon)} ${osm.trySubdivisionFromGps(lat, lon)}`;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'geolookup-osm-cases-'));
    osm = createGeoLookup(await buildDataset(out, 'cases', ['--osm', cases, '--osm-version', 'fixture']));
    report = readFileSync(join(out, 'cases.REPORT.md'), 'utf8');
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("an enclave: San Marino, an inner ring of Italy's relation and its own outer, answers SMR", () => {
    expect(at(43.95, 12.45)).toBe('SMR null');
    expect(at(44.2, 12.45)).toBe('ITA IT-45');
    expect(at(43.3, 12.45)).toBe('ITA IT-62');
  });

  it("a sea boundary: Italy's outline runs 0.5° offshore; the nearest subdivision answers within 25 km of the coast", () => {
    expect(at(36.9, 12)).toBe('ITA IT-62'); // 11 km off the coast
    expect(at(36.6, 12)).toBe('ITA null'); // 44 km off: Italy's sea, no subdivision
    expect(at(36.3, 12)).toBe('null null'); // beyond the sea boundary
  });

  it('a relation whose ring does not close is skipped and reported; its land answers what holds it', () => {
    expect(at(45.4, 10.6)).toBe('ITA IT-45'); // inside the broken IT-25
    expect(report).toMatch(/\| r205 \| IT-25 \| no area: osmium could not assemble its rings/);
    expect(report).toMatch(/Skipped: 2\./);
  });

  it('an outline whose ISO3166-1 code is no country (EU) is left out and reported', () => {
    expect(at(48, 15.5)).toBe('null null');
    expect(report).toMatch(/\| r206 \| EU \| not an ISO 3166-1 alpha-2 code/);
  });

  it("the ISO3166-1 key counts as ISO3166-1:alpha2 does, and the policy's dispute it cannot apply is reported", () => {
    expect(osm.tryCountryFromGps(42, 12)).toBe('ITA'); // Italy's relation carries ISO3166-1=IT
    expect(at(45, 34.1)).toBe('UKR null');
    expect(report).toContain('Not applied: policy.json dispute "Crimea": no land part of RUS holds [34.1, 45]');
  });

  it('a file osmium cannot read stops the build with its message', async () => {
    const bad = join(out, 'bad.osm');
    writeFileSync(bad, 'not xml');
    await expect(buildDataset(out, 'bad', ['--osm', bad])).rejects.toThrow(/osmium .*bad\.osm: XML parsing error/);
  });
});
