import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'neutral',
  // dist/ is emptied by `npm run build` first.
  clean: false,
  sourcemap: false,
  splitting: false,
  external: [/^node:/, 'geolookup', 'geographiclib-geodesic'],
  // flatbush ships ES modules only: bundled, as in the core, so the CommonJS build needs no interop.
  noExternal: ['flatbush'],
  dts: { entry: { index: 'src/index.ts' }, compilerOptions: { paths: {} } },
});
