import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs on small fixture datasets built at the start of the run
// (test/fixtures/setup.ts) and never reads dist-data/; `dataset` holds the contract, data and
// integration tests on the built world dataset. `npm test` runs both, `npm run test:unit` the first.
export default defineConfig({
  // The packages under packages/ import the library by name; tests run them on its sources.
  resolve: {
    alias: [
      { find: /^geolookup$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^geolookup\/browser$/, replacement: fileURLToPath(new URL('./src/browser.ts', import.meta.url)) },
    ],
  },
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two files at a time: vitest's default (CPUs - 1) ran the suite one file at a time on CI's two
    // vCPUs, 1,502 s of npm test for 1,424 s of tests, past CI's 30-minute budget.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          globalSetup: ['test/fixtures/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dataset',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          // Every answer of a geolookup server started by these tests is checked against its OpenAPI document.
          setupFiles: ['test/support/openapi-conformance.ts'],
        },
      },
    ],
  },
});
