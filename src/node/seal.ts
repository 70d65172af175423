// The package's own dataset is trusted by its seal: the format version, payload length and
// checksum from its header, recorded when the package was built (tsup.config.ts reads them from
// dist-data/world.geolookup). build-data ran every load check on those bytes before writing
// them (and the tests run them again), so when the embedded file still carries this seal, and
// its payload still sums to it, the loader skips the pointer checks (src/format/dataset.ts,
// Check). Any other bytes (a user's file, $GEOLOOKUP_DATA, a Buffer, a dataset rebuilt after the
// package) get the full checks. Source runs (vitest, tsx) have no seal and always check in full.

declare const __GEOLOOKUP_SEAL__: string | undefined;

export const BUILT_SEAL: string = typeof __GEOLOOKUP_SEAL__ === 'string' ? __GEOLOOKUP_SEAL__ : '';
