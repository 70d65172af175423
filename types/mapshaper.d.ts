// mapshaper ships no types; these cover the calls the lite build makes (its internal API:
// the per-arc tolerances in build-data/simplify.ts need the thresholds between two commands).
declare module 'mapshaper' {
  interface ArcCollection {
    size(): number;
    getVertexData(): { xx: Float64Array; yy: Float64Array; zz: Float64Array; nn: Uint32Array };
    setThresholds(zz: Float64Array): void;
    setRetainedInterval(z: number): void;
  }
  interface Dataset {
    arcs: ArcCollection;
    layers: { shapes: (number[][] | null)[] }[];
  }
  type Options = Record<string, unknown>;
  const mapshaper: {
    internal: {
      importGeoJSON(src: object, opts?: Options): Dataset;
      /** Splits paths into arcs at junctions, so coincident borders become one arc. */
      buildTopology(dataset: Dataset): void;
      getStandardSimplifyOpts(dataset: Dataset, opts: Options): Options;
      simplifyPaths(arcs: ArcCollection, opts: Options): void;
      convertSimplifyInterval(metres: number, dataset: Dataset, opts: Options): number;
      finalizeSimplification(dataset: Dataset, opts: Options): void;
      exportGeoJSON(dataset: Dataset, opts: Options): { content: string | Uint8Array }[];
    };
  };
  export default mapshaper;
}
