// De facto areas (build-data/policy/policy.json deFacto → datasetInfo().deFacto → the playground's
// rule line) on the world dataset: every entry the policy writes is kept, each outline from Natural
// Earth lies where the dataset answers the area's code, and the rule line names the area inside it
// and nowhere else around it. Points are [latitude, longitude].
import { readFileSync } from 'node:fs';
import pip from 'point-in-polygon-hao';
import { describe, expect, it } from 'vitest';
import { codeTables } from '../../packages/server/src/playground/codes.js';
import { explainPoint } from '../../packages/server/src/playground/explain.js';
import type { DeFactoArea } from '../../src/format/dataset.js';
import * as geo from '../../src/index.js';
import { OSM_ADMIN_SOURCE } from '../../build-data/sources/osm-admin.js';
import { packSource } from '../support/data-packs.js';

const policy = JSON.parse(readFileSync('build-data/policy/policy.json', 'utf8'));
const lookup = geo.preload();
const areas: DeFactoArea[] = lookup.meta.deFacto ?? [];
const tables = codeTables(lookup);
const explain = (lat: number, lon: number) => explainPoint(lookup, tables, lat, lon);

describe('de facto areas in the world dataset', () => {
  // Built with the OSM pack every entry is kept; without it (a checkout alone) an area whose code the
  // subdivisions from Natural Earth do not answer at its point is left out, and the report says so.
  it("keeps the policy's entries, in its order, with its words, and names each one left out", () => {
    const written = policy.deFacto.map((d: { area: string; answer: string; reason: string }) => [
      d.area,
      d.answer,
      d.reason,
    ]);
    const kept = new Set(areas.map((a) => a.area));
    expect(areas.map((a) => [a.area, a.answer, a.reason])).toEqual(
      written.filter(([area]: string[]) => kept.has(area)),
    );
    const report = readFileSync('dist-data/world.REPORT.md', 'utf8');
    for (const [area] of written.filter(([a]: string[]) => !kept.has(a)))
      expect(report, area).toMatch(new RegExp(`Not kept: de facto area "${area}"`));
    if (packSource(OSM_ADMIN_SOURCE)) expect(areas).toHaveLength(written.length);
    // The lite dataset is built by the same policy and keeps the same entries.
    expect(geo.createGeoLookup('lite').meta.deFacto).toEqual(areas);
  });

  // Measured: Northern Cyprus 99.4%, Somaliland 99.5%, Siachen 95.0% (Natural Earth's outline reaches
  // west of the Saltoro Ridge, where the OSM borders answer PAK: those points get no rule line).
  it('draws each Natural Earth outline where the dataset answers its code (≥ 94% of a grid inside it)', () => {
    for (const a of areas) {
      const { outline } = a.where;
      if (!outline) continue;
      const xs = outline.flat(2).map((p) => p[0]);
      const ys = outline.flat(2).map((p) => p[1]);
      const [w, e, s, n] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      let inside = 0;
      let agree = 0;
      for (let i = 0; i <= 60; i++)
        for (let j = 0; j <= 60; j++) {
          const lon = w + ((e - w) * i) / 60;
          const lat = s + ((n - s) * j) / 60;
          if (!outline.some((p) => pip([lon, lat], p) === true)) continue;
          inside++;
          if (lookup.tryCountryFromGps(lat, lon) === a.answer) agree++;
        }
      expect(inside, a.area).toBeGreaterThan(300);
      expect(agree / inside, `${a.area}: ${agree} of ${inside}`).toBeGreaterThanOrEqual(0.94);
    }
  });

  it('gives the rule line at each area’s own point, naming the area, the answer and who administers it', () => {
    for (const a of areas) {
      const why = explain(a.at[1], a.at[0]);
      expect(why?.rule, a.area).toBe('de facto');
      expect(why?.detail).toContain(a.area);
      expect(why?.detail).toContain(`answered ${a.answer}, administered by ${a.administeredBy}`);
    }
  });

  it('names the area at towns inside it', () => {
    const inside: [string, number, number][] = [
      ['Northern Cyprus', 35.125, 33.941], // Famagusta
      ['Northern Cyprus', 35.198, 32.993], // Morphou
      ['Western Sahara', 23.718, -15.934], // Dakhla
      ['Kosovo', 42.213, 20.741], // Prizren
      ['Kosovo', 42.891, 20.866], // North Mitrovica
      ['Somaliland', 10.435, 45.014], // Berbera
      ['Transnistria', 46.831, 29.477], // Bender
      ['Abkhazia', 43.084, 40.814], // Gudauta
    ];
    // An area the build left out (built without the OSM pack, its code may not answer there) names nothing.
    const kept = new Set(areas.map((a) => a.area));
    for (const [area, lat, lon] of inside)
      if (kept.has(area)) expect(explain(lat, lon)?.detail, `${lat}, ${lon}`).toContain(area);
      else expect(explain(lat, lon)?.detail ?? '', `${lat}, ${lon}`).not.toContain(area);
  });

  it('names none at towns around the areas, of the same country or the claimant', () => {
    const outside: [number, number][] = [
      [34.675, 33.044], // Limassol (CYP)
      [34.917, 33.636], // Larnaca (CYP)
      [30.421, -9.598], // Agadir (MAR)
      [44.787, 20.457], // Belgrade (SRB)
      [2.046, 45.318], // Mogadishu (SOM)
      [47.011, 28.863], // Chișinău (MDA)
      [41.716, 44.783], // Tbilisi (GEO)
      [39.47, 75.99], // Kashgar (CHN)
      [15.5, 32.56], // Khartoum (SDN)
      [24.09, 32.9], // Aswan (EGY)
      [32.08, 34.78], // Tel Aviv (ISR)
      [34.08, 74.8], // Srinagar (IND)
    ];
    for (const [lat, lon] of outside) expect(explain(lat, lon)?.rule ?? null, `${lat}, ${lon}`).not.toBe('de facto');
  });
});
