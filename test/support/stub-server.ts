// Purpose-built HTTP servers for the client tests, on loopback: each records the requests it gets
// and answers through a handler; geoHandler stands in for the service.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HEADERS } from '../../packages/client/src/index.js';
import { HOST, listenOnLoopback } from './loopback.js';

export interface Hit {
  url: string;
  apiKey: string | undefined;
  at: number; // Date.now() when the request arrived (fake time under fake timers)
}

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

export interface TestServer {
  baseUrl: string;
  hits: Hit[];
  close(): Promise<void>;
}

const servers: Server[] = [];

export async function testServer(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', apiKey: req.headers['x-api-key'] as string | undefined, at: Date.now() });
    handler(req, res, hits.length);
  });
  servers.push(server);
  const port = await listenOnLoopback(server);
  return {
    baseUrl: `http://${HOST}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

export function problem(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/problem+json', ...headers });
  res.end(JSON.stringify({ type: 'about:blank', title: 'x', status, ...body }));
}

/** A tiny stand-in for the service: FRA / FR-IDF / true, and 404 at latitude 0. */
export const geoHandler: Handler = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.includes('/0,') || url.searchParams.get('latitude') === '0')
    return problem(res, 404, { detail: 'No country at 0.' });
  if (url.pathname.includes('/999,'))
    return problem(res, 400, { detail: 'bad', errors: { latitude: ['latitude must be between -90 and 90'] } });
  if (url.pathname.startsWith('/geo/country/fromGps/'))
    return text(res, 200, 'FRA', { [HEADERS.quotaRemaining]: '41' });
  if (url.pathname.startsWith('/geo/subdivision/fromGps/')) return text(res, 200, 'FR-IDF');
  return text(res, 200, 'true');
};

/** Closes every server started since the last call (the client tests call it after each test). */
export async function closeTestServers(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
