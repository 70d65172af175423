// The lite dataset against the full one and against GeoNames: the same codes answerable, the
// small places (enclaves, microstates, atolls) answering as in the full dataset, every
// disagreement with the full dataset within the simplification's stated reach of a full-dataset
// border, and at least 99.9% of GeoNames cities given their country (docs/LITE.md).
import { describe, expect, it } from 'vitest';
import { accuracy, parentOf, subdivisionConsistency } from '../../bench/accuracy-lib.js';
import { METRES_PER_DEGREE } from '../../src/format/layout.js';
import * as full from '../../src/index.js';
import { cityPoints, joinPoints, spherePoints } from '../support/sample-points.js';

const lite = full.createGeoLookup('lite');
const info = lite.meta;

describe('the lite dataset', () => {
  it('is simplified, says how, and has the same sources', () => {
    const s = info.simplification!;
    expect(s.borderM).toBeGreaterThan(0);
    expect(s.coastM).toBeGreaterThanOrEqual(s.borderM);
    expect(full.datasetInfo().simplification).toBeUndefined();
    expect(info.sources).toEqual(full.datasetInfo().sources);
  });

  it('answers every code the full dataset answers: no region vanishes for being small', () => {
    const covered = (list: readonly { code: string; covered: boolean }[]) =>
      list
        .filter((c) => c.covered)
        .map((c) => c.code)
        .sort();
    expect(covered(lite.countries())).toEqual(covered(full.countries()));
    expect(covered(lite.subdivisions())).toEqual(covered(full.subdivisions()));
  });

  it('answers as the full dataset in enclaves, microstates and atolls', () => {
    const places: [string, number, number][] = [
      ['Vatican City', 41.9029, 12.4534],
      ['Monaco', 43.7384, 7.4246],
      ['San Marino', 43.9424, 12.4578],
      ['Büsingen', 47.6969, 8.6906],
      ['Campione d’Italia', 45.9686, 8.9706],
      ['Llívia', 42.4636, 1.9814],
      ['Baarle-Hertog', 51.4402, 4.9265],
      ['Baarle-Nassau', 51.4475, 4.9305],
      ['Melilla', 35.2937, -2.9383],
      ['Ceuta', 35.8894, -5.3213],
      ['Gibraltar', 36.1408, -5.3536],
      ['Funafuti', -8.5211, 179.1983],
      ['Nauru', -0.5477, 166.9209],
      ['Singapore', 1.3521, 103.8198],
      ['Tokelau (Fakaofo)', -9.3803, -171.2188],
    ];
    for (const [name, lat, lon] of places) {
      const want = full.tryCountryFromGps(lat, lon);
      expect(want, name).not.toBeNull();
      expect(lite.tryCountryFromGps(lat, lon), name).toBe(want);
      expect(lite.trySubdivisionFromGps(lat, lon), name).toBe(full.trySubdivisionFromGps(lat, lon));
    }
  });

  it('disagrees with the full dataset only within its tolerance of a full-dataset border', () => {
    const s = info.simplification!;
    // A coast may move by coastM, a shared border by borderM; rounding adds vertexBoundM.
    const reach = (s.coastM + s.vertexBoundM) * 1.05;
    const pts = joinPoints([spherePoints(200_000, 11), cityPoints(100_000, 12)]);
    let differ = 0;
    const far: string[] = [];
    for (let i = 0; i < pts.lat.length; i++) {
      const lat = pts.lat[i];
      const lon = pts.lon[i];
      const got = lite.tryCountryFromGps(lat, lon);
      if (got === full.tryCountryFromGps(lat, lon)) continue;
      differ++;
      // The full dataset must answer lite's answer somewhere within reach (16 bearings, 8 distances).
      let near = false;
      for (let k = 1; k <= 8 && !near; k++) {
        const d = (reach * k) / 8 / METRES_PER_DEGREE;
        for (let b = 0; b < 16 && !near; b++) {
          const a = (b * Math.PI) / 8;
          const y = Math.max(-90, Math.min(90, lat + d * Math.sin(a)));
          let x = lon + (d * Math.cos(a)) / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
          x = ((((x + 180) % 360) + 360) % 360) - 180;
          near = full.tryCountryFromGps(y, x) === got;
        }
      }
      if (!near) far.push(`${lat},${lon}: lite ${got}, full ${full.tryCountryFromGps(lat, lon)}`);
    }
    console.log(`lite: ${differ} of ${pts.lat.length} points answer another country than the full dataset`);
    expect(differ).toBeLessThan(pts.lat.length * 0.002);
    expect(far).toEqual([]);
  });

  it('gives ≥ 99.9% of GeoNames cities their country, and reports subdivisions beside the full dataset', () => {
    const a2to3 = new Map(full.countries().map((c) => [c.alpha2, c.code]));
    const r = accuracy(
      (lat, lon) => lite.tryCountryFromGps(lat, lon),
      (a2) => a2to3.get(a2),
    );
    expect(r.agree / (r.total - r.explained)).toBeGreaterThanOrEqual(0.999);
    const parents = parentOf(full.subdivisions());
    const mine = subdivisionConsistency((lat, lon) => lite.trySubdivisionFromGps(lat, lon), parents, 3);
    const theirs = subdivisionConsistency(full.trySubdivisionFromGps, parents, 3);
    const pct = (c: { agree: number; total: number }) => ((100 * c.agree) / c.total).toFixed(2);
    console.log(
      `lite: country ${((100 * r.agree) / (r.total - r.explained)).toFixed(3)}% of GeoNames cities; ` +
        `subdivision consistency ${pct(mine)}% (full ${pct(theirs)}%)`,
    );
    // Subdivision borders are simplified to a couple of km: a point or two below the full dataset.
    expect(mine.agree / mine.total).toBeGreaterThan(theirs.agree / theirs.total - 0.02);
  });
});
