// The OpenAPI 3.1 document of the server, generated from its operations (the contract's and its extensions') and the
// values the response writers use, for the server's own settings; served at /openapi.json.
// docs/openapi.json is this document for the default settings (packages/server/test/server-openapi.test.ts
// checks it is current, and that every response the server tests receive conforms to it).

import { JSON_TYPE, PROBLEM } from './responses.js';
import { CORS } from './cors.js';
import {
  badRequest,
  COMPONENTS,
  FIELDS,
  header,
  problemResponse,
  rateHeaders,
  response,
} from './openapi-components.js';
import { type Extension, findExtensions, type Operation, operationsOf, type Param } from 'geolookup/extend';
import type { ServerState } from './state.js';

type Json = Record<string, unknown>;

export interface OpenApiSettings {
  /** The dataset's code style (`meta.codes`): ISO 3166 shapes, or free-form zone codes. */
  codes: 'iso' | 'custom';
  allowAnonymous: boolean;
  burstPerMinute: number;
  anonymousBurstPerMinute: number;
  anonymousMonthlyQuota: number;
  /** Whether this port answers /metrics. */
  metrics: boolean;
  /** Whether the server answers only some Host names (options.hosts): 403 for the others. */
  hosts?: boolean;
  /**
   * The extensions answering on the server: their operations, beyond the contract, are documented
   * (tagged `extensions`). Default none: the contract's four.
   */
  extensions?: readonly Extension[];
}

/** A server's defaults, with every extension installed here (as in this repository): docs/openapi.json. */
export function defaultSettings(): OpenApiSettings {
  return {
    codes: 'iso',
    allowAnonymous: false,
    burstPerMinute: 1000,
    anonymousBurstPerMinute: 10,
    anonymousMonthlyQuota: 10_000,
    metrics: true,
    extensions: findExtensions(),
  };
}

export const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const CUSTOM_CODE = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$';
const EXTENSIONS_TAG = 'extensions';

/** A named parameter of an operation (Operation['params']) in the query. */
function queryParameter(p: Param): Json {
  const fallback = p.default === undefined ? {} : { default: p.default };
  const schema =
    p.kind === 'choice'
      ? { type: 'string', enum: p.values, ...fallback }
      : { type: 'number', minimum: p.min, maximum: p.max, ...fallback };
  const decimal = p.kind === 'number' ? ' A decimal number: digits with an optional point; no exponent.' : '';
  const summary = p.summary[0].toUpperCase() + p.summary.slice(1);
  return { name: p.name, in: 'query', required: p.required, description: `${summary}.${decimal}`, schema };
}

/** The answer's schema: the operation's own (an extension's), else the contract's by kind and code style. */
function answerSchema(op: Operation, codes: OpenApiSettings['codes']): Json {
  if (op.schema) return { ...op.schema };
  if (op.answer === 'boolean') return { type: 'string', enum: ['true', 'false'] };
  if (codes === 'custom') return { type: 'string', pattern: CUSTOM_CODE };
  return op.answer === 'country'
    ? { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 3166-1 alpha-3, e.g. FRA.', examples: ['FRA'] }
    : {
        type: 'string',
        pattern: '^[A-Z]{2}-[A-Z0-9]{1,3}$',
        description: 'ISO 3166-2, e.g. FR-75C.',
        examples: ['FR-75C'],
      };
}

function coordinate(name: 'latitude' | 'longitude', where: 'path' | 'query'): Json {
  const max = name === 'latitude' ? 90 : 180;
  return {
    name,
    in: where,
    required: true,
    description: `Decimal degrees, -${max} to ${max}: digits with an optional leading minus and point; no spaces, plus sign or exponent.`,
    schema: { type: 'number', minimum: -max, maximum: max },
  };
}

function codeParameter(name: 'countryCode' | 'subdivisionCode', codes: OpenApiSettings['codes']): Json {
  const iso =
    name === 'countryCode'
      ? { pattern: '^[A-Za-z]{3}$', description: 'ISO 3166-1 alpha-3 (any case), e.g. FRA.' }
      : { pattern: '^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$', description: 'ISO 3166-2 (any case), e.g. FR-IDF.' };
  const { pattern, description } = codes === 'custom' ? { pattern: CUSTOM_CODE, description: 'A zone code.' } : iso;
  return { name, in: 'path', required: true, description, schema: { type: 'string', pattern } };
}

/** What the document says of an operation beyond the contract. */
function extensionNote(pkg: string): Json {
  return {
    tags: [EXTENSIONS_TAG],
    description:
      `An extension, not part of the Geolocation Lookup Service contract: answered only when ${pkg} is ` +
      'installed beside @geolookup/server (an optional peer dependency); without it this path is no route (404). ' +
      `Its ETag names the dataset of ${pkg}.`,
  };
}

function operation(op: Operation, s: OpenApiSettings): Json {
  const parameters = op.code
    ? [codeParameter(op.code, s.codes), coordinate('latitude', 'query'), coordinate('longitude', 'query')]
    : [coordinate('latitude', 'path'), coordinate('longitude', 'path'), ...(op.params ?? []).map(queryParameter)];
  const cached = { ...header('Cache-Control'), ...header('ETag') };
  // An operation that always answers (a time zone, a distance or null) documents no 404.
  const notFound =
    op.notFound === undefined
      ? {}
      : {
          404: problemResponse(404, op.notFound, 'NotFoundProblem', {
            ...rateHeaders(true),
            ...header('ETag', false),
          }),
        };
  const json = op.answer === 'json';
  return {
    ...(op.extension ? extensionNote(op.extension) : {}),
    operationId: op.id,
    parameters,
    responses: {
      200: {
        description: json ? 'The answer, as JSON.' : 'The answer, as plain text (not JSON).',
        headers: { ...rateHeaders(true), ...cached },
        content: { [json ? JSON_TYPE : TEXT]: { schema: answerSchema(op, s.codes) } },
      },
      304: { description: 'If-None-Match named the ETag.', headers: { ...rateHeaders(true), ...cached } },
      400: op.params
        ? badRequest(['latitude', 'longitude', 'coordinates', ...op.params.map((p) => p.name)])
        : response('BadRequest'),
      401: response('Unauthorized'),
      ...notFound,
      414: response('UriTooLong'),
      429: response('TooManyRequests'),
      500: response('InternalError'),
    },
  };
}

/** The operations the document lists: the contract's, then those of the extensions answering. */
function documented(s: OpenApiSettings): readonly Operation[] {
  return operationsOf(s.extensions ?? []);
}

/** Paths that need no key and count against no limit. */
function openPaths(s: OpenApiSettings): Json {
  const open = (description: string, type: string, schema: Json): Json => ({
    get: {
      security: [],
      responses: { 200: { description, content: { [type]: { schema } } }, 414: response('UriTooLong') },
    },
  });
  const paths: Json = {
    '/healthz': open(
      '`ok`; `degraded` while the shared limits (Redis) are unreachable and this instance limits on its own.',
      TEXT,
      { type: 'string', enum: ['ok', 'degraded'] },
    ),
    '/openapi.json': open('This document.', 'application/json', {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
    }),
  };
  if (s.metrics) paths['/metrics'] = open('Prometheus text format.', METRICS_TYPE, { type: 'string' });
  return paths;
}

/**
 * Answers any request can get, whatever its path and method, before it reaches an operation. A
 * path that fits no template (a pair without its comma) may still be a route's: its 400 may name
 * any documented operation's parameter.
 */
function anyRequest(s: OpenApiSettings): Json {
  const paramNames = [...new Set(documented(s).flatMap((op) => (op.params ?? []).map((p) => p.name as string)))];
  const preflightHeaders: [string, Json][] = [
    ['Access-Control-Allow-Origin', { type: 'string' }],
    ['Access-Control-Allow-Methods', { const: CORS.allowMethods }],
    ['Access-Control-Allow-Headers', { const: CORS.allowHeaders }],
    ['Access-Control-Max-Age', { const: CORS.maxAge }],
  ];
  return {
    204: {
      description: 'CORS preflight (OPTIONS) from a listed origin.',
      headers: Object.fromEntries(preflightHeaders.map(([name, schema]) => [name, { required: true, schema }])),
    },
    400: paramNames.length ? badRequest([...FIELDS, ...paramNames]) : response('BadRequest'),
    401: response('Unauthorized'),
    ...(s.hosts ? { 403: problemResponse(403, 'A Host this server does not answer for.', 'GeneralProblem') } : {}),
    404: response('NoSuchPath'),
    405: response('MethodNotAllowed'),
    408: response('RequestTimeout'),
    414: response('UriTooLong'),
    417: response('ExpectationFailed'),
    429: response('TooManyRequests'),
    431: response('HeaderTooLarge'),
    500: response('InternalError'),
  };
}

function description(s: OpenApiSettings, extensions: boolean): string {
  const anonymous = s.allowAnonymous
    ? `Requests without a key are served as anonymous: ${s.anonymousBurstPerMinute} a minute and ` +
      `${s.anonymousMonthlyQuota} a month per client address.`
    : 'A request without a key is refused (401).';
  return [
    'Country and ISO 3166-2 subdivision lookup from GPS coordinates: the Geolocation Lookup Service contract, self-hosted.',
    ...(extensions
      ? [
          `Operations tagged \`${EXTENSIONS_TAG}\` are beyond the contract, each answered only where its package is`,
          'installed beside the server; they are keyed, limited, cached and refused as the others.',
        ]
      : []),
    `Every operation needs the X-API-Key header. ${anonymous} Each key may send ${s.burstPerMinute} requests a minute,`,
    'and its monthly quota; every answer to an identified client carries the X-RateLimit-* headers.',
    'HEAD is answered on every GET path, without a body. Answers are cacheable (ETag, If-None-Match → 304).',
    `Errors are ${PROBLEM} records. \`x-any-request\` lists the answers any request can get before it`,
    'reaches an operation (malformed HTTP, other methods, unknown paths, CORS preflights).',
  ].join(' ');
}

/** The document for a server with these settings. */
export function openApiDocument(settings: OpenApiSettings = defaultSettings()): Json {
  const paths: Json = {};
  const ops = documented(settings);
  for (const op of ops) paths[op.path] = { get: { summary: op.summary, ...operation(op, settings) } };
  const extensions = ops.some((op) => op.extension !== undefined);
  return {
    openapi: '3.1.0',
    info: {
      title: 'geolookup serve',
      version: '1.0.0',
      description: description(settings, extensions),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(extensions
      ? {
          tags: [
            {
              name: EXTENSIONS_TAG,
              description:
                'Operations beyond the Geolocation Lookup Service contract, each from a package installed beside @geolookup/server.',
            },
          ],
        }
      : {}),
    security: settings.allowAnonymous ? [{ ApiKey: [] }, {}] : [{ ApiKey: [] }],
    paths: { ...paths, ...openPaths(settings) },
    components: COMPONENTS,
    'x-any-request': anyRequest(settings),
  };
}

const documents = new WeakMap<ServerState, { doc: Json; json: string }>();

/** The document of a running server (built once per server), and its JSON. */
export function serverDocument(state: ServerState): { doc: Json; json: string } {
  let d = documents.get(state);
  if (d === undefined) {
    const doc = openApiDocument({
      codes: state.geo.meta.codes,
      allowAnonymous: state.allowAnonymous,
      burstPerMinute: state.burstPerMinute,
      anonymousBurstPerMinute: state.anonBurst,
      anonymousMonthlyQuota: state.anonQuota,
      metrics: state.metricsOnMain,
      hosts: state.hosts !== null,
      extensions: state.operations.extensions,
    });
    d = { doc, json: JSON.stringify(doc) };
    documents.set(state, d);
  }
  return d;
}
