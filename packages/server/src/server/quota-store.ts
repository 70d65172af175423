// Monthly request counts per key id (and per anonymous client address), persisted as JSON
// with atomic writes (temporary file, fsync, rename) so a crash never leaves a torn file, by one
// server at a time (quota-lock.ts).

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { writeFileAtomicSync } from './keys.js';
import { lockQuotaFile, type QuotaLock } from './quota-lock.js';

interface QuotaFile {
  version: 1;
  updated: string;
  /** id → usage in `month` (YYYY-MM, UTC). Anonymous clients appear as `anon:<address>`. */
  usage: Record<string, { month: string; used: number }>;
}

interface Usage {
  month: string;
  used: number;
}

export class QuotaStore {
  private readonly usage = new Map<string, Usage>();
  private dirty = false;
  private writing: Promise<void> | null = null;
  private again = false;

  private readonly lock: QuotaLock | null;

  /** Locks and reads the file at `path` (none: counts in memory); throws when another server holds it. */
  constructor(readonly path: string | null) {
    this.lock = path ? lockQuotaFile(path) : null;
    try {
      if (path) this.load(path);
    } catch (e) {
      this.release();
      throw e;
    }
  }

  /** Lets another server take the file: after the last write. */
  release(): void {
    this.lock?.release();
  }

  private load(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new Error(`${path}: cannot read quota file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    let data: QuotaFile;
    try {
      data = JSON.parse(text);
    } catch {
      throw new Error(
        `${path}: quota file is not valid JSON (fix or remove it; removing it resets this month's counts)`,
      );
    }
    if (
      typeof data !== 'object' ||
      data === null ||
      data.version !== 1 ||
      typeof data.usage !== 'object' ||
      data.usage === null
    ) {
      throw new Error(`${path}: quota file must be {"version": 1, "usage": {...}}`);
    }
    for (const [id, u] of Object.entries(data.usage)) {
      if (u && typeof u.month === 'string' && Number.isSafeInteger(u.used) && u.used >= 0)
        this.usage.set(id, { month: u.month, used: u.used });
    }
  }

  /** Requests counted for `id` in `month`. */
  used(id: string, month: string): number {
    const u = this.usage.get(id);
    return u !== undefined && u.month === month ? u.used : 0;
  }

  /** Counts one request; returns the new count for the month. */
  increment(id: string, month: string): number {
    let u = this.usage.get(id);
    if (u === undefined) this.usage.set(id, (u = { month, used: 0 }));
    else if (u.month !== month) {
      u.month = month;
      u.used = 0;
    }
    this.dirty = true;
    return ++u.used;
  }

  /** Sets `id`'s count for `month` to one read elsewhere (Redis), without marking the file changed. */
  note(id: string, month: string, used: number): void {
    const u = this.usage.get(id);
    if (u === undefined) this.usage.set(id, { month, used });
    else {
      u.month = month;
      u.used = used;
    }
  }

  private snapshot(month: string | undefined): string {
    const usage: QuotaFile['usage'] = {};
    for (const [id, u] of this.usage) {
      if (month !== undefined && u.month < month)
        this.usage.delete(id); // a past month: counts reset anyway
      else usage[id] = { month: u.month, used: u.used };
    }
    const file: QuotaFile = { version: 1, updated: new Date().toISOString(), usage };
    return `${JSON.stringify(file)}\n`;
  }

  /**
   * Writes the counts if they changed since the last write. One write at a time; calls during a
   * write queue one more.
   */
  flush(month?: string): Promise<void> {
    if (!this.path) return Promise.resolve();
    if (this.writing) {
      this.again = true;
      return this.writing;
    }
    if (!this.dirty) return Promise.resolve();
    const path = this.path;
    this.dirty = false;
    const text = this.snapshot(month);
    this.writing = (async () => {
      const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        const fh = await open(tmp, 'w', 0o600);
        try {
          await fh.writeFile(text);
          await fh.sync();
        } finally {
          await fh.close();
        }
        await rename(tmp, path);
      } catch (e) {
        this.dirty = true;
        await unlink(tmp).catch(() => {});
        throw e;
      } finally {
        this.writing = null;
      }
      if (this.again) {
        this.again = false;
        await this.flush(month);
      }
    })();
    return this.writing;
  }

  /** Synchronous write for shutdown (after the last request). */
  flushSync(month?: string): void {
    if (!this.path || !this.dirty) return;
    this.dirty = false;
    try {
      writeFileAtomicSync(this.path, this.snapshot(month));
    } catch (e) {
      this.dirty = true;
      throw e;
    }
  }

  /** Resolves once any write in progress has finished. */
  async settle(): Promise<void> {
    while (this.writing) await this.writing.catch(() => {});
  }
}
