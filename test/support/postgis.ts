// A throwaway PostgreSQL + PostGIS cluster for tests: initdb into a temp dir,
// started on loopback on a free port with durability off (nothing here needs
// to survive), torn down with the dir afterwards. PostgreSQL refuses to run as
// root, so under root the cluster belongs to the `postgres` system user.
// CI installs the binaries (scripts/system-deps.sh); elsewhere tests skip.

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { foldLongitude, type PointSet } from './sample-points.js';

export interface PostGIS {
  client: pg.Client;
  port: number;
  stop(): Promise<void>;
}

interface Install {
  bin: string;
  /** Prefix that runs a command as the cluster's owner (empty when not root). */
  asOwner: string[];
  uid: number;
  gid: number;
}

/** The PostgreSQL install with PostGIS, or a sentence saying what is missing. */
export function findPostGIS(): Install | string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length)
    return 'PostgreSQL is not installed (Debian package postgresql; scripts/system-deps.sh installs it)';
  const v = versions.find((x) => existsSync(`/usr/share/postgresql/${x}/extension/postgis.control`));
  if (!v)
    return `PostGIS is not installed for PostgreSQL ${versions[0]} (Debian package postgresql-${versions[0]}-postgis-3; scripts/system-deps.sh installs it)`;
  const bin = join(root, v, 'bin');
  if (process.getuid?.() !== 0) return { bin, asOwner: [], uid: -1, gid: -1 };
  let uid: number, gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  } catch {
    return 'running as root and there is no postgres user to own the cluster';
  }
  return { bin, asOwner: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startPostGIS(install: Install): Promise<PostGIS> {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-pg-'));
  if (install.uid >= 0) chownSync(dir, install.uid, install.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'log');
  const run = (cmd: string, args: string[]) => {
    const [exe, ...rest] = [...install.asOwner, join(install.bin, cmd), ...args];
    execFileSync(exe, rest, { stdio: 'pipe', cwd: dir });
  };
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=128MB -c max_wal_size=4GB -c work_mem=64MB`;
    run('pg_ctl', ['-D', data, '-o', opts, '-l', log, '-w', '-t', '60', 'start']);
  } catch (e) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${(e as Error).message}\n${tail}`);
  }
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  const stop = async () => {
    await client.end().catch(() => {});
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await client.connect();
    await client.query('CREATE EXTENSION postgis');
  } catch (e) {
    await stop();
    throw e;
  }
  return { client, port, stop };
}

/**
 * Loads csv-wkt export rows (already split into fields) into `table`
 * (code, country, geom) in batches, then indexes geom with GiST.
 */
export async function loadBoundaries(
  client: pg.Client,
  table: string,
  rows: AsyncIterable<{ code: string; country: string; wkt: string }>,
): Promise<number> {
  await client.query(
    `CREATE TABLE ${table} (id serial PRIMARY KEY, code text NOT NULL, country text NOT NULL, geom geometry(MultiPolygon, 4326) NOT NULL)`,
  );
  let batch: { code: string; country: string; wkt: string }[] = [];
  let n = 0;
  const flush = async () => {
    if (!batch.length) return;
    await client.query(
      `INSERT INTO ${table} (code, country, geom) SELECT c, k, ST_GeomFromText(w, 4326) FROM unnest($1::text[], $2::text[], $3::text[]) AS t(c, k, w)`,
      [batch.map((r) => r.code), batch.map((r) => r.country), batch.map((r) => r.wkt)],
    );
    n += batch.length;
    batch = [];
  };
  let bytes = 0;
  for await (const r of rows) {
    batch.push(r);
    bytes += r.wkt.length;
    if (bytes > 8_000_000) {
      await flush();
      bytes = 0;
    }
  }
  await flush();
  await client.query(`CREATE INDEX ${table}_geom ON ${table} USING gist (geom)`);
  await client.query(`ANALYZE ${table}`);
  return n;
}

/**
 * Loads points (id, lon, lat) into `table` with a GiST index. Longitude 180 is
 * stored as -180, as the lookup folds it: rows end at 180 with a closed edge,
 * so there the export would answer for the cell west of the antimeridian.
 */
export async function loadPoints(client: pg.Client, table: string, { lat, lon }: PointSet): Promise<void> {
  await client.query(
    `CREATE TABLE ${table} (id int PRIMARY KEY, lon float8 NOT NULL, lat float8 NOT NULL, geom geometry(Point, 4326) NOT NULL)`,
  );
  const step = 50_000;
  for (let i = 0; i < lon.length; i += step) {
    const ids = Array.from({ length: Math.min(step, lon.length - i) }, (_, k) => i + k);
    await client.query(
      `INSERT INTO ${table} (id, lon, lat, geom) SELECT id, x, y, ST_SetSRID(ST_MakePoint(x, y), 4326) FROM unnest($1::int[], $2::float8[], $3::float8[]) AS t(id, x, y)`,
      [ids, Array.from(lon.subarray(i, i + step), foldLongitude), Array.from(lat.subarray(i, i + step))],
    );
  }
  await client.query(`CREATE INDEX ${table}_geom ON ${table} USING gist (geom)`);
  await client.query(`ANALYZE ${table}`);
}

/** Codes of the rows that cover each point (ST_Covers), by point id; points covered by none are absent. */
export async function coveringCodes(
  client: pg.Client,
  points: string,
  boundaries: string,
): Promise<Map<number, string[]>> {
  const res = await client.query<{ id: number; codes: string[] }>(
    `SELECT p.id, array_agg(b.code ORDER BY b.code) AS codes FROM ${points} p JOIN ${boundaries} b ON ST_Covers(b.geom, p.geom) GROUP BY p.id`,
  );
  return new Map(res.rows.map((r) => [r.id, r.codes]));
}

/** Distance in metres (upper bound: degrees × 111,195 m) from each point to the nearest row edge within `maxDeg`. */
export async function distanceToEdges(
  client: pg.Client,
  boundaries: string,
  lon: number,
  lat: number,
  maxDeg: number,
): Promise<number> {
  const res = await client.query<{ d: number | null }>(
    `SELECT min(ST_Distance(ST_Boundary(b.geom), p.g)) AS d FROM ${boundaries} b, (SELECT ST_SetSRID(ST_MakePoint($1, $2), 4326) AS g) p WHERE ST_DWithin(b.geom, p.g, $3)`,
    [lon, lat, maxDeg],
  );
  const d = res.rows[0]?.d;
  return d === null || d === undefined ? Infinity : d * 111_195;
}

export interface Disagreement {
  lat: number;
  lon: number;
  library: string | null;
  postgis: string[];
  /** Metres to the nearest edge of a row near the point (upper bound). */
  distanceM: number;
}

/**
 * Compares ST_Covers over `boundaries` with the library's answer for every
 * point of `points` (the table loaded from `set`, ids its indices); each disagreement gets its
 * distance to the nearest row edge, so a caller can tell edge effects from errors.
 */
export async function compareWithLibrary(
  client: pg.Client,
  points: string,
  boundaries: string,
  { lat, lon }: PointSet,
  answer: (lat: number, lon: number) => string | null,
): Promise<Disagreement[]> {
  const covering = await coveringCodes(client, points, boundaries);
  const out: Disagreement[] = [];
  for (let i = 0; i < lat.length; i++) {
    const lib = answer(lat[i], lon[i]);
    const pgc = covering.get(i) ?? [];
    if (lib === null ? pgc.length === 0 : pgc.length === 1 && pgc[0] === lib) continue;
    out.push({
      lat: lat[i],
      lon: lon[i],
      library: lib,
      postgis: pgc,
      distanceM: await distanceToEdges(client, boundaries, foldLongitude(lon[i]), lat[i], 1e-4),
    });
  }
  return out;
}
