// policy aliases: ISO 3166-2 codes that name an ISO 3166-1 country of their own (FR-971 is GLP).

import type { CodeTables } from '../sources/code-tables.js';
import type { Policy } from './policy.js';

/** The aliases whose code is in the reference; a target that is no known country fails the build. */
export function resolveAliases(policy: Policy, tables: CodeTables): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const [code, country] of Object.entries(policy.aliases)) {
    if (!tables.countryIndex.has(country)) throw new Error(`policy.json alias ${code} → ${country}: unknown country`);
    if (tables.subdivisionIndex.has(code)) aliases[code] = country;
  }
  return aliases;
}
