// `npx vite examples/browser` serves this page with the package's dist-data/ as static files,
// so the page can fetch world-lite.geolookup (or world.geolookup with ?data=world). In your own
// app, import 'geolookup/browser' from the installed package (no alias) and serve the file you
// pick from wherever your app keeps assets (docs/BUNDLING.md).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: { alias: { 'geolookup/browser': here('../../src/browser.ts') } },
  publicDir: here('../../dist-data'),
  build: { target: 'es2022' },
});
