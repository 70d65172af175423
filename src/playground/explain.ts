// Why the lookup answers what it does at a point (the playground's "rule" line).

import type { GeoLookup } from '../lookup/engine.js';

/** The rule that decided the answer at a point, in words; what GET /playground/explain returns. */
export interface Explanation {
  /** Short name of the rule, e.g. "enclave", "dispute", "territorial sea", "coastal gap fill". */
  rule: string;
  /** One sentence on how the rule applies here. */
  detail: string;
}

/** The rule behind the answer at (lat, lon), or null when no special rule applies. */
export function explainPoint(_lookup: GeoLookup, _lat: number, _lon: number): Explanation | null {
  return null;
}
