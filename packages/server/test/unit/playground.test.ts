// The playground's pure parts: the points the page accepts and the ISO parent chain it shows.
import { describe, expect, it } from 'vitest';
import { parentsOf } from '../../src/playground/codes.js';
import { coordinate, hashOf, onGlobe, parsePoint } from '../../src/playground/client/point.js';

describe('points', () => {
  it('reads "lat, lon", "lat lon" and the hash "lat,lon,zoom", keeping the text for the service', () => {
    expect(parsePoint('48.8566, 2.3522')).toEqual({ lat: '48.8566', lon: '2.3522' });
    expect(parsePoint(' 48.8566 2.3522 ')).toEqual({ lat: '48.8566', lon: '2.3522' });
    expect(parsePoint('48.8566,2.3522,7')).toEqual({ lat: '48.8566', lon: '2.3522', zoom: 7 });
    expect(parsePoint('91,abc')).toEqual({ lat: '91', lon: 'abc' });
    for (const bad of ['', '48.8566', '1,2,3,4', '1,,2']) expect(parsePoint(bad), bad).toBeNull();
    expect(onGlobe({ lat: '91', lon: '0' })).toBeNull();
    expect(onGlobe({ lat: '-33.8688', lon: '151.2093' })).toEqual([-33.8688, 151.2093]);
  });

  it('writes a click with at most six decimals and no trailing zeros', () => {
    expect([coordinate(52.5200004), coordinate(13.4), coordinate(-0.0000001), coordinate(10)]).toEqual([
      '52.52',
      '13.4',
      '0',
      '10',
    ]);
    expect(hashOf({ lat: '52.52', lon: '13.405' }, 6)).toBe('52.52,13.405,6');
  });
});

describe('parentsOf', () => {
  it('walks the parents up to, not including, the alpha-2 country', () => {
    const codes = {
      countries: { FRA: { name: 'France', alpha2: 'FR' } },
      subdivisions: {
        'FR-75C': { name: 'Paris', parent: 'FR-IDF' },
        'FR-IDF': { name: 'Île-de-France', parent: 'FR' },
      },
    };
    expect(parentsOf('FR-75C', codes)).toEqual(['FR-IDF']);
    expect(parentsOf('FR-IDF', codes)).toEqual([]);
    expect(parentsOf('XX-1', codes)).toEqual([]);
  });
});
