// Prometheus metrics (prom-client), one registry per server. Labels are routes, statuses and limit
// kinds, never a key or key id. The request counts and the latency histogram live in plain maps
// and arrays on the hot path and reach prom-client when it collects (a scrape).

import { Counter, Gauge, type Histogram, Registry } from 'prom-client';
import type { KeyStore } from './keys.js';

export interface ServerMetrics {
  readonly registry: Registry;
  /** Per route label index: status → requests answered since the last collection. */
  readonly pending: Map<number, number>[];
  /** Answers written straight to the socket (parse errors, CONNECT): status → count. */
  readonly refused: Map<number, number>;
  readonly latency: RouteHistogram;
  readonly rateLimited: Counter<'limit' | 'client'>;
  readonly redisErrors: Counter;
}

/** The histogram's buckets, in seconds: the handler's own time is tens of microseconds. */
const BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const SLOTS = BUCKETS.length + 1; // the last one for over the largest bound

/**
 * The latency histogram by route, counted in plain arrays: prom-client's Histogram.observe() builds
 * a label hash per call, a measurable share of a request. Registered as a metric of its own: the
 * registry reads any metric through get() (packages/server/test/server-metrics.test.ts reads it back).
 */
class RouteHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly counts: Float64Array;
  private readonly sums: Float64Array;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labels: readonly string[],
  ) {
    this.counts = new Float64Array(labels.length * SLOTS);
    this.sums = new Float64Array(labels.length);
  }

  observeRoute(route: number, seconds: number): void {
    let b = 0;
    while (b < BUCKETS.length && seconds > BUCKETS[b]) b++;
    this.counts[route * SLOTS + b]++;
    this.sums[route] += seconds;
  }

  async get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    const bucket = `${this.name}_bucket`;
    for (let r = 0; r < this.labels.length; r++) {
      const route = this.labels[r];
      const slots = this.counts.subarray(r * SLOTS, (r + 1) * SLOTS);
      const count = slots.reduce((a, b) => a + b, 0);
      if (count === 0) continue;
      let below = 0;
      BUCKETS.forEach((le, b) => {
        below += slots[b];
        values.push({ metricName: bucket, labels: { le, route }, value: below });
      });
      values.push({ metricName: bucket, labels: { le: '+Inf', route }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels: { route }, value: this.sums[r] });
      values.push({ metricName: `${this.name}_count`, labels: { route }, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.counts.fill(0);
    this.sums.fill(0);
  }
}

/** Moves the counts gathered since the last collection into the counter. */
function drain(counter: Counter<'route' | 'status'>, route: string, pending: Map<number, number>): void {
  for (const [status, n] of pending) {
    if (n > 0) counter.inc({ route, status }, n);
    pending.set(status, 0);
  }
}

function keyMetrics(registry: Registry, keys: KeyStore): void {
  let reported = { ok: 0, failed: 0 };
  new Counter({
    name: 'geolookup_keys_reloads_total',
    help: 'Reloads of the keys file (on change or SIGHUP), by result; a failed one keeps the previous keys.',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      // generation counts every load, the first included.
      const now = { ok: Math.max(0, keys.generation - 1), failed: keys.failedReloads };
      this.inc({ result: 'ok' }, now.ok - reported.ok);
      this.inc({ result: 'failed' }, now.failed - reported.failed);
      reported = now;
    },
  });
  new Gauge({
    name: 'geolookup_keys_active',
    help: 'Keys in the keys file that are not revoked.',
    registers: [registry],
    collect() {
      this.set(keys.active);
    },
  });
}

/** `labels`: the server's route labels (routes.ts RouteTable.labels), by route index. */
export function createMetrics(keys: KeyStore, labels: readonly string[]): ServerMetrics {
  // Node's process metrics are left to the process owner (`geolookup serve` adds them): an
  // embedding application may have its own, and a second server in one process would repeat them.
  const registry = new Registry();
  const pending = labels.map(() => new Map<number, number>());
  const refused = new Map<number, number>();
  new Counter({
    name: 'geolookup_http_requests_total',
    help: 'Requests answered, by route and status (route "none": refused before reaching a route).',
    labelNames: ['route', 'status'],
    registers: [registry],
    collect() {
      for (let i = 0; i < labels.length; i++) drain(this, labels[i], pending[i]);
      drain(this, 'none', refused);
    },
  });
  const latency = new RouteHistogram(
    'geolookup_http_request_duration_seconds',
    'Time from the parsed request to its answer handed to the socket, by route.',
    labels,
  );
  registry.registerMetric(latency as unknown as Histogram);
  keyMetrics(registry, keys);
  return {
    registry,
    pending,
    refused,
    latency,
    rateLimited: new Counter({
      name: 'geolookup_rate_limited_total',
      help: '429 answers, by the limit that refused (burst or quota) and the client (key or anonymous).',
      labelNames: ['limit', 'client'],
      registers: [registry],
    }),
    redisErrors: new Counter({
      name: 'geolookup_redis_errors_total',
      help: 'Failed Redis commands and connection errors of the shared limits.',
      registers: [registry],
    }),
  };
}

function bump(counts: Map<number, number>, status: number): void {
  counts.set(status, (counts.get(status) ?? 0) + 1);
}

/** One answered request: `route` a route index (routes.ts), `seconds` its handling time. */
export function countRequest(m: ServerMetrics, route: number, status: number, seconds: number): void {
  bump(m.pending[route], status);
  m.latency.observeRoute(route, seconds);
}

/** One refusal outside the request handler: parse errors, CONNECT, Expect (route label "none"). */
export function countRefusal(m: ServerMetrics | null, status: number): void {
  if (m !== null) bump(m.refused, status);
}

/**
 * One 429. A quota refusal reports 0 requests left this month; a burst refusal happens only
 * with quota left (admission.ts), so X-RateLimit-Remaining tells them apart.
 */
export function countRateLimited(m: ServerMetrics, quotaRemaining: unknown, anonymous: boolean): void {
  const limit = Number(quotaRemaining) === 0 ? 'quota' : 'burst';
  m.rateLimited.inc({ limit, client: anonymous ? 'anonymous' : 'key' });
}

/** One failed Redis command or connection error (the shared limits call it; null: metrics off). */
export function countRedisError(metrics: ServerMetrics | null): void {
  metrics?.redisErrors.inc();
}

/** The metrics in Prometheus text format. */
export function metricsText(m: ServerMetrics): Promise<string> {
  return m.registry.metrics();
}
