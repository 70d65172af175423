// Records what every geolookup server in this process writes on each connection, with the
// requests it answered through node:http, by diagnostics_channel (no change to the server).
// Plain JavaScript, so that child processes can load it with --import before anything else:
// test/support/response-tap-child.mjs. test/support/openapi-conformance.ts checks the records.
import dc from 'node:diagnostics_channel';

const kTap = Symbol('geolookup.responseTap');

/** A geolookup server (packages/server/src/server/server.ts) rather than any other node:http server. */
function isGeoLookupServer(server) {
  return server != null && typeof server.reloadKeys === 'function' && typeof server.openapi === 'object';
}

function toBuffer(chunk, encoding) {
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Starts recording. `done({ server, out, requests })` runs once per connection when it closes
 * (or at stop()): `out` is everything written (latin1), `requests` the requests answered through
 * node:http, in order ({ method, url }). Returns { stop }.
 */
export function tapConnections(done) {
  const live = new Set();
  const finish = (tap) => {
    if (!live.delete(tap)) return;
    const requests = tap.requests.filter((r) => r.response.headersSent).map((r) => ({ method: r.method, url: r.url }));
    done({ server: tap.server, out: Buffer.concat(tap.chunks).toString('latin1'), requests });
  };
  const onSocket = ({ socket }) => {
    if (!isGeoLookupServer(socket.server)) return;
    const tap = { server: socket.server, chunks: [], requests: [] };
    live.add(tap);
    socket[kTap] = tap;
    const write = socket.write;
    socket.write = function (chunk, encoding, cb) {
      tap.chunks.push(toBuffer(chunk, encoding));
      return write.call(this, chunk, encoding, cb);
    };
    const end = socket.end;
    socket.end = function (chunk, encoding, cb) {
      if (chunk != null && typeof chunk !== 'function') tap.chunks.push(toBuffer(chunk, encoding));
      return end.call(this, chunk, encoding, cb);
    };
    socket.once('close', () => finish(tap));
  };
  const onRequest = ({ socket, request, response }) => {
    socket[kTap]?.requests.push({ method: request.method, url: request.url, response });
  };
  dc.subscribe('net.server.socket', onSocket);
  dc.subscribe('http.server.request.start', onRequest);
  return {
    stop() {
      dc.unsubscribe('net.server.socket', onSocket);
      dc.unsubscribe('http.server.request.start', onRequest);
      for (const tap of [...live]) finish(tap);
    },
  };
}
