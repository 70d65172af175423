// geo-tz's quad tree of time-zone pieces (data/timezones.geojson.index.json + .geo.dat, the "all"
// product of timezone-boundary-builder) read back as leaves: each quad's polygons with the zones
// geo-tz lists there, in its order. Its runtime (dist/find-all.js) defines what the leaves mean.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { decode } from 'geobuf';
import Pbf from 'pbf';
import type { Feature, Position } from '../sources/geojson.js';

const require = createRequire(import.meta.url);

export interface Quad {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** A leaf quad: either whole-quad zones (one, or several where tbb's zones overlap) or clipped features. */
export type Leaf = { quad: Quad; zones: string[] } | { quad: Quad; features: Feature[] };

type Node = { pos: number; len: number } | number[] | { [child: string]: Node };

/** geo-tz's package folder (its exports hide package.json: found from the "all" entry, dist/find-all.js). */
export function geoTzDir(): string {
  return dirname(dirname(require.resolve('geo-tz/all')));
}

export function geoTzVersion(): string {
  return JSON.parse(readFileSync(join(geoTzDir(), 'package.json'), 'utf8')).version;
}

/** The quad rectangle as a closed ring. */
export function quadRing(q: Quad): Position[] {
  return [
    [q.left, q.bottom],
    [q.right, q.bottom],
    [q.right, q.top],
    [q.left, q.top],
    [q.left, q.bottom],
  ];
}

/** The child quad a letter names (a: north-east, b: north-west, c: south-west, d: south-east). */
export function childQuad(q: Quad, key: string): Quad {
  if (!'abcd'.includes(key) || key.length !== 1) throw new Error(`geo-tz index: unknown child "${key}"`);
  const midLat = (q.top + q.bottom) / 2; // the root's is 0, as geo-tz starts from
  const midLon = (q.left + q.right) / 2;
  const c = { ...q };
  if (key === 'a' || key === 'b') c.bottom = midLat;
  else c.top = midLat;
  if (key === 'a' || key === 'd') c.left = midLon;
  else c.right = midLon;
  return c;
}

export const ROOT: Quad = { top: 89.9999, bottom: -89.9999, left: -179.9999, right: 179.9999 };

interface Tree {
  names: string[];
  root: Node;
  dat: Buffer;
}

const trees = new Map<string, Tree>();

function readTree(dir: string): Tree {
  const known = trees.get(dir);
  if (known) return known;
  const index = JSON.parse(readFileSync(join(dir, 'data', 'timezones.geojson.index.json'), 'utf8'));
  const tree = {
    names: index.timezones,
    root: index.lookup,
    dat: readFileSync(join(dir, 'data', 'timezones.geojson.geo.dat')),
  };
  trees.set(dir, tree);
  return tree;
}

function leafOf(tree: Tree, node: Node, q: Quad): Leaf | null {
  if ('pos' in node && typeof node.pos === 'number') {
    const pbf = new Pbf(tree.dat.subarray(node.pos, node.pos + (node.len as number)));
    return { quad: q, features: (decode(pbf) as unknown as { features: Feature[] }).features };
  }
  if (Array.isArray(node)) {
    if (node.length === 0) throw new Error('geo-tz index: an empty zone list');
    return { quad: q, zones: node.map((i) => tree.names[i]) };
  }
  return null;
}

/**
 * Every leaf of the tree. The root spans ±89.9999 × ±179.9999 split at 0/0; each child splits at
 * its midpoints, computed as geo-tz does. A missing child is ocean: no leaf.
 */
export function* geoTzLeaves(dir = geoTzDir()): Generator<Leaf> {
  const tree = readTree(dir);
  trees.delete(dir); // the build reads it once: keep no 30 MB copy
  function* walk(node: Node, q: Quad): Generator<Leaf> {
    const leaf = leafOf(tree, node, q);
    if (leaf) yield leaf;
    else
      for (const key of Object.keys(node).sort())
        yield* walk((node as { [child: string]: Node })[key], childQuad(q, key));
  }
  yield* walk(tree.root, ROOT);
}

/** The leaf geo-tz reads for a point (after its clamping to the root), or null for ocean. */
export function geoTzLeafAt(lat: number, lon: number, dir = geoTzDir()): Leaf | null {
  const tree = readTree(dir);
  let node = tree.root;
  let q = ROOT;
  for (;;) {
    const leaf = leafOf(tree, node, q);
    if (leaf) return leaf;
    const midLat = childQuad(q, 'a').bottom;
    const midLon = childQuad(q, 'a').left;
    const key = lat >= midLat ? (lon >= midLon ? 'a' : 'b') : lon < midLon ? 'c' : 'd';
    const next = (node as { [child: string]: Node })[key];
    if (next === undefined) return null;
    node = next;
    q = childQuad(q, key);
  }
}
