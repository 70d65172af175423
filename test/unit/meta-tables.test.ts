// The meta's code tables stored as columns (src/format/meta-tables.ts): what the build writes
// reads back as the lists it started from, for the ISO fixture and the custom-zones one.

import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/format/dataset.js';
import {
  checkColumns,
  countryColumns,
  countryList,
  subdivisionColumns,
  subdivisionList,
} from '../../src/format/meta-tables.js';
import { DataError } from '../../src/lookup/errors.js';
import { type FixtureName, fixtureBytes } from '../fixtures/datasets.js';

describe.each<FixtureName>(['iso', 'zones'])('the %s fixture', (fixture) => {
  const ds = readDataset(fixtureBytes(fixture), fixture);
  const { countries, subdivisions } = ds.meta;

  it('lists rebuilt from columns equal the lists the columns were made from', () => {
    expect(countryList(countryColumns(countries))).toEqual(countries);
    expect(subdivisionList(subdivisionColumns(subdivisions))).toEqual(subdivisions);
  });

  it('parent indexes, covered flags and code maps agree with the lists', () => {
    subdivisions.forEach((s, i) => {
      const p = ds.subdivisionParent[i];
      expect(p < 0 ? s.parent : subdivisions[p].code).toBe(s.parent);
      expect(ds.subdivisionCovered[i]).toBe(s.covered ? 1 : 0);
      expect(ds.subdivisionByCode.get(s.code)).toBe(i);
    });
    countries.forEach((c, i) => {
      expect(ds.countryByCode.get(c.code)).toBe(i);
    });
  });
});

describe('the columns the build writes and the reader takes', () => {
  const { subdivisions } = readDataset(fixtureBytes('iso'), 'iso').meta;
  const child = subdivisions.findIndex((s) => subdivisions.some((p) => p.code === s.parent));

  it('the build refuses a subdivision whose country is not where its parents lead', () => {
    const wrong = subdivisions.map((s, i) => (i === child ? { ...s, country: 'ZZ' } : s));
    expect(() => subdivisionColumns(wrong)).toThrow(/country ZZ is not where its parents lead/);
  });

  it('the reader refuses a parent chain that loops, with no list made', () => {
    const columns = subdivisionColumns(subdivisions);
    const countries = countryColumns([]);
    columns.parent[columns.parent[child] as number] = child;
    expect(() => checkColumns(countries, columns, 'edited')).toThrow(DataError);
    expect(() => checkColumns(countries, columns, 'edited')).toThrow(/edited: subdivision .* is its own ancestor/);
  });
});
