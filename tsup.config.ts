import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { HEADER_BYTES, sealOf } from './src/format/container.js';
import { EMBEDDED_DATASETS } from './src/node/data-path.js';

// The seals of the datasets built beside this code (src/node/seal.ts): their loads skip the pointer checks.
const seals = Object.fromEntries(
  Object.values(EMBEDDED_DATASETS)
    .filter((file) => existsSync(`dist-data/${file}`))
    .map((file) => [file, sealOf(header(`dist-data/${file}`))]),
);

function header(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  const bytes = new Uint8Array(HEADER_BYTES);
  readSync(fd, bytes, 0, HEADER_BYTES, 0);
  closeSync(fd);
  return bytes;
}

const shared = {
  target: 'node20',
  platform: 'neutral',
  // dist/ is emptied by `npm run build` first: the two builds run at once, so neither cleans.
  clean: false,
  // No source maps: dist is not minified, and the package ships only what the runtime reads.
  sourcemap: false,
  splitting: false,
  // @geolookup/server: the CLI imports it by a variable name, only for its own commands.
  external: [/^node:/],
  // The core has no runtime dependency (docs/ARCHITECTURE.md): flatbush, and cli-progress in the CLI,
  // are bundled; flatbush ships ES modules only, so the CommonJS build needs no ESM interop.
  noExternal: ['flatbush', 'cli-progress'],
  define: { __GEOLOOKUP_SEALS__: JSON.stringify(seals) },
} satisfies Options;

export default defineConfig([
  // The library, for import and require.
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      browser: 'src/browser.ts',
      extend: 'src/extend.ts',
      'extend-browser': 'src/extend-browser.ts',
    },
    format: ['esm', 'cjs'],
    dts: {
      entry: {
        index: 'src/index.ts',
        browser: 'src/browser.ts',
        extend: 'src/extend.ts',
        'extend-browser': 'src/extend-browser.ts',
      },
    },
  },
  // The CLI (package.json bin) and the batch workers only it starts: ES modules only. cli-progress,
  // bundled, is CommonJS and requires Node built-ins: give the bundle a require.
  {
    ...shared,
    entry: { cli: 'src/cli/main.ts', 'batch-worker': 'src/batch/worker.ts' },
    format: ['esm'],
    platform: 'node',
    banner: {
      js: "import { createRequire as __geolookupRequire } from 'node:module'; const require = __geolookupRequire(import.meta.url);",
    },
  },
]);
