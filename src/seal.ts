// The package's own dataset is trusted by its seal: the format version, payload length and
// checksum from its header, recorded when the package was built (tsup.config.ts reads them from
// dist-data/world.geolookup). The package's tests load that same file with every check, so when
// the embedded file still carries this seal, and its payload still sums to it, the loader skips
// the pointer checks (src/dataset.ts, Check). Any other bytes (a user's file, $GEOLOOKUP_DATA,
// a Buffer, a dataset rebuilt after the package) get the full checks. Source runs (vitest, tsx)
// have no seal and always check in full.

declare const __GEOLOOKUP_SEAL__: string | undefined;

export const BUILT_SEAL: string = typeof __GEOLOOKUP_SEAL__ === 'string' ? __GEOLOOKUP_SEAL__ : '';

/** version:length:checksum from a dataset file's header ('' when too short to have one). */
export function sealOf(bytes: Uint8Array): string {
  if (bytes.byteLength < 32) return '';
  const dv = new DataView(bytes.buffer, bytes.byteOffset, 32);
  return `${dv.getUint32(8, true)}:${dv.getUint32(16, true)}:${dv.getUint32(20, true)}`;
}
