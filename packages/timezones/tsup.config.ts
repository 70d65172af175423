import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { HEADER_BYTES, sealOf } from 'geolookup/extend';

// The seal of the dataset built beside this code: its loads read records on demand and skip the
// pointer checks, as the library's own datasets do (geolookup's createGeoLookup `seal`).
const DATA = 'dist-data/timezones.geolookup';
function seal(): string | undefined {
  if (!existsSync(DATA)) return undefined;
  const fd = openSync(DATA, 'r');
  const bytes = new Uint8Array(HEADER_BYTES);
  readSync(fd, bytes, 0, HEADER_BYTES, 0);
  closeSync(fd);
  return sealOf(bytes);
}

export default defineConfig({
  entry: { index: 'src/index.ts', browser: 'src/browser.ts', extension: 'src/extension.ts' },
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'neutral',
  // dist/ is emptied by `npm run build` first.
  clean: false,
  sourcemap: false,
  splitting: false,
  external: [/^node:/, 'geolookup', 'geolookup/browser', 'geolookup/extend'],
  define: { __TIMEZONES_SEAL__: JSON.stringify(seal() ?? null) },
  dts: {
    entry: { index: 'src/index.ts', browser: 'src/browser.ts', extension: 'src/extension.ts' },
    compilerOptions: { paths: {} },
  },
});
