// A tiny static file server on loopback for the bundle tests: what a web host does for the
// built page and its dataset, with nothing else (no dev server, no transforms).
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { HOST, listenOnLoopback } from './loopback.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface StaticServer {
  url: string;
  /** Paths requested so far, in order (to check what the page fetched). */
  requests: string[];
  close(): Promise<void>;
}

export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const file = resolve(join(root, path.endsWith('/') ? `${path}index.html` : path));
    let size = -1;
    try {
      if (file.startsWith(root + sep)) size = statSync(file).isFile() ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    if (size < 0) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://${HOST}:${port}/`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
