// `geolookup diff` on a real pair of datasets: the lite world against the full one, around the
// Alps (where their borders differ by up to the lite dataset's simplification). The areas are
// checked against an independent count on a fine grid of points, every sample point against both
// lookups, every changed place against the area pairs, and a dataset against itself gives nothing.
import { describe, expect, it } from 'vitest';
import { type PairChange, compareAreas } from '../../src/diff/compare.js';
import { diffDatasets, diffMarkdown } from '../../src/diff/diff.js';
import { geonamesCities } from '../../src/diff/places.js';
import { run } from '../../src/cli/run.js';
import { readDataset } from '../../src/format/dataset.js';
import { createEngine } from '../../src/lookup/engine.js';
import { readFile, resolveDataPath } from '../../src/node/data-path.js';

const BOX: [number, number, number, number] = [6, 46, 10, 48];
const load = (name: 'lite' | 'world') => {
  const file = resolveDataPath(name);
  const bytes = readFile(file);
  return { ds: readDataset(bytes, file, 'checksum'), file, bytes };
};
const A = load('lite');
const B = load('world');
const a = createEngine(A.ds);
const b = createEngine(B.ds);
const cities = geonamesCities()!;
const diff = diffDatasets(A, B, { bbox: BOX, places: cities });
const layerOf = (p: PairChange) => p.layer;

describe('geolookup diff, lite → world around the Alps', () => {
  it('finds both layers changed, with sample points where A answers the old code and B the new', () => {
    expect(diff.identical).toBe(false);
    expect(diff.pairs.filter((p) => p.layer === 'country').length).toBeGreaterThan(3);
    expect(diff.pairs.filter((p) => p.layer === 'subdivision').length).toBeGreaterThan(20);
    for (const p of diff.pairs) {
      expect(p.samples.length).toBeGreaterThan(0);
      for (const [lat, lon] of p.samples) {
        const at = (l: typeof a) =>
          p.layer === 'country' ? l.tryCountryFromGps(lat, lon) : l.trySubdivisionFromGps(lat, lon);
        expect([at(a), at(b)], `${p.layer} ${p.from} → ${p.to} at ${lat},${lon}`).toEqual([p.from, p.to]);
      }
    }
  });

  it('gives areas that a count on a 0.005° grid of points confirms', () => {
    // Independent estimate: each grid point stands for its cell's area (cos-weighted).
    const step = 0.005;
    const est = new Map<string, number>();
    const R = 6371.0072;
    for (let lat = BOX[1] + step / 2; lat < BOX[3]; lat += step) {
      const cellKm2 = ((R * step * Math.PI) / 180) * ((R * step * Math.PI) / 180) * Math.cos((lat * Math.PI) / 180);
      for (let lon = BOX[0] + step / 2; lon < BOX[2]; lon += step) {
        const ca = a.tryCountryFromGps(lat, lon);
        const cb = b.tryCountryFromGps(lat, lon);
        const sa = a.trySubdivisionFromGps(lat, lon);
        const sb = b.trySubdivisionFromGps(lat, lon);
        if (ca !== cb) est.set(`country ${ca}→${cb}`, (est.get(`country ${ca}→${cb}`) ?? 0) + cellKm2);
        if (sa !== sb) est.set(`subdivision ${sa}→${sb}`, (est.get(`subdivision ${sa}→${sb}`) ?? 0) + cellKm2);
      }
    }
    // The box is whole 1° cells, so the diff's cells and the grid cover the same ground.
    const total = (layer: string) => diff.pairs.filter((p) => layerOf(p) === layer).reduce((s, p) => s + p.km2, 0);
    const estTotal = (layer: string) => [...est].filter(([k]) => k.startsWith(layer)).reduce((s, [, v]) => s + v, 0);
    for (const layer of ['country', 'subdivision']) {
      expect(total(layer)).toBeGreaterThan(0);
      expect(Math.abs(total(layer) - estTotal(layer)) / estTotal(layer), layer).toBeLessThan(0.05);
    }
    // The largest pairs, one by one (small ones are a few grid points: too noisy to hold to 10%).
    for (const p of diff.pairs.filter((x) => x.km2 > 40)) {
      const e = est.get(`${p.layer} ${p.from}→${p.to}`) ?? 0;
      expect(Math.abs(p.km2 - e) / p.km2, `${p.layer} ${p.from} → ${p.to}: ${p.km2} vs ${e}`).toBeLessThan(0.1);
    }
  });

  it('lists every place whose answer changes, each inside an area pair of the same codes', () => {
    const inBox = cities.filter((c) => c.lon >= BOX[0] && c.lon <= BOX[2] && c.lat >= BOX[1] && c.lat <= BOX[3]);
    expect(diff.places!.compared).toBe(inBox.length);
    let changed = 0;
    for (const c of inBox) {
      if (a.tryCountryFromGps(c.lat, c.lon) !== b.tryCountryFromGps(c.lat, c.lon)) changed++;
      if (a.trySubdivisionFromGps(c.lat, c.lon) !== b.trySubdivisionFromGps(c.lat, c.lon)) changed++;
    }
    expect(diff.places!.changes.length).toBe(changed);
    expect(changed).toBeGreaterThan(0);
    const pairs = new Set(diff.pairs.map((p) => `${p.layer} ${p.from} ${p.to}`));
    for (const c of diff.places!.changes) expect(pairs.has(`${c.layer} ${c.from} ${c.to}`), c.name).toBe(true);
  });

  it('writes Markdown tables of both layers and the places', () => {
    const md = diffMarkdown(diff, 5);
    expect(md).toMatch(/## Countries\n\n\d+ \(old → new\) pairs/);
    const top = diff.pairs.find((p) => p.layer === 'subdivision')!;
    expect(md).toContain(`| ${top.from} | ${top.to} |`);
    expect(md).toContain('## Places whose answer changes');
  });
});

describe('geolookup diff of a dataset against itself', () => {
  it('is empty, whether the bytes are compared or every cell is walked', () => {
    const same = diffDatasets(B, B, { places: null });
    expect(same.identical).toBe(true);
    expect(same.pairs).toEqual([]);
    expect(same.comparedKm2).toBeGreaterThan(5.0e8); // the whole sphere: 510 M km²
    const only = (col: number, row: number) =>
      col - 180 >= BOX[0] && col - 180 < BOX[2] && row - 90 >= BOX[1] && row - 90 < BOX[3];
    expect(compareAreas(B.ds, B.ds, only).pairs).toEqual([]);
  });
});

describe('the geolookup diff command', () => {
  it('prints JSON with --json and refuses a bad box with exit 2', () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = run(
      ['diff', 'lite', 'world', '--bbox', '9,47,10,48', '--places', 'none', '--json'],
      (s) => out.push(s),
      (s) => err.push(s),
    );
    expect(code).toBe(0);
    const json = JSON.parse(out.join('\n'));
    expect(json.places).toBeNull();
    expect(json.pairs.length).toBeGreaterThan(0);
    expect(json.pairs[0]).toMatchObject({ layer: expect.any(String), km2: expect.any(Number) });
    expect(
      run(
        ['diff', 'lite', 'world', '--bbox', '9,47,8,48'],
        () => {},
        (s) => err.push(s),
      ),
    ).toBe(2);
    expect(
      run(
        ['diff', 'lite'],
        () => {},
        (s) => err.push(s),
      ),
    ).toBe(2);
    expect(
      run(
        ['diff', 'lite', '/nonexistent.geolookup', '--places', 'none'],
        () => {},
        (s) => err.push(s),
      ),
    ).toBe(1);
  });
});
