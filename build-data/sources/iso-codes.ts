// Debian's iso-codes (the `iso-codes` package), where it is installed: a second reference. Its
// parent links are frozen in policy/parent-links.json, so no build needs it; when present, the
// report compares them and checkCurrent (build.ts) checks every answered code against its list.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export const ISO_CODES_JSON = '/usr/share/iso-codes/json/iso_3166-2.json';

export interface IsoCodesEntry {
  code: string;
  /** The parent's full code (GB-ENG), or the country's alpha-2 (GB) where iso-codes names none. */
  parent: string;
}

const CODE = /^[A-Z]{2}-[A-Z0-9]+$/;

/**
 * The parent field is a suffix of the same country (FR-01's "ARA" is FR-ARA), except where it holds
 * the full code (GB-CMA's "GB-ENG"): a suffix never holds a '-'.
 */
function fullParent(code: string, parent: string): string {
  return parent.includes('-') ? parent : `${code.slice(0, 2)}-${parent}`;
}

export function isoCodesInstalled(path = ISO_CODES_JSON): boolean {
  return existsSync(path);
}

/** Every entry of the list; a missing file or an entry not of the package's schema fails the build. */
export function readIsoCodes(path = ISO_CODES_JSON): IsoCodesEntry[] {
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing: this check reads Debian's iso-codes. ` +
        'Run `sudo bash scripts/system-deps.sh`, or install the Debian package iso-codes.',
    );
  }
  const list = (JSON.parse(readFileSync(path, 'utf8')) as { '3166-2'?: unknown })['3166-2'];
  if (!Array.isArray(list)) throw new Error(`${path}: no "3166-2" list`);
  return list.map((e: { code?: unknown; parent?: unknown }) => {
    const { code, parent } = e;
    const full = typeof parent === 'string' && typeof code === 'string' ? fullParent(code, parent) : '';
    if (typeof code !== 'string' || !CODE.test(code) || (parent !== undefined && !CODE.test(full)))
      throw new Error(`${path}: unexpected entry ${JSON.stringify(e)}`);
    return { code, parent: parent === undefined ? code.slice(0, 2) : full };
  });
}

/** The installed package's version, as dpkg knows it; "unknown" where dpkg-query is unavailable. */
export function isoCodesVersion(): string {
  try {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field syntax, not a template
    return execFileSync('dpkg-query', ['-W', '-f=${Version}', 'iso-codes'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * The installed package's release date (YYYY-MM-DD) from its Debian changelog's first entry;
 * undefined where the changelog is not there.
 */
export function isoCodesDate(changelog = '/usr/share/doc/iso-codes/changelog.Debian.gz'): string | undefined {
  try {
    const text = gunzipSync(readFileSync(changelog)).toString('utf8');
    const line = /^ -- .*>\s+(.+)$/m.exec(text)?.[1];
    const date = line ? new Date(line) : null;
    return date && !Number.isNaN(date.getTime()) ? date.toISOString().slice(0, 10) : undefined;
  } catch {
    return undefined;
  }
}
