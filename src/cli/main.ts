#!/usr/bin/env node
// geolookup CLI entry; the commands are in run.ts.
import { run } from './run.js';

const status = run(
  process.argv.slice(2),
  (s) => console.log(s),
  (s) => console.error(s),
);
if (typeof status === 'number') process.exitCode = status;
else status.then((code) => (process.exitCode = code));
