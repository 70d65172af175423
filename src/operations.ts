// The operations of the lookup service, each defined once: the server's routes and OpenAPI paths,
// the client's methods and the CLI's lookup commands are all made from this table
// (test/integration/operations.test.ts). Adding one: docs/ARCHITECTURE.md, "Adding an operation".

import type { GeoLookup } from './lookup/engine.js';

export interface Operation {
  /** The GeoLookup method, the client's method and the OpenAPI operationId. */
  readonly id:
    | 'countryFromGps'
    | 'subdivisionFromGps'
    | 'isInCountry'
    | 'isInSubdivision'
    | 'timeZoneFromGps'
    | 'distanceToBorder'
    | 'nearestCountry'
    | 'nearestSubdivision'
    | 'regionsWithin';
  /** The CLI's command: `geolookup country 48.8566 2.3522`. */
  readonly command: string;
  /** The HTTP route, in OpenAPI's template form; a code parameter sends the point in the query. */
  readonly path: string;
  /** The code the operation tests the point against (a path parameter), or null. */
  readonly code: 'countryCode' | 'subdivisionCode' | null;
  /**
   * What it answers: an ISO 3166-1 alpha-3 code, an ISO 3166-2 code, true/false, a time zone; or,
   * from @geolookup/borders, metres or null ('distance'), { code, distanceM } ('nearest'), or
   * { countries, subdivisions } ('regions'), the last two sent as JSON.
   */
  readonly answer: 'country' | 'subdivision' | 'boolean' | 'timezone' | 'distance' | 'nearest' | 'regions';
  /** One line for help texts and the OpenAPI summary. */
  readonly summary: string;
  /**
   * Beyond the service's contract: the package whose lookup answers it, merged into the target
   * callOperation is given (OperationTarget). Absent for the contract's four operations.
   */
  readonly extension?: '@geolookup/timezones' | '@geolookup/borders';
  /**
   * Named parameters after the point: query parameters over HTTP, options in the CLI. A required
   * one is the method's next argument (regionsWithin(lat, lon, radiusM)); the optional ones go
   * together in an options object (distanceToBorder(lat, lon, { maxKm, layer })).
   */
  readonly params?: readonly Param[];
}

export interface Param {
  readonly name: 'maxKm' | 'layer' | 'radiusM';
  /** 'number': a decimal in text (HTTP, CLI) is read as a number; 'layer': 'country' or 'subdivision'. */
  readonly kind: 'number' | 'layer';
  readonly required: boolean;
  /** One line for help texts and the OpenAPI parameter. */
  readonly summary: string;
}

/** What an operation answers (Operation['answer'] says which). */
export type Answer = string | boolean | number | null | NearestAnswer | RegionsAnswer;
export interface NearestAnswer {
  code: string;
  distanceM: number;
}
export interface RegionsAnswer {
  countries: NearestAnswer[];
  subdivisions: NearestAnswer[];
}
type Point = number | string;

/** What callOperation runs on: a GeoLookup, with the methods of the extension packages installed. */
export type OperationTarget = GeoLookup & {
  timeZoneFromGps?: (latitude: Point, longitude: Point) => string;
  distanceToBorder?: (
    latitude: Point,
    longitude: Point,
    options?: { maxKm?: number; layer?: 'country' | 'subdivision' },
  ) => number | null;
  nearestCountry?: (latitude: Point, longitude: Point, options?: { maxKm?: number }) => NearestAnswer;
  nearestSubdivision?: (latitude: Point, longitude: Point, options?: { maxKm?: number }) => NearestAnswer;
  regionsWithin?: (latitude: Point, longitude: Point, radiusM: number) => RegionsAnswer;
};

const MAX_KM: Param = {
  name: 'maxKm',
  kind: 'number',
  required: false,
  summary: 'how far to search, in km (default 50, at most 500)',
};
const BORDERS = '@geolookup/borders';

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
  {
    id: 'distanceToBorder',
    command: 'distance',
    path: '/geo/border/distance/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'distance',
    summary: 'Metres to the nearest change of answer, or null past maxKm (extension: @geolookup/borders)',
    extension: BORDERS,
    params: [
      MAX_KM,
      {
        name: 'layer',
        kind: 'layer',
        required: false,
        summary: "'country' (default): where the country changes; 'subdivision': where the subdivision does",
      },
    ],
  },
  {
    id: 'nearestCountry',
    command: 'nearest',
    path: '/geo/country/nearest/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'nearest',
    summary: 'Country at a point, else the nearest within maxKm (extension: @geolookup/borders)',
    extension: BORDERS,
    params: [MAX_KM],
  },
  {
    id: 'nearestSubdivision',
    command: 'nearest-subdivision',
    path: '/geo/subdivision/nearest/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'nearest',
    summary: 'Subdivision at a point, else the nearest within maxKm (extension: @geolookup/borders)',
    extension: BORDERS,
    params: [MAX_KM],
  },
  {
    id: 'regionsWithin',
    command: 'within',
    path: '/geo/regions/within/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'regions',
    summary: 'Every country and subdivision within radiusM of a point (extension: @geolookup/borders)',
    extension: BORDERS,
    params: [{ name: 'radiusM', kind: 'number', required: true, summary: 'the radius, in metres (at most 500,000)' }],
  },
];

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * A parameter's value as the operation takes it: a decimal in text (from a URL or a command line)
 * as a number; anything else as it is, for the operation to refuse with a ValidationError naming it.
 */
export function paramValue(param: Param, value: unknown): unknown {
  return param.kind === 'number' && typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
}

/**
 * Runs `op` on `geo`: the code first for operations that take one, as GeoLookup's methods do; the
 * named parameters (`params`, absent ones undefined) after the point, as Operation['params'] says.
 */
export function callOperation(
  geo: OperationTarget,
  op: Operation,
  code: string | undefined,
  latitude: Point,
  longitude: Point,
  params?: Readonly<Record<string, unknown>>,
): Answer {
  const method = geo[op.id] as ((...args: unknown[]) => Answer) | undefined;
  if (typeof method !== 'function') throw new Error(`${op.id} needs ${op.extension}: install it beside geolookup`);
  if (op.code !== null) return method.call(geo, code, latitude, longitude);
  if (op.params === undefined) return method.call(geo, latitude, longitude);
  const args: unknown[] = [latitude, longitude];
  let options: Record<string, unknown> | undefined;
  for (const p of op.params) {
    const value = paramValue(p, params?.[p.name]);
    if (p.required) args.push(value);
    else if (value !== undefined) (options ??= {})[p.name] = value;
  }
  if (options) args.push(options);
  return method.apply(geo, args);
}
