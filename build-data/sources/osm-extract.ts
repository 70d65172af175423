// An OpenStreetMap extract (`--osm FILE`: .osm.pbf, or .osm XML) as the source of both layers,
// read through osmium-tool (Debian `osmium-tool`): `tags-filter` keeps the ways and relations with
// an ISO 3166 tag and what they reference, `export` assembles their (multi)polygons. The ISO tags
// are the key, not admin_level: JOSM's boundaries.osm has none, and a territory such as Puerto Rico
// (admin_level 4, ISO3166-1 PR) is a country of its own here, smaller than the USA's outline, so
// it wins where both hold a point. Objects that name no known code, or whose rings do not close,
// are skipped and listed in the data report.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { basename, join } from 'node:path';
import type { SourceInfo } from '../../src/format/dataset.js';
import type { CodeTables } from './code-tables.js';
import type { Feature } from './geojson.js';

const COUNTRY_KEYS = ['ISO3166-1:alpha2', 'ISO3166-1'];
const SUBDIVISION_KEY = 'ISO3166-2';

/** The extract as the build's config holds it: its sha256 makes it an input by content. */
export interface OsmExtractInput {
  path: string;
  sha256: string;
  /** What the maintainer says the file is (--osm-version), else the file's own replication or object timestamp. */
  version: string;
}

export interface OsmSkipped {
  /** OSM object, as w123 or r123. */
  id: string;
  code: string;
  reason: string;
}

export interface OsmExtract {
  /** Country features, their alpha-3 code in property `A3`. */
  countries: Feature[];
  /** Subdivision features, the tag as it stands in property `iso2` (policy/osm-remap.json brings it to the reference). */
  subdivisions: Feature[];
  /** Ways and relations carrying an ISO 3166 tag. */
  objects: number;
  skipped: OsmSkipped[];
  osmium: string;
}

/**
 * An input the user can fix, not a bug: a file osmium cannot read, an extract the build would get
 * almost nothing from. build.ts prints its message as one line, without a stack trace.
 */
export class BuildInputError extends Error {
  override name = 'BuildInputError';
}

/** osmium's output; where it fails on `input` (the extract) or is not installed, a BuildInputError. */
function osmium(args: string[], input?: string): string {
  try {
    return execFileSync('osmium', args, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT')
      throw new BuildInputError(
        '--osm needs osmium-tool (Debian: apt-get install osmium-tool; scripts/system-deps.sh)',
      );
    // What osmium said, its first two lines ("XML parsing error at line 42, column 31: unclosed token").
    const said = (e.stderr ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(0, 2)
      .join(' ');
    if (input !== undefined && said) throw new BuildInputError(`${input}: ${said}`);
    throw new Error(`osmium ${args.join(' ')}: ${said || e.message}`);
  }
}

export function osmiumVersion(): string {
  return osmium(['--version']).split('\n')[0].trim();
}

/** sha256 of a file of any size, streamed (a planet file is tens of GB). */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The extract's date as the file states it: the replication timestamp of its header, else its newest object. */
export function extractVersion(path: string): string {
  const header = osmium(['fileinfo', '-g', 'header.option.osmosis_replication_timestamp', path], path).trim();
  if (header) return `replication timestamp ${header}`;
  const last = osmium(['fileinfo', '-e', '-g', 'data.timestamp.last', path], path).trim();
  return last && !last.startsWith('1970') ? `newest object ${last}` : 'undated (give --osm-version)';
}

export function osmExtractSource(osm: OsmExtractInput, subdivisions: boolean): SourceInfo {
  // When the data was current: the day the version names (a replication or object timestamp, or
  // the maintainer's --osm-version "planet 2026-11-23"); absent when it names none.
  const date = /\d{4}-\d{2}-\d{2}/.exec(osm.version)?.[0];
  return {
    name: `OpenStreetMap extract ${basename(osm.path)}`,
    version: osm.version,
    licence: 'ODbL-1.0',
    attribution: '© OpenStreetMap contributors',
    url: 'https://www.openstreetmap.org/copyright',
    role:
      'countries (ISO3166-1 tags, territorial sea as OSM draws it)' +
      (subdivisions ? ' and subdivisions (ISO3166-2 tags)' : ''),
    sha256: osm.sha256,
    ...(date ? { date } : {}),
  };
}

/** OPL tags (`k=v,k=v`, with `%hex%` escapes) as a record. */
function oplTags(field: string): Record<string, string> {
  const decode = (s: string) => s.replace(/%([0-9a-f]+)%/g, (_m, hex) => String.fromCodePoint(parseInt(hex, 16)));
  const tags: Record<string, string> = {};
  if (field === '') return tags;
  for (const kv of field.split(',')) {
    const eq = kv.indexOf('=');
    tags[decode(kv.slice(0, eq))] = decode(kv.slice(eq + 1));
  }
  return tags;
}

/** A file's non-empty lines, read in chunks: a planet's outlines exceed the longest string V8 makes. */
function* lines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1 << 24);
    const utf8 = new StringDecoder('utf8'); // a character may straddle two chunks
    let rest = '';
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      const parts = (rest + utf8.write(buf.subarray(0, n))).split('\n');
      rest = parts.pop()!;
      for (const l of parts) if (l) yield l;
    }
    rest += utf8.end();
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

/** osmium's area ids: a way's is twice its id, a relation's twice plus one (sign kept, JOSM's ids are negative). */
function objectOfArea(id: string): string {
  const n = Number(id.slice(1));
  const a = Math.abs(n);
  return `${a % 2 === 0 ? 'w' : 'r'}${Math.sign(n) * Math.floor(a / 2)}`;
}

/**
 * The extract's ISO-tagged areas as features of the two layers. A country code that is neither
 * ISO 3166-1 alpha-2 nor user-assigned in policy.json (EU, Ceuta-Melilla's EA) is skipped, as is
 * an object whose boundary tag names something other than an administrative boundary, one whose
 * ISO tags are empty, and one osmium could not assemble (a ring that does not close): each is
 * listed in `skipped`.
 */
export function readOsmExtract(path: string, tables: CodeTables): OsmExtract {
  const dir = mkdtempSync(join(tmpdir(), 'geolookup-osm-'));
  try {
    const filtered = join(dir, 'iso.osm.pbf');
    const filter = ['w', 'r'].flatMap((t) => [...COUNTRY_KEYS, SUBDIVISION_KEY].map((k) => `${t}/${k}`));
    // The filtered file is the extract's: osmium failing on it is the extract's fault too.
    osmium(['tags-filter', path, ...filter, '-o', filtered, '--no-progress'], path);
    const objects = new Map<string, Record<string, string>>();
    for (const line of osmium(['tags-filter', '-R', filtered, ...filter, '-f', 'opl', '-o', '-'], path).split('\n')) {
      if (!line) continue;
      const fields = line.split(' ');
      objects.set(fields[0], oplTags(fields.find((f) => f.startsWith('T'))?.slice(1) ?? ''));
    }
    const areas = join(dir, 'areas.geojsonseq');
    const plain = ['-x', 'print_record_separator=false', '-f', 'geojsonseq'];
    osmium(['export', filtered, '--geometry-types=polygon', '-u', 'type_id', ...plain, '-o', areas], path);
    const assembled = new Map<string, Feature>();
    for (const line of lines(areas)) {
      const f = JSON.parse(line) as Feature & { id: string };
      assembled.set(objectOfArea(f.id), f);
    }
    const out: OsmExtract = {
      countries: [],
      subdivisions: [],
      objects: objects.size,
      skipped: [],
      osmium: osmiumVersion(),
    };
    for (const [id, tags] of [...objects].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const a2 = (COUNTRY_KEYS.map((k) => tags[k]?.trim()).find(Boolean) ?? '').toUpperCase();
      const iso2 = tags[SUBDIVISION_KEY]?.trim().toUpperCase() ?? '';
      const code = [a2, iso2].filter(Boolean).join(' / ');
      const skip = (reason: string) => out.skipped.push({ id, code, reason });
      const f = assembled.get(id);
      // Every object is an outline or skipped, so that checkOsmExtract counts what was left out.
      if (!code) {
        skip('an empty ISO 3166 tag');
        continue;
      }
      if (tags.boundary !== undefined && tags.boundary !== 'administrative') {
        skip(`boundary=${tags.boundary}, not an administrative boundary`);
        continue;
      }
      if (!f?.geometry) {
        skip('no area: osmium could not assemble its rings (a ring that does not close, or a way that is no ring)');
        continue;
      }
      // No admin_level where the file has none (JOSM's): osm-admin.ts leaves out levels ≤ 2 only.
      const own = {
        osm_id: id,
        name: tags.name ?? tags['name:en'] ?? '',
        ...(tags.admin_level === undefined ? {} : { admin_level: tags.admin_level }),
      };
      if (a2) {
        const c = tables.alpha2Index.get(a2);
        if (c === undefined) skip('not an ISO 3166-1 alpha-2 code (nor user-assigned in policy.json)');
        else out.countries.push({ properties: { ...own, A3: tables.countries[c].code }, geometry: f.geometry });
      }
      if (iso2) out.subdivisions.push({ properties: { ...own, iso2 }, geometry: f.geometry });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What build.ts checks of an extract's result (sources/load.ts's OsmExtractLog holds these). */
export interface OsmExtractCounts {
  /** Ways and relations carrying an ISO 3166 tag. */
  objects: number;
  countries: number;
  /** 0 under --subdivisions none. */
  subdivisions: number;
  skipped: OsmSkipped[];
}

/** The commonest reasons first, with their counts and a few of their codes. */
function skipReasons(skipped: OsmSkipped[], top = 3): string {
  const by = new Map<string, OsmSkipped[]>();
  for (const k of skipped) by.set(k.reason, [...(by.get(k.reason) ?? []), k]);
  const ranked = [...by].sort((a, b) => b[1].length - a[1].length);
  const listed = ranked.slice(0, top).map(([reason, ks]) => {
    const codes = [...new Set(ks.map((k) => k.code).filter(Boolean))];
    const shown = codes.length ? ` [${codes.slice(0, 3).join(', ')}${codes.length > 3 ? ', …' : ''}]` : '';
    return `${ks.length}× ${reason}${shown}`;
  });
  if (ranked.length > top)
    listed.push(`and ${ranked.length - top} other reason${ranked.length - top === 1 ? '' : 's'}`);
  return listed.join('; ');
}

/**
 * Why a build would get (almost) nothing from its extract, or null: no country outline and no
 * subdivision outline, or more than half of its ways and relations with an ISO 3166 tag skipped.
 * Both mean the wrong file, a cut-off regional extract or tags this build does not read, not an
 * extract to renew the dataset from; build.ts stops unless --accept-skipped is given.
 */
export function osmExtractShortfall(x: OsmExtractCounts): string | null {
  const none = x.countries + x.subdivisions === 0;
  if (!none && x.skipped.length * 2 <= x.objects) return null;
  if (x.objects === 0)
    return `no usable outline: no way or relation with an ISO 3166 tag (${[...COUNTRY_KEYS, SUBDIVISION_KEY].join(', ')})`;
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  const gave =
    `${n(x.objects, 'OSM way or relation', 'OSM ways and relations')} with an ISO 3166 tag gave ` +
    `${n(x.countries, 'country outline', 'country outlines')} and ` +
    `${n(x.subdivisions, 'subdivision outline', 'subdivision outlines')}`;
  const why = x.skipped.length ? `; ${x.skipped.length} skipped: ${skipReasons(x.skipped)}` : '';
  return `${none ? 'no usable outline' : 'more than half skipped'}: ${gave}${why}`;
}
