// Each entry exports what docs/API.md, "Exports", lists, and nothing else: a name that is not
// documented is not public API, so it must not be exported either.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as browser from '../../src/browser.js';
import * as node from '../../src/index.js';

const API = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');

/** The names API.md lists for an entry: its line's code spans, to the full stop. */
function documented(entry: string): string[] {
  const line = API.split('\n## Exports')[1]
    ?.split(/\n- /)
    .find((l) => l.startsWith(`\`${entry}\`:`));
  if (line === undefined) throw new Error(`docs/API.md lists no exports of ${entry}`);
  return [...line.slice(entry.length + 3).matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]).sort();
}

describe('exports', () => {
  it.each([
    ['geolookup', node],
    ['geolookup/browser', browser],
  ] as const)('%s exports exactly what docs/API.md lists', (entry, mod) => {
    expect(Object.keys(mod).sort()).toEqual(documented(entry));
  });
});
