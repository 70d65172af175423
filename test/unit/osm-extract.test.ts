// `npm run build-data -- --osm` on a hand-written extract (test/fixtures/osm/cases.osm, described in
// test/fixtures/README.md): what JOSM's boundaries.osm lacks (test/data/osm-extract.test.ts has the
// real file). An enclave, a country outline holding its territorial sea, a relation whose ring does
// not close, a code that is no country. And the extracts the build refuses, in one line on stderr:
// a file osmium cannot read, one that gives no usable outline. Needs osmium-tool (scripts/system-deps.sh).

import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OsmSkipped, osmExtractShortfall } from '../../build-data/sources/osm-extract.js';
import { createGeoLookup, type GeoLookup } from '../../src/index.js';
import { buildDataset } from '../support/build-dataset.js';
import { programMissing, skipWithout } from '../support/system.js';

const cases = fileURLToPath(new URL('../fixtures/osm/cases.osm', import.meta.url));

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** A build expected to fail, run as buildDataset runs it: its exit code and its stderr alone. */
async function failedBuild(out: string, name: string, flags: string[]): Promise<{ code: number; stderr: string }> {
  const args = ['--import', 'tsx', 'build-data/build.ts', '--name', name, '--out', out, ...flags];
  try {
    await run(process.execPath, args, { cwd: root, maxBuffer: 16 << 20 });
  } catch (e) {
    const { code, stderr } = e as { code: number; stderr: string };
    return { code, stderr };
  }
  throw new Error(`the build of ${name} succeeded: node ${args.join(' ')}`);
}

/** Exit 1 and one line on stderr, `build-data: ...`, no stack trace. */
function expectOneLine(r: { code: number; stderr: string }, says: RegExp): void {
  expect(r.stderr).not.toMatch(/^ {4}at /m);
  expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^build-data: /)]);
  expect(r.stderr).toMatch(says);
  expect(r.code).toBe(1);
}

/** An .osm file of one closed way tagged as a country with `code`. */
const oneCountry = (code: string) => `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="test">
  <node id="1" version="1" lat="10" lon="10"/>
  <node id="2" version="1" lat="10" lon="11"/>
  <node id="3" version="1" lat="11" lon="11"/>
  <way id="10" version="1">
    <nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/>
    <tag k="boundary" v="administrative"/>
    <tag k="admin_level" v="2"/>
    <tag k="ISO3166-1" v="${code}"/>
  </way>
</osm>
`;

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
    await expect(buildDataset(out, 'bad', ['--osm', bad])).rejects.toThrow(/build-data: .*bad\.osm: XML parsing error/);
  });

  describe('a bad extract is one line on stderr, exit 1', () => {
    it('random bytes', async () => {
      // Deterministic "random" bytes: a sha256 chain.
      const blocks = [createHash('sha256').update('random').digest()];
      while (blocks.length < 256) blocks.push(createHash('sha256').update(blocks.at(-1)!).digest());
      const random = join(out, 'random.osm.pbf');
      writeFileSync(random, Buffer.concat(blocks));
      expectOneLine(await failedBuild(out, 'random', ['--osm', random]), /random\.osm\.pbf: PBF error/);
    });

    it.each(['osm', 'osm.pbf'])('a .%s fixture cut in the middle', async (ext) => {
      const whole = join(out, `whole.${ext}`);
      execFileSync('osmium', ['cat', cases, '-o', whole, '--overwrite']);
      const bytes = readFileSync(whole);
      const cut = join(out, `cut.${ext}`);
      writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
      // --osm-version: osmium's first read is then the build's own tags-filter, not fileinfo.
      for (const version of [[], ['--osm-version', 'cut']])
        expectOneLine(
          await failedBuild(out, 'cut', ['--osm', cut, ...version]),
          /cut\.osm(\.pbf)?: (XML parsing error at line \d+, column \d+: unclosed token|PBF error)/,
        );
    });

    it('an extract whose only object is skipped (a code that is no country) names the reason and --accept-skipped', async () => {
      const zz = join(out, 'zz.osm');
      writeFileSync(zz, oneCountry('ZZ'));
      expectOneLine(
        await failedBuild(out, 'zz', ['--osm', zz, '--osm-version', 'zz']),
        /zz\.osm: no usable outline: .*1 skipped: 1× not an ISO 3166-1 alpha-2 code .*\[ZZ\]; --accept-skipped builds it anyway/,
      );
      const accepted = createGeoLookup(
        await buildDataset(out, 'zz', ['--osm', zz, '--osm-version', 'zz', '--accept-skipped']),
      );
      expect(accepted.tryCountryFromGps(10.5, 10.7)).toBeNull();
      expect(readFileSync(join(out, 'zz.REPORT.md'), 'utf8')).toMatch(/\| w10 \| ZZ \| not an ISO 3166-1 alpha-2 code/);
    });
  });
});

describe('osmExtractShortfall: when an extract is refused', () => {
  const skipped = (n: number, reason = 'not an ISO 3166-1 alpha-2 code'): OsmSkipped[] =>
    Array.from({ length: n }, (_, i) => ({ id: `r${i}`, code: `Q${i}`, reason }));

  it('half of the objects skipped passes; more than half does not', () => {
    expect(osmExtractShortfall({ objects: 4, countries: 2, subdivisions: 0, skipped: skipped(2) })).toBeNull();
    expect(osmExtractShortfall({ objects: 3, countries: 1, subdivisions: 0, skipped: skipped(2) })).toMatch(
      /^more than half skipped: 3 OSM ways and relations with an ISO 3166 tag gave 1 country outline and 0 subdivision outlines; 2 skipped: 2× not an ISO 3166-1 alpha-2 code \[Q0, Q1\]$/,
    );
  });

  it('no outline at all, whatever was skipped', () => {
    expect(osmExtractShortfall({ objects: 0, countries: 0, subdivisions: 0, skipped: [] })).toMatch(
      /^no usable outline: no way or relation with an ISO 3166 tag/,
    );
    // Subdivision outlines only, built with --subdivisions none.
    expect(osmExtractShortfall({ objects: 5, countries: 0, subdivisions: 0, skipped: [] })).toMatch(
      /^no usable outline: 5 OSM ways and relations .* gave 0 country outlines and 0 subdivision outlines$/,
    );
  });

  it('the commonest reasons first, three of them, with a few codes each', () => {
    const x = [...skipped(1, 'a'), ...skipped(5, 'b'), ...skipped(2, 'c'), ...skipped(3, 'd')];
    expect(osmExtractShortfall({ objects: 11, countries: 0, subdivisions: 0, skipped: x })).toMatch(
      /; 11 skipped: 5× b \[Q0, Q1, Q2, …\]; 3× d \[Q0, Q1, Q2\]; 2× c \[Q0, Q1\]; and 1 other reason$/,
    );
  });
});
