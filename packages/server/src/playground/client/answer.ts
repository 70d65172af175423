// The answer at a point, asked of the service's own routes (countryFromGps, subdivisionFromGps),
// and shown with the names and ISO parents of the dataset's code tables.

import { type Codes, parentsOf } from '../codes.js';
import type { Explanation } from '../explain.js';
import type { Point } from './point.js';

/** A route's answer: the code, or the service's refusal (404 nowhere, 400 bad input). */
export type Result = { code: string } | { status: number; detail: string };

export interface Answer {
  country: Result;
  subdivision: Result;
  /**
   * Metres to the nearest change of country and of subdivision (null: none within the route's 50
   * km); absent when the service has no border routes (@geolookup/borders not installed).
   */
  border?: { country: number | null; subdivision: number | null };
}

async function ask(route: 'country' | 'subdivision', p: Point): Promise<Result> {
  const pair = `${encodeURIComponent(p.lat)},${encodeURIComponent(p.lon)}`;
  const r = await fetch(`/geo/${route}/fromGps/${pair}`);
  if (r.ok) return { code: await r.text() };
  const problem = (await r.json().catch(() => ({}))) as { detail?: string };
  return { status: r.status, detail: problem.detail ?? r.statusText };
}

/** The border route's answer, or undefined when the service has no such route or refuses the point. */
async function borderDistance(layer: 'country' | 'subdivision', p: Point): Promise<number | null | undefined> {
  const pair = `${encodeURIComponent(p.lat)},${encodeURIComponent(p.lon)}`;
  const r = await fetch(`/geo/border/distance/fromGps/${pair}?layer=${layer}`);
  return r.ok ? ((await r.json()) as number | null) : undefined;
}

export async function lookUp(p: Point): Promise<Answer> {
  const [country, subdivision, toCountry, toSubdivision] = await Promise.all([
    ask('country', p),
    ask('subdivision', p),
    borderDistance('country', p),
    borderDistance('subdivision', p),
  ]);
  const border =
    toCountry === undefined || toSubdivision === undefined
      ? undefined
      : { country: toCountry, subdivision: toSubdivision };
  return { country, subdivision, ...(border ? { border } : {}) };
}

/** Metres as a person reads them: 7.9 m, 1.24 km; null: none within the route's search. */
export function distanceText(m: number | null): string {
  if (m === null) return 'none within 50 km';
  return m < 1000 ? `${m.toFixed(1)} m` : `${(m / 1000).toFixed(2)} km`;
}

export async function explain(p: Point): Promise<Explanation | null> {
  const r = await fetch(`/playground/explain?lat=${encodeURIComponent(p.lat)}&lon=${encodeURIComponent(p.lon)}`);
  return r.ok ? ((await r.json()) as Explanation | null) : null;
}

export const codeOf = (r: Result): string | null => ('code' in r ? r.code : null);

function named(code: string, name: string | undefined): HTMLSpanElement {
  const span = document.createElement('span');
  const c = document.createElement('code');
  c.textContent = code;
  span.append(c, name ? ` ${name}` : '');
  return span;
}

function row(list: HTMLElement, term: string, ...content: (Node | string)[]): HTMLElement {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.append(...content);
  list.append(dt, dd);
  return dd;
}

/** A refusal: 404 (no region here) is a plain answer, anything else a problem. */
function problemText(r: { status: number; detail: string }): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = r.status === 404 ? 'none' : 'problem';
  span.textContent = r.status === 404 ? `none (${r.detail})` : `${r.status}: ${r.detail}`;
  return span;
}

function shown(r: Result, name: (code: string) => string | undefined): HTMLSpanElement {
  return 'code' in r ? named(r.code, name(r.code)) : problemText(r);
}

/** Fills the answer list: country, subdivision and the subdivision's ISO parents up to its alpha-2 country, with names. */
export function showAnswer(list: HTMLElement, a: Answer, codes: Codes): void {
  list.replaceChildren();
  // Bad input: both routes refuse it alike; one line says why.
  if ('status' in a.country && a.country.status === 400) {
    row(list, 'Input', problemText(a.country));
    return;
  }
  row(
    list,
    'Country',
    shown(a.country, (c) => codes.countries[c]?.name),
  );
  row(
    list,
    'Subdivision',
    shown(a.subdivision, (c) => codes.subdivisions[c]?.name),
  );
  if (a.border)
    row(
      list,
      'Nearest border',
      `country ${distanceText(a.border.country)}, subdivision ${distanceText(a.border.subdivision)}`,
    );
  const sub = codeOf(a.subdivision);
  if (sub === null) return;
  const parents = parentsOf(sub, codes);
  const alpha2 = codes.subdivisions[parents.at(-1) ?? sub]?.parent;
  const country = Object.values(codes.countries).find((c) => c.alpha2 === alpha2);
  const chain = row(
    list,
    'ISO parents',
    ...parents.map((p) => named(p, codes.subdivisions[p]?.name)),
    ...(alpha2 ? [named(alpha2, country?.name)] : []),
  );
  chain.className = 'chain';
}
