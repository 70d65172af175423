import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  // ES modules only: hyparquet-writer is published as ES modules, and the core's CLI imports this package.
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  // dist/ is emptied by `npm run build` first.
  clean: false,
  sourcemap: false,
  splitting: false,
  external: [/^node:/, 'geolookup', 'hyparquet-writer'],
  dts: { entry: { index: 'src/index.ts' }, compilerOptions: { paths: {} } },
});
