// How the page's script (client/app.ts) is bundled for the browser: by tsup's onSuccess into
// dist/playground/app.js for the package, and in memory when the playground runs from the sources.
// An ES module: it imports MapLibre's, which starts its workers from its own URL.

import type { BuildOptions, Plugin } from 'esbuild';

/** Where the page loads MapLibre from (assets.ts serves the installed package's own module). */
export const MAPLIBRE_URL = '/playground/maplibre/maplibre-gl.mjs';

/** `import 'maplibre-gl'` stays an import of MapLibre's own module as served, with its worker beside it. */
const maplibreExternal: Plugin = {
  name: 'maplibre-external',
  setup(build) {
    build.onResolve({ filter: /^maplibre-gl$/ }, () => ({ path: MAPLIBRE_URL, external: true }));
  },
};

export const CLIENT_ENTRY = 'src/playground/client/app.ts';
export const CLIENT_BUNDLE = 'dist/playground/app.js';

export function clientBuildOptions(entry: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    plugins: [maplibreExternal],
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  };
}
