import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { build } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { HEADER_BYTES, sealOf } from './src/format/container.js';
import { EMBEDDED_DATASETS } from './src/node/data-path.js';
import { CLIENT_BUNDLE, CLIENT_ENTRY, clientBuildOptions } from './src/playground/client-build.js';

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
  // esbuild: the playground bundles its page with it only when run from the sources.
  external: [/^node:/, 'esbuild'],
  // flatbush ships ES modules only; bundling it keeps the CommonJS build free of ESM interop.
  noExternal: ['flatbush'],
  define: { __GEOLOOKUP_SEALS__: JSON.stringify(seals) },
} satisfies Options;

export default defineConfig([
  // The library, for import and require.
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      browser: 'src/browser.ts',
      'client/index': 'src/client/index.ts',
      'server/index': 'src/server/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: {
      entry: {
        index: 'src/index.ts',
        browser: 'src/browser.ts',
        'client/index': 'src/client/index.ts',
        'server/index': 'src/server/index.ts',
      },
    },
  },
  // The CLI (package.json bin) and the workers only it starts (batch, playground): ES modules only.
  {
    ...shared,
    entry: {
      cli: 'src/cli/main.ts',
      'batch-worker': 'src/batch/worker.ts',
      'playground-worker': 'src/playground/outline-worker.ts',
    },
    format: ['esm'],
    // The playground page's script, for browsers (src/playground/assets.ts reads it from dist/playground/).
    onSuccess: async () => {
      await build({ ...clientBuildOptions(CLIENT_ENTRY), outfile: CLIENT_BUNDLE });
    },
  },
]);
