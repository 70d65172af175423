// An operation's request as the client sends it: the route with the point, the code and the named
// parameters filled in, numbers in the decimal notation the service accepts.

import type { Operation } from 'geolookup/extend';

/** An operation's named parameters (Operation['params']) by name; absent ones undefined. */
export type Params = Readonly<Record<string, unknown>>;

/** Decimal notation the service accepts: never an exponent (1e-7 → 0.0000001). */
function formatCoordinate(value: unknown): string {
  if (typeof value === 'number') {
    const s = String(value);
    if (!/e/i.test(s) || !Number.isFinite(value) || Math.abs(value) >= 1e21) return s;
    return value.toFixed(20).replace(/\.?0+$/, '');
  }
  return String(value);
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
  for (const p of op.params ?? []) if (given[p.name] !== undefined) out[p.name] = given[p.name];
  return out;
}
