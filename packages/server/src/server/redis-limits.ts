// Burst windows and monthly quota counts shared by every instance through Redis: the counting is
// rate-limiter-flexible's (one atomic Lua INCR per limit) over node-redis, both loaded only when a
// server is given `redis`. A failed or slow command opens a breaker: until a probe gets an answer
// again, the instance limits on its own (state.ts's windows and counts) and reports `degraded`.

import { createRequire } from 'node:module';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { createClient } from 'redis';

/** Default ms for a Redis answer; later counts as an outage. */
export const REDIS_TIMEOUT_MS = 250;
/** How often an instance in an outage asks Redis again. */
const PROBE_MS = 500;
const BURST_SECONDS = 60;
/** Quota keys carry their month; this TTL only has to outlast it. */
const QUOTA_SECONDS = 32 * 86_400;

/** What one request's two counters read after counting it (the request included). */
export interface Counted {
  burstUsed: number;
  /** ms until the burst window's count expires. */
  burstMs: number;
  quotaUsed: number;
}

type Client = ReturnType<typeof createClient>;
type Libraries = { createClient: typeof createClient; RateLimiterRedis: typeof RateLimiterRedis };

/** Throws unless `url` is a redis:// or rediss:// URL (the message never repeats it: it may hold a password). */
export function checkRedisUrl(url: string): void {
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {}
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    throw new Error('the Redis address must be a URL starting with redis:// or rediss://');
}

/**
 * Throws unless the redis package (an optional peer dependency of @geolookup/server) is installed:
 * a server asked to share its limits must not quietly count alone (bundle-node.test.ts).
 */
function requireRedisPackage(): void {
  try {
    createRequire(typeof import.meta.url === 'string' ? import.meta.url : __filename).resolve('redis');
  } catch {
    throw new Error(
      'redis: sharing limits through Redis needs the redis package beside @geolookup/server: npm install redis',
    );
  }
}

/** Where the URL points, without user or password (for logs). */
export function redisWhere(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  // Only the code or the first line: a reply error could echo a command's arguments.
  return (err?.code ?? String(err?.message ?? e).split('\n')[0]).slice(0, 120);
}

export class SharedLimits {
  /** False before the first connection and during an outage: the instance limits on its own. */
  healthy = false;
  /** Settles once Redis answered or failed its first connection attempt. */
  readonly ready: Promise<void>;
  private redis: Client | null = null;
  private lib: Libraries | null = null;
  private readonly burstLimiters = new Map<number, RateLimiterRedis>();
  private readonly quotaLimiters = new Map<number, RateLimiterRedis>();
  /** Requests this instance admitted without Redis, by quota key: added to Redis when it is back. */
  private readonly pending = new Map<string, number>();
  private probe: NodeJS.Timeout | null = null;
  private probing = false;
  /** Probes in a row that got no answer on a connection that looks open. */
  private silentProbes = 0;
  private closed: Promise<void> | null = null;
  private outageLogged = false;

  /** `onError` hears of every failed command and connection error (for the metrics). */
  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
    private readonly onError: () => void = () => {},
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {
    requireRedisPackage();
    this.ready = this.start();
  }

  private async start(): Promise<void> {
    try {
      const [redisLib, rlf] = await Promise.all([import('redis'), import('rate-limiter-flexible')]);
      this.lib = { createClient: redisLib.createClient, RateLimiterRedis: rlf.RateLimiterRedis };
    } catch (e) {
      this.log(`geolookup: cannot load the Redis client (${describe(e)}); limits stay per instance`);
      return;
    }
    if (this.closed) return;
    // Fail at once while disconnected instead of queueing. Commands in flight when the
    // connection drops fail and are never resent (they may have been counted).
    const redis = this.lib.createClient({
      url: this.url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min((retries + 1) * 100, 1000) },
    });
    this.redis = redis;
    redis.on('error', (e) => this.failed(e));
    await new Promise<void>((resolve) => {
      redis.once('ready', resolve);
      redis.once('error', resolve);
      setTimeout(resolve, 3000).unref();
      redis.connect().catch(() => {}); // retried by reconnectStrategy; errors come as events
    });
    if (!(await this.recover())) this.failed(new Error(`no answer from ${redisWhere(this.url)}`));
  }

  private limiter(cache: Map<number, RateLimiterRedis>, prefix: string, points: number, seconds: number) {
    let l = cache.get(points);
    if (l === undefined) {
      const lib = this.lib as Libraries;
      l = new lib.RateLimiterRedis({
        storeClient: this.redis,
        useRedisPackage: true,
        keyPrefix: prefix,
        points,
        duration: seconds,
      });
      cache.set(points, l);
    }
    return l;
  }

  private burst(points: number): RateLimiterRedis {
    return this.limiter(this.burstLimiters, 'geolookup:burst', points, BURST_SECONDS);
  }

  private quota(points: number): RateLimiterRedis {
    return this.limiter(this.quotaLimiters, 'geolookup:quota', points, QUOTA_SECONDS);
  }

  /**
   * Counts one request against both limits at once (node-redis writes both in one go); rejects
   * with the store's error, or when Redis does not answer in time. A count over its limit is the
   * caller's to refuse and undo.
   */
  async take(id: string, month: string, burstLimit: number, quota: number): Promise<Counted> {
    const [b, q] = await this.deadline(
      Promise.all([settled(this.burst(burstLimit).consume(id)), settled(this.quota(quota).consume(`${id}:${month}`))]),
    );
    return { burstUsed: b.consumedPoints, burstMs: b.msBeforeNext, quotaUsed: q.consumedPoints };
  }

  /**
   * Takes back a refused request's counts; the caller sends the refusal once this settles, so a
   * client that has its 429 finds its counts restored (best effort: a failed undo over-counts by one).
   */
  async undo(id: string, month: string, burst: boolean): Promise<void> {
    const rewards = [this.quota(1).reward(`${id}:${month}`)];
    if (burst) rewards.push(this.burst(1).reward(id));
    await this.deadline(Promise.all(rewards)).catch(() => {});
  }

  /** Notes a request admitted during an outage, to add to the shared count once Redis answers. */
  countLater(id: string, month: string): void {
    const key = `${id}:${month}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** A command failed or timed out: limit per instance and probe until Redis answers. */
  failed(e: unknown): void {
    if (this.closed) return;
    this.onError();
    this.healthy = false;
    if (!this.outageLogged) {
      this.outageLogged = true;
      this.log(`geolookup: redis unavailable (${describe(e)}); limits are per instance until it answers`);
    }
    if (this.probe === null && this.redis !== null) {
      this.probe = setInterval(() => void this.recover(), PROBE_MS);
      this.probe.unref();
    }
  }

  /** One probe: PING, then the outage's counts added to Redis; true once shared limits are back. */
  private async recover(): Promise<boolean> {
    const redis = this.redis;
    if (this.probing || this.closed || redis === null || !redis.isReady) return false;
    this.probing = true;
    try {
      await this.deadline(redis.ping());
      while (this.pending.size > 0) {
        const batch = [...this.pending];
        this.pending.clear();
        const results = await Promise.allSettled(batch.map(([key, n]) => this.deadline(this.quota(1).penalty(key, n))));
        let lost: unknown = null;
        results.forEach((r, i) => {
          if (r.status === 'fulfilled') return;
          this.pending.set(batch[i][0], (this.pending.get(batch[i][0]) ?? 0) + batch[i][1]);
          lost = r.reason;
        });
        if (lost !== null) throw lost;
      }
    } catch (e) {
      this.onError();
      // A connection that stays silent may be dead without a close (a dropped NAT entry, a
      // vanished host): open a new one rather than wait minutes for TCP keep-alive.
      if (e instanceof NoAnswer && ++this.silentProbes >= 2) {
        this.silentProbes = 0;
        this.log('geolookup: redis connection silent; opening a new one');
        redis.destroy();
        redis.connect().catch(() => {});
      }
      return false;
    } finally {
      this.probing = false;
    }
    this.silentProbes = 0;
    if (this.probe !== null) clearInterval(this.probe);
    this.probe = null;
    if (this.outageLogged) this.log(`geolookup: redis answers again; limits are shared`);
    this.outageLogged = false;
    this.healthy = true;
    return true;
  }

  private deadline<T>(p: Promise<T>): Promise<T> {
    return deadline(p, this.timeoutMs);
  }

  /** Closes the connection (after the last request); idempotent. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      if (this.probe !== null) clearInterval(this.probe);
      this.healthy = false;
      let unsent = 0;
      for (const n of this.pending.values()) unsent += n;
      if (unsent > 0) this.log(`geolookup: ${unsent} requests served while Redis was away were not added to it`);
      const redis = this.redis;
      if (redis === null) return;
      // close() waits for the answers still due, which a frozen Redis never sends.
      await this.deadline(redis.close()).catch(() => {});
      if (redis.isOpen) redis.destroy();
    })();
    return this.closed;
  }
}

class NoAnswer extends Error {}

/** `p`, or a rejection once `ms` have passed without its answer (node-redis times a command only
 * until it is written). */
function deadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(`no answer within ${ms} ms`)), ms);
  });
  p.catch(() => {}); // an answer after the deadline is dropped, a failure too
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A consume's result whether it was accepted or over its limit; a store error still rejects. */
function settled(p: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  return p.catch((e: unknown) => {
    if (e instanceof Error) throw e;
    return e as RateLimiterRes;
  });
}
