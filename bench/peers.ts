// The offline peers, each wrapped as (lat, lon) → alpha-3 or null, measured on the same points.
import { createRequire } from 'node:module';
import * as countryCoder from '@rapideditor/country-coder';

const require = createRequire(import.meta.url);
const whichCountry: (lonLat: [number, number]) => string | null = require('which-country');
const fastReverse: { search(lon: number, lat: number): { code: string } | null } = require('fast-reverse-geocoder');
const geojsonPlaces: {
  lookUp(lat: number, lon: number): { country_a3: string; state_code?: string } | null;
} = require('geojson-places');

export interface Peer {
  name: string;
  country: (lat: number, lon: number) => string | null;
  /** Seconds a point set may take before the peer is cut short (slow peers). */
  capSeconds: number;
}

const lonLat: [number, number] = [0, 0];

export const peers: Peer[] = [
  {
    name: 'fast-reverse-geocoder',
    country: (lat, lon) => fastReverse.search(lon, lat)?.code ?? null,
    capSeconds: 20,
  },
  {
    name: 'which-country',
    country: (lat, lon) => {
      lonLat[0] = lon;
      lonLat[1] = lat;
      return whichCountry(lonLat);
    },
    capSeconds: 20,
  },
  {
    name: '@rapideditor/country-coder',
    country: (lat, lon) => {
      lonLat[0] = lon;
      lonLat[1] = lat;
      return countryCoder.iso1A3Code(lonLat) ?? null;
    },
    capSeconds: 20,
  },
  {
    name: 'geojson-places',
    country: (lat, lon) => geojsonPlaces.lookUp(lat, lon)?.country_a3 ?? null,
    capSeconds: 3,
  },
];
