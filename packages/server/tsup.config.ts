import { build } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { CLIENT_BUNDLE, CLIENT_ENTRY, clientBuildOptions } from './src/playground/client-build.js';
import { writeOverview } from './src/tiles/overview.js';

/**
 * The world overview the playground opens on, for the dataset the core ships (docs/TILES.md): a
 * few seconds here instead of on a user's first start. From the built core, as the bundles run it.
 */
async function packagedOverview(): Promise<void> {
  const { createGeoLookup, resolveDataPath } = await import('geolookup');
  const dataset = resolveDataPath('lite');
  const t = performance.now();
  const { file, bytes } = writeOverview('dist', createGeoLookup(dataset), dataset);
  const s = ((performance.now() - t) / 1000).toFixed(1);
  console.log(`overview: ${file}, ${(bytes / 1e6).toFixed(2)} MB from ${dataset} in ${s} s`);
}

const shared = {
  target: 'node20',
  platform: 'node',
  // dist/ is emptied by `npm run build` first: the two builds run at once, so neither cleans.
  clean: false,
  sourcemap: false,
  splitting: false,
  // The library and the dependencies in package.json are installed beside this package; esbuild
  // bundles the playground's page only when the playground runs from the sources.
  external: [
    /^node:/,
    'geolookup',
    'esbuild',
    'pino',
    'prom-client',
    'rate-limiter-flexible',
    'redis',
    'maplibre-gl',
    'geojson-vt',
    'vt-pbf',
    'polylabel',
    'pmtiles',
  ],
} satisfies Options;

export default defineConfig([
  // The server, for import and require.
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: { entry: { index: 'src/index.ts' }, compilerOptions: { paths: {} } },
  },
  // The commands the geolookup CLI runs from this package, and the playground's tile worker.
  {
    ...shared,
    entry: { cli: 'src/cli/index.ts', 'tile-worker': 'src/tiles/tile-worker.ts' },
    format: ['esm'],
    // The playground page's script, for browsers (src/playground/assets.ts reads it from dist/playground/).
    onSuccess: async () => {
      await build({ ...clientBuildOptions(CLIENT_ENTRY), outfile: CLIENT_BUNDLE });
      await packagedOverview();
    },
  },
]);
