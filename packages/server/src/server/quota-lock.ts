// One server per quota file: each instance without Redis keeps its counts in memory and rewrites
// the whole file, so a second one on the same file would overwrite the first one's counts.
//
// The lock is `<quota file>.lock`, holding the owner's pid and host, made with link(2), which fails
// when the name exists, from a temporary file already written (so the lock is never seen empty).
// A lock whose pid no longer runs on this host is stale and taken over, so a crash or `kill -9`
// needs no cleanup and no timeout. Not proper-lockfile: its staleness is an mtime that a timer
// must keep fresh, which takes seconds to expire after a crash, where a pid check is exact at once.

import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface QuotaLock {
  readonly path: string;
  /** Removes the lock (once; a lock another process has taken over since is left alone). */
  release(): void;
}

/** Locks `quotaPath` for this server; throws, saying what to do, when another server holds it. */
export function lockQuotaFile(quotaPath: string): QuotaLock {
  const path = `${quotaPath}.lock`;
  const mine = `${process.pid} ${hostname()}\n`;
  // A second attempt after taking over a stale lock: another starter may have taken it first.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (place(path, mine)) return heldLock(path, mine);
    const holder = readHolder(path);
    if (holder !== null && isAlive(holder)) throw new Error(inUse(quotaPath, path, holder));
    if (holder !== null) removeIf(path, holder.text);
  }
  throw new Error(inUse(quotaPath, path, null));
}

function heldLock(path: string, mine: string): QuotaLock {
  let held = true;
  return {
    path,
    release() {
      if (held) removeIf(path, mine);
      held = false;
    },
  };
}

/** Creates `path` holding `text`, atomically; false when it exists. */
function place(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    throw new Error(`${path}: cannot create the quota file's lock (${code ?? String(e)})`);
  } finally {
    rmSync(tmp, { force: true });
  }
}

interface Holder {
  text: string;
  pid: number;
  host: string;
}

function readHolder(path: string): Holder | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null; // gone meanwhile: released by its owner
  }
  const [pid, host = ''] = text.trim().split(' ');
  return { text, pid: Number(pid), host };
}

/** Whether the holder may still run: on another host this one cannot tell, so it may. */
function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname() || !Number.isSafeInteger(holder.pid) || holder.pid <= 0) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, under another user
  }
}

/** Removes `path` if it still holds `text`; false when it holds something else. */
function removeIf(path: string, text: string): boolean {
  try {
    if (readFileSync(path, 'utf8') !== text) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

function inUse(quotaPath: string, lockPath: string, holder: Holder | null): string {
  const known = holder !== null && Number.isSafeInteger(holder.pid);
  const who = known ? `another server (pid ${holder.pid} on ${holder.host})` : 'another server';
  return (
    `${quotaPath}: the quota file is in use by ${who}. Instances without --redis each count alone and ` +
    "would overwrite each other's counts: give every instance the same --redis URL to share limits and " +
    `quotas, or each its own --quota-file. If no server runs, remove ${lockPath}.`
  );
}
