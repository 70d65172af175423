// `npm run build-data -- --osm` on real OpenStreetMap data that Debian ships: JOSM's
// boundaries.osm (scripts/josm-boundaries.sh takes it from the josm package, cached in .cache/josm/),
// built through the same policy, remaps and code checks as the main dataset, and compared with it
// on GeoNames cities. osmium-tool and apt-get are system dependencies (scripts/system-deps.sh):
// without them the tests skip, unless GEOLOOKUP_REQUIRE_SYSTEM_DEPS=1. The build takes about 20 s
// of CPU (a minute of wall time on CI's shared 2 vCPUs); its duration is logged, not asserted.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetAgreement, parentOf } from '../../bench/accuracy-lib.js';
import * as world from '../../src/index.js';
import { createGeoLookup, deFactoAreaAt, type GeoLookup } from '../../src/index.js';
import { buildDataset } from '../support/build-dataset.js';
import { skipWithout } from '../support/system.js';

const script = fileURLToPath(new URL('../../scripts/josm-boundaries.sh', import.meta.url));

/** The cached .osm.pbf and the josm package's version, or what is missing to get them. */
function josmBoundaries(): { pbf: string; version: string; missing: null } | { missing: string } {
  try {
    execFileSync('osmium', ['--version'], { stdio: 'ignore' });
  } catch {
    return { missing: 'osmium-tool is not installed (scripts/system-deps.sh)' };
  }
  try {
    const [pbf, version] = execFileSync('bash', [script], { encoding: 'utf8' }).trim().split('\n');
    return { pbf, version, missing: null };
  } catch (err) {
    return { missing: `scripts/josm-boundaries.sh failed: ${(err as Error).message}` };
  }
}

const josm = josmBoundaries();

describe.skipIf(skipWithout('OSM extract build (JOSM boundaries.osm)', josm.missing))(
  "a dataset built from JOSM's boundaries.osm (--osm)",
  () => {
    let out: string;
    let built: GeoLookup;
    let report: string;
    const { pbf, version } = josm as { pbf: string; version: string };
    const osmVersion = `josm ${version} (Debian), usr/share/josm/data/boundaries.osm`;
    const at = (lat: number, lon: number) =>
      `${built.tryCountryFromGps(lat, lon)} ${built.trySubdivisionFromGps(lat, lon)}`;

    beforeAll(async () => {
      out = mkdtempSync(join(tmpdir(), 'geolookup-osm-'));
      const t0 = Date.now();
      const file = await buildDataset(out, 'josm', ['--osm', pbf, '--osm-version', osmVersion]);
      console.log(`osm-extract: built ${file} from ${pbf} in ${Date.now() - t0} ms`);
      built = createGeoLookup(file);
      report = readFileSync(join(out, 'josm.REPORT.md'), 'utf8');
    });
    afterAll(() => rmSync(out, { recursive: true, force: true }));

    it("agrees with the main dataset on ≥ 99.5% of GeoNames cities' countries, ≥ 99% of the subdivisions it answers", () => {
      const r = datasetAgreement(built, world, parentOf(world.subdivisions()));
      const country = r.countryAgree / r.cities;
      const subdivision = r.subdivisionAgree / r.subdivisionAnswered;
      console.log(
        `osm-extract: countries ${r.countryAgree}/${r.cities} (${(100 * country).toFixed(3)}%), subdivisions ` +
          `${r.subdivisionAgree}/${r.subdivisionAnswered} (${(100 * subdivision).toFixed(3)}%); most frequent ` +
          `differences (main→built): ${r.countryConfusions.slice(0, 5).map(([k, n]) => `${k} ${n}`)}; ` +
          `${r.subdivisionConfusions.slice(0, 5).map(([k, n]) => `${k} ${n}`)}`,
      );
      expect(r.cities).toBeGreaterThan(130_000);
      expect(country).toBeGreaterThanOrEqual(0.995);
      // The file outlines subdivisions of a few countries only (US, IN, CN, CA, AU, BE…).
      expect(r.subdivisionAnswered).toBeGreaterThan(25_000);
      expect(subdivision).toBeGreaterThanOrEqual(0.99);
    });

    it('names its source: the Debian package version, ODbL with its attribution, and the sha256 of the file read', () => {
      const sha256 = createHash('sha256').update(readFileSync(pbf)).digest('hex');
      expect(built.meta.sources[0]).toEqual({
        name: 'OpenStreetMap extract boundaries.osm.pbf',
        version: osmVersion,
        licence: 'ODbL-1.0',
        attribution: '© OpenStreetMap contributors',
        url: 'https://www.openstreetmap.org/copyright',
        role: 'countries (ISO3166-1 tags, territorial sea as OSM draws it) and subdivisions (ISO3166-2 tags)',
        sha256,
      });
      expect(report).toContain(
        // The Debian package's version names no day: the data report says so.
        `| OpenStreetMap extract boundaries.osm.pbf | ${osmVersion} | unknown | ODbL-1.0 (© OpenStreetMap contributors) |`,
      );
    });

    it("brings the file's stale codes to the reference (policy/osm-remap.json), and reports each", () => {
      expect(at(20.2961, 85.8245)).toBe('IND IN-OD'); // Bhubaneswar: IN-OR in the file
      expect(at(30.3165, 78.0322)).toBe('IND IN-UK'); // Dehradun: IN-UT
      expect(at(17.385, 78.4867)).toBe('IND IN-TS'); // Hyderabad: IN-TG
      expect(at(12.1443, -68.2655)).toBe('BES BQ-BO'); // Kralendijk: NL-BQ1
      expect(at(4.9372, -52.326)).toBe('GUF null'); // Cayenne: FR-GF, the country layer's GUF
      expect(at(16.2411, -61.533)).toBe('GLP null'); // Pointe-à-Pitre: FR-GP
      for (const row of ['| IN-OR | IN-OD |', '| IN-TG | IN-TS |', '| IN-UT | IN-UK |', '| FR-GF | (none) |'])
        expect(report).toContain(row);
      for (const [from, to] of [
        ['NL-BQ1', 'BQ-BO'],
        ['NL-BQ2', 'BQ-SA'],
        ['NL-BQ3', 'BQ-SE'],
      ])
        expect(report).toContain(`| ${from} | ${to} |`);
    });

    it('leaves out and lists the outlines whose ISO3166-1 code is no country (EU, exceptionally reserved codes)', () => {
      for (const code of ['EU', 'EA', 'FX', 'AC', 'DG', 'TA'])
        expect(report).toMatch(new RegExp(`\\| [rw]-?\\d+ \\| ${code} \\| not an ISO 3166-1 alpha-2 code`));
      expect(at(35.8894, -5.3213)).toBe('ESP ES-CE'); // Ceuta: the file's EA outline is skipped, Spain's holds it
    });

    it("keeps the policy's choices: territories, enclaves, the Sovereign Base Areas, Crimea", () => {
      expect(at(18.4655, -66.1057)).toBe('PRI null'); // San Juan: PR inside the USA's outline, the smaller wins
      expect(built.tryCountryFromGps(51.4408, 4.9258)).toBe('BEL'); // Baarle-Hertog, a Belgian enclave in NLD
      expect(built.tryCountryFromGps(34.5883, 32.9849)).toBe('CYP'); // Akrotiri (policy landFromAdmin1)
      // The file draws Crimea in Russia's outline alone, and outlines it as UA-43 and UA-40.
      expect(at(44.9521, 34.1024)).toBe('UKR UA-43'); // Simferopol
      expect(at(44.6167, 33.5254)).toBe('UKR UA-40'); // Sevastopol
      expect(report).toContain(`UKR's subdivision outlines UA-40, UA-43 there are taken as UKR's land`);
      expect(report).not.toContain('Not applied'); // disputes; de facto areas a build does not hold are 'Not kept'
    });

    it('keeps the de facto areas it answers as the policy writes them, and reports each other one as not kept', () => {
      const kept = built.meta.deFacto ?? [];
      for (const a of kept) expect(deFactoAreaAt(a.at[1], a.at[0], built), a.area).toBe(a);
      const policy = JSON.parse(readFileSync('build-data/policy/policy.json', 'utf8'));
      const dropped = policy.deFacto.filter((d: { area: string }) => !kept.some((a) => a.area === d.area));
      for (const d of dropped) expect(report).toContain(`Not kept: de facto area "${d.area}"`);
      console.log(
        `osm-extract: de facto areas kept ${kept.map((a) => a.area)}; not kept ${dropped.map((d: { area: string }) => d.area)}`,
      );
      expect(kept.length).toBeGreaterThan(0);
    });

    it('gives no nearest-subdivision fill in a country the file outlines a few units of (Scotland of the UK)', () => {
      expect(at(55.9533, -3.1883)).toBe('GBR GB-SCT'); // Edinburgh
      expect(at(54.8925, -2.9329)).toBe('GBR null'); // Carlisle, 15 km from Scotland's outline
      expect(report).toMatch(/no fill there; they answer no subdivision outside those outlines: .*GB \d+%/);
    });
  },
);
