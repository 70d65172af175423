// `geolookup export --format pmtiles`: the playground's vector tiles as one PMTiles archive, for
// users' own MapLibre or Leaflet maps. The core's `export` hands this format to this package
// (src/cli/run.ts), which has the tiler (docs/ARCHITECTURE.md).

import { writeFileSync } from 'node:fs';
import { createGeoLookup, type GeoLookup, resolveDataPath } from 'geolookup';
import { DATA_OPTION, defineCommand, EXIT, type Print, runCommand, UsageError, wholeNumber } from 'geolookup/extend';
import { mapDataPath } from '../playground/map-data.js';
import { pmtilesWriter } from '../tiles/pmtiles.js';
import { tileSource } from '../tiles/tile-source.js';
import { BLOCK_ZOOM, MAX_TILE_ZOOM, OVERVIEW_MAX_ZOOM, TILE_LAYERS } from '../tiles/tiler.js';

const EXPORT = defineCommand({
  name: 'geolookup export --format pmtiles',
  summary: "the dataset's answers as vector tiles in one PMTiles archive (as the playground draws them).",
  usage: ['geolookup export --format pmtiles -o FILE [--minzoom Z] [--maxzoom Z] [--bbox W,S,E,N] [--data FILE]'],
  options: {
    format: { type: 'string', value: 'F', help: 'pmtiles' },
    output: { type: 'string', short: 'o', value: 'FILE', help: 'the archive to write' },
    minzoom: { type: 'string', value: 'Z', help: 'first zoom (default 0)' },
    maxzoom: {
      type: 'string',
      value: 'Z',
      help: `last zoom (default ${OVERVIEW_MAX_ZOOM}; up to ${MAX_TILE_ZOOM}, above ${OVERVIEW_MAX_ZOOM} with --bbox)`,
    },
    bbox: { type: 'string', value: 'W,S,E,N', help: 'only tiles over this box, in degrees (default the world)' },
    data: DATA_OPTION,
  },
  notes:
    `Layers country and subdivision (each feature's code), and country-label, subdivision-label\n` +
    `(a point inside each part). Zooms 0-${OVERVIEW_MAX_ZOOM} hold countries only, from FILE-lite.geolookup\n` +
    `beside the dataset when it exists; zooms ${BLOCK_ZOOM}-${MAX_TILE_ZOOM} hold both layers, exact, a second or\n` +
    'two per 1.4° block to compute: hence --bbox. See docs/TILES.md in the @geolookup/server package.',
  exit: '0 written, 2 bad options, 1 a missing or damaged dataset or a failed write.',
});

/** [west, south, east, north] from "W,S,E,N". */
function parseBox(text: string): [number, number, number, number] {
  const v = text.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)));
  const [w, s, e, n] = v;
  if (v.length !== 4 || !(w >= -180 && e <= 180 && w < e && s >= -85.05 && n <= 85.05 && s < n))
    throw new UsageError('--bbox must be W,S,E,N in degrees, west < east within ±180, south < north within ±85.05');
  return [w, s, e, n];
}

const lonToX = (lon: number, z: number) => Math.min(2 ** z - 1, Math.floor(((lon + 180) / 360) * 2 ** z));
function latToY(lat: number, z: number): number {
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
  return Math.max(0, Math.min(2 ** z - 1, y));
}

/** The tile ranges of `box` at zoom z: [x0, x1, y0, y1], inclusive. */
const range = (box: number[], z: number) => [
  lonToX(box[0], z),
  lonToX(box[2], z),
  latToY(box[3], z),
  latToY(box[1], z),
];

/** Writes the archive; returns the number of tiles with features. */
export function exportPmtiles(
  lookup: GeoLookup,
  overview: GeoLookup,
  box: [number, number, number, number],
  minZoom: number,
  maxZoom: number,
): { archive: Buffer; tiles: number } {
  const source = tileSource(lookup, overview);
  const writer = pmtilesWriter();
  const put = (z: number, x: number, y: number) => {
    const mvt = source.tile(z, x, y);
    if (mvt !== null) writer.add(z, x, y, mvt);
  };
  for (let z = minZoom; z <= Math.min(maxZoom, OVERVIEW_MAX_ZOOM); z++) {
    const [x0, x1, y0, y1] = range(box, z);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) put(z, x, y);
  }
  // Block by block, so each block is cut once.
  if (maxZoom >= BLOCK_ZOOM) {
    const [bx0, bx1, by0, by1] = range(box, BLOCK_ZOOM);
    for (let bx = bx0; bx <= bx1; bx++)
      for (let by = by0; by <= by1; by++)
        for (let z = Math.max(minZoom, BLOCK_ZOOM); z <= maxZoom; z++) {
          const [x0, x1, y0, y1] = range(box, z);
          const s = z - BLOCK_ZOOM;
          for (let x = Math.max(x0, bx << s); x <= Math.min(x1, ((bx + 1) << s) - 1); x++)
            for (let y = Math.max(y0, by << s); y <= Math.min(y1, ((by + 1) << s) - 1); y++) put(z, x, y);
        }
  }
  const attribution = [...new Set(lookup.meta.sources.flatMap((s) => (s.attribution ? [s.attribution] : [])))];
  const layer = (id: string, fields: Record<string, string>, minzoom: number) => ({
    id,
    fields,
    minzoom,
    maxzoom: maxZoom,
  });
  const metadata = {
    name: `geolookup ${lookup.meta.name}`,
    description: 'Countries (ISO 3166-1 alpha-3) and subdivisions (ISO 3166-2) as the geolookup dataset answers them',
    attribution: attribution.join(' | '),
    vector_layers: TILE_LAYERS.flatMap((l) => {
      const from = l === 'country' ? 0 : BLOCK_ZOOM;
      return [
        layer(l, { code: 'String', hue: 'Number' }, from),
        layer(`${l}-label`, { code: 'String', area: 'Number' }, from),
      ];
    }),
  };
  return { archive: writer.finish({ minZoom, maxZoom, bounds: box, metadata }), tiles: writer.tileCount };
}

export function runExportPmtiles(argv: string[], out: Print, err: Print): number {
  return runCommand(EXPORT, argv, out, err, ({ values, positionals }) => {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.format !== 'pmtiles') throw new UsageError('--format must be pmtiles');
    if (!values.output) throw new UsageError('-o FILE is required: an archive is not written to stdout');
    const minZoom = wholeNumber(values.minzoom, '--minzoom', 0, MAX_TILE_ZOOM) ?? 0;
    const maxZoom =
      wholeNumber(values.maxzoom, '--maxzoom', minZoom, MAX_TILE_ZOOM) ?? Math.max(minZoom, OVERVIEW_MAX_ZOOM);
    const box = values.bbox === undefined ? null : parseBox(values.bbox);
    if (maxZoom > OVERVIEW_MAX_ZOOM && box === null)
      throw new UsageError(`--maxzoom above ${OVERVIEW_MAX_ZOOM} needs --bbox (each 1.4° block takes a second or two)`);
    let lookup: GeoLookup;
    let overview: GeoLookup;
    try {
      const path = resolveDataPath(values.data);
      lookup = createGeoLookup(path);
      const lite = mapDataPath(path);
      overview = lite === path ? lookup : createGeoLookup(lite);
    } catch (e) {
      err(`geolookup export: ${(e as Error).message}`);
      return EXIT.error;
    }
    const { archive, tiles } = exportPmtiles(lookup, overview, box ?? [-180, -85.05, 180, 85.05], minZoom, maxZoom);
    try {
      writeFileSync(values.output, archive);
    } catch (e) {
      err(`geolookup export: ${(e as Error).message}`);
      return EXIT.error;
    }
    err(`geolookup export: ${tiles} tiles, ${archive.length} bytes, zooms ${minZoom}-${maxZoom} in ${values.output}`);
    return EXIT.ok;
  });
}
