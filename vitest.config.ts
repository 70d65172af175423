import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two tiers (docs/TESTING.md). `npm test`: the `unit` project, on small fixture datasets built at the
// start of the run (test/fixtures/setup.ts), and `dataset`, the contract, data and integration
// tests on the built world dataset. `npm run test:proofs`: the oracles and full-size proofs below,
// slow or needing system packages, and the batch differentials at 100,000 files. CI runs both.
// Each tier takes the core's tests under test/ and the products' under packages/*/test/ (their
// unit tests in packages/*/test/unit/); `npm test -w @geolookup/<name>` runs one product's alone.
export const PROOFS = [
  'test/data/oracle.test.ts',
  'packages/borders/test/borders-oracle.test.ts',
  'test/data/exactness.test.ts',
  'test/integration/export.test.ts',
  'packages/geoparquet/test/export-geoparquet.test.ts',
  'packages/server/test/playground-agreement.test.ts',
  'packages/server/test/playground-overview.test.ts',
];
const DIFFERENTIALS = ['test/unit/csv-differential.test.ts', 'test/unit/batch-ndjson-differential.test.ts'];

export default defineConfig({
  // The packages under packages/ import the library by name; tests run them on its sources.
  resolve: {
    alias: [
      { find: /^geolookup$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^geolookup\/browser$/, replacement: fileURLToPath(new URL('./src/browser.ts', import.meta.url)) },
      { find: /^geolookup\/extend$/, replacement: fileURLToPath(new URL('./src/extend.ts', import.meta.url)) },
    ],
  },
  test: {
    // Room for a loaded shared machine: the heaviest tests took 2-3 times their 45 s there.
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two files at a time: vitest's default (CPUs - 1) ran the suite one file at a time on CI's two
    // vCPUs, 1,502 s of npm test for 1,424 s of tests.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'packages/*/test/unit/**/*.test.ts'],
          globalSetup: ['test/fixtures/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dataset',
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: ['test/unit/**', 'packages/*/test/unit/**', ...PROOFS],
          // Every answer of a geolookup server started by these tests is checked against its OpenAPI document.
          setupFiles: ['test/support/openapi-conformance.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'proofs',
          include: PROOFS,
          setupFiles: ['test/support/openapi-conformance.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'proofs-differential',
          include: DIFFERENTIALS,
          globalSetup: ['test/fixtures/setup.ts'],
          env: { GEOLOOKUP_DIFF_FILES: process.env.GEOLOOKUP_DIFF_FILES ?? '100000' },
        },
      },
    ],
  },
});
