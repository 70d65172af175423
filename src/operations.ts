// The operations of the lookup service, each defined once: the server's routes and OpenAPI paths,
// the client's methods and the CLI's lookup commands are all made from this table
// (test/integration/operations.test.ts). Adding one: docs/ARCHITECTURE.md, "Adding an operation".

import type { GeoLookup } from './lookup/engine.js';

export interface Operation {
  /** The GeoLookup method, the client's method and the OpenAPI operationId. */
  readonly id: 'countryFromGps' | 'subdivisionFromGps' | 'isInCountry' | 'isInSubdivision';
  /** The CLI's command: `geolookup country 48.8566 2.3522`. */
  readonly command: string;
  /** The HTTP route, in OpenAPI's template form; a code parameter sends the point in the query. */
  readonly path: string;
  /** The code the operation tests the point against (a path parameter), or null. */
  readonly code: 'countryCode' | 'subdivisionCode' | null;
  /** What it answers: an ISO 3166-1 alpha-3 code, an ISO 3166-2 code, or true/false. */
  readonly answer: 'country' | 'subdivision' | 'boolean';
  /** One line for help texts and the OpenAPI summary. */
  readonly summary: string;
}

export const OPERATIONS: readonly Operation[] = [
  {
    id: 'countryFromGps',
    command: 'country',
    path: '/geo/country/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'country',
    summary: 'Country at a point',
  },
  {
    id: 'subdivisionFromGps',
    command: 'subdivision',
    path: '/geo/subdivision/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'subdivision',
    summary: 'ISO 3166-2 subdivision at a point',
  },
  {
    id: 'isInCountry',
    command: 'in-country',
    path: '/geo/country/{countryCode}/isInCountry',
    code: 'countryCode',
    answer: 'boolean',
    summary: 'Whether a point is in a country',
  },
  {
    id: 'isInSubdivision',
    command: 'in-subdivision',
    path: '/geo/subdivision/{subdivisionCode}/isInSubdivision',
    code: 'subdivisionCode',
    answer: 'boolean',
    summary: 'Whether a point is in a subdivision',
  },
];

/** Runs `op` on `geo`: the code first for operations that take one, as GeoLookup's methods do. */
export function callOperation(
  geo: GeoLookup,
  op: Operation,
  code: string | undefined,
  latitude: number | string,
  longitude: number | string,
): string | boolean {
  if (op.code === null)
    return (geo[op.id] as (lat: number | string, lon: number | string) => string)(latitude, longitude);
  return (geo[op.id] as (c: string, lat: number | string, lon: number | string) => boolean)(
    code as string,
    latitude,
    longitude,
  );
}
