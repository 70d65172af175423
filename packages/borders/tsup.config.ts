import { defineConfig, type Options } from 'tsup';

const common: Options = {
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'neutral',
  // dist/ is emptied by `npm run build` first.
  clean: false,
  sourcemap: false,
  splitting: false,
  // flatbush ships ES modules only: bundled, as in the core, so the CommonJS build needs no interop.
  noExternal: ['flatbush'],
};

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', extension: 'src/extension.ts' },
    external: [/^node:/, 'geolookup', 'geolookup/extend', 'geographiclib-geodesic'],
    dts: { entry: { index: 'src/index.ts', extension: 'src/extension.ts' }, compilerOptions: { paths: {} } },
  },
  {
    ...common,
    entry: { browser: 'src/browser.ts' },
    external: ['geolookup/browser', 'geolookup/extend', 'geographiclib-geodesic'],
    noExternal: ['flatbush', /^geolookup$/],
    // The shared modules import the core as 'geolookup'; in a browser that is its browser entry.
    esbuildPlugins: [
      {
        name: 'geolookup-browser',
        setup(build) {
          build.onResolve({ filter: /^geolookup$/ }, () => ({ path: 'geolookup/browser', external: true }));
        },
      },
    ],
    dts: { entry: { browser: 'src/browser.ts' }, compilerOptions: { paths: {} } },
  },
]);
