// The client's cache contract and the built-in in-memory LRU cache.

import type { Answer } from 'geolookup/extend';

/** Anything that may or may not be a promise: custom caches can be synchronous or asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A cache the client can use instead of the built-in one (a Redis wrapper, a shared Map, …).
 * Every method may return a value or a promise. `get` answers undefined or null on a miss.
 * `ttl` is in milliseconds. Values are small plain JSON objects, so they serialise as they are.
 */
export interface ClientCache {
  get(key: string): MaybePromise<unknown>;
  set(key: string, value: CachedAnswer, ttl?: number): MaybePromise<unknown>;
  remove(key: string): MaybePromise<unknown>;
  clear(): MaybePromise<unknown>;
}

/**
 * What the client stores per key: an answer (a code, a boolean, a time zone; from the border
 * operations, metres or null, or a plain object) or a "not found", with its own expiry (epoch ms).
 */
export type CachedAnswer = { data: Answer; expiresAt: number } | { notFound: string; expiresAt: number };

interface Slot<V> {
  value: V;
  expiresAt: number;
}

/**
 * Least-recently-used cache with a time-to-live checked lazily on read (an expired entry is
 * dropped when it is read, or when it reaches the LRU end). Map keeps insertion order, so the
 * first key is always the least recently used one.
 */
export class LruCache<V = unknown> {
  readonly maxEntries: number;
  readonly ttl: number;
  readonly #slots = new Map<string, Slot<V>>();

  /** `maxEntries` ≥ 0; `ttl` in milliseconds (> 0, Infinity for none). */
  constructor(options: { maxEntries?: number; ttl?: number } = {}) {
    const { maxEntries = 1000, ttl = 5 * 60_000 } = options;
    if (!Number.isInteger(maxEntries) || maxEntries < 0)
      throw new TypeError(`maxEntries must be a non-negative integer, got ${maxEntries}`);
    if (!(typeof ttl === 'number' && ttl > 0))
      throw new TypeError(`ttl must be a positive number of milliseconds, got ${ttl}`);
    this.maxEntries = maxEntries;
    this.ttl = ttl;
  }

  get size(): number {
    return this.#slots.size;
  }

  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    this.#slots.delete(key);
    if (slot.expiresAt <= Date.now()) return undefined;
    this.#slots.set(key, slot); // most recently used goes last
    return slot.value;
  }

  set(key: string, value: V, ttl: number = this.ttl): void {
    this.#slots.delete(key);
    if (this.maxEntries === 0) return;
    this.#slots.set(key, { value, expiresAt: Date.now() + ttl });
    while (this.#slots.size > this.maxEntries) this.#slots.delete(this.#slots.keys().next().value as string);
  }

  remove(key: string): void {
    this.#slots.delete(key);
  }

  clear(): void {
    this.#slots.clear();
  }
}

const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** Micro-degrees (coordinates rounded to 6 decimals), or null when the value is no usable coordinate. */
function micro(value: unknown): string | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || Math.abs(n) > 180) return null;
  return String(Math.round(n * 1e6) + 0); // + 0 folds -0
}

/**
 * Cache key: operation, code, and both coordinates rounded to 6 decimal places (about 0.11 m);
 * then the named parameters given (`params`, in the operation's order), a number and its decimal
 * text alike. Null for input the service will reject (nothing to cache: a 400 is never stored).
 */
export function cacheKey(
  operation: string,
  code: string | undefined,
  latitude: unknown,
  longitude: unknown,
  params?: Readonly<Record<string, unknown>>,
): string | null {
  const lat = micro(latitude);
  const lon = micro(longitude);
  if (lat === null || lon === null) return null;
  if (code !== undefined && typeof code !== 'string') return null;
  let named = '';
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    const n =
      typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value) ? Number(value) : NaN;
    if (typeof value !== 'string' && !Number.isFinite(n)) return null;
    const text = Number.isFinite(n) ? String(n + 0) : (value as string);
    named += `${named === '' ? '?' : '&'}${name}=${encodeURIComponent(text)}`;
  }
  return `geolookup:${operation}:${code ?? ''}:${lat},${lon}${named}`;
}

/** A stored value of the right shape that has not expired, else null. */
export function readAnswer(value: unknown, now: number): CachedAnswer | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.expiresAt !== 'number' || !(v.expiresAt > now)) return null;
  // The answer's shape for its operation is the client's to check (client.ts, cachedData).
  if ('data' in v && v.data !== undefined) return v as CachedAnswer;
  if (typeof v.notFound === 'string') return v as CachedAnswer;
  return null;
}
