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
      const upstream = http.request(
        { host: '127.0.0.1', port, agent, method: req.method, path: req.url, headers: endToEnd(req.headers) },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
          answer.pipe(res);
        },
      );
      upstream.on('error', (e) => {
        if (res.headersSent) res.destroy();
        else res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`lookup service: ${e.message}`);
      });
      req.pipe(upstream);
    },
    close: () => agent.destroy(),
  };
}
