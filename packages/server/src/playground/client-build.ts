// How the page's script (client/app.ts) is bundled for the browser: by tsup's onSuccess into
// dist/playground/app.js for the package, and in memory when the playground runs from the sources.

import type { BuildOptions } from 'esbuild';

export const CLIENT_ENTRY = 'src/playground/client/app.ts';
export const CLIENT_BUNDLE = 'dist/playground/app.js';

export function clientBuildOptions(entry: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  };
}
