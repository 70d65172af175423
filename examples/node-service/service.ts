// A small HTTP lookup service meant to be bundled (esbuild, ncc, webpack) and deployed as one
// file without node_modules. A bundler copies code, not data files, so the dataset comes from:
//   --data <file>           read here and passed as bytes: createGeoLookup(readFileSync(file))
//   $GEOLOOKUP_DATA=<file>  honoured by the library's default loader
//   dist-data/world.geolookup shipped beside the bundle (also found by the default loader)
//
//   npx esbuild examples/node-service/service.ts --bundle --platform=node --format=esm --outfile=out/service.mjs
//   node out/service.mjs --data dist-data/world.geolookup --port 8080
//   curl 'http://127.0.0.1:8080/lookup?lat=48.8566&lon=2.3522'   # {"country":"FRA","subdivision":"FR-75C"}
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createGeoLookup, GeoLookupError, preload, type GeoLookup } from 'geolookup';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

function open(): GeoLookup {
  if (values.data) return createGeoLookup(readFileSync(values.data));
  return preload();
}

let geo: GeoLookup;
try {
  // At start-up, not on the first request: a missing dataset stops the deployment at once.
  geo = open();
} catch (err) {
  // The library reports a missing or damaged dataset as a DataError that names the file and the fix.
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  process.exit(1);
}

function send(res: import('node:http').ServerResponse, status: number, type: string, body: unknown): void {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/lookup') return send(res, 404, 'application/json', { error: 'GET /lookup?lat=&lon=' });
  const lat = url.searchParams.get('lat') ?? '';
  const lon = url.searchParams.get('lon') ?? '';
  try {
    send(res, 200, 'application/json', {
      country: geo.countryFromGps(lat, lon),
      subdivision: geo.trySubdivisionFromGps(lat, lon),
    });
  } catch (err) {
    if (!(err instanceof GeoLookupError)) throw err;
    send(res, err.status, 'application/problem+json', err.toProblem());
  }
});

server.listen(Number(values.port), values.host, () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(`listening on http://${address}:${port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
