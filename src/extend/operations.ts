// The operations of the lookup service, and the shape an extension's operations take. The CLI's
// commands, the server's routes and OpenAPI paths and the client's methods are made from
// CONTRACT_OPERATIONS plus the operations of the extensions found (loader.ts, docs/EXTENDING.md).

import type { GeoLookup } from '../lookup/engine.js';
import { coordinateError, countryCodeProblem, quickCoordinate, subdivisionCodeProblem } from '../lookup/validate.js';

/**
 * What an operation answers, over HTTP and in the CLI: an alpha-3 code, an ISO 3166-2 code,
 * true/false, other text (a time zone) sent as text/plain, or any JSON value (application/json).
 */
export type AnswerKind = 'country' | 'subdivision' | 'boolean' | 'text' | 'json';

/** A JSON Schema (OpenAPI 3.1's dialect) as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface Operation {
  /** The method on the target (GeoLookup's, an extension's), the client's method and the OpenAPI operationId. */
  readonly id: string;
  /** The CLI's command: `geolookup country 48.8566 2.3522`. */
  readonly command: string;
  /** The HTTP route, in OpenAPI's template form; a code parameter sends the point in the query. */
  readonly path: string;
  /** The code the operation tests the point against (a path parameter), or null. */
  readonly code: 'countryCode' | 'subdivisionCode' | null;
  readonly answer: AnswerKind;
  /** One line for help texts and the OpenAPI summary. */
  readonly summary: string;
  /** What an answer is, for the CLI's help ("IANA time zone, e.g. Europe/Paris"); default by kind. */
  readonly describe?: string;
  /** The answer's schema as its route sends it (the text, or the JSON value); default by kind. */
  readonly schema?: JsonSchema;
  /**
   * What a NotFoundError from it means (the OpenAPI 404's description); absent: it always answers
   * (a time zone, a distance or null).
   */
  readonly notFound?: string;
  /** The CLI's text of a 'json' answer; default JSON.stringify. */
  readonly text?: (answer: unknown) => string;
  /** Beyond the contract: the package answering it (set from its descriptor's name). */
  readonly extension?: string;
  /**
   * Named parameters after the point: query parameters over HTTP, options in the CLI. A required
   * one is the method's next argument (regionsWithin(lat, lon, radiusM)); the optional ones go
   * together in an options object (distanceToBorder(lat, lon, { maxKm, layer })).
   */
  readonly params?: readonly Param[];
}

interface ParamBase {
  /** Its name in the options object and the query; the CLI's flag is its kebab-case (maxKm → --max-km). */
  readonly name: string;
  readonly required: boolean;
  /** One line for help texts and the OpenAPI parameter. */
  readonly summary: string;
  /** Its placeholder in the CLI's help (`--max-km KM`). */
  readonly placeholder: string;
  /** What an optional one is when not given (the OpenAPI default). */
  readonly default?: number | string;
}
/** A number from min to max; a plain decimal in text (a URL, a command line) of at most 64 characters is read as one. */
export interface NumberParam extends ParamBase {
  readonly kind: 'number';
  readonly min: number;
  readonly max: number;
  /** For the message: "the search distance (maxKm) must be a number from 0 to 500 km". */
  readonly noun: string;
  readonly unit: string;
}
/** One of a few words. */
export interface ChoiceParam extends ParamBase {
  readonly kind: 'choice';
  readonly values: readonly string[];
}
export type Param = NumberParam | ChoiceParam;

/** What an operation answers. */
export type Answer = string | boolean | number | null | object;

/** What callOperation runs on: a GeoLookup, or an extension's target, with a method per operation id. */
export type OperationTarget = object;

/** The service's contract: the operations every server and client has. */
export const isContract = (op: Operation): boolean => op.extension === undefined;

export const CONTRACT_OPERATIONS: readonly Operation[] = [
  {
    id: 'countryFromGps',
    command: 'country',
    path: '/geo/country/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'country',
    summary: 'Country at a point',
    notFound:
      'No country or subdivision at the point (a cacheable answer), an unknown code, or a path that is no route.',
  },
  {
    id: 'subdivisionFromGps',
    command: 'subdivision',
    path: '/geo/subdivision/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'subdivision',
    summary: 'ISO 3166-2 subdivision at a point',
    notFound:
      'No country or subdivision at the point (a cacheable answer), an unknown code, or a path that is no route.',
  },
  {
    id: 'isInCountry',
    command: 'in-country',
    path: '/geo/country/{countryCode}/isInCountry',
    code: 'countryCode',
    answer: 'boolean',
    summary: 'Whether a point is in a country',
    notFound:
      'No country or subdivision at the point (a cacheable answer), an unknown code, or a path that is no route.',
  },
  {
    id: 'isInSubdivision',
    command: 'in-subdivision',
    path: '/geo/subdivision/{subdivisionCode}/isInSubdivision',
    code: 'subdivisionCode',
    answer: 'boolean',
    summary: 'Whether a point is in a subdivision',
    notFound:
      'No country or subdivision at the point (a cacheable answer), an unknown code, or a path that is no route.',
  },
];

/**
 * A parameter's value as the operation takes it: a plain decimal in text (from a URL or a command
 * line, at most 64 characters as a coordinate) as a number; anything else as it is, for paramError.
 */
export function paramValue(param: Param, value: unknown): unknown {
  if (param.kind !== 'number' || typeof value !== 'string') return value;
  // The coordinates' reading of text (their grammar and 64-character cap), with no range of its own.
  const n = quickCoordinate(value, Number.POSITIVE_INFINITY);
  return n === n ? n : value;
}

/** The one message for a parameter's bad value (after paramValue), or null when it is good. */
export function paramError(param: Param, value: unknown): string | null {
  if (param.kind === 'number')
    return typeof value === 'number' && value >= param.min && value <= param.max
      ? null
      : `${param.noun} (${param.name}) must be a number from ${param.min} to ${param.max} ${param.unit}`;
  return typeof value === 'string' && param.values.includes(value)
    ? null
    : `the ${param.name} must be ${param.values.map((v) => `'${v}'`).join(' or ')}`;
}

/**
 * The ValidationError a call with these arguments gets, every bad field listed as the library lists
 * them (the code's by its ISO shape, the point's, the parameters'), or null: what a remote client
 * checks before sending. `params` by name, as given; an optional one missing is its default.
 */
export function callError(
  op: Operation,
  code: unknown,
  latitude: unknown,
  longitude: unknown,
  params?: Readonly<Record<string, unknown>>,
): ReturnType<typeof coordinateError> | null {
  const errors: Record<string, string[]> = {};
  const codeProblem =
    op.code === 'countryCode'
      ? countryCodeProblem(code, 'iso')
      : op.code === 'subdivisionCode'
        ? subdivisionCodeProblem(code, 'iso')
        : null;
  if (codeProblem !== null && op.code !== null) errors[op.code] = [codeProblem];
  for (const p of op.params ?? []) {
    const given = params?.[p.name];
    // An optional one given as undefined or null is not given: the default (as options objects read).
    if ((given === undefined || given === null) && !p.required) continue;
    const problem = paramError(p, paramValue(p, given));
    if (problem !== null) errors[p.name] = [problem];
  }
  const e = coordinateError(latitude, longitude, errors);
  return Object.keys(e.errors ?? {}).length > 0 ? e : null;
}

/**
 * Runs `op` on `target`: the code first for operations that take one, as GeoLookup's methods do; the
 * named parameters (`params`, absent ones undefined) after the point, as Operation['params'] says.
 */
export function callOperation(
  target: OperationTarget | GeoLookup,
  op: Operation,
  code: string | undefined,
  latitude: unknown,
  longitude: unknown,
  params?: Readonly<Record<string, unknown>>,
): Answer {
  const method = (target as Record<string, unknown>)[op.id] as ((...args: unknown[]) => Answer) | undefined;
  if (typeof method !== 'function') throw new Error(`${op.id} needs ${op.extension}: install it beside geolookup`);
  if (op.code !== null) return method.call(target, code, latitude, longitude);
  if (op.params === undefined) return method.call(target, latitude, longitude);
  const args: unknown[] = [latitude, longitude];
  let options: Record<string, unknown> | undefined;
  for (const p of op.params) {
    const value = paramValue(p, params?.[p.name]);
    if (p.required) args.push(value);
    else if (value !== undefined) (options ??= {})[p.name] = value;
  }
  if (options) args.push(options);
  return method.apply(target, args);
}

/** The CLI flag of a parameter: maxKm → max-km. */
export const flagOf = (p: Param): string => p.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
