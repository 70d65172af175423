// The playground's own routes, under /playground/ (and the page at /): the page's files, the code
// tables, the outlines and the rule line. Everything else is the service's (proxy.ts).

import type { GeoLookup } from 'geolookup';
import { asset } from './assets.js';
import type { CodeTables } from './codes.js';
import type { Collections } from './collections.js';
import { explainPoint } from './explain.js';

export interface Reply {
  status: number;
  type: string;
  body: Buffer | string;
  headers?: Record<string, string>;
}

export interface PlaygroundContext {
  lookup: GeoLookup;
  tables: CodeTables;
  collections: Collections;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const GEOJSON = 'application/geo+json; charset=utf-8';
const COUNTRY_OUTLINES = /^outlines\/([A-Z]{3})\.geojson$/;
const ONE_OUTLINE = /^outline\/([A-Za-z0-9-]{2,12})\.geojson$/;

const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify(value),
  headers,
});

export const notFound = (path: string): Reply => json(404, { error: `No such playground resource: ${path}` });

/** Whether the playground answers this path rather than the service. */
export function isPlaygroundPath(path: string): boolean {
  return path === '/' || path === '/playground' || path.startsWith('/playground/');
}

/** The reply to GET `path` (a playground path) with its query string. */
export async function playgroundReply(ctx: PlaygroundContext, path: string, query: string): Promise<Reply> {
  const sub = path === '/' ? '' : path.slice('/playground/'.length);
  if (sub === 'codes.json') return { status: 200, type: JSON_TYPE, body: ctx.tables.json };
  if (sub === 'explain') return explainReply(ctx, query);
  if (sub === 'outlines/countries.geojson') {
    const world = ctx.collections.countries();
    // Still computing: 202 with the progress, which the page shows before it asks again.
    if (!('json' in world)) return json(202, world, { 'Retry-After': '1' });
    return { status: 200, type: GEOJSON, body: world.json };
  }
  let m = COUNTRY_OUTLINES.exec(sub);
  const subdivisions = m && ctx.collections.subdivisionsOf(m[1]);
  if (subdivisions) return { status: 200, type: GEOJSON, body: await subdivisions };
  m = ONE_OUTLINE.exec(sub);
  const feature = m && ctx.collections.feature(m[1]);
  if (feature) return { status: 200, type: GEOJSON, body: await feature };
  const file = path === '/playground' ? null : await asset(sub);
  return file ? { status: 200, ...file } : notFound(path);
}

/** GET /playground/explain?lat=..&lon=..: the rule behind the answer there, or null. */
function explainReply(ctx: PlaygroundContext, query: string): Reply {
  const params = new URLSearchParams(query);
  const lat = Number(params.get('lat') || Number.NaN);
  const lon = Number(params.get('lon') || Number.NaN);
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180))
    return json(400, { error: 'lat must be from -90 to 90 and lon from -180 to 180' });
  return json(200, explainPoint(ctx.lookup, ctx.tables, lat, lon));
}
