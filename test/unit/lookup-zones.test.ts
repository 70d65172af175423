// The four operations on the custom-code fixture (test/fixtures/README.md, zones.geojson): one
// layer of zones, where a hole answers no zone, an enclave and a zone inside a hole answer
// themselves, and codes follow the custom rules. Points are [latitude, longitude].
import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../src/index.js';
import { loadFixture } from '../fixtures/datasets.js';
import { thrown } from '../support/thrown.js';

const zones = loadFixture('zones');

// [what, latitude, longitude, zone or null]
const PLACES: [string, number, number, string | null][] = [
  ['RING', 3.5, 0.5, 'RING'],
  ['RING by its diagonal edge', 3.5, 4.3, 'RING'],
  ['CORE, the enclave in RING', 0.55, 0.55, 'CORE'],
  ["RING's hole", 1.3, 1.3, null],
  ["RING's hole, next to ISLAND", 2.5, 2.5, null],
  ["ISLAND, inside RING's hole", 2, 2, 'ISLAND'],
  ['DATE.LINE_1 west of 180°', 11, 179, 'DATE.LINE_1'],
  ['DATE.LINE_1 east of 180°', 11, -179.5, 'DATE.LINE_1'],
  ['DATE.LINE_1 on longitude 180', 11, 180, 'DATE.LINE_1'],
  ['DATE.LINE_1 on longitude -180', 11, -180, 'DATE.LINE_1'],
  ['outside every zone', 20, 20, null],
  ['south of RING', -0.5, 2, null],
];

describe('each place of the zones fixture', () => {
  it.each(PLACES)('%s', (_what, lat, lon, zone) => {
    expect(zones.tryCountryFromGps(lat, lon)).toBe(zone);
    // One layer: no subdivision anywhere.
    expect(zones.trySubdivisionFromGps(lat, lon)).toBeNull();
    if (zone === null) {
      expect(thrown(() => zones.countryFromGps(lat, lon))).toBeInstanceOf(NotFoundError);
      for (const code of ['RING', 'CORE', 'ISLAND', 'DATE.LINE_1'])
        expect(zones.isInCountry(code, lat, lon)).toBe(false);
    } else {
      expect(zones.countryFromGps(lat, lon)).toBe(zone);
      expect(zones.isInCountry(zone, lat, lon)).toBe(true);
      expect(zones.isInCountry(zone.toLowerCase(), lat, lon)).toBe(true);
    }
  });
  it('an enclave and a zone in a hole are not in the zone around them', () => {
    expect(zones.isInCountry('RING', 0.55, 0.55)).toBe(false);
    expect(zones.isInCountry('RING', 2, 2)).toBe(false);
  });
});

describe('custom codes', () => {
  it('are upper-cased at build time and looked up in any case', () => {
    expect(zones.countryCodes()).toEqual(['CORE', 'DATE.LINE_1', 'ISLAND', 'RING']);
    expect(zones.isInCountry('date.line_1', 11, 179)).toBe(true);
    expect(zones.meta.codes).toBe('custom');
    expect(zones.subdivisions()).toEqual([]);
  });
  it('a well-formed unknown code is NotFoundError, a malformed one ValidationError', () => {
    expect(thrown(() => zones.isInCountry('NOWHERE', 1, 1))).toBeInstanceOf(NotFoundError);
    const e = thrown(() => zones.isInCountry('ring one', 1, 1)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.errors.countryCode).toEqual([`countryCode must be 1-63 letters, digits, '_', '.' or '-', got "ring one"`]);
    // ISO shapes are no rule here: two letters are a code like any other.
    expect(thrown(() => zones.isInCountry('RI', 1, 1))).toBeInstanceOf(NotFoundError);
  });
  it('every subdivision question is NotFoundError: the layer is empty', () => {
    expect(thrown(() => zones.subdivisionFromGps(3.5, 0.5))).toBeInstanceOf(NotFoundError);
    expect(thrown(() => zones.isInSubdivision('RING', 3.5, 0.5))).toBeInstanceOf(NotFoundError);
  });
});

describe('boxes', () => {
  it('a zone with a part on each side of 180° spans the globe; a hole is still inside its box', () => {
    expect(zones.boundingBox('DATE.LINE_1')).toEqual([-180, 10, 180, 12]);
    expect(zones.boundingBox('ring')).toEqual([0, 0, 4.5, 4]);
    expect(zones.regionsInBox(1.9, 1.9, 2.1, 2.1)).toEqual({ countries: ['ISLAND', 'RING'], subdivisions: [] });
  });
});
