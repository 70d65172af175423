// Distances from a point to the border lines of one layer. Candidates come from the layer's
// Flatbush index of chunk boxes; each chunk's edges are measured in a local frame at the point
// (metres east and north on the WGS 84 ellipsoid, the east scale taken at each vertex's mid
// latitude). The frame is within 1e-5 of the geodesic up to 10 km and 1e-3 up to 500 km below
// 75° (test/borders/search.test.ts); past EXACT_FROM_M the winners, and every edge within the
// ranking slack of them, are measured along the geodesic itself (Karney's algorithm).

import type Flatbush from 'flatbush';
import { geodesicMetres } from './geodesy.js';
import { type Layer, UNITS_PER_DEGREE } from './layout.js';

const RAD = Math.PI / 180;
const WGS84_A = 6378137;
const WGS84_F = 1 / 298.257223563;
const E2 = WGS84_F * (2 - WGS84_F);
/** The fewest metres per degree of latitude anywhere (at the equator), for boxes that must hold a radius. */
const MIN_METRES_PER_DEGREE_LAT = 110_574;
/** Metres per degree of longitude at the equator (the prime vertical radius there is the major axis). */
const METRES_PER_DEGREE_LON = WGS84_A * RAD;

/** How far the frame may misrank two edges, relative: every edge within this of the best is kept. */
const RANK_SLACK = 0.002;
/** Poleward of POLAR_LAT the frame is within 4% at 500 km, so the slack widens. */
const POLAR_SLACK = 0.05;
const POLAR_LAT = 75;
/** Frame distances below this are within 0.1 m of the geodesic and are answered as they are. */
const EXACT_FROM_M = 10_000;

const exact = (lat: number, lon: number, lat2: number, lon2: number, frame: number): number =>
  frame < EXACT_FROM_M ? frame : geodesicMetres(lat, lon, lat2, lon2);

/** The chunks, as read.ts lays them over the file. */
export interface BorderArrays {
  index: Flatbush;
  /** First vertex of each chunk, [lon, lat] in units. */
  origins: Int32Array;
  /** Byte offset of each chunk's deltas in `stream`, and the end of the last. */
  starts: Uint32Array;
  /** The regions left and right of each chunk's edges. */
  sides: Uint16Array;
  /** Zigzag LEB128 deltas (lon, lat) from each vertex to the next. */
  stream: Uint8Array;
  /** Per region: its country index and subdivision index, -1 for none. */
  regionCountry: Int32Array;
  regionSubdivision: Int32Array;
}

/** The result of nearest(). */
export interface Nearest {
  /** Metres along the geodesic, or -1: none within the radius. */
  metres: number;
  /** The nearest code at that distance (the lowest of ties), or -1 when only "none" is there. */
  code: number;
}

export interface BorderSearch {
  /**
   * The nearest place within `radius` metres of (lat, lon) where the layer's answer changes, and
   * the nearest code there. Writes into `out` and returns it.
   */
  nearest(lat: number, lon: number, radius: number, layer: Layer, out: Nearest): Nearest;
  /**
   * Calls `found(layer, code, metres)` once for every code of either layer with an edge within
   * `radius` metres: one traversal for both layers.
   */
  within(lat: number, lon: number, radius: number, found: (layer: Layer, code: number, metres: number) => void): void;
}

/** Candidate edges kept for the exact pass: chunk, then the nearest point's lon/lat, and the frame distance. */
const MAX_CANDIDATES = 256;

export function borderSearch(arrays: BorderArrays, countries: number, subdivisions: number): BorderSearch {
  const { index, origins, starts, sides, stream, regionCountry, regionSubdivision } = arrays;
  const chunkCount = sides.length >> 1;
  // The layer of the current query: the code of each region in it.
  let layerCode = regionCountry;

  // The frame of the current query (set by frameAt): no allocation per query.
  let lat0 = 0;
  let lon0 = 0;
  let sin0 = 0;
  let cos0 = 1;
  let kx = METRES_PER_DEGREE_LON;
  let ky = MIN_METRES_PER_DEGREE_LAT;
  let slack = RANK_SLACK;

  const frameAt = (lat: number, lon: number): void => {
    lat0 = lat;
    lon0 = lon;
    sin0 = Math.sin(lat * RAD);
    cos0 = Math.cos(lat * RAD);
    const w = Math.sqrt(1 - E2 * sin0 * sin0);
    kx = (WGS84_A / w) * RAD;
    ky = ((WGS84_A * (1 - E2)) / (w * w * w)) * RAD;
    slack = Math.abs(lat) > POLAR_LAT ? POLAR_SLACK : RANK_SLACK;
  };
  // Local metres of a vertex in degrees: east scaled by the cosine at the mid latitude (2nd order).
  let fx = 0;
  let fy = 0;
  const toFrame = (lon: number, lat: number): void => {
    let dl = lon - lon0;
    if (dl > 180) dl -= 360;
    else if (dl < -180) dl += 360;
    const dp = lat - lat0;
    const h = dp * RAD * 0.5;
    fx = dl * kx * (cos0 - sin0 * h - cos0 * h * h * 0.5);
    fy = dp * ky;
  };

  // Candidates for the exact pass.
  const candChunk = new Int32Array(MAX_CANDIDATES);
  const candLon = new Float64Array(MAX_CANDIDATES);
  const candLat = new Float64Array(MAX_CANDIDATES);
  const candDist = new Float64Array(MAX_CANDIDATES);
  let candCount = 0;
  let best = Infinity;
  let limit = Infinity;

  const keep = (chunk: number, lon: number, lat: number, d: number): void => {
    if (d < best) best = d;
    const bound = Math.min(limit, best * (1 + slack) + 1);
    // Drop candidates the new best has made hopeless; if still full, drop the farthest.
    if (candCount === MAX_CANDIDATES) {
      let w = 0;
      for (let i = 0; i < candCount; i++)
        if (candDist[i] <= bound) {
          candChunk[w] = candChunk[i];
          candLon[w] = candLon[i];
          candLat[w] = candLat[i];
          candDist[w++] = candDist[i];
        }
      candCount = w;
      if (candCount === MAX_CANDIDATES) {
        let far = 0;
        for (let i = 1; i < candCount; i++) if (candDist[i] > candDist[far]) far = i;
        if (candDist[far] <= d) return;
        candCount--;
        candChunk[far] = candChunk[candCount];
        candLon[far] = candLon[candCount];
        candLat[far] = candLat[candCount];
        candDist[far] = candDist[candCount];
      }
    }
    candChunk[candCount] = chunk;
    candLon[candCount] = lon;
    candLat[candCount] = lat;
    candDist[candCount++] = d;
  };

  // Within mode: the best candidate per code of both layers (frame distance and point), reset per
  // query; slot c is country c, slot countries + s subdivision s. The chunk's slots on either side
  // (-1: none, or the layer does not change across it) are set by scanChunk.
  const codeCount = countries + subdivisions;
  let slotLeftC = -1;
  let slotRightC = -1;
  let slotLeftS = -1;
  let slotRightS = -1;
  const codeDist = new Float64Array(codeCount).fill(Infinity);
  const codeLon = new Float64Array(codeCount);
  const codeLat = new Float64Array(codeCount);
  const touched = new Int32Array(codeCount);
  let touchedCount = 0;
  let withinMode = false;

  /** Measures chunk `c`'s edges in the frame; keeps the nearest point of each that may matter. */
  const scanChunk = (c: number): void => {
    const left = layerCode[sides[2 * c]];
    const right = layerCode[sides[2 * c + 1]];
    if (withinMode) {
      // A line between two regions of one country is no border of the country layer.
      const lc = regionCountry[sides[2 * c]];
      const rc = regionCountry[sides[2 * c + 1]];
      const ls = regionSubdivision[sides[2 * c]];
      const rs = regionSubdivision[sides[2 * c + 1]];
      if (lc === rc && ls === rs) return;
      slotLeftC = lc !== rc ? lc : -1;
      slotRightC = lc !== rc ? rc : -1;
      slotLeftS = ls !== rs && ls >= 0 ? countries + ls : -1;
      slotRightS = ls !== rs && rs >= 0 ? countries + rs : -1;
    } else if (left === right) return;
    let ux = origins[2 * c];
    let uy = origins[2 * c + 1];
    let alon = ux / UNITS_PER_DEGREE;
    let alat = uy / UNITS_PER_DEGREE;
    toFrame(alon, alat);
    let ax = fx;
    let ay = fy;
    let p = starts[c];
    const end = starts[c + 1];
    // A chunk of one vertex (a ring smaller than a unit) is that point.
    if (p === end) {
      const d = Math.sqrt(ax * ax + ay * ay);
      consider(c, alon, alat, d);
      return;
    }
    while (p < end) {
      // Deltas are at most MAX_EDGE_DEGREES (layout.ts): a zigzag code fits two bytes.
      let z = stream[p++];
      if (z & 0x80 && p < end) z = (z & 0x7f) | (stream[p++] << 7);
      ux += (z >>> 1) ^ -(z & 1);
      z = stream[p++];
      if (z & 0x80 && p < end) z = (z & 0x7f) | (stream[p++] << 7);
      uy += (z >>> 1) ^ -(z & 1);
      const blon = ux / UNITS_PER_DEGREE;
      const blat = uy / UNITS_PER_DEGREE;
      toFrame(blon, blat);
      const bx = fx;
      const by = fy;
      const ex = bx - ax;
      const ey = by - ay;
      const len = ex * ex + ey * ey;
      let t = len > 0 ? -(ax * ex + ay * ey) / len : 0;
      if (t < 0) t = 0;
      else if (t > 1) t = 1;
      const px = ax + t * ex;
      const py = ay + t * ey;
      const d = Math.sqrt(px * px + py * py);
      consider(c, alon + t * (blon - alon), alat + t * (blat - alat), d);
      ax = bx;
      ay = by;
      alon = blon;
      alat = blat;
    }
  };

  const consider = (c: number, lon: number, lat: number, d: number): void => {
    if (withinMode) {
      if (d > limit) return;
      if (slotLeftC >= 0) nearCode(slotLeftC, lon, lat, d);
      if (slotRightC >= 0) nearCode(slotRightC, lon, lat, d);
      if (slotLeftS >= 0) nearCode(slotLeftS, lon, lat, d);
      if (slotRightS >= 0) nearCode(slotRightS, lon, lat, d);
      return;
    }
    if (d <= Math.min(limit, best * (1 + slack) + 1)) keep(c, lon, lat, d);
  };
  const nearCode = (code: number, lon: number, lat: number, d: number): void => {
    if (codeDist[code] === Infinity) touched[touchedCount++] = code;
    if (d < codeDist[code]) {
      codeDist[code] = d;
      codeLon[code] = lon;
      codeLat[code] = lat;
    }
  };

  // A lower bound of the distance from the query to a box: the latitude gap at the equator's scale
  // (the smallest), the longitude gap at the smallest east scale within the search band (points
  // outside the band are beyond the limit by their latitude gap alone). eastScale is set per query.
  let eastScale = 0;
  const boxDistance = (x0: number, y0: number, x1: number, y1: number): number => {
    let dl = 0;
    const w0 = x0 - lon0;
    const w1 = x1 - lon0;
    if (w0 > 0 || w1 < 0) {
      // The gap to the nearer side, eastwards or westwards round the globe.
      const east = w0 > 0 ? w0 : w0 + 360;
      const west = w1 < 0 ? -w1 : 360 - w1;
      dl = Math.min(east, west);
    }
    const dp = lat0 < y0 ? y0 - lat0 : lat0 > y1 ? lat0 - y1 : 0;
    const ex = dl * eastScale;
    const ey = dp * MIN_METRES_PER_DEGREE_LAT;
    return Math.sqrt(ex * ex + ey * ey);
  };
  const setBand = (radius: number): void => {
    const band = Math.abs(lat0) + radius / MIN_METRES_PER_DEGREE_LAT;
    eastScale = band >= 90 ? 0 : METRES_PER_DEGREE_LON * Math.cos(band * RAD);
  };

  // Best-first over the Flatbush tree (its layout: docs/FORMAT.md of geolookup, "bounding boxes"):
  // nodes and chunks in one heap by their lower bound, chunks scanned in that order until the
  // nearest remaining bound exceeds what can still matter. Typed arrays, grown only when full.
  const tree = index as unknown as {
    _boxes: ArrayLike<number>;
    _indices: ArrayLike<number>;
    _levelBounds: number[];
    nodeSize: number;
    numItems: number;
  };
  const boxes = tree._boxes;
  const indices = tree._indices;
  const levelBounds = tree._levelBounds;
  const items4 = tree.numItems * 4;
  const node4 = tree.nodeSize * 4;
  let heapIds = new Int32Array(1024);
  let heapKeys = new Float64Array(1024);
  let heapSize = 0;
  const push = (id: number, key: number): void => {
    if (heapSize === heapIds.length) {
      const ids = new Int32Array(heapSize * 2);
      ids.set(heapIds);
      heapIds = ids;
      const keys = new Float64Array(heapSize * 2);
      keys.set(heapKeys);
      heapKeys = keys;
    }
    let i = heapSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heapKeys[parent] <= key) break;
      heapIds[i] = heapIds[parent];
      heapKeys[i] = heapKeys[parent];
      i = parent;
    }
    heapIds[i] = id;
    heapKeys[i] = key;
  };
  const pop = (): void => {
    const id = heapIds[--heapSize];
    const key = heapKeys[heapSize];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heapSize) break;
      if (child + 1 < heapSize && heapKeys[child + 1] < heapKeys[child]) child++;
      if (heapKeys[child] >= key) break;
      heapIds[i] = heapIds[child];
      heapKeys[i] = heapKeys[child];
      i = child;
    }
    heapIds[i] = id;
    heapKeys[i] = key;
  };
  const levelEnd = (pos: number): number => {
    for (let l = 0; l < levelBounds.length; l++) if (levelBounds[l] > pos) return levelBounds[l];
    return levelBounds[levelBounds.length - 1];
  };

  /** Scans, nearest first, every chunk whose box may hold an edge within the current bound. */
  const traverse = (): void => {
    if (chunkCount === 0) return;
    heapSize = 0;
    push((boxes.length - 4) << 1, 0);
    while (heapSize > 0) {
      const bound = withinMode ? limit : Math.min(limit, best * (1 + slack) + 1);
      if (heapKeys[0] > bound) break;
      const top = heapIds[0];
      pop();
      if (top & 1) {
        scanChunk(top >> 1);
        continue;
      }
      const at = top >> 1;
      const end = Math.min(at + node4, levelEnd(at));
      const leafLevel = at < items4;
      for (let pos = at; pos < end; pos += 4) {
        const lower = boxDistance(boxes[pos], boxes[pos + 1], boxes[pos + 2], boxes[pos + 3]) * 0.99 - 1;
        if (lower > bound) continue;
        const child = indices[pos >> 2];
        push(leafLevel ? (child << 1) | 1 : child << 1, lower);
      }
    }
    heapSize = 0;
  };

  /** One query: the frame at the point, the layer, the radius; then the traversal. */
  const run = (lat: number, lon: number, radius: number, layer: Layer, within: boolean): void => {
    frameAt(lat, lon);
    layerCode = layer === 'country' ? regionCountry : regionSubdivision;
    withinMode = within;
    candCount = 0;
    touchedCount = 0;
    best = Infinity;
    limit = radius * (1 + slack) + 1;
    setBand(limit);
    traverse();
    withinMode = false;
  };

  const nearest = (lat: number, lon: number, radius: number, layer: Layer, out: Nearest): Nearest => {
    run(lat, lon, radius, layer, false);
    out.metres = -1;
    out.code = -1;
    const bound = Math.min(limit, best * (1 + slack) + 1);
    for (let i = 0; i < candCount; i++) {
      if (candDist[i] > bound) continue;
      const m = exact(lat, lon, candLat[i], candLon[i], candDist[i]);
      if (m > radius || (out.metres >= 0 && m > out.metres)) continue;
      const c = candChunk[i];
      const left = layerCode[sides[2 * c]];
      const right = layerCode[sides[2 * c + 1]];
      // At equal distances (a point where three regions meet) the lowest code: deterministic.
      let code = left < 0 ? right : right < 0 ? left : Math.min(left, right);
      if (out.metres === m && out.code >= 0 && (code < 0 || out.code < code)) code = out.code;
      out.metres = m;
      out.code = code;
    }
    return out;
  };

  const within = (
    lat: number,
    lon: number,
    radius: number,
    found: (layer: Layer, code: number, metres: number) => void,
  ): void => {
    run(lat, lon, radius, 'country', true);
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i];
      const m = exact(lat, lon, codeLat[slot], codeLon[slot], codeDist[slot]);
      codeDist[slot] = Infinity;
      if (m > radius) continue;
      if (slot < countries) found('country', slot, m);
      else found('subdivision', slot - countries, m);
    }
  };

  return { nearest, within };
}
