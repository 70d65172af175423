// Requests outside /playground/ go to the lookup service itself, over HTTP on its own loopback
// port: the page gets the service's own answers (status, headers, body), and the service's
// OpenAPI document keeps describing exactly the service.

import http from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they belong to one connection, not to the message. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function endToEnd(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const out: http.IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP.has(name)) out[name] = value;
  return out;
}

/** A forwarder to the service listening on 127.0.0.1:`port`. */
export function proxyTo(port: number): {
  forward(req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): void;
} {
  const agent = new http.Agent({ keepAlive: true });
  return {
    forward(req, res) {
      const bodiless = req.method === 'GET' || req.method === 'HEAD';
      const send = (retry: boolean) => {
        const upstream = http.request(
          { host: '127.0.0.1', port, agent, method: req.method, path: req.url, headers: endToEnd(req.headers) },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
            answer.pipe(res);
          },
        );
        upstream.on('error', (e: NodeJS.ErrnoException) => {
          // A kept-alive socket the service closed as it was reused (Node's documented race): a
          // GET or HEAD has no body to replay, so it is sent once more on a fresh socket.
          if (retry && bodiless && upstream.reusedSocket && e.code === 'ECONNRESET' && !res.headersSent)
            return send(false);
          if (res.headersSent) res.destroy();
          else res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`lookup service: ${e.message}`);
        });
        if (bodiless) upstream.end();
        else req.pipe(upstream);
      };
      send(true);
    },
    close: () => agent.destroy(),
  };
}
