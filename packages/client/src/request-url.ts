// An operation's request as the client sends it: the route with the point, the code and the named
// parameters filled in, numbers in the decimal notation the service accepts.

import type { Operation } from 'geolookup/extend';

/** An operation's named parameters (Operation['params']) by name; absent ones undefined. */
export type Params = Readonly<Record<string, unknown>>;

/**
 * Decimal notation the service accepts, never an exponent, exact: 1e-7 → 0.0000001, the digits
 * String() gives shifted, so the server reads back the same double (input-contract.test.ts).
 * Past 64 characters (|v| under about 1e-45) the service refuses any text: such a value is sent as
 * 0, 1e-40 m from the point given.
 */
function formatCoordinate(value: unknown): string {
  if (typeof value !== 'number') return String(value);
  const s = String(value);
  const m = /^(-?)(\d)(?:\.(\d+))?e-(\d+)$/.exec(s);
  if (m === null) return s; // no exponent, or a large one: out of every range, refused alike
  const plain = `${m[1]}0.${'0'.repeat(Number(m[4]) - 1)}${m[2]}${m[3] ?? ''}`;
  return plain.length <= 64 ? plain : '0';
}

/**
 * The operation's route with its parameters filled in: the pair in the path, or the code in the
 * path and the pair in the query; named parameters in the query, in the table's order, absent
 * ones left out (numbers in decimal notation, as coordinates).
 */
export function path(op: Operation, code: string | undefined, lat: unknown, lon: unknown, params?: Params): string {
  const enc = (v: unknown) => encodeURIComponent(formatCoordinate(v));
  if (op.code === null) {
    const route = op.path.replace('{latitude},{longitude}', `${enc(lat)},${enc(lon)}`);
    const query = (op.params ?? [])
      .filter((p) => params?.[p.name] !== undefined)
      .map((p) => `${p.name}=${enc(params![p.name])}`);
    return query.length ? `${route}?${query.join('&')}` : route;
  }
  return `${op.path.replace(`{${op.code}}`, encodeURIComponent(String(code)))}?latitude=${enc(lat)}&longitude=${enc(lon)}`;
}

/** The operation's named parameters that are given, in the table's order (others are not the operation's). */
export function tableParams(op: Operation, given: Params): Params {
  const out: Record<string, unknown> = {};
  // null is not given, as the library's options read it (its default applies).
  for (const p of op.params ?? [])
    if (given[p.name] !== undefined && given[p.name] !== null) out[p.name] = given[p.name];
  return out;
}
