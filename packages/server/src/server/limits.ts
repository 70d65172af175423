// Burst limit: a sliding window of 60 one-second slots per client. A request is accepted
// when fewer than `limit` requests were accepted in the current second and the 59 before
// it; each slot leaves the window as a whole, so waits are whole seconds (as Retry-After).
// Monthly quota: calendar months in UTC.

export const WINDOW_SLOTS = 60;
export const SLOT_MS = 1000;

export class BurstWindow {
  private readonly counts = new Uint32Array(WINDOW_SLOTS);
  private last = -Infinity;
  private total = 0;

  /** Slot index of the latest request seen (for pruning idle windows). */
  get lastSlot(): number {
    return this.last;
  }

  private advance(slot: number): void {
    if (slot <= this.last) return; // same second, or a clock that went back: keep counting in the latest slot
    if (slot - this.last >= WINDOW_SLOTS) {
      this.counts.fill(0);
      this.total = 0;
    } else {
      for (let s = this.last + 1; s <= slot; s++) {
        const i = s % WINDOW_SLOTS;
        this.total -= this.counts[i];
        this.counts[i] = 0;
      }
    }
    this.last = slot;
  }

  /**
   * Accepts (and counts) one request and returns the requests left (>= 0), or refuses it and
   * returns minus the whole seconds until one would be accepted (<= -1). A number, not an
   * object: this runs per request.
   */
  take(now: number, limit: number): number {
    this.advance(Math.floor(now / SLOT_MS));
    const slot = this.last;
    if (this.total < limit) {
      this.counts[slot % WINDOW_SLOTS]++;
      this.total++;
      return limit - this.total;
    }
    // After j more seconds the slots slot-59 … slot-60+j have left the window.
    let excess = this.total - limit + 1;
    let j = 1;
    for (; j < WINDOW_SLOTS; j++) {
      excess -= this.counts[(slot + j) % WINDOW_SLOTS];
      if (excess <= 0) break;
    }
    const untilSlot = (slot + j) * SLOT_MS - now;
    return -Math.max(1, Math.ceil(untilSlot / 1000));
  }

  /** Requests left in the window now, without counting one. */
  remaining(now: number, limit: number): number {
    this.advance(Math.floor(now / SLOT_MS));
    return Math.max(0, limit - this.total);
  }
}

/**
 * The UTC calendar month holding `now`: `at(now)` updates `key` (YYYY-MM) and `end` (ms);
 * recomputed only when the month changes.
 */
export class MonthClock {
  private start = 0;
  end = -1;
  key = '';

  at(now: number): void {
    if (now < this.start || now >= this.end) {
      const d = new Date(now);
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth();
      this.start = Date.UTC(y, m, 1);
      this.end = Date.UTC(y, m + 1, 1);
      this.key = `${y}-${String(m + 1).padStart(2, '0')}`;
    }
  }
}

export function monthKey(now: number): string {
  const d = new Date(now);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
