// `geolookup playground`: a page on 127.0.0.1 that asks the lookup service (createServer, keyless,
// on a loopback port of its own) and draws vector tiles of the answering dataset with MapLibre.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGeoLookup, type GeoLookup, preload } from 'geolookup';
import { resolveDataPath } from 'geolookup';
import { checkHost, hostLines, hostNames } from '../server/hosts.js';
import { createServer, type GeoLookupServer } from '../server/server.js';
import { codeTables } from './codes.js';
import { mapDataPath } from './map-data.js';
import { proxyTo } from './proxy.js';
import { isPlaygroundPath, type PlaygroundContext, playgroundReply, type Reply } from './routes.js';
import { startTiles } from './tiles.js';
import { PACKAGED_DIR, prebuiltOverview } from '../tiles/overview.js';

/** Loopback only: the page and the service have no keys. */
export const HOST = '127.0.0.1';
/**
 * The Host names the page and the service answer for, by the same check (hosts.ts): any other is a
 * page on another site reaching in through DNS rebinding, on either port.
 */
const LOOPBACK_NAMES = [HOST, 'localhost'];
const LOOPBACK = hostNames(LOOPBACK_NAMES);

export interface PlaygroundOptions {
  /** 0 picks a free one. */
  port: number;
  /** The dataset that answers; default the embedded one. */
  data?: string;
  /** Where the service reports internal errors. */
  log: (line: string) => void;
}

export interface Playground {
  url: string;
  /** The lookup service the page's port forwards to, on a loopback port of its own. */
  service: string;
  /** The dataset file that answers, and the tiles' source above the overview's zooms. */
  data: string;
  /** The dataset file the world overview's tiles come from (map-data.ts). */
  overview: string;
  /** Whether the overview is the package's prebuilt one for that file's bytes (tiles/overview.ts), not computed. */
  prebuilt: boolean;
  close(): Promise<void>;
}

const SECURITY: http.OutgoingHttpHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/** The service as `geolookup serve --allow-anonymous` with limits no page can reach and nothing written to disk. */
function keylessService(lookup: GeoLookup, log: (line: string) => void): GeoLookupServer {
  const unlimited = Number.MAX_SAFE_INTEGER;
  return createServer({
    lookup,
    keys: null,
    allowAnonymous: true,
    quotaFile: null,
    limits: { anonymousBurstPerMinute: unlimited, anonymousMonthlyQuota: unlimited },
    metrics: false,
    watchKeys: false,
    hosts: LOOPBACK_NAMES,
    log,
  });
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function send(res: http.ServerResponse, head: boolean, reply: Reply): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  res.writeHead(reply.status, {
    ...SECURITY,
    ...reply.headers,
    'Content-Type': reply.type,
    'Content-Length': body.length,
  });
  res.end(head ? undefined : body);
}

interface Front {
  ctx: PlaygroundContext;
  forward: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  log: (line: string) => void;
}

const plain = (status: number, body: string, headers?: Record<string, string>): Reply => ({
  status,
  type: 'text/plain; charset=utf-8',
  body,
  headers,
});

/** Answers a request whose Host the service would refuse too (hosts.ts); false for the others. */
function refusedHost(req: http.IncomingMessage, res: http.ServerResponse, head: boolean): boolean {
  const host = checkHost(req, hostLines(req.rawHeaders), LOOPBACK);
  if (host === 'ok') return false;
  if (host === 'foreign') send(res, head, plain(403, `Open the playground as http://${HOST}:PORT/.\n`));
  else {
    res.shouldKeepAlive = false; // as the service closes after a malformed head
    send(res, head, plain(400, 'Send one Host header.\n'));
  }
  return true;
}

function handle(front: Front, req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const head = req.method === 'HEAD';
  if (refusedHost(req, res, head)) return;
  if (!isPlaygroundPath(path)) front.forward(req, res);
  else if (req.method !== 'GET' && !head) send(res, head, plain(405, 'Use GET or HEAD.\n', { Allow: 'GET, HEAD' }));
  else
    playgroundReply(front.ctx, path, q === -1 ? '' : url.slice(q + 1)).then(
      (reply) => send(res, head, reply),
      (e) => {
        front.log(`geolookup playground: ${req.method} ${path}: ${(e as Error)?.stack ?? String(e)}`);
        if (res.headersSent) res.destroy();
        else send(res, head, plain(500, 'Internal error.\n'));
      },
    );
}

/** Starts the service, the tile worker and the page server; rejects when the dataset or the port is unusable. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const answering = resolveDataPath(options.data);
  const lookup = options.data === undefined ? preload() : createGeoLookup(options.data);
  const overview = mapDataPath(answering);
  const prebuilt = prebuiltOverview(PACKAGED_DIR, overview);
  const service = keylessService(lookup, options.log);
  const servicePort = await listen(service, 0);
  const proxy = proxyTo(servicePort);
  const tiles = startTiles({ data: answering, overview, prebuilt });
  const tables = codeTables(lookup);
  const ctx: PlaygroundContext = { lookup, tables, tiles };
  const routes: Front = { ctx, forward: proxy.forward, log: options.log };
  const front = http.createServer((req, res) => handle(routes, req, res));
  const close = async () => {
    if (front.listening) front.close();
    front.closeAllConnections();
    proxy.close();
    await Promise.all([service.shutdown(1000), tiles.close()]);
  };
  try {
    const port = await listen(front, options.port);
    return {
      url: `http://${HOST}:${port}/`,
      service: `http://${HOST}:${servicePort}/`,
      data: answering,
      overview,
      prebuilt: prebuilt !== null,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
