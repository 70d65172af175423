// The playground's own routes, under /playground/ (and the page at /): the page's files, the code
// tables, the dataset's facts for the page and the rule line; and the vector tiles under /tiles/.
// Everything else is the service's (proxy.ts).

import type { GeoLookup } from 'geolookup';
import { MAX_TILE_ZOOM, validTile } from '../tiles/tiler.js';
import { asset } from './assets.js';
import type { CodeTables } from './codes.js';
import { explainPoint } from './explain.js';
import type { Tiles } from './tiles.js';

export interface Reply {
  status: number;
  type: string;
  body: Buffer | string;
  headers?: Record<string, string>;
}

export interface PlaygroundContext {
  lookup: GeoLookup;
  tables: CodeTables;
  tiles: Tiles;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const MVT = 'application/vnd.mapbox-vector-tile';
const TILE = /^\/tiles\/(\d{1,2})\/(\d{1,6})\/(\d{1,6})\.mvt$/;

const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify(value),
  headers,
});

export const notFound = (path: string): Reply => json(404, { error: `No such playground resource: ${path}` });

/** Whether the playground answers this path rather than the service. */
export function isPlaygroundPath(path: string): boolean {
  return path === '/' || path === '/playground' || path.startsWith('/playground/') || path.startsWith('/tiles/');
}

/** The reply to GET `path` (a playground path) with its query string. */
export async function playgroundReply(ctx: PlaygroundContext, path: string, query: string): Promise<Reply> {
  if (path.startsWith('/tiles/')) return tileReply(ctx, path);
  const sub = path === '/' ? '' : path.slice('/playground/'.length);
  if (sub === 'codes.json') return { status: 200, type: JSON_TYPE, body: ctx.tables.json };
  if (sub === 'dataset.json') return { status: 200, type: JSON_TYPE, body: ctx.tables.dataset };
  if (sub === 'explain') return explainReply(ctx, query);
  const file = path === '/playground' ? null : await asset(sub);
  return file ? { status: 200, ...file } : notFound(path);
}

/** GET /tiles/{z}/{x}/{y}.mvt: 204 for a tile with no feature, 404 for one beyond the tiler's zooms. */
async function tileReply(ctx: PlaygroundContext, path: string): Promise<Reply> {
  const m = TILE.exec(path);
  const [z, x, y] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [-1, -1, -1];
  if (!validTile(z, x, y)) return json(404, { error: `No such tile: ${path} (zooms 0 to ${MAX_TILE_ZOOM})` });
  const bytes = await ctx.tiles.tile(z, x, y);
  if (bytes === null) return { status: 204, type: MVT, body: '' };
  return { status: 200, type: MVT, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) };
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
