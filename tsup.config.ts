import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', browser: 'src/browser.ts', cli: 'src/cli.ts', 'client/index': 'src/client.ts', 'server/index': 'src/server/server.ts', 'batch-worker': 'src/batch-worker.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', browser: 'src/browser.ts', 'client/index': 'src/client.ts', 'server/index': 'src/server/server.ts' } },
  target: 'node20',
  platform: 'neutral',
  clean: true,
  sourcemap: true,
  splitting: false,
  external: [/^node:/],
  // flatbush ships ES modules only; bundling it keeps the CommonJS build free of ESM interop.
  noExternal: ['flatbush'],
});
