// Refusals the request handler never sees: requests node's parser rejects, CONNECT, and Expect
// values other than 100-continue. Each gets a problem record and a closed connection, where node
// alone would answer with a bare status or close without a word (packages/server/test/fuzz-server.test.ts).

import type http from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_TYPES, type Problem } from 'geolookup';
import { countRefusal } from './metrics.js';
import { takeVerdict } from './padded-key.js';
import { ALLOW, PROBLEM, problem, sendProblem } from './responses.js';
import type { ServerState } from './state.js';

/** What node's parser reports with 'clientError' (bytesParsed and rawPacket for parse errors). */
export type ParseError = NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer };

/** The 'checkExpectation' listener. */
export function refuseExpectation(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse): void {
  takeVerdict(req.socket); // keep the key-scan queue in step with the requests
  countRefusal(state.metrics, 417);
  res.shouldKeepAlive = false;
  sendProblem(state, res, problem(417, 'Only "Expect: 100-continue" is supported.'));
}

/** The 'connect' listener. */
export function refuseConnect(state: ServerState, _req: http.IncomingMessage, socket: Socket): void {
  countRefusal(state.metrics, 405);
  const body = JSON.stringify(problem(405, 'Method CONNECT is not allowed; use GET or HEAD.'));
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Type: ${PROBLEM}\r\n` +
      `X-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The 'clientError' listener: a request the parser rejects is answered with a problem record and
 * its connection closed. A bad byte in the X-API-Key line (a newline, a control character, a
 * folded continuation) is a 401.
 */
export function answerParseError(state: ServerState, err: ParseError, socket: Socket): void {
  const pending = (socket as Socket & { _httpMessage?: http.ServerResponse })._httpMessage;
  // A response still being written cannot be followed by another, nor can one that closed the
  // connection (the bytes after it are an unread body); a finished keep-alive one can, so a
  // malformed request after it gets its 400 too instead of a silent close.
  if (
    err.code === 'ECONNRESET' ||
    !socket.writable ||
    (pending?.headersSent && (!pending.writableEnded || !pending.shouldKeepAlive))
  ) {
    socket.destroy();
    return;
  }
  const p = parseErrorProblem(state, err);
  countRefusal(state.metrics, p.status);
  const body = JSON.stringify(p);
  // A HEAD request's answer has no body (its client would read one as a stray response).
  const head = err.rawPacket !== undefined && err.rawPacket.toString('latin1', 0, 5) === 'HEAD ';
  const scheme = p.status === 401 ? 'WWW-Authenticate: X-API-Key\r\n' : '';
  socket.end(
    `HTTP/1.1 ${p.status} ${p.title}\r\nContent-Type: ${PROBLEM}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${scheme}Cache-Control: no-store\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

function parseErrorProblem(state: ServerState, err: ParseError): Problem {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return problem(431, `The request head is larger than ${state.maxHeaderSize} bytes.`);
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return problem(408, 'The request was not received in time.');
  if (badKeyLine(err))
    return problem(401, 'The X-API-Key value contains whitespace or control characters.', PROBLEM_TYPES.authentication);
  return problem(400, 'Malformed HTTP request.');
}

/** Whether a parse error sits in an X-API-Key header line (or a line folded onto one). */
function badKeyLine(err: ParseError): boolean {
  if (err.code !== 'HPE_INVALID_HEADER_TOKEN' && err.code !== 'HPE_CR_EXPECTED' && err.code !== 'HPE_LF_EXPECTED')
    return false;
  if (!err.rawPacket || err.bytesParsed === undefined) return false;
  const text = err.rawPacket.toString('latin1');
  const at = Math.min(err.bytesParsed, text.length);
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (/^x-api-key:/i.test(text.slice(lineStart, lineStart + 10))) return true;
  // A folded continuation (a line starting with whitespace) belongs to the header above it.
  if (lineStart > 0 && (text[lineStart] === ' ' || text[lineStart] === '\t')) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    return /^x-api-key:/i.test(text.slice(prevStart, prevStart + 10));
  }
  return false;
}
