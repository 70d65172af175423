// What the HTTP parser hides: it strips spaces and tabs around header values, so
// `X-API-Key: <key> ` reaches the request handler as the bare key. The spec wants 401
// for a padded key, so a small scanner reads the request heads on each connection
// before the parser does and records, per request, whether an X-API-Key line was padded.
//
// The scanner runs first (prependListener) and the parser emits 'request' synchronously
// from the same chunk, so verdicts queue up in request order. A request with a body
// (Content-Length > 0 or Transfer-Encoding) stops the scan: the server answers it with
// Connection: close, so nothing after it on that connection is answered.

import type { Socket } from 'node:net';

export const PADDED = 1;
export const HAS_BODY = 2;
/** takeVerdict result when no head was scanned for this request. */
export const UNKNOWN = -1;

const KEY_LINE = /\r\nx-api-key:([^\r\n]*)/gi;
const BODY = /\r\n(?:content-length:[ \t]*0*[1-9]|transfer-encoding:)/i;
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
  if (head.length > 10) {
    KEY_LINE.lastIndex = 0;
    for (let m = KEY_LINE.exec(head); m !== null; m = KEY_LINE.exec(head)) {
      const raw = m[1];
      // One space after the colon is the usual separator; anything more is padding.
      if (PAD.test(raw.charCodeAt(0) === 32 ? raw.slice(1) : raw)) v |= PADDED;
    }
    if (BODY.test(head)) v |= HAS_BODY;
  }
  return v;
}

function onData(this: Scanned, chunk: Buffer): void {
  const st = this[kScan];
  if (st === undefined || st.stopped) return;
  const str = st.carry === '' ? chunk.toString('latin1') : st.carry + chunk.toString('latin1');
  let start = 0;
  for (;;) {
    // The parser skips empty lines between requests; so does the scanner.
    let c = str.charCodeAt(start);
    while (c === 13 || c === 10) c = str.charCodeAt(++start);
    const end = str.indexOf('\r\n\r\n', start);
    if (end === -1) break;
    const v = scanHead(str.slice(start, end + 2));
    st.queue.push(v);
    start = end + 4;
    if (v & HAS_BODY) {
      st.stopped = true;
      st.carry = '';
      return;
    }
  }
  st.carry = start >= str.length ? '' : str.slice(start);
  // Beyond the header size limit the parser answers 431 and closes the connection.
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

/** The verdict for the next request on this socket: a PADDED | HAS_BODY bit set, or UNKNOWN. */
export function takeVerdict(socket: Socket): number {
  const st = (socket as Scanned)[kScan];
  if (st === undefined || st.queue.length === 0) return UNKNOWN;
  return st.queue.shift()!;
}
