// A user's own zones go through the same build and are served by createGeoLookup.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
