#!/usr/bin/env node
// geolookup CLI entry; the commands are in run.ts.
import { run } from './run.js';

process.exitCode = run(
  process.argv.slice(2),
  (s) => console.log(s),
  (s) => console.error(s),
);
