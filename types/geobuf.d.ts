// geobuf ships no types; these cover the two calls we make.
declare module 'geobuf' {
  import type Pbf from 'pbf';
  export function encode(obj: object, pbf: Pbf): Uint8Array;
  export function decode(pbf: Pbf): { type: string; features?: unknown[] };
}
