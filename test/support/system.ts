// Tests that drive a system program (Chromium, PostgreSQL + PostGIS) skip with a warning where
// it is absent, so `npm test` runs anywhere. CI sets GEOLOOKUP_REQUIRE_SYSTEM_DEPS=1: there a
// missing program is a failure, not a silent skip (a Debian package once stopped pulling the
// PostGIS extension in, and the PostGIS tests skipped unnoticed).

import { execFileSync } from 'node:child_process';
import { it } from 'vitest';

/** Null when `command --version` runs (looked up on PATH), else `why`: for skipWithout. */
export function programMissing(command: string, why: string): string | null {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return why;
  }
}

/** Whether to skip the tests named `what`; `missing` says what is absent (null: nothing). */
export function skipWithout(what: string, missing: string | null): boolean {
  if (missing === null) return false;
  if (process.env.GEOLOOKUP_REQUIRE_SYSTEM_DEPS === '1') {
    it(`${what}: its system dependencies are installed (GEOLOOKUP_REQUIRE_SYSTEM_DEPS=1)`, () => {
      throw new Error(missing);
    });
  } else {
    console.warn(`${what} skipped: ${missing}`);
  }
  return true;
}
