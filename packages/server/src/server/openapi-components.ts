// The reusable parts of the OpenAPI document (openapi.ts): problem-record schemas, the
// rate-limit and caching headers, the API-key scheme. Values come from the code that sends them.

import { PROBLEM_TYPES } from 'geolookup';
import { ALLOW, PROBLEM, problem, RATE_HEADERS } from './responses.js';

type Json = Record<string, unknown>;

const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** The field names a 400 of the contract's routes lists problems under (routes.ts). */
export const FIELDS: readonly string[] = ['latitude', 'longitude', 'countryCode', 'subdivisionCode', 'coordinates'];

/** A problem record of one `type` URI with its own members; no other members allowed. */
function problemKind(type: string, extra: Json = {}, required: string[] = []): Json {
  return {
    allOf: [ref('schemas', 'Problem')],
    properties: { type: { const: type }, ...extra },
    required,
    unevaluatedProperties: false,
  };
}

/** A 400's problem record, listing problems under these field names. */
export function validationProblem(fields: readonly string[]): Json {
  return problemKind(
    PROBLEM_TYPES.validation,
    {
      status: { const: 400 },
      errors: {
        description: 'Every bad field with its messages (a path pair without one comma: `coordinates`).',
        type: 'object',
        propertyNames: { enum: fields },
        additionalProperties: { type: 'array', minItems: 1, items: { type: 'string' } },
      },
    },
    ['errors'],
  );
}

const SCHEMAS: Json = {
  Problem: {
    description: 'RFC 9457 problem record. Never a stack trace.',
    type: 'object',
    required: ['type', 'title', 'status', 'detail'],
    properties: {
      type: { type: 'string', format: 'uri', description: 'Stable URI of the problem kind.' },
      title: { type: 'string', description: 'The HTTP status title.' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong, for people.' },
    },
  },
  GeneralProblem: problemKind(PROBLEM_TYPES.general),
  ValidationProblem: validationProblem(FIELDS),
  AuthenticationProblem: problemKind(PROBLEM_TYPES.authentication, { status: { const: 401 } }),
  NotFoundProblem: problemKind(PROBLEM_TYPES.notFound, { status: { const: 404 } }),
  RateLimitProblem: problemKind(
    PROBLEM_TYPES.rateLimit,
    { status: { const: 429 }, retryAfter: { type: 'integer', minimum: 1, description: 'As Retry-After.' } },
    ['retryAfter'],
  ),
};

const count = (description: string, minimum = 0): Json => ({ description, schema: { type: 'integer', minimum } });

const HEADERS: Json = {
  [RATE_HEADERS.quotaLimit]: count('Monthly quota of the key (or of the anonymous client address).'),
  [RATE_HEADERS.quotaRemaining]: count('Requests left this month.'),
  [RATE_HEADERS.quotaReset]: count('Seconds until the quota resets (00:00 UTC on the first of the month).', 1),
  [RATE_HEADERS.burstLimit]: count('Requests allowed per minute.'),
  [RATE_HEADERS.burstRemaining]: count('Requests left in the current one-minute window.'),
  'Retry-After': count('Seconds to wait before the request can succeed.', 1),
  ETag: {
    description: 'Names the dataset: every answer of one dataset has the same tag.',
    schema: { type: 'string', pattern: '^"gl1-[0-9a-f]{24}"$' },
  },
  'Cache-Control': { description: 'Answers: `public, max-age=N`; refusals: `no-store`.', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'The scheme to use.', schema: { const: 'X-API-Key' } },
  Allow: { description: 'The methods every path accepts.', schema: { const: ALLOW } },
};

/** The five rate-limit headers (with Retry-After on a 429), required or not. */
export function rateHeaders(required: boolean, retryAfter = false): Json {
  const names: string[] = Object.values(RATE_HEADERS);
  if (retryAfter) names.push('Retry-After');
  return Object.fromEntries(
    names.map((n) => [n, required ? { $ref: `#/components/headers/${n}`, required } : ref('headers', n)]),
  );
}

export function header(name: string, required = true): Json {
  return { [name]: { ...ref('headers', name), ...(required ? { required } : {}) } };
}

/** A problem+json response with this description, status and schema (a components/schemas name or a schema). */
export function problemResponse(status: number, description: string, schema: string | Json, headers: Json = {}): Json {
  const body = typeof schema === 'string' ? ref('schemas', schema) : schema;
  return {
    description,
    headers: { 'Cache-Control': ref('headers', 'Cache-Control'), ...headers },
    content: {
      [PROBLEM]: {
        schema: {
          allOf: [body],
          properties: { status: { const: status }, title: { const: problem(status, '').title } },
        },
      },
    },
  };
}

/** A refusal with the general problem type (`about:blank`) for `status`. */
function generalRefusal(status: number, description: string, headers: Json = {}): Json {
  return problemResponse(status, description, 'GeneralProblem', headers);
}

/**
 * 400: a validation problem, or malformed HTTP (general type). `fields`: an operation's own field
 * names (its named parameters), else those of components/schemas/ValidationProblem.
 */
export function badRequest(fields?: readonly string[]): Json {
  const validation = fields ? validationProblem(fields) : ref('schemas', 'ValidationProblem');
  return problemResponse(
    400,
    `Bad ${fields ? 'coordinates or parameters' : 'coordinates or code'} (every bad field listed; rate-limit headers as on any answer to an identified client), or malformed HTTP.`,
    { oneOf: [validation, ref('schemas', 'GeneralProblem')] },
    rateHeaders(false),
  );
}

const RESPONSES: Json = {
  BadRequest: badRequest(),
  Unauthorized: problemResponse(
    401,
    'No X-API-Key, or a bad one.',
    'AuthenticationProblem',
    header('WWW-Authenticate'),
  ),
  NoSuchPath: problemResponse(404, 'No such path.', 'NotFoundProblem', rateHeaders(false)),
  MethodNotAllowed: generalRefusal(405, 'A method other than GET or HEAD.', header('Allow')),
  RequestTimeout: generalRefusal(408, 'The request head or body did not arrive in time.'),
  UriTooLong: generalRefusal(414, 'The request target is too long.'),
  ExpectationFailed: generalRefusal(417, 'An Expect other than 100-continue.'),
  TooManyRequests: problemResponse(
    429,
    'Burst limit or monthly quota exceeded.',
    'RateLimitProblem',
    rateHeaders(true, true),
  ),
  HeaderTooLarge: generalRefusal(431, 'The request head is too large.'),
  InternalError: generalRefusal(500, 'An unexpected error (the detail is generic).'),
};

/** A response of components/responses. */
export const response = (name: string): Json => ref('responses', name);

export const COMPONENTS: Json = {
  schemas: SCHEMAS,
  headers: HEADERS,
  responses: RESPONSES,
  securitySchemes: {
    ApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'One key per client, made with `geolookup keys create`. Authorization: Bearer is not accepted.',
    },
  },
};
