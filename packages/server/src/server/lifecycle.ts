// Background work and stopping: the periodic quota flush and idle-window pruning, the keys-file
// watcher, and the graceful shutdown, which writes the quota counts (and closes the Redis
// connection) after the last response, then releases the quota file's lock.

import type http from 'node:http';
import { forgetIdleWindows } from './clients.js';
import { monthKey } from './limits.js';
import type { ServerState } from './state.js';

function reportFlushError(state: ServerState, e: unknown): void {
  state.log(`geolookup: cannot write quota file ${state.quotaPath}: ${(e as Error).message}`);
}

/**
 * Starts the periodic work (and the keys watcher when `watchKeys`); returns the function that
 * stops it, which also runs when the server closes.
 */
export function startBackground(
  state: ServerState,
  server: http.Server,
  flushMs: number,
  watchKeys: boolean,
): () => void {
  const timer = setInterval(() => {
    const now = state.clock();
    state.quotas.flush(monthKey(now)).catch((e) => reportFlushError(state, e));
    forgetIdleWindows(state, now);
  }, flushMs);
  timer.unref();

  if (watchKeys) state.keys.watch();

  let finished = false;
  const stop = () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    state.keys.close();
    // Also when an embedder calls server.close() rather than shutdown(): write the counts once
    // the writes in progress end.
    state.quotas
      .settle()
      .then(() => state.quotas.flushSync(monthKey(state.clock())))
      .catch((e) => reportFlushError(state, e))
      .finally(() => state.quotas.release());
    void state.shared?.close();
  };
  server.on('close', stop);
  return stop;
}

/**
 * Graceful stop: no new connections, every later response closes its connection, idle
 * connections close, then the quota counts are written. After `graceMs` the rest are cut.
 */
export function shutdown(
  state: ServerState,
  server: http.Server,
  graceMs: number,
  stopBackground: () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    state.closing = true;
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    cut.unref();
    const done = async () => {
      clearTimeout(cut);
      try {
        await state.quotas.settle();
        state.quotas.flushSync(monthKey(state.clock()));
        await state.shared?.close();
        resolve();
      } catch (e) {
        reject(e);
      } finally {
        state.quotas.release();
      }
    };
    if (server.listening) {
      server.close(() => void done());
      server.closeIdleConnections();
    } else {
      stopBackground();
      void done();
    }
  });
}
