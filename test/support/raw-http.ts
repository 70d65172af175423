// Raw HTTP for the server tests: bytes written as they are on a fresh socket (node:http would
// refuse or repair most of what these tests send), everything the server answers collected until it
// closes the connection, with a hard time limit so a hang fails the test; and a lenient parser.
import net from 'node:net';
import { HOST } from './loopback.js';

export interface RawConnection {
  /** Resolves once the socket is connected (writes made before it are queued). */
  readonly connected: Promise<void>;
  /** Writes `text` (latin1); false, writing nothing, once the connection is gone. */
  write(text: string): boolean;
  /**
   * Everything received, once the server closes the connection, and the ms since it was opened.
   * Rejects (and destroys the socket) when it is still open after the time limit: a hang.
   */
  readonly closed: Promise<{ text: string; ms: number }>;
}

/** Opens a raw connection to the server at `port` on `host`. */
export function connectRaw(port: number, timeoutMs = 5000, host = HOST): RawConnection {
  const began = Date.now();
  const s = net.connect(port, host);
  let text = '';
  s.setEncoding('latin1');
  s.on('data', (d: string) => (text += d));
  s.on('error', () => {}); // a reset after the server closes is fine; 'close' follows
  const connected = new Promise<void>((resolve) => s.once('connect', () => resolve()));
  const closed = new Promise<{ text: string; ms: number }>((resolve, reject) => {
    const t = setTimeout(() => {
      s.destroy();
      reject(new Error(`connection still open after ${timeoutMs} ms; received ${JSON.stringify(text.slice(0, 300))}`));
    }, timeoutMs);
    s.on('close', () => {
      clearTimeout(t);
      resolve({ text, ms: Date.now() - began });
    });
  });
  // A test that failed before awaiting `closed` must not also report its timeout as unhandled.
  closed.catch(() => {});
  const write = (part: string): boolean => {
    if (s.destroyed) return false;
    s.write(part, 'latin1');
    return true;
  };
  return { connected, write, closed };
}

/**
 * Writes `parts` on a fresh connection, `gapMs` apart (0: all at once), and collects everything
 * until the server closes it. Rejects when the server keeps the socket open longer than `timeoutMs`.
 */
export function exchange(
  port: number,
  parts: string | string[],
  timeoutMs = 5000,
  gapMs = 0,
): Promise<{ text: string; ms: number }> {
  const c = connectRaw(port, timeoutMs);
  const list = Array.isArray(parts) ? parts : [parts];
  if (gapMs === 0) for (const p of list) c.write(p);
  else {
    let i = 0;
    const next = () => {
      if (i < list.length && c.write(list[i++])) setTimeout(next, gapMs);
    };
    next();
  }
  return c.closed;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Header names as sent, in order (to spot duplicates). */
  names: string[];
  body: string;
}

/**
 * Splits a byte stream of HTTP/1.1 responses (Content-Length framed; interim 1xx have no body).
 * `headRequests`: how many of the requests were HEAD (their answers have no body).
 */
export function parseResponses(text: string, headRequests = 0): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  let heads = headRequests;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine);
    if (!m) throw new Error(`bad status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    const names: string[] = [];
    for (const l of lines) {
      const c = l.indexOf(':');
      if (c <= 0) throw new Error(`bad header line: ${JSON.stringify(l)}`);
      names.push(l.slice(0, c));
      headers[l.slice(0, c).toLowerCase()] = l.slice(c + 1).trim();
    }
    const status = Number(m[1]);
    // A HEAD answer has no body, unless the request was refused before it was read as HEAD.
    const headAnswer = heads > 0 && (rest.length === end + 4 || rest.startsWith('HTTP/1.', end + 4));
    const len = status < 200 || status === 304 || headAnswer ? 0 : Number(headers['content-length'] ?? NaN);
    if (status >= 200 && heads > 0) heads--;
    if (headers['transfer-encoding']) throw new Error(`unexpected chunked response (status ${status})`);
    if (!Number.isInteger(len)) throw new Error(`response ${status} without Content-Length`);
    if (rest.length < end + 4 + len) throw new Error(`truncated body for ${status}`);
    out.push({ status, headers, names, body: rest.slice(end + 4, end + 4 + len) });
    rest = rest.slice(end + 4 + len);
  }
  return out;
}

/** The responses to `parts` sent on a fresh connection (see exchange and parseResponses). */
export async function exchangeResponses(
  port: number,
  parts: string | string[],
  timeoutMs = 5000,
): Promise<RawResponse[]> {
  return parseResponses((await exchange(port, parts, timeoutMs)).text);
}
