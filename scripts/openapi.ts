// Writes packages/server/docs/openapi.json, the server's OpenAPI document for the default settings with every
// extension installed (its paths tagged `extensions`; a running server answers its own at /openapi.json, with
// the extensions it has), formatted as the linter wants it.
// packages/server/test/server-openapi.test.ts checks it is current. Run: node --import tsx scripts/openapi.ts
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../packages/server/src/server/openapi.js';

const file = fileURLToPath(new URL('../packages/server/docs/openapi.json', import.meta.url));
writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'inherit' });
