// The package's own datasets are trusted by their seals: the format version, payload length and
// checksum from each header, recorded when the package was built (tsup.config.ts reads them from
// dist-data/). build-data ran every load check on those bytes before writing them (and the tests
// run them again), so when an embedded file still carries its seal, and its payload still sums
// to it, the loader skips the pointer checks (src/format/dataset.ts,
// Check). Any other bytes (a user's file, $GEOLOOKUP_DATA, a Buffer, a dataset rebuilt after the
// package) get the full checks. Source runs (vitest, tsx) have no seal and always check in full.

declare const __GEOLOOKUP_SEALS__: Record<string, string> | undefined;

/** File name in dist-data/ → the seal it carried when the package was built. */
export const BUILT_SEALS: Readonly<Record<string, string>> =
  typeof __GEOLOOKUP_SEALS__ === 'object' && __GEOLOOKUP_SEALS__ !== null ? __GEOLOOKUP_SEALS__ : {};
