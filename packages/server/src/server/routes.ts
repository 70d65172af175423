// The routes of the service, one per operation of the library's table: URL → library call → body,
// plain text for a code, a boolean or a time zone, JSON for the border operations' numbers, null
// and objects. Coordinate, code and parameter strings go to the library as they are (after
// percent-decoding), so the HTTP API applies exactly the library's input rules. An operation
// beyond the contract is a route only on a server that has its package (extensions.ts).

import { coordinateError, type FieldErrors, NotFoundError, ValidationError } from 'geolookup';
import { type Answer, callError, callOperation, type Operation, type OperationTarget } from 'geolookup/extend';
import { datasetEtag, JSON_TYPE, TEXT } from './responses.js';

/** The paths answered without a key and counted against no limit (admin.ts answers them). */
export const OPEN_PATHS = ['/healthz', '/openapi.json', '/metrics'] as const;

/** Route indexes: the open paths, then `other`, then the server's operations from FIRST_OPERATION. */
export const ROUTE = { healthz: 0, openapi: 1, metrics: 2, other: 3 } as const;
export const FIRST_OPERATION = 4;

/** A server's routes, made once from its operations (the contract's and its extensions'). */
export interface RouteTable {
  readonly ops: readonly Operation[];
  /** By route index: the label metrics and the access log give requests. */
  readonly labels: readonly string[];
  /** By route index: the Content-Type of the operation's answers. */
  readonly types: readonly string[];
  /**
   * By operation: its route split at its parameters. A path is the operation's when it starts with
   * `prefix` and ends with `suffix`; between them the pair, or a code (no '/'). The first match
   * wins, in the table's order, so /geo/country/fromGps/… is never read as a code.
   */
  readonly parts: readonly { op: Operation; prefix: string; suffix: string }[];
  /** By operation: its route as the 404 of an unknown path lists it. */
  readonly routes: readonly string[];
}

/**
 * What answer() and operationEtag() read of a server's operations (extensions.ts builds them, as
 * Operations): declared here so this file need not import extensions.ts.
 */
export interface Routed {
  readonly table: RouteTable;
  /** By table.ops index: what callOperation runs the operation on. */
  readonly targets: readonly OperationTarget[];
  /**
   * By table.ops index: the ETag of the operation's answers, '' until operationEtag() first needs
   * it. The contract's name the server's dataset (server.etag); an extension's, its own data.
   */
  readonly etags: string[];
  /** By table.ops index: the metadata an operation's ETag is made from (an extension's info()). */
  meta(op: number): unknown;
}

/** The ETag of operation `op`'s answers; an extension's data is read at its first use. */
export function operationEtag(ops: Routed, op: number): string {
  let tag = ops.etags[op];
  if (tag === '') tag = ops.etags[op] = datasetEtag({ meta: ops.meta(op) });
  return tag;
}

export function routeTable(ops: readonly Operation[]): RouteTable {
  const open = ['healthz', 'openapi', 'metrics', 'other'];
  return {
    ops,
    labels: [...open, ...ops.map((o) => o.id)],
    types: [...open.map(() => TEXT), ...ops.map((op) => (op.answer === 'json' ? JSON_TYPE : TEXT))],
    parts: ops.map((op) => ({
      op,
      prefix: op.path.slice(0, op.path.indexOf('{')),
      suffix: op.path.slice(op.path.lastIndexOf('}') + 1),
    })),
    routes: ops.map((o) =>
      o.code
        ? `${o.path}?latitude={latitude}&longitude={longitude}`
        : o.params?.some((p) => p.required)
          ? `${o.path}?${o.params
              .filter((p) => p.required)
              .map((p) => `${p.name}={${p.name}}`)
              .join('&')}`
          : o.path,
    ),
  };
}

/** A request target's path: the target without its query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Every path of the main port, in one place: its route index (ROUTE, or an operation of `table`). */
export function routeOf(path: string, table?: RouteTable): number {
  const op = table ? operationOf(path, table) : -1;
  if (op !== -1) return FIRST_OPERATION + op;
  const open = (OPEN_PATHS as readonly string[]).indexOf(path);
  return open === -1 ? ROUTE.other : open;
}

/** The index in table.ops of the operation that answers `path` (without the query), or -1. */
export function operationOf(path: string, table: RouteTable): number {
  const parts = table.parts;
  for (let i = 0; i < parts.length; i++) {
    const { op, prefix, suffix } = parts[i];
    if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length < prefix.length + suffix.length) continue;
    if (op.code === null || path.indexOf('/', prefix.length) === path.length - suffix.length) return i;
  }
  return -1;
}

function clip(s: string, n = 80): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** decodeURIComponent, or undefined for broken percent-encoding. */
function decode(s: string): string | undefined {
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** A 400 listing structural problems (`extra`) together with any coordinate problems. */
function invalid(extra: FieldErrors, lat: unknown, lon: unknown): ValidationError {
  // Fields already reported in `extra` are replaced by a valid stand-in so they are not reported twice.
  return coordinateError(extra.latitude ? '0' : lat, extra.longitude ? '0' : lon, extra);
}

/**
 * The pair's separator is the literal comma: `%2C` is a comma inside a value (RFC 3986 §2.2: encoding
 * a reserved character changes the URI's meaning), decoded with the value after the split, while
 * unreserved characters such as `%2E` decode as themselves (§2.3). docs/SERVER.md#routes.
 */
const ENCODED_COMMA = /%2c/i;
const ENCODED_COMMA_NOTE = ' (an encoded comma, %2C, is part of a value, not the separator)';

function pathPair(raw: string): [string | undefined, string | undefined] {
  const comma = raw.indexOf(',');
  if (comma === -1 || raw.indexOf(',', comma + 1) !== -1 || raw.indexOf('/') !== -1) {
    const why =
      comma === -1
        ? raw === ''
          ? 'the coordinates are missing'
          : `the comma between latitude and longitude is missing${ENCODED_COMMA.test(raw) ? ENCODED_COMMA_NOTE : ''}`
        : raw.indexOf('/') !== -1
          ? 'the pair has extra path segments'
          : 'the pair has more than two parts';
    const message =
      'coordinates must be {latitude},{longitude}: two decimal numbers, one comma, no spaces; ' +
      `${why} in "${clip(raw)}"`;
    throw new ValidationError(`Malformed coordinate pair: ${message.slice(message.indexOf(':') + 2)}.`, {
      coordinates: [message],
    });
  }
  const lat = decode(raw.slice(0, comma));
  const lon = decode(raw.slice(comma + 1));
  if (lat === undefined || lon === undefined) {
    const extra: FieldErrors = {};
    if (lat === undefined) extra.latitude = ['latitude has invalid percent-encoding'];
    if (lon === undefined) extra.longitude = ['longitude has invalid percent-encoding'];
    throw invalid(extra, lat, lon);
  }
  return [lat, lon];
}

interface QueryCoordinates {
  lat: string | undefined;
  lon: string | undefined;
  extra: FieldErrors;
}

function queryValue(raw: string): string | undefined {
  return decode(raw.indexOf('+') === -1 ? raw : raw.replace(/\+/g, ' '));
}

/** latitude and longitude from the query string: each exactly once; other parameters are ignored. */
function queryPair(query: string): QueryCoordinates {
  let lat: string | undefined;
  let lon: string | undefined;
  let nLat = 0;
  let nLon = 0;
  const extra: FieldErrors = {};
  if (query !== '') {
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = queryValue(eq === -1 ? part : part.slice(0, eq));
      if (name !== 'latitude' && name !== 'longitude') continue;
      const rawValue = eq === -1 ? '' : part.slice(eq + 1);
      const value = queryValue(rawValue);
      if (value === undefined) (extra[name] ??= []).push(`${name} has invalid percent-encoding`);
      if (name === 'latitude') {
        nLat++;
        lat = value ?? rawValue;
      } else {
        nLon++;
        lon = value ?? rawValue;
      }
    }
  }
  if (nLat > 1) extra.latitude = [`latitude must be given once, got ${nLat} values`];
  if (nLon > 1) extra.longitude = [`longitude must be given once, got ${nLon} values`];
  return { lat, lon, extra };
}

/**
 * The operation's named parameters from the query string: each at most once, percent-decoded as
 * the coordinates are; absent ones undefined; other parameters are ignored. `extra`: a repeated
 * or badly encoded one.
 */
function queryParams(op: Operation, query: string): { params: Record<string, string>; extra: FieldErrors } {
  const params: Record<string, string> = {};
  const extra: FieldErrors = {};
  const counts: Record<string, number> = {};
  const names = op.params!.map((p) => p.name as string);
  if (query !== '') {
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = queryValue(eq === -1 ? part : part.slice(0, eq));
      if (name === undefined || !names.includes(name)) continue;
      counts[name] = (counts[name] ?? 0) + 1;
      const value = queryValue(eq === -1 ? '' : part.slice(eq + 1));
      if (value === undefined) extra[name] = [`the parameter ${name} has invalid percent-encoding`];
      else params[name] = value;
    }
  }
  // In the table's order, as the library lists its fields.
  const ordered: FieldErrors = {};
  for (const name of names) {
    const n = counts[name] ?? 0;
    if (n > 1) ordered[name] = [`the parameter ${name} must be given once, got ${n} values`];
    else if (extra[name]) ordered[name] = extra[name];
    if (ordered[name]) delete params[name];
  }
  return { params, extra: ordered };
}

/**
 * The parameters' problems by their one definition (geolookup/extend's callError, at a valid
 * stand-in point, so only the parameters can fail). Those in `extra` are already reported.
 */
function paramProblems(op: Operation, params: Record<string, string>, extra: FieldErrors) {
  const found: FieldErrors = {};
  const errors = callError(op, undefined, 0, 0, params)?.errors ?? {};
  for (const p of op.params!) if (errors[p.name] && !extra[p.name]) found[p.name] = errors[p.name];
  return { ...found, ...extra };
}

/** `e` (bad coordinates) with the parameters' problems too, every bad field in one 400. */
function withParams(e: ValidationError, problems: FieldErrors): ValidationError {
  const added = Object.keys(problems).filter((name) => !e.errors[name]);
  if (added.length === 0) return e;
  const messages = added.flatMap((name) => problems[name] ?? []).map((m) => `${m[0].toUpperCase() + m.slice(1)}.`);
  const errors: FieldErrors = { ...e.errors };
  for (const name of added) errors[name] = problems[name];
  return new ValidationError(`${e.message} ${messages.join(' ')}`, errors);
}

/** An operation with named parameters: the point in the path, the parameters in the query. */
function answerWithParams(geo: OperationTarget, op: Operation, inner: string, query: string): Answer {
  const { params, extra } = queryParams(op, query);
  let lat: string | undefined;
  let lon: string | undefined;
  try {
    [lat, lon] = pathPair(inner);
  } catch (e) {
    if (e instanceof ValidationError) throw withParams(e, paramProblems(op, params, extra));
    throw e;
  }
  if (Object.keys(extra).length > 0) throw invalid(paramProblems(op, params, extra), lat, lon);
  // The operation reports a bad point and bad parameters together (input-contract.test.ts).
  return callOperation(geo, op, undefined, lat!, lon!, params);
}

/** The answer as its route sends it (RouteTable.types). */
const body = (op: Operation, result: Answer): string =>
  op.answer === 'json' ? JSON.stringify(result) : String(result);

function codeFromPath(raw: string, field: 'countryCode' | 'subdivisionCode'): { code: string; extra: FieldErrors } {
  const code = decode(raw);
  if (code === undefined) return { code: raw, extra: { [field]: [`${field} has invalid percent-encoding`] } };
  return { code, extra: {} };
}

/**
 * Code problems found by the library, for reporting them along with structural query problems:
 * the check runs with a valid stand-in point, so only the code can fail.
 */
function codeProblems(geo: OperationTarget, op: Operation, code: string): FieldErrors {
  const field = op.code as string;
  try {
    callOperation(geo, op, code, 0, 0);
  } catch (e) {
    if (e instanceof ValidationError && e.errors[field]) return { [field]: e.errors[field] };
  }
  return {};
}

/**
 * Answers one request path (without the query) and query string with the server's operations;
 * `route` is routeOf(path, ops.table) when the caller has it. Returns the body (ops.table.types[route]); throws
 * ValidationError (400) or NotFoundError (404).
 */
export function answer(ops: Routed, path: string, query: string, route = routeOf(path, ops.table)): string {
  const i = route - FIRST_OPERATION;
  if (i < 0) throw unknownPath(path, ops);
  const geo = ops.targets[i];
  const { op, prefix, suffix } = ops.table.parts[i];
  const inner = path.slice(prefix.length, path.length - suffix.length);
  if (op.params !== undefined) return body(op, answerWithParams(geo, op, inner, query));
  if (op.code === null) {
    const [lat, lon] = pathPair(inner);
    return body(op, callOperation(geo, op, undefined, lat!, lon!));
  }
  const field = op.code;
  const { code, extra: codeExtra } = codeFromPath(inner, field);
  const { lat, lon, extra } = queryPair(query);
  if (codeExtra[field] || extra.latitude || extra.longitude) {
    const codeErrs = codeExtra[field] ? codeExtra : codeProblems(geo, op, code);
    throw invalid({ ...codeErrs, ...extra }, lat, lon);
  }
  return body(op, callOperation(geo, op, code, lat!, lon!));
}

/** 404 for a path that is none of the routes (not cacheable, unlike a lookup's 404). */
export class UnknownRouteError extends NotFoundError {}

/** The routes the server answers: the contract's, then the extensions' it has. */
function unknownPath(path: string, ops: Routed): NotFoundError {
  return new UnknownRouteError(`No such resource: ${clip(path)}. Routes: ${ops.table.routes.join(', ')}.`);
}
