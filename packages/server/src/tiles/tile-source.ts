// Where each tile is cut from: zooms up to OVERVIEW_MAX_ZOOM from one world index of countries
// (built by warm() or on the first such tile, from a prebuilt overview when given), higher zooms
// from the block of BLOCK_ZOOM that holds the tile (both layers, built on the block's first tile,
// the last few blocks kept).

import type { GeoLookup } from 'geolookup';
import { overviewAreas } from './overview.js';
import {
  type Areas,
  areasIndex,
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
  /** Builds the overview's index now rather than on its first tile. */
  warm(): void;
}

/**
 * Tiles of `lookup`'s answers; the overview from `overview`: a simplified copy with the same codes
 * (or `lookup`), or that copy's countries as a prebuilt overview gives them (overview.ts).
 */
export function tileSource(lookup: GeoLookup, overview: GeoLookup | Areas = lookup): TileSource {
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
  const warm = () => {
    world ??= { country: areasIndex(Array.isArray(overview) ? overview : overviewAreas(overview), OVERVIEW_MAX_ZOOM) };
    return world;
  };
  return {
    warm,
    tile(z, x, y) {
      if (!validTile(z, x, y)) throw new RangeError(`No tile ${z}/${x}/${y}: zoom 0 to ${MAX_TILE_ZOOM}`);
      if (z <= OVERVIEW_MAX_ZOOM) return encodeTile(warm(), z, x, y);
      const shift = z - BLOCK_ZOOM;
      return encodeTile(block(x >> shift, y >> shift), z, x, y);
    },
  };
}
