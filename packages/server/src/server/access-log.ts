// The optional access log: one JSON line per answered request (pino), never a key: the key id
// or anonymous address names the client, and anything shaped like a key in the URL is masked.

import pino, { type DestinationStream, type Logger } from 'pino';

/** Where the lines go: 'stdout' (buffered, flushed on shutdown), or any object with write(line). */
export type AccessLogDestination = 'stdout' | DestinationStream;

export interface AccessLog {
  readonly logger: Logger;
  /** Writes buffered lines now (shutdown). */
  flush(): void;
}

export interface AccessEntry {
  method: string;
  url: string;
  route: string;
  status: number;
  /** Handling time in ms. */
  ms: number;
  /** Body bytes (Content-Length), 0 for HEAD, 304 and 204. */
  bytes: number;
  /** Key id, `anon:<address>`, or null when refused before the client was known. */
  client: string | null;
  remote: string | undefined;
}

export function createAccessLog(destination: AccessLogDestination | null | undefined): AccessLog | null {
  if (!destination) return null;
  const stream = destination === 'stdout' ? pino.destination({ dest: 1, sync: false, minLength: 4096 }) : destination;
  const logger = pino(
    {
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
  return {
    logger,
    flush() {
      if (destination === 'stdout') (stream as ReturnType<typeof pino.destination>).flushSync();
    },
  };
}

/** A key pasted into a URL (`glk_…`, or `glk%5F…`): masked up to the next delimiter. */
const KEYLIKE = /glk(?:_|%5f)[^/?&#,;=\s]*/gi;

export function maskKeys(url: string): string {
  return url.replace(KEYLIKE, 'glk_[masked]');
}

export function logRequest(log: AccessLog, entry: AccessEntry): void {
  entry.url = maskKeys(entry.url);
  log.logger.info(entry);
}
