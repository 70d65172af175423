// Servers under test listen on the loopback interface, on a port the system picks, so test
// files running side by side never collide; requests reach them through node:http.
import http from 'node:http';
import type { AddressInfo, Server } from 'node:net';

export const HOST = '127.0.0.1';

/** Starts `server` listening on HOST at a free port; resolves with the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return (server.address() as AddressInfo).port;
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to HOST:`port`, its answer read whole as UTF-8; a fresh connection unless `agent` is given. */
export function request(
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
  method = 'GET',
  body?: string,
  agent: http.Agent | false = false,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: HOST, port, path, method, headers, agent }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
