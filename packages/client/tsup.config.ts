import { defineConfig } from 'tsup';

// No runtime dependency: the error classes and types come from the library's sources, bundled; the
// offline mode imports the installed geolookup package by a variable name (src/embedded.ts).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' }, compilerOptions: { paths: {} } },
  target: 'es2020',
  platform: 'neutral',
  clean: true,
  sourcemap: false,
  splitting: false,
});
