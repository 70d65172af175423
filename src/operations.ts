// The operations of the lookup service, each defined once: the server's routes and OpenAPI paths,
// the client's methods and the CLI's lookup commands are all made from this table
// (test/integration/operations.test.ts). Adding one: docs/ARCHITECTURE.md, "Adding an operation".

import type { GeoLookup } from './lookup/engine.js';

export interface Operation {
  /** The GeoLookup method, the client's method and the OpenAPI operationId. */
  readonly id: 'countryFromGps' | 'subdivisionFromGps' | 'isInCountry' | 'isInSubdivision' | 'timeZoneFromGps';
  /** The CLI's command: `geolookup country 48.8566 2.3522`. */
  readonly command: string;
  /** The HTTP route, in OpenAPI's template form; a code parameter sends the point in the query. */
  readonly path: string;
  /** The code the operation tests the point against (a path parameter), or null. */
  readonly code: 'countryCode' | 'subdivisionCode' | null;
  /** What it answers: an ISO 3166-1 alpha-3 code, an ISO 3166-2 code, or true/false. */
  readonly answer: 'country' | 'subdivision' | 'boolean' | 'timezone';
  /** One line for help texts and the OpenAPI summary. */
  readonly summary: string;
  /**
   * Beyond the service's contract: the package whose lookup answers it, merged into the target
   * callOperation is given (OperationTarget). Absent for the contract's four operations.
   */
  readonly extension?: '@geolookup/timezones';
}

/** What callOperation runs on: a GeoLookup, with the methods of the extension packages installed. */
export type OperationTarget = GeoLookup & {
  timeZoneFromGps?: (latitude: number | string, longitude: number | string) => string;
};

/** The service's contract: the operations every server and client has. */
export const isContract = (op: Operation): boolean => op.extension === undefined;

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
  {
    id: 'timeZoneFromGps',
    command: 'timezone',
    path: '/geo/timezone/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'timezone',
    summary: 'IANA time zone at a point (extension: @geolookup/timezones)',
    extension: '@geolookup/timezones',
  },
];

/** Runs `op` on `geo`: the code first for operations that take one, as GeoLookup's methods do. */
export function callOperation(
  geo: OperationTarget,
  op: Operation,
  code: string | undefined,
  latitude: number | string,
  longitude: number | string,
): string | boolean {
  const method = geo[op.id];
  if (typeof method !== 'function') throw new Error(`${op.id} needs ${op.extension}: install it beside geolookup`);
  if (op.code === null)
    return (geo[op.id] as (lat: number | string, lon: number | string) => string)(latitude, longitude);
  return (geo[op.id] as (c: string, lat: number | string, lon: number | string) => boolean)(
    code as string,
    latitude,
    longitude,
  );
}
