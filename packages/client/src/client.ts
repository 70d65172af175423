// The client: one interface over a remote Geolocation Lookup Service (the hosted one or a
// geolookup server) and over the embedded engine. No Node built-ins here: global fetch,
// AbortController and setTimeout only, so it runs in browsers, workers and Electron renderers.

import {
  type Answer,
  AuthenticationError,
  callError,
  callOperation,
  DataError,
  type Extension,
  findExtensions,
  type GeoLookup,
  GeoLookupError,
  MAX_COORDINATE_CHARS,
  NotFoundError,
  type Operation,
  type OperationTarget,
  operationsOf,
  ValidationError,
} from 'geolookup/extend';
import { accept, cachedData, parseData } from './answers.js';
import { type Params, path, tableParams } from './request-url.js';
import { cacheKey, LruCache, readAnswer, type CachedAnswer, type ClientCache } from './cache.js';
import { loadEmbeddedEngine, loadExtension } from './embedded.js';
import { NetworkError, TimeoutError } from './errors.js';
import {
  adoptEngineError,
  errorFromProblem,
  HEADERS,
  NO_RATE_LIMIT,
  parseProblem,
  parseRateLimit,
  parseRetryAfter,
  type RateLimitInfo,
} from './http.js';

export type { RateLimitInfo } from './http.js';
export type Coordinate = number | string;

/** Every operation answers its data and the rate-limit state (all null offline). */
export interface ClientResult<T> {
  data: T;
  rateLimit: RateLimitInfo;
}

type ContractId = 'countryFromGps' | 'subdivisionFromGps' | 'isInCountry' | 'isInSubdivision';

/** The client's form of an operation: its arguments, a promise of its answer. */
export type ClientOperation<F extends (...args: never[]) => unknown> = (
  ...args: Parameters<F>
) => Promise<ClientResult<ReturnType<F>>>;

/**
 * The methods of extensions' operations, for TypeScript: empty here, filled by declaration merging
 * (docs/CLIENT.md, "Extensions"). At run time the client has a method per operation it offers.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface ExtensionMethods {}

/**
 * One method per operation: the contract's four (countryFromGps, isInCountry, …), and each
 * extension's (options.extensions, by default those installed: timeZoneFromGps with
 * @geolookup/timezones), as a remote server or, offline, the package answers it.
 */
export type GeoLookupClient = { [K in ContractId]: ClientOperation<GeoLookup[K]> } & ExtensionMethods & {
    /** Any operation the client offers, by id: `call('timeZoneFromGps', 48.85, 2.35)`. */
    call(id: string, ...args: unknown[]): Promise<ClientResult<unknown>>;
    /** The operations it offers: the contract's, then the extensions'. */
    readonly operations: readonly Operation[];
    /** Empties the cache (the built-in one or the custom one). */
    clearCache(): Promise<void>;
    /** 'remote' or 'offline'. */
    readonly mode: 'remote' | 'offline';
  };

/** A function taking one message, or a console-like object with `warn`. */
export type ClientLogger = ((message: string) => void) | { warn(message: string): void };

interface CommonOptions {
  /** Where warnings go. Default: process.emitWarning (type 'GeoLookupWarning'); console.warn outside Node. */
  logger?: ClientLogger;
  /**
   * The extensions whose operations the client offers beyond the contract (their descriptors:
   * `import timezones from '@geolookup/timezones/extension'`). Default: in Node, those installed
   * (geolookup/extend findExtensions); elsewhere none.
   */
  extensions?: readonly Extension[];
}

export interface RemoteClientOptions extends CommonOptions {
  offline?: false;
  /** Service address, http: or https:, optionally with a path prefix (e.g. https://api.example.com/v1). Required. */
  baseUrl: string | URL;
  /** Sent as X-API-Key. Omit (undefined) for anonymous requests; an empty key or one with whitespace or control characters is refused before sending. */
  apiKey?: string;
  /** Per-attempt request timeout in milliseconds (headers and body). Default 30000. */
  timeout?: number;
  /** Retries on 429 and 5xx. Default 3. */
  maxRetries?: number;
  /** First backoff in milliseconds, doubled per retry (1 s, 2 s, 4 s). Default 1000. */
  retryDelay?: number;
  /** Random extra delay, as a fraction of the delay (0.1 → up to +10 %). Default 0.1; 0 for none. */
  jitter?: number;
  /** Longest Retry-After (milliseconds) the client will sleep for; a longer one fails at once with RateLimitError. Default 60000. */
  maxRetryAfter?: number;
  /** true (default): built-in LRU cache; false: none; or a custom cache object. */
  cache?: boolean | ClientCache;
  /** Cache time-to-live in milliseconds. Default 300000 (5 min). */
  cacheTtl?: number;
  /** Entries of the built-in cache. Default 1000. */
  cacheMaxEntries?: number;
  /** With the cache off, warn once per this many requests. Default 100; 0 suppresses. */
  cacheWarningInterval?: number;
  /** fetch implementation. Default: the global fetch. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

export interface OfflineClientOptions extends CommonOptions {
  offline: true;
  /**
   * The engine to answer with. Default: the embedded world dataset, imported lazily from the
   * Node entry on first use. In browsers pass one built from `geolookup/browser`, or a function
   * returning it (called once, on first use).
   */
  engine?: GeoLookup | (() => GeoLookup | Promise<GeoLookup>);
}

export type ClientOptions = RemoteClientOptions | OfflineClientOptions;

export const CLIENT_DEFAULTS = Object.freeze({
  timeout: 30_000,
  maxRetries: 3,
  retryDelay: 1_000,
  jitter: 0.1,
  maxRetryAfter: 60_000,
  cacheTtl: 5 * 60_000,
  cacheMaxEntries: 1_000,
  cacheWarningInterval: 100,
});

type Call = (
  op: Operation,
  code: string | undefined,
  lat: Coordinate,
  lon: Coordinate,
  params?: Params,
) => Promise<ClientResult<Answer>>;

/**
 * The client's method for each operation: (lat, lon), (code, lat, lon), or with named parameters,
 * (lat, lon, required) or (lat, lon, options?) as Operation['params'] says; and `call` by id.
 */
function operationMethods(
  ops: readonly Operation[],
  call: Call,
): Pick<GeoLookupClient, ContractId | 'call' | 'operations'> {
  const methods: Record<string, (...args: never[]) => Promise<ClientResult<Answer>>> = {};
  for (const op of ops) {
    const required = op.params?.find((p) => p.required);
    methods[op.id] =
      op.code !== null
        ? (code: string, lat: Coordinate, lon: Coordinate) => call(op, code, lat, lon)
        : op.params === undefined
          ? (lat: Coordinate, lon: Coordinate) => call(op, undefined, lat, lon)
          : required
            ? (lat: Coordinate, lon: Coordinate, value: unknown) =>
                call(op, undefined, lat, lon, { [required.name]: value })
            : async (lat: Coordinate, lon: Coordinate, options?: unknown) =>
                call(op, undefined, lat, lon, optionsOf(options));
  }
  const byId = async (id: string, ...args: unknown[]) => {
    if (!Object.hasOwn(methods, id))
      throw new GeoLookupError(
        `This client has no operation ${id}: it offers ${ops.map((o) => o.id).join(', ')}. ` +
          "An extension's operation needs its package installed (or passed as options.extensions).",
        500,
      );
    return (methods[id] as (...a: unknown[]) => Promise<ClientResult<Answer>>)(...args);
  };
  return { ...methods, call: byId, operations: ops } as unknown as Pick<
    GeoLookupClient,
    ContractId | 'call' | 'operations'
  >;
}

/**
 * The options object as the named parameters: undefined or an object (its own properties); anything
 * else is passed on whole, for the library (offline) or the server (remote) to refuse.
 */
function optionsOf(options: unknown): Params | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options))
    throw new ValidationError(`The options must be an object such as { maxKm: 10 }, got ${describe(options)}.`, {
      options: [`options must be an object, got ${describe(options)}`],
    });
  return options as Params;
}

/**
 * Text the server reads exactly as the library does: well-formed (a lone surrogate cannot be put in
 * a URL), at most 64 characters (longer is refused alike, and a long one overflows a request head),
 * not a dot segment (a URL drops "." and ".." from its path).
 */
const asText = (v: unknown): boolean =>
  typeof v === 'string' && v.length <= MAX_COORDINATE_CHARS && !/[\uD800-\uDFFF]/.test(v) && v !== '.' && v !== '..';

const describe = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

function defaultLogger(message: string): void {
  const proc = (
    globalThis as { process?: { emitWarning?: (msg: string, options: { type: string; code: string }) => void } }
  ).process;
  if (typeof proc?.emitWarning === 'function')
    proc.emitWarning(message, { type: 'GeoLookupWarning', code: 'GEOLOOKUP_CACHE' });
  else if (typeof console !== 'undefined') console.warn(message);
}

function toLog(logger: ClientLogger | undefined): (message: string) => void {
  if (logger === undefined) return defaultLogger;
  if (typeof logger === 'function') return logger;
  if (logger && typeof logger.warn === 'function') return (m) => logger.warn(m);
  throw new TypeError('logger must be a function or an object with a warn method');
}

function option(
  name: string,
  value: number | undefined,
  fallback: number,
  check: (n: number) => boolean,
  rule: string,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !check(value)) throw new TypeError(`${name} must be ${rule}, got ${String(value)}`);
  return value;
}

const nonNegativeInteger = (n: number) => Number.isInteger(n) && n >= 0;
const positive = (n: number) => n > 0;
const nonNegative = (n: number) => n >= 0;

/** Each numeric option's rule, checked in this order (a TypeError naming the first bad one). */
const RULES: Record<keyof typeof CLIENT_DEFAULTS, [(n: number) => boolean, string]> = {
  timeout: [positive, 'a positive number of milliseconds'],
  maxRetries: [nonNegativeInteger, 'a non-negative integer'],
  retryDelay: [nonNegative, 'a non-negative number of milliseconds'],
  jitter: [(n) => n >= 0 && n <= 1, 'a fraction between 0 and 1'],
  maxRetryAfter: [nonNegative, 'a non-negative number of milliseconds'],
  cacheTtl: [positive, 'a positive number of milliseconds'],
  cacheMaxEntries: [nonNegativeInteger, 'a non-negative integer'],
  cacheWarningInterval: [nonNegativeInteger, 'a non-negative integer'],
};

/** The remote client's numeric options, defaults applied. */
function numericOptions(options: RemoteClientOptions): Record<keyof typeof CLIENT_DEFAULTS, number> {
  const out: Record<keyof typeof CLIENT_DEFAULTS, number> = { ...CLIENT_DEFAULTS };
  for (const [name, [check, rule]] of Object.entries(RULES) as [
    keyof typeof CLIENT_DEFAULTS,
    (typeof RULES)['timeout'],
  ][])
    out[name] = option(name, options[name], CLIENT_DEFAULTS[name], check, rule);
  return out;
}

/** The cache option: the built-in LRU (true, the default), none (false), or an object of the ClientCache shape. */
function cacheOf(c: RemoteClientOptions['cache'], maxEntries: number, ttl: number): ClientCache | null {
  if (c === undefined || c === true) return new LruCache({ maxEntries, ttl });
  if (c === false) return null;
  if (
    typeof c === 'object' &&
    c !== null &&
    ['get', 'set', 'remove', 'clear'].every((m) => typeof (c as unknown as Record<string, unknown>)[m] === 'function')
  )
    return c;
  throw new TypeError('cache must be true, false, or an object with get, set, remove and clear methods');
}

function parseBaseUrl(baseUrl: unknown): string {
  if (baseUrl === undefined || baseUrl === null || baseUrl === '') {
    throw new TypeError(
      'baseUrl is required for the remote client (e.g. "https://geo.example.com"), or pass { offline: true }',
    );
  }
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(baseUrl))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl must use http: or https:, got ${url.protocol}`);
  if (url.username || url.password) throw new TypeError('baseUrl must not carry credentials; pass the key as apiKey');
  if (url.search || url.hash) throw new TypeError('baseUrl must not have a query or a fragment');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Visible ASCII only: no whitespace, no control characters, nothing a header could mangle. */
const API_KEY = /^[\x21-\x7e]+$/;

function apiKeyProblem(apiKey: unknown): string | null {
  if (apiKey === undefined) return null;
  if (typeof apiKey !== 'string') return 'The API key must be a string.';
  if (apiKey.length === 0) return 'The API key is empty.';
  if (!API_KEY.test(apiKey))
    return 'The API key contains whitespace, control or non-ASCII characters; check how it was read (a trailing newline?).';
  return null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describeCause(err: unknown): string {
  const e = err as { message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  const code = e?.cause?.code ?? e?.cause?.message;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * A client for the operations of the table. `createClient({ apiKey, baseUrl })` talks to a service;
 * `createClient({ offline: true })` answers from the embedded engine, with the same interface.
 */
export function createClient(options: ClientOptions): GeoLookupClient {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('createClient needs an options object: { apiKey, baseUrl } or { offline: true }');
  return options.offline === true ? offlineClient(options) : remoteClient(options);
}

function offlineClient(options: OfflineClientOptions): GeoLookupClient {
  toLog(options.logger); // validates the option; the offline client has nothing to warn about
  const source = options.engine;
  let loading: Promise<GeoLookup> | null = null;
  const engine = (): Promise<GeoLookup> => {
    loading ??= (async () => {
      if (source === undefined) return loadEmbeddedEngine();
      return typeof source === 'function' ? await source() : source;
    })().catch((err: unknown) => {
      loading = null; // a failed load (e.g. dataset missing) is retried on the next call
      throw adoptEngineError(err);
    });
    return loading;
  };
  const known = options.extensions ?? findExtensions();
  // An extension's operations answer from what it opens over the engine, on the first call of one.
  const extensions = new Map<string, Promise<OperationTarget>>();
  const extension = (op: Operation & { extension: string }): Promise<OperationTarget> => {
    let loaded = extensions.get(op.extension);
    if (loaded === undefined) {
      const ext = known.find((e) => e.name === op.extension)!;
      loaded = loadExtension(ext, engine, source === undefined).catch((err: unknown) => {
        const adopted = adoptEngineError(err);
        // Retried on the next call (e.g. installed since); an engine that does not pair never will.
        if (!(adopted instanceof DataError)) extensions.delete(op.extension);
        throw adopted;
      });
      extensions.set(op.extension, loaded);
    }
    return loaded;
  };
  async function run<T>(op: Operation, answer: (e: OperationTarget) => T): Promise<ClientResult<T>> {
    const e = op.extension === undefined ? await engine() : await extension(op as Operation & { extension: string });
    try {
      return { data: answer(e), rateLimit: { ...NO_RATE_LIMIT } };
    } catch (err) {
      throw adoptEngineError(err);
    }
  }
  return {
    mode: 'offline',
    ...operationMethods(operationsOf(known), (op, code, lat, lon, params) =>
      run(op, (e) => callOperation(e, op, code, lat, lon, params)),
    ),
    clearCache: async () => {},
    // The extensions' methods are there at run time; ExtensionMethods types those a user declares.
  } as GeoLookupClient;
}

function remoteClient(options: RemoteClientOptions): GeoLookupClient {
  const base = parseBaseUrl(options.baseUrl);
  const keyProblem = apiKeyProblem(options.apiKey);
  const apiKey = options.apiKey;
  const settings = numericOptions(options);
  const { timeout, maxRetries, retryDelay, jitter, maxRetryAfter, cacheTtl } = settings;
  const warnEvery = settings.cacheWarningInterval;
  const log = toLog(options.logger);
  const fetchImpl = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const cache = cacheOf(options.cache, settings.cacheMaxEntries, cacheTtl);

  let lastRateLimit: RateLimitInfo = { ...NO_RATE_LIMIT };
  let uncachedRequests = 0;

  /** A failing custom cache (Redis down) must not fail lookups: it counts as a miss, with a warning. */
  async function cacheCall<T>(what: string, call: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (err) {
      log(`geolookup client: cache ${what} failed, continuing without it: ${describeCause(err)}`);
      return undefined;
    }
  }

  /** One HTTP exchange, body included, within the timeout. */
  async function send(url: string, accept: string): Promise<{ response: Response; body: string }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`No response within ${timeout} ms`, 'TimeoutError'));
    }, timeout);
    const headers: Record<string, string> = { Accept: accept };
    if (apiKey !== undefined) headers[HEADERS.apiKey] = apiKey;
    try {
      const response = await fetchImpl(url, { method: 'GET', headers, signal: controller.signal, redirect: 'error' });
      const body = await response.text();
      return { response, body };
    } catch (err) {
      if (timedOut) throw new TimeoutError(`GET ${url}: no response within ${timeout} ms`, timeout, { cause: err });
      throw new NetworkError(`GET ${url}: ${describeCause(err)}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends with retries on 429 and 5xx; resolves with the 200 body and its rate-limit headers, rejects with the mapped error. */
  async function request(url: string, accept: string): Promise<{ body: string; rateLimit: RateLimitInfo }> {
    for (let attempt = 0; ; attempt++) {
      const { response, body } = await send(url, accept);
      const rateLimit = parseRateLimit(response.headers);
      lastRateLimit = rateLimit;
      if (response.status === 200) return { body, rateLimit };
      const retryAfter = parseRetryAfter(response.headers.get(HEADERS.retryAfter));
      const error = errorFromProblem(response.status, parseProblem(body), retryAfter, response.statusText);
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= maxRetries) throw error;
      const retryAfterMs = (retryAfter ?? 0) * 1000;
      if (retryAfterMs > maxRetryAfter) throw error;
      const delay = Math.max(retryDelay * 2 ** attempt, retryAfterMs);
      await sleep(delay * (1 + jitter * Math.random()));
    }
  }

  async function lookup(
    op: Operation,
    code: string | undefined,
    lat: Coordinate,
    lon: Coordinate,
    given?: Params,
  ): Promise<ClientResult<Answer>> {
    if (keyProblem) throw new AuthenticationError(keyProblem);
    const params = given && tableParams(op, given);
    // A bad call the service would read otherwise than the library (a number sent as text, an
    // array, a bigint) is refused here with the library's own error, the one offline gives; text
    // goes as it is, and a code's shape is the server's to judge (its alpha-2 hint needs the data).
    const bad = callError(op, code, lat, lon, params);
    const sent: Record<string, unknown> = { ...params, latitude: lat, longitude: lon, [op.code ?? '-']: code };
    if (bad !== null && Object.keys(bad.errors).some((f) => !asText(sent[f]))) throw bad;
    const key = cache ? cacheKey(op.id, code, lat, lon, params) : null;
    if (cache && key !== null) {
      const stored = await cacheCall('get', () => cache!.get(key));
      const hit = readAnswer(stored, Date.now());
      const cached = hit && 'data' in hit ? cachedData(op, hit.data) : null;
      if (hit && (cached === null || cached.ok)) {
        if ('notFound' in hit) throw new NotFoundError(hit.notFound);
        return { data: cached!.data, rateLimit: { ...lastRateLimit } };
      }
      // Expired or foreign entry (a custom cache may ignore the ttl): drop it.
      if (stored !== undefined && stored !== null) await cacheCall('remove', () => cache!.remove(key));
    }
    if (!cache && warnEvery > 0 && ++uncachedRequests % warnEvery === 0) {
      log(
        `geolookup client: ${uncachedRequests} requests with caching off. Answers are deterministic; ` +
          'enable the cache (the default) or pass your own to save quota and latency.',
      );
    }
    const store = async (answer: CachedAnswer) => {
      if (cache && key !== null) await cacheCall('set', () => cache!.set(key, answer, cacheTtl));
    };
    let body: string;
    let rateLimit: RateLimitInfo;
    try {
      ({ body, rateLimit } = await request(base + path(op, code, lat, lon, params), accept(op)));
    } catch (err) {
      if (err instanceof NotFoundError) await store({ notFound: err.message, expiresAt: Date.now() + cacheTtl });
      throw err;
    }
    const data = parseData(op, body);
    // The caller may change an object answer: the cache keeps its own copy.
    await store({
      data: typeof data === 'object' && data !== null ? structuredClone(data) : data,
      expiresAt: Date.now() + cacheTtl,
    });
    return { data, rateLimit };
  }

  return {
    mode: 'remote',
    ...operationMethods(operationsOf(options.extensions ?? findExtensions()), lookup),
    async clearCache() {
      if (cache) await cache.clear();
    },
  } as GeoLookupClient;
}
