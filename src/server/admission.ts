// The limits applied to each identified request, in this order: the monthly quota (a refused
// request is not counted), then the burst window, then the request is counted.

import type http from 'node:http';
import { rateHeaders, sendProblem, tooMany } from './responses.js';
import type { Client, ServerState } from './state.js';

/** An admitted request's rate-limit figures, as sent in its X-RateLimit-* headers. */
export interface Grant {
  /** Requests left this month, after this one. */
  remaining: number;
  /** Seconds until the quota resets (the next UTC month). */
  resetIn: number;
  /** Requests left in the burst window, after this one. */
  burst: number;
}

/** Counts the request and returns its figures, or answers it with a 429 and returns null. */
export function admit(state: ServerState, res: http.ServerResponse, client: Client): Grant | null {
  const now = state.clock();
  const months = state.months;
  months.at(now);
  const resetIn = Math.max(1, Math.ceil((months.end - now) / 1000));
  const used = state.quotas.used(client.id, months.key);
  if (used >= client.quota) {
    const detail =
      `Monthly quota of ${client.quota} requests exceeded; try again later ` +
      '(the quota resets at the start of the next UTC month).';
    const burstLeft = client.window.remaining(now, client.burstLimit);
    sendProblem(state, res, tooMany(detail, resetIn), rateHeaders(client, 0, resetIn, burstLeft, resetIn));
    return null;
  }
  const burst = client.window.take(now, client.burstLimit);
  if (burst < 0) {
    const detail = `Burst limit of ${client.burstLimit} requests per minute exceeded; try again later.`;
    sendProblem(state, res, tooMany(detail, -burst), rateHeaders(client, client.quota - used, resetIn, 0, -burst));
    return null;
  }
  const remaining = Math.max(0, client.quota - state.quotas.increment(client.id, months.key));
  return { remaining, resetIn, burst };
}
