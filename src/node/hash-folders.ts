// Fingerprints source folders by their whole contents, for the build's up-to-date stamp and the
// tests' export cache: a file added, removed or renamed there changes the hash, unlike a list.

import type { Hash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Feeds every .ts/.mjs/.json file below each of `dirs` (relative to `root`) into `hash`, name and bytes, in a stable order. */
export function hashFolders(hash: Hash, root: string, dirs: string[]): Hash {
  for (const dir of dirs) {
    const names = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' });
    for (const name of names.filter((n) => /\.(ts|mjs|json)$/.test(n)).sort()) {
      hash.update(join(dir, name)).update(readFileSync(join(root, dir, name)));
    }
  }
  return hash;
}
