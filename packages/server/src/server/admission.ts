// The limits applied to each identified request, in this order: the monthly quota (a refused
// request is not counted), then the burst window, then the request is counted. With `redis`,
// both counts are taken in Redis at once and a refused request's counts are taken back.

import type http from 'node:http';
import type { Client } from './clients.js';
import type { MonthClock } from './limits.js';
import type { QuotaStore } from './quota-store.js';
import type { Counted, SharedLimits } from './redis-limits.js';
import { type ResponseContext, rateHeaders, sendProblem, tooMany } from './responses.js';

/** What admission reads of the server: its clock, the current month and this process's counts. */
export interface AdmissionContext extends ResponseContext {
  readonly clock: () => number;
  readonly months: MonthClock;
  readonly quotas: QuotaStore;
}

/** An admitted request's rate-limit figures, as sent in its X-RateLimit-* headers. */
export interface Grant {
  /** Requests left this month, after this one. */
  remaining: number;
  /** Seconds until the quota resets (the next UTC month). */
  resetIn: number;
  /** Requests left in the burst window, after this one. */
  burst: number;
}

function quotaDetail(client: Client): string {
  return (
    `Monthly quota of ${client.quota} requests exceeded; try again later ` +
    '(the quota resets at the start of the next UTC month).'
  );
}

function burstDetail(client: Client): string {
  return `Burst limit of ${client.burstLimit} requests per minute exceeded; try again later.`;
}

/** Counts the request and returns its figures, or answers it with a 429 and returns null. */
export function admit(state: AdmissionContext, res: http.ServerResponse, client: Client): Grant | null {
  const now = state.clock();
  const months = state.months;
  months.at(now);
  const resetIn = Math.max(1, Math.ceil((months.end - now) / 1000));
  const used = state.quotas.used(client.id, months.key);
  if (used >= client.quota) {
    const burstLeft = client.window.remaining(now, client.burstLimit);
    sendProblem(state, res, tooMany(quotaDetail(client), resetIn), rateHeaders(client, 0, resetIn, burstLeft, resetIn));
    return null;
  }
  const burst = client.window.take(now, client.burstLimit);
  if (burst < 0) {
    sendProblem(
      state,
      res,
      tooMany(burstDetail(client), -burst),
      rateHeaders(client, client.quota - used, resetIn, 0, -burst),
    );
    return null;
  }
  const remaining = Math.max(0, client.quota - state.quotas.increment(client.id, months.key));
  return { remaining, resetIn, burst };
}

/**
 * admit() against the counts in Redis. While Redis is away (or a command fails) the request is
 * admitted by this instance's own windows and counts instead: never refused for the outage.
 */
export async function admitShared(
  state: AdmissionContext,
  res: http.ServerResponse,
  client: Client,
  shared: SharedLimits,
): Promise<Grant | null> {
  if (!shared.healthy) {
    const grant = admit(state, res, client);
    // Requests admitted while the breaker is open never reached Redis: added when it is back.
    if (grant !== null) shared.countLater(client.id, state.months.key);
    return grant;
  }
  const now = state.clock();
  const months = state.months;
  months.at(now);
  const month = months.key;
  const resetIn = Math.max(1, Math.ceil((months.end - now) / 1000));
  let counted: Counted;
  try {
    counted = await shared.take(client.id, month, client.burstLimit, client.quota);
  } catch (e) {
    // The command may or may not have been counted: not added later (an outage under-counts).
    shared.failed(e);
    return admit(state, res, client);
  }
  return await settle(state, res, client, shared, counted, resetIn, month);
}

/** The 429 (sent once the refused counts are taken back) or the grant for the counts Redis returned (this request included). */
async function settle(
  state: AdmissionContext,
  res: http.ServerResponse,
  client: Client,
  shared: SharedLimits,
  c: Counted,
  resetIn: number,
  month: string,
): Promise<Grant | null> {
  if (c.quotaUsed > client.quota) {
    await shared.undo(client.id, month, true);
    state.quotas.note(client.id, month, client.quota);
    const burstLeft = Math.max(0, client.burstLimit - (c.burstUsed - 1));
    sendProblem(state, res, tooMany(quotaDetail(client), resetIn), rateHeaders(client, 0, resetIn, burstLeft, resetIn));
    return null;
  }
  if (c.burstUsed > client.burstLimit) {
    await shared.undo(client.id, month, false);
    const wait = Math.max(1, Math.ceil(c.burstMs / 1000));
    const left = client.quota - (c.quotaUsed - 1);
    sendProblem(state, res, tooMany(burstDetail(client), wait), rateHeaders(client, left, resetIn, 0, wait));
    return null;
  }
  // This instance's counts follow Redis's, so an outage starts from them rather than from zero.
  state.quotas.note(client.id, month, c.quotaUsed);
  return { remaining: client.quota - c.quotaUsed, resetIn, burst: client.burstLimit - c.burstUsed };
}
