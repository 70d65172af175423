// Optional data packs: found with their checked sha256, missing without failing, refused when
// their bytes are not the ones their README describes.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDataPacks, PACKS, packsSummary } from '../../build-data/sources/data-packs.js';

describe('data packs', () => {
  it('an empty folder: every pack missing, and the summary says what the build does without them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    const packs = findDataPacks(dir);
    expect(packs.found.osmAdmin).toEqual({ file: PACKS.osmAdmin.file, path: null, sha256: null });
    expect(packs.found.hansIsland.path).toBeNull();
    const line = packsSummary(packs);
    expect(line).toContain('data packs used: none');
    expect(line).toContain(PACKS.osmAdmin.without);
    expect(line).toContain(PACKS.hansIsland.without);
  });

  it('a file with other bytes under a pack name stops the build, naming both hashes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    mkdirSync(join(dir, 'osm-admin-2020'));
    writeFileSync(join(dir, PACKS.osmAdmin.file), 'not the pack');
    expect(() => findDataPacks(dir)).toThrow(new RegExp(`not the ${PACKS.osmAdmin.sha256}`));
  });

  it('a custom or land-only build reads no pack and says so', () => {
    expect(packsSummary(null)).toBe('data packs: none read (a custom or land-only build)');
  });
});
