// Where each tile is cut from: zooms up to OVERVIEW_MAX_ZOOM from one world index of countries
// (built on the first such tile), higher zooms from the block of BLOCK_ZOOM that holds the tile
// (both layers, built on the block's first tile, the last few blocks kept).

import type { GeoLookup } from 'geolookup';
import {
  BLOCK_ZOOM,
  blockBox,
  encodeTile,
  type LayerIndex,
  layerIndex,
  MAX_TILE_ZOOM,
  OVERVIEW_MAX_ZOOM,
  type TileLayer,
  validTile,
} from './tiler.js';

/** Blocks kept: a screen at zoom 8 or more touches at most four. */
const BLOCKS_KEPT = 8;

export interface TileSource {
  /** The tile's MVT bytes, null when it has no feature; throws for a tile this source does not make. */
  tile(z: number, x: number, y: number): Uint8Array | null;
}

/** Tiles of `lookup`'s answers; the overview from `overview` (a simplified copy with the same codes, or `lookup`). */
export function tileSource(lookup: GeoLookup, overview: GeoLookup = lookup): TileSource {
  let world: Partial<Record<TileLayer, LayerIndex>> | null = null;
  const blocks = new Map<string, Record<TileLayer, LayerIndex>>();
  const block = (bx: number, by: number) => {
    const key = `${bx}/${by}`;
    let b = blocks.get(key);
    if (b !== undefined) blocks.delete(key);
    else {
      const box = blockBox(bx, by);
      b = {
        country: layerIndex(lookup, 'country', box, MAX_TILE_ZOOM),
        subdivision: layerIndex(lookup, 'subdivision', box, MAX_TILE_ZOOM),
      };
      if (blocks.size >= BLOCKS_KEPT) blocks.delete(blocks.keys().next().value as string);
    }
    blocks.set(key, b); // last used last
    return b;
  };
  return {
    tile(z, x, y) {
      if (!validTile(z, x, y)) throw new RangeError(`No tile ${z}/${x}/${y}: zoom 0 to ${MAX_TILE_ZOOM}`);
      if (z <= OVERVIEW_MAX_ZOOM) {
        world ??= { country: layerIndex(overview, 'country', [-180, -90, 180, 90], OVERVIEW_MAX_ZOOM) };
        return encodeTile(world, z, x, y);
      }
      const shift = z - BLOCK_ZOOM;
      return encodeTile(block(x >> shift, y >> shift), z, x, y);
    },
  };
}
