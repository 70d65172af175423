// geojson-vt 4 and vt-pbf ship no types; these cover the calls the tiler makes.
declare module 'geojson-vt' {
  export interface Options {
    maxZoom?: number;
    indexMaxZoom?: number;
    indexMaxPoints?: number;
    tolerance?: number;
    extent?: number;
    buffer?: number;
  }
  /** A tile as geojson-vt cuts it: features in tile coordinates. */
  export interface Tile {
    features: unknown[];
    numPoints: number;
  }
  export interface Index {
    getTile(z: number, x: number, y: number): Tile | null;
  }
  export default function geojsonvt(data: object, options?: Options): Index;
}

declare module 'vt-pbf' {
  import type { Tile } from 'geojson-vt';
  const vtpbf: {
    fromGeojsonVt(layers: Record<string, Tile>, options?: { version?: number; extent?: number }): Uint8Array;
  };
  export default vtpbf;
}

declare module 'polylabel' {
  /** The pole of inaccessibility of a polygon ([outer, ...holes]) to within `precision`, with its distance to the outline. */
  export default function polylabel(polygon: number[][][], precision?: number): number[] & { distance: number };
}
