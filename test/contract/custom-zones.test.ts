// A user's own zones go through the same build and are served by createGeoLookup.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeoLookup, NotFoundError, ValidationError, type GeoLookup } from '../../src/index.js';
import { buildDataset } from '../support/build-dataset.js';

const dir = mkdtempSync(join(tmpdir(), 'geolookup-zones-'));
const out = join(dir, 'first');
let zones: GeoLookup;

/** The example zones built into `folder`, as a user builds them. */
const buildZones = (folder: string) =>
  buildDataset(folder, 'zones', ['--countries', 'examples/delivery-zones.geojson']);

beforeAll(async () => {
  zones = createGeoLookup(await buildZones(out));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('custom zone dataset', () => {
  it('answers zone codes, with holes honoured and multi-part zones', () => {
    expect(zones.countryFromGps(48.86, 2.34)).toBe('PARIS-CENTRE');
    expect(zones.countryFromGps(48.8, 2.25)).toBe('PARIS-RING');
    expect(zones.countryFromGps(45.72, 5.08)).toBe('LYON');
    expect(() => zones.countryFromGps(47, 3)).toThrow(NotFoundError);
    expect(zones.isInCountry('paris-ring', 48.8, 2.25)).toBe(true);
    expect(zones.isInCountry('lyon', 48.8, 2.25)).toBe(false);
  });
  it('keeps the same input rules and typed errors', () => {
    expect(() => zones.countryFromGps(91, 2)).toThrow(ValidationError);
    expect(() => zones.isInCountry('nowhere', 48.8, 2.2)).toThrow(NotFoundError);
    expect(() => zones.isInCountry('bad code!', 48.8, 2.2)).toThrow(ValidationError);
    expect(() => zones.subdivisionFromGps(48.86, 2.34)).toThrow(NotFoundError);
  });
  it('records its source in the metadata and writes a report', () => {
    expect(zones.meta.codes).toBe('custom');
    expect(zones.countries().map((c) => c.code)).toEqual(['LYON', 'PARIS-CENTRE', 'PARIS-RING']);
    expect(readFileSync(join(out, 'zones.REPORT.md'), 'utf8')).toMatch(/delivery-zones\.geojson/);
  });
  it('is byte-identical when rebuilt from the same inputs', async () => {
    const first = readFileSync(join(out, 'zones.geolookup'));
    const again = await buildZones(join(dir, 'again'));
    expect(readFileSync(again).equals(first)).toBe(true);
  });
});

describe('more zones than gridcountry / blockcountry bytes can name', () => {
  // 300 half-degree squares: zone indexes past 253 are stored as "several" in the one-byte
  // country tables (layout.ts countryByte), so country lookups descend to the entry there.
  const side = 0.5;
  const code = (i: number) => `Z${String(i).padStart(3, '0')}`;
  const corner = (i: number) => [10 + (i % 20) * side, 10 + Math.floor(i / 20) * side];
  let many: GeoLookup;

  beforeAll(async () => {
    const features = Array.from({ length: 300 }, (_, i) => {
      const [x, y] = corner(i);
      const ring = [
        [x, y],
        [x + side, y],
        [x + side, y + side],
        [x, y + side],
        [x, y],
      ];
      return { type: 'Feature', properties: { code: code(i) }, geometry: { type: 'Polygon', coordinates: [ring] } };
    });
    const file = join(dir, 'many-zones.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
    many = createGeoLookup(await buildDataset(join(dir, 'many'), 'many', ['--countries', file]));
  });

  it('answers every zone, the ones past 253 too', () => {
    expect(many.countries().length).toBe(300);
    for (let i = 0; i < 300; i++) {
      const [x, y] = corner(i);
      for (const [fx, fy] of [
        [0.5, 0.5],
        [0.01, 0.01],
        [0.99, 0.99],
      ]) {
        const lat = y + fy * side;
        const lon = x + fx * side;
        expect(many.countryFromGps(lat, lon), `${lat},${lon}`).toBe(code(i));
        expect(many.isInCountry(code(i), lat, lon)).toBe(true);
      }
    }
  });
});
