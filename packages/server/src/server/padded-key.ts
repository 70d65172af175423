// What the HTTP parser hides: it strips spaces and tabs around header values, so
// `X-API-Key: <key> ` reaches the request handler as the bare key. The spec wants 401
// for a padded key, so a small scanner reads the request heads on each connection
// before the parser does and records, per request, whether an X-API-Key line was padded.
//
// The scanner runs first (prependListener) and the parser emits 'request' synchronously
// from the same chunk, so verdicts queue up in request order. A request body would throw
// the count off: the server calls desync() on a request that has one, answers it with
// Connection: close, and every later request on that connection gets UNKNOWN.
//
// Fast path: a chunk with no whitespace next to a colon or before a line end cannot hold
// a padded value, so its heads are only counted (one pass over the bytes, no string made).

import type { Socket } from 'node:net';

export const PADDED = 1;
/** takeVerdict result when the connection's heads could not be followed. */
export const UNKNOWN = -1;

const KEY_LINE = /\r\nx-api-key:([^\r\n]*)/gi;
const PAD = /^[ \t]|[ \t]$/;

interface ScanState {
  carry: string;
  stopped: boolean;
  queue: number[];
  limit: number;
}

const kScan = Symbol('geolookup.scan');
type Scanned = Socket & { [kScan]?: ScanState };

function scanHead(head: string): number {
  let v = 0;
  KEY_LINE.lastIndex = 0;
  for (let m = KEY_LINE.exec(head); m !== null; m = KEY_LINE.exec(head)) {
    const raw = m[1];
    // One space after the colon is the usual separator; anything more is padding.
    if (PAD.test(raw.charCodeAt(0) === 32 ? raw.slice(1) : raw)) v |= PADDED;
  }
  return v;
}

/**
 * The common case, one JS pass over a chunk with nothing carried over: counts its complete
 * heads and returns where the unfinished rest starts, or -1 (counting nothing) at the first
 * byte pattern a padded value could make: a tab, a space before a line end, or two spaces
 * after a colon. A pattern cut by the chunk's end sits in an unfinished head, which the
 * general case reads once the rest arrives.
 */
function countCleanHeads(chunk: Buffer, st: ScanState): number {
  const n = chunk.length;
  const queued = st.queue.length;
  let start = 0;
  // The parser skips empty lines between requests; so does the scanner.
  while (start < n && (chunk[start] === 13 || chunk[start] === 10)) start++;
  for (let i = start; i < n; i++) {
    const c = chunk[i];
    if (c === 13) {
      if (chunk[i + 1] === 10 && chunk[i + 2] === 13 && chunk[i + 3] === 10) {
        st.queue.push(0);
        i += 3;
        while (i + 1 < n && (chunk[i + 1] === 13 || chunk[i + 1] === 10)) i++;
        start = i + 1;
      }
    } else if (c === 32) {
      const d = chunk[i + 1];
      if (d === 13 || (d === 32 && chunk[i - 1] === 58)) {
        st.queue.length = queued;
        return -1;
      }
    } else if (c === 9) {
      st.queue.length = queued;
      return -1;
    }
  }
  return start;
}

/** The general case: text carried over from the previous chunk, or possible padding. */
function scanText(str: string, st: ScanState): number {
  let start = 0;
  for (;;) {
    let c = str.charCodeAt(start);
    while (c === 13 || c === 10) c = str.charCodeAt(++start);
    const end = str.indexOf('\r\n\r\n', start);
    if (end === -1) return start;
    st.queue.push(scanHead(str.slice(start, end + 2)));
    start = end + 4;
  }
}

function onData(this: Scanned, chunk: Buffer): void {
  const st = this[kScan];
  if (st === undefined || st.stopped) return;
  const rest = st.carry === '' ? countCleanHeads(chunk, st) : -1;
  if (rest >= 0) {
    if (rest < chunk.length) st.carry = chunk.toString('latin1', rest);
  } else {
    const str = st.carry + chunk.toString('latin1');
    const rest = scanText(str, st);
    st.carry = rest >= str.length ? '' : str.slice(rest);
  }
  // Beyond the header size limit the parser answers 431 and closes the connection; a long
  // body behind a head looks the same. Heads already seen keep their verdicts, so a GET with a
  // long body is still judged by its own head (packages/server/test/fuzz-server.test.ts).
  if (st.carry.length > st.limit) {
    st.stopped = true;
    st.carry = '';
  }
}

/** Starts scanning a new connection's request heads (call from the server's 'connection' event). */
export function scanConnection(socket: Socket, maxHeadBytes: number): void {
  (socket as Scanned)[kScan] = { carry: '', stopped: false, queue: [], limit: maxHeadBytes + 4 };
  socket.prependListener('data', onData);
}

/** Stops following this connection (a request with a body): later requests get UNKNOWN. */
export function desync(socket: Socket): void {
  const st = (socket as Scanned)[kScan];
  if (st === undefined) return;
  st.stopped = true;
  st.carry = '';
  st.queue.length = 0;
}

/** The verdict for the next request on this socket: 0, PADDED, or UNKNOWN. */
export function takeVerdict(socket: Socket): number {
  const st = (socket as Scanned)[kScan];
  if (st === undefined || st.queue.length === 0) return UNKNOWN;
  return st.queue.shift()!;
}
