// API keys: the keys file (hashes only), key generation, and the in-memory store the
// server verifies against. A key is shown once, when created; the file keeps its SHA-256.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  watch,
  writeSync,
  type FSWatcher,
} from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * `glk_<id>_<secret>`: the id (12 hex digits) is public and names the key; the secret is 32 random
 * bytes, base64url.
 */
const KEY_SHAPE = /^glk_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;
/** Every key has this many characters. */
export const KEY_LENGTH = 60;
const ID_SHAPE = /^[0-9a-f]{12}$/;
const HASH_SHAPE = /^[0-9a-f]{64}$/;

/** Monthly quota a plan gets when a key is created (`keys create --quota` overrides it; the file is authoritative). */
export const PLAN_QUOTAS: Readonly<Record<string, number>> = Object.freeze({ free: 10_000, pro: 1_000_000 });

export interface KeyRecord {
  /** Public identifier (also the middle part of the key); used by `keys revoke` and in the quota file. */
  id: string;
  /** Lower-case hex SHA-256 of the whole key. */
  sha256: string;
  plan: string;
  /** Requests per UTC calendar month. */
  monthlyQuota: number;
  revoked: boolean;
  created: string;
  revokedAt?: string;
  label?: string;
}

export interface KeysFile {
  version: 1;
  keys: KeyRecord[];
}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

function generateKey(): { key: string; id: string } {
  const id = randomBytes(6).toString('hex');
  return { key: `glk_${id}_${randomBytes(32).toString('base64url')}`, id };
}

function fail(path: string, what: string): never {
  throw new Error(`${path}: ${what}`);
}

/** Reads and checks a keys file. A missing file is an empty one only when `allowMissing`. */
export function readKeysFile(path: string, allowMissing = false): KeysFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && allowMissing) return { version: 1, keys: [] };
    fail(
      path,
      code === 'ENOENT'
        ? 'keys file not found (create one with `geolookup keys create --keys FILE --plan free`)'
        : `cannot read keys file (${code ?? String(e)})`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    fail(path, 'keys file is not valid JSON');
  }
  const file = data as KeysFile;
  if (typeof file !== 'object' || file === null || file.version !== 1 || !Array.isArray(file.keys)) {
    fail(path, 'keys file must be {"version": 1, "keys": [...]}');
  }
  const seen = new Set<string>();
  file.keys.forEach((k, i) => {
    const where = `keys[${i}]`;
    if (typeof k !== 'object' || k === null) fail(path, `${where} is not an object`);
    if (typeof k.id !== 'string' || !ID_SHAPE.test(k.id)) fail(path, `${where}.id must be 12 hex digits`);
    if (seen.has(k.id)) fail(path, `${where}.id ${k.id} appears twice`);
    seen.add(k.id);
    if (typeof k.sha256 !== 'string' || !HASH_SHAPE.test(k.sha256))
      fail(path, `${where}.sha256 must be 64 lower-case hex digits`);
    if (typeof k.plan !== 'string' || k.plan === '') fail(path, `${where}.plan must be a non-empty string`);
    if (!Number.isSafeInteger(k.monthlyQuota) || k.monthlyQuota < 0)
      fail(path, `${where}.monthlyQuota must be a non-negative integer`);
    if (typeof k.revoked !== 'boolean') fail(path, `${where}.revoked must be true or false`);
  });
  return file;
}

/** Writes `text` to `path` atomically: a temporary file in the same directory, fsync, rename. */
export function writeFileAtomicSync(path: string, text: string, mode = 0o600): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
}

function writeKeysFile(path: string, file: KeysFile): void {
  writeFileAtomicSync(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** Adds a key to the file (created if missing). Returns the key, which is stored nowhere. */
export function createKey(
  path: string,
  plan: string,
  options: { monthlyQuota?: number; label?: string; now?: Date } = {},
): { key: string; record: KeyRecord } {
  const quota = options.monthlyQuota ?? PLAN_QUOTAS[plan];
  if (quota === undefined)
    throw new Error(`unknown plan "${plan}" (plans: ${Object.keys(PLAN_QUOTAS).join(', ')}; or give --quota)`);
  if (!Number.isSafeInteger(quota) || quota < 0)
    throw new Error(`monthly quota must be a non-negative integer, got ${quota}`);
  const file = readKeysFile(path, true);
  let made = generateKey();
  while (file.keys.some((k) => k.id === made.id)) made = generateKey();
  const record: KeyRecord = {
    id: made.id,
    sha256: hashKey(made.key).toString('hex'),
    plan,
    monthlyQuota: quota,
    revoked: false,
    created: (options.now ?? new Date()).toISOString(),
  };
  if (options.label) record.label = options.label;
  file.keys.push(record);
  writeKeysFile(path, file);
  return { key: made.key, record };
}

/** Marks a key revoked. Returns the record, or null when the id is unknown. */
export function revokeKey(path: string, id: string, now = new Date()): KeyRecord | null {
  const file = readKeysFile(path);
  const record = file.keys.find((k) => k.id === id);
  if (!record) return null;
  if (!record.revoked) {
    record.revoked = true;
    record.revokedAt = now.toISOString();
    writeKeysFile(path, file);
  }
  return record;
}

interface Entry {
  record: KeyRecord;
  hash: Buffer;
}

export type Verdict = { ok: true; record: KeyRecord } | { ok: false; detail: string };

const DUMMY_HASH = hashKey('glk_000000000000_not-a-key');

/**
 * The keys the server accepts. Verification always hashes the presented value and
 * compares hashes with crypto.timingSafeEqual, also when the id is unknown.
 */
export class KeyStore {
  private byId = new Map<string, Entry>();
  /** Bumped on every (re)load, so verdicts cached per connection expire with the keys they came from. */
  generation = 0;
  /** Reloads that failed and kept the previous keys (the metrics report them). */
  failedReloads = 0;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly path: string | null,
    private readonly log: (line: string) => void = () => {},
  ) {
    if (path) this.install(readKeysFile(path));
  }

  get active(): number {
    let n = 0;
    for (const e of this.byId.values()) if (!e.record.revoked) n++;
    return n;
  }

  private install(file: KeysFile): void {
    const next = new Map<string, Entry>();
    for (const record of file.keys) next.set(record.id, { record, hash: Buffer.from(record.sha256, 'hex') });
    this.byId = next;
    this.generation++;
  }

  /** Re-reads the file; on any error keeps the keys it had and logs why. Returns whether it reloaded. */
  reload(): boolean {
    if (!this.path) return false;
    try {
      this.install(readKeysFile(this.path));
      this.log(`geolookup: keys reloaded from ${this.path} (${this.active} active)`);
      return true;
    } catch (e) {
      this.failedReloads++;
      this.log(`geolookup: keys not reloaded, keeping the previous ones: ${(e as Error).message}`);
      return false;
    }
  }

  /** Reloads when the file changes. Watches the directory, so atomic replacement (rename) is seen too. */
  watch(debounceMs = 50): void {
    if (!this.path || this.watcher) return;
    const name = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
        if (file !== null && file !== name) return;
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.timer = null;
          if (this.path && existsSync(this.path)) this.reload();
        }, debounceMs);
        this.timer.unref();
      });
      this.watcher.on('error', (e) => this.log(`geolookup: keys file watcher stopped: ${e.message}`));
    } catch (e) {
      this.log(`geolookup: cannot watch ${this.path} (${(e as Error).message}); reload with SIGHUP`);
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  verify(value: string): Verdict {
    const digest = hashKey(value);
    const m = KEY_SHAPE.exec(value);
    const entry = m ? this.byId.get(m[1]) : undefined;
    const equal = timingSafeEqual(digest, entry ? entry.hash : DUMMY_HASH);
    if (!entry || !equal) return { ok: false, detail: 'The API key is not valid.' };
    if (entry.record.revoked) return { ok: false, detail: 'The API key has been revoked.' };
    return { ok: true, record: entry.record };
  }
}
