// The NotFoundErrors of the four operations: nothing at a point, and codes the dataset does not know.

import { NotFoundError } from './errors.js';

/**
 * "Nothing here" is an expected answer (most of the sea), so its error is cheap: no stack trace,
 * and the message is written when first read. Every way of reading it must give the same text:
 * test/contract/contract.test.ts, "the "nothing here" error reads the same".
 */
const Base = NotFoundError;
// Named NotFoundError so that logs and util.inspect show the class users catch.
const NothingHere = class NotFoundError extends Base {
  readonly #layer: string;
  readonly #lat: number | string;
  readonly #lon: number | string;
  constructor(layer: string, lat: number | string, lon: number | string) {
    super(undefined as unknown as string);
    this.#layer = layer;
    this.#lat = lat;
    this.#lon = lon;
  }
  describe(): string {
    return `No ${this.#layer} at ${this.#lat},${this.#lon}.`;
  }
};
Object.defineProperty(NothingHere.prototype, 'message', {
  get(this: InstanceType<typeof NothingHere>) {
    return this.describe();
  },
});

/** The error for a valid point that no country (layer 'country') or subdivision holds. */
export function nothingHere(layer: string, lat: number | string, lon: number | string): NotFoundError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new NothingHere(layer, lat, lon);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function unknownCountry(code: unknown): NotFoundError {
  return new NotFoundError(`Unknown country code "${code}": not an ISO 3166-1 alpha-3 code known to this dataset.`);
}

export function unknownSubdivision(code: unknown): NotFoundError {
  return new NotFoundError(`Unknown subdivision code "${code}": not an ISO 3166-2 code known to this dataset.`);
}

/** A known ISO 3166-2 code (upper case) with no boundary in the dataset. */
export function uncoveredSubdivision(upper: string): NotFoundError {
  return new NotFoundError(`Subdivision "${upper}" is an ISO 3166-2 code, but this dataset holds no boundary for it.`);
}
