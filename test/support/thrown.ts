// The error a call throws or a promise rejects with, checked to be of the class a test expects:
// a call that returns instead fails the test.

import { expect } from 'vitest';
import { GeoLookupError } from '../../src/lookup/errors.js';

type ErrorClass<E> = abstract new (...args: never[]) => E;

/** The error `f` throws, a GeoLookupError unless `type` names another class. */
export function thrown(f: () => unknown): GeoLookupError;
export function thrown<E>(f: () => unknown, type: ErrorClass<E>): E;
export function thrown(f: () => unknown, type: ErrorClass<unknown> = GeoLookupError): unknown {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e;
  }
  throw new Error(`expected a ${type.name}`);
}

/** The GeoLookupError `promise` rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<GeoLookupError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(GeoLookupError);
    return e as GeoLookupError;
  }
  throw new Error('expected a rejection');
}
