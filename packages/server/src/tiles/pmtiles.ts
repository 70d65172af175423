// A PMTiles v3 archive (github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) of MVT tiles:
// header, root directory, JSON metadata, leaf directories, tile data. The pmtiles package reads
// archives and gives the tile ids (zxyToTileId); it has no writer, so the layout is written here.
// Tiles and directories are gzipped; identical tiles (a country's interior) are stored once.

import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Compression, TileType, zxyToTileId } from 'pmtiles';

const HEADER_BYTES = 127;
/** Readers fetch the first 16 KiB: the header and the root directory must fit in them. */
const FIRST_READ = 16384;

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

export interface ArchiveInfo {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] of the tiles. */
  bounds: [number, number, number, number];
  /** The archive's JSON metadata (TileJSON-like: vector_layers, attribution…). */
  metadata: object;
}

function varint(out: number[], n: number): void {
  // Tile ids pass 2^32 from zoom 16: no bit operators.
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

function directory(entries: Entry[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, i > 0 && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return gzipSync(Buffer.from(out));
}

/** The root directory and the leaves: leaves of growing size until the root fits in the first read. */
function directories(entries: Entry[]): { root: Buffer; leaves: Buffer } {
  const whole = directory(entries);
  if (HEADER_BYTES + whole.length <= FIRST_READ) return { root: whole, leaves: Buffer.alloc(0) };
  for (let size = 4096; ; size *= 2) {
    const leaves: Buffer[] = [];
    const root: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += size) {
      const leaf = directory(entries.slice(i, i + size));
      root.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
      leaves.push(leaf);
      offset += leaf.length;
    }
    const r = directory(root);
    if (HEADER_BYTES + r.length <= FIRST_READ) return { root: r, leaves: Buffer.concat(leaves) };
  }
}

const u64 = (b: Buffer, at: number, n: number) => b.writeBigUInt64LE(BigInt(n), at);
const e7 = (b: Buffer, at: number, deg: number) => b.writeInt32LE(Math.round(deg * 1e7), at);

/** Collects tiles (any order) and writes them as one archive. */
export function pmtilesWriter() {
  const tiles = new Map<number, number>(); // tile id → content index
  const contents: Buffer[] = [];
  const byHash = new Map<string, number>();
  return {
    add(z: number, x: number, y: number, mvt: Uint8Array): void {
      const hash = createHash('sha256').update(mvt).digest('base64');
      let k = byHash.get(hash);
      if (k === undefined) {
        k = contents.length;
        contents.push(gzipSync(mvt));
        byHash.set(hash, k);
      }
      tiles.set(zxyToTileId(z, x, y), k);
    },
    get tileCount(): number {
      return tiles.size;
    },
    finish(info: ArchiveInfo): Buffer {
      const ids = [...tiles.keys()].sort((a, b) => a - b);
      const offsets: number[] = [];
      let dataLength = 0;
      for (const c of contents) {
        offsets.push(dataLength);
        dataLength += c.length;
      }
      const entries: Entry[] = [];
      for (const id of ids) {
        const k = tiles.get(id)!;
        const last = entries[entries.length - 1];
        // A run: the same content at consecutive ids.
        if (last && last.tileId + last.runLength === id && last.offset === offsets[k]) last.runLength++;
        else entries.push({ tileId: id, offset: offsets[k], length: contents[k].length, runLength: 1 });
      }
      const { root, leaves } = directories(entries);
      const metadata = gzipSync(Buffer.from(JSON.stringify(info.metadata)));
      const h = Buffer.alloc(HEADER_BYTES);
      h.write('PMTiles', 0, 'latin1');
      h.writeUInt8(3, 7);
      const rootAt = HEADER_BYTES;
      const metaAt = rootAt + root.length;
      const leavesAt = metaAt + metadata.length;
      const dataAt = leavesAt + leaves.length;
      u64(h, 8, rootAt);
      u64(h, 16, root.length);
      u64(h, 24, metaAt);
      u64(h, 32, metadata.length);
      u64(h, 40, leavesAt);
      u64(h, 48, leaves.length);
      u64(h, 56, dataAt);
      u64(h, 64, dataLength);
      u64(h, 72, ids.length);
      u64(h, 80, entries.length);
      u64(h, 88, contents.length);
      // Not clustered: a repeated tile points back at the first copy's bytes.
      h.writeUInt8(0, 96);
      h.writeUInt8(Compression.Gzip, 97);
      h.writeUInt8(Compression.Gzip, 98);
      h.writeUInt8(TileType.Mvt, 99);
      h.writeUInt8(info.minZoom, 100);
      h.writeUInt8(info.maxZoom, 101);
      const [w, s, e, n] = info.bounds;
      e7(h, 102, w);
      e7(h, 106, s);
      e7(h, 110, e);
      e7(h, 114, n);
      h.writeUInt8(info.minZoom, 118);
      e7(h, 119, (w + e) / 2);
      e7(h, 123, (s + n) / 2);
      return Buffer.concat([h, root, metadata, leaves, ...contents]);
    },
  };
}
