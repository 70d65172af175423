// The NotFoundErrors of the four operations: nothing at a point, and codes the dataset does not know.

import { NotFoundError, PROBLEM_TYPES } from './errors.js';

/**
 * "Nothing here" is an expected answer (most of the sea), so its error is cheap: made without the
 * Error constructor (which captures a stack), its message written when first read, its stack the
 * header line alone. It reads as any NotFoundError: test/contract/contract.test.ts, "the "nothing
 * here" error reads the same".
 */
// Named NotFoundError so that logs and util.inspect show the class users catch.
const NothingHere = class NotFoundError {
  readonly name = 'NotFoundError';
  readonly status = 404;
  readonly type = PROBLEM_TYPES.notFound;
  readonly #layer: string;
  readonly #lat: number | string;
  readonly #lon: number | string;
  constructor(layer: string, lat: number | string, lon: number | string) {
    this.#layer = layer;
    this.#lat = lat;
    this.#lon = lon;
  }
  get message(): string {
    // As numbers: a valid string such as '5.' or '-0' would otherwise read "No country at 5.,-0.."
    return `No ${this.#layer} at ${Number(this.#lat)},${Number(this.#lon)}.`;
  }
  set message(text: string) {
    ownValue(this, 'message', text);
  }
  get stack(): string {
    return `${this.name}: ${this.message}`;
  }
  set stack(text: string) {
    ownValue(this, 'stack', text);
  }
};

/** Code that rewrites an error's message or stack (loggers, test runners) gets an own property, as on an Error. */
function ownValue(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: false });
}
// Inherits toProblem, title and instanceof from NotFoundError, GeoLookupError and Error.
Object.setPrototypeOf(NothingHere.prototype, NotFoundError.prototype);

/** The error for a valid point that no country (layer 'country') or subdivision holds. */
export function nothingHere(layer: string, lat: number | string, lon: number | string): NotFoundError {
  return new NothingHere(layer, lat, lon) as unknown as NotFoundError;
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
