// How much a loop of lookups allocates: the heap's used size and the scavenges the GC reports
// while it runs (test/contract/allocation.test.ts says why both, and why a full collection first).

import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Lookups per measured loop. */
export const N = 1_000_000;
const ATTEMPTS = 4;

/**
 * Up to ATTEMPTS measurements of `loop` (which returns how many lookups found something); the
 * first clean one is returned. On a loaded machine V8's background compiler can lag, and the loop
 * then still runs in a baseline tier, which boxes by design; a real boxed value fails every attempt.
 */
export async function allocationOf(
  loop: () => number,
): Promise<{ growth: number; scavenges: number[]; found: number }> {
  let result = { growth: 0, scavenges: [] as number[], found: 0 };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    gc();
    // Optimise first (again if the collection dropped code): unoptimised code boxes by design.
    for (let r = 0; r < 3; r++) loop();
    const starts: number[] = [];
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if ((e as { detail?: { kind?: number } }).detail?.kind === 1) starts.push(e.startTime);
    });
    obs.observe({ entryTypes: ['gc'] });
    const before = getHeapStatistics().used_heap_size;
    const t0 = performance.now();
    const found = loop();
    const t1 = performance.now();
    const after = getHeapStatistics().used_heap_size;
    await new Promise((r) => setTimeout(r, 10));
    obs.disconnect();
    result = { growth: after - before, scavenges: starts.filter((t) => t >= t0 && t <= t1), found };
    if (result.growth < 1e5 && result.scavenges.length === 0) break;
  }
  return result;
}
