// mapshaper ships no types; these cover the calls the builds make: its internal API for the lite
// build (the per-arc tolerances in build-data/simplify.ts need the thresholds between two
// commands), its command line for the time-zone build's dissolve (build-data/timezones/build.ts).
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
    /** Runs a mapshaper command line (reading and writing files); rejects on an error. */
    runCommands(argv: string | string[]): Promise<void>;
    /** Runs commands over in-memory files (name → contents); resolves to the files written. */
    applyCommands(commands: string, input: Record<string, unknown>): Promise<Record<string, string | Uint8Array>>;
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
