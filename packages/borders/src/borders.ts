// The operations near borders and coasts over a lookup and the borders file drawn from its dataset:
// how far the nearest change of answer is, the region holding the point or else the nearest within
// a radius, and every region within a radius. Containment comes from the lookup itself, so a
// distance of 0 means exactly what countryFromGps / subdivisionFromGps answer.

import {
  coordinateError,
  DataError,
  type GeoLookup,
  INVALID_COORDINATE,
  NotFoundError,
  ValidationError,
} from 'geolookup';
import { type NumberParam, paramError, quickCoordinate } from 'geolookup/extend';
import { FAR_CAP_M, FAR_CELLS_PER_DEGREE, FAR_COLS, FAR_ROWS, FAR_UNIT_M, type Layer } from './layout.js';
import type { BordersFile, BordersMeta } from './read.js';
import { borderSearch, type Nearest } from './search.js';

import { DEFAULT_MAX_KM, LAYER, MAX_KM, RADIUS_M } from './extension.js';

export { DEFAULT_MAX_KM, MAX_RADIUS_KM } from './extension.js';

export interface DistanceOptions {
  /** Search this far, in km (default 50, at most 500): beyond it the answer is null. */
  maxKm?: number;
  /** 'country' (default): where countryFromGps changes; 'subdivision': where subdivisionFromGps does. */
  layer?: Layer;
}

export interface NearestRegion {
  /** Alpha-3 (nearestCountry) or ISO 3166-2 code (nearestSubdivision). */
  code: string;
  /** 0 when the point is in it, else metres to its nearest edge along the WGS 84 geodesic. */
  distanceM: number;
}

export interface RegionsWithin {
  /** Countries whose area lies within the circle, nearest first (ties by code). */
  countries: NearestRegion[];
  /** Subdivisions likewise. */
  subdivisions: NearestRegion[];
}

export interface BorderLookup {
  /**
   * Metres from the point to the nearest place where the layer's answer changes (a border, a
   * coast's territorial-sea limit), or null when there is none within maxKm.
   */
  distanceToBorder(latitude: number | string, longitude: number | string, options?: DistanceOptions): number | null;
  /** The country holding the point (distance 0), else the nearest within maxKm; else NotFoundError. */
  nearestCountry(latitude: number | string, longitude: number | string, options?: { maxKm?: number }): NearestRegion;
  /** The subdivision holding the point (distance 0), else the nearest within maxKm; else NotFoundError. */
  nearestSubdivision(
    latitude: number | string,
    longitude: number | string,
    options?: { maxKm?: number },
  ): NearestRegion;
  /** Every country and subdivision whose area lies within `radiusM` metres of the point. */
  regionsWithin(latitude: number | string, longitude: number | string, radiusM: number): RegionsWithin;
  /**
   * distanceToBorder of every point, into `out` (at least as long) or a new Float64Array:
   * Infinity where no change of answer is within maxKm, NaN for NaN, ±Infinity or out-of-range input.
   */
  distancesToBorder(
    latitudes: Float64Array,
    longitudes: Float64Array,
    options?: DistanceOptions,
    out?: Float64Array,
  ): Float64Array;
  /**
   * nearestCountry of every point as an index into countryCodes() (NOT_FOUND -1 where none is
   * within maxKm, INVALID_COORDINATE -2 for bad input), into `out` or a new Int32Array; its
   * distance into `distances` when given (NaN where no index).
   */
  nearestCountryIndexes(
    latitudes: Float64Array,
    longitudes: Float64Array,
    options?: { maxKm?: number },
    out?: Int32Array,
    distances?: Float64Array,
  ): Int32Array;
  /** As nearestCountryIndexes, into subdivisionCodes(). */
  nearestSubdivisionIndexes(
    latitudes: Float64Array,
    longitudes: Float64Array,
    options?: { maxKm?: number },
    out?: Int32Array,
    distances?: Float64Array,
  ): Int32Array;
  /** The code tables the index forms point into (the lookup's own). */
  countryCodes(): readonly string[];
  subdivisionCodes(): readonly string[];
  readonly meta: BordersMeta;
}

/** The lookup `geo` must answer from the dataset the borders were drawn from. */
function checkPair(geo: GeoLookup, meta: BordersMeta, name: string): void {
  if (geo.meta.simplification)
    throw new DataError(
      `${name}: the ${geo.meta.name} dataset is simplified (docs/LITE.md); distances need the full one`,
    );
  const d = meta.dataset;
  const same =
    geo.meta.name === d.name &&
    geo.countryCodes().length === d.countries &&
    geo.subdivisionCodes().length === d.subdivisions &&
    JSON.stringify(geo.meta.stats) === JSON.stringify(d.stats);
  if (!same)
    throw new DataError(
      `${name}: drawn from the dataset "${d.name}" (seal ${d.seal}), not from this lookup's "${geo.meta.name}"; ` +
        'build it from that dataset (packages/borders/build-data/build.ts --dataset FILE)',
    );
}

export function borderLookup(geo: GeoLookup, file: BordersFile, name = 'borders'): BorderLookup {
  checkPair(geo, file.meta, name);
  const countryCodes = geo.countryCodes();
  const subdivisionCodes = geo.subdivisionCodes();
  const search = borderSearch(file.arrays, countryCodes.length, subdivisionCodes.length);
  const found: Nearest = { metres: -1, code: -1 };
  // The parsed arguments: latitude, longitude, radius in metres. In a Float64Array, since a double
  // kept in a closure's variable is boxed on every store (a far point must allocate nothing:
  // packages/borders/test/borders.test.ts, "allocates nothing"). Plain numbers and decimal strings in range
  // pass without allocating; anything else gets the contract's ValidationError, with the radius's.
  const at = new Float64Array(3);
  const args = (
    latitude: unknown,
    longitude: unknown,
    amount: unknown,
    param: NumberParam,
    scale: number,
    layer?: string,
  ): void => {
    const lat = quickCoordinate(latitude, 90);
    const lon = quickCoordinate(longitude, 180);
    const ok = typeof amount === 'number' && amount >= param.min && amount <= param.max;
    // quickCoordinate refuses exactly what the contract refuses; coordinateError lists every bad
    // field, the layer's too (`layer`: its problem), in the operation's order (input-contract.test.ts).
    if (lat !== lat || lon !== lon || !ok || layer !== undefined)
      throw coordinateError(latitude, longitude, {
        ...(ok ? {} : { [param.name]: [paramError(param, amount)!] }),
        ...(layer === undefined ? {} : { layer: [layer] }),
      });
    at[0] = lat;
    at[1] = lon;
    at[2] = ((amount as number) * 1000) / scale;
  };

  /** What is wrong with the options' layer, if anything. */
  const layerProblem = (options: DistanceOptions | undefined): string | undefined => {
    const layer = options?.layer;
    return layer === undefined || layer === null || layer === 'country' || layer === 'subdivision'
      ? undefined
      : (paramError(LAYER, layer) ?? undefined);
  };

  const farCountry = file.far.country;
  const farSubdivision = file.far.subdivision;
  // Per far-table row, metres per degree of longitude at its equatorward edge: no point of the row
  // has more (the 1.01 below covers the prime vertical's 0.34% growth towards the poles).
  const rowEast = Float64Array.from({ length: FAR_ROWS }, (_, row) => {
    const south = -90 + row / FAR_CELLS_PER_DEGREE;
    const north = south + 1 / FAR_CELLS_PER_DEGREE;
    const equatorward = south <= 0 && north >= 0 ? 0 : Math.min(Math.abs(south), Math.abs(north));
    return 111_320 * Math.cos(equatorward * (Math.PI / 180));
  });
  // Per 1° cell, whole km below which no point of it comes to the layer's lines: the least of its
  // far-table cells' bounds (centre less half diagonal). 64.8 kB per layer stays in the CPU's cache,
  // where a read of the far table (1 MB) costs a cache miss: 133-217 ns a far point without it.
  const degreeBound = (far: Uint8Array): Uint8Array => {
    const out = new Uint8Array(360 * 180).fill(255);
    for (let row = 0; row < FAR_ROWS; row++) {
      const halfDiagonal =
        0.5 * Math.hypot(111_695 / FAR_CELLS_PER_DEGREE, rowEast[row] / FAR_CELLS_PER_DEGREE) * 1.01 + 1;
      for (let col = 0; col < FAR_COLS; col++) {
        const metres = far[row * FAR_COLS + col] * FAR_UNIT_M * 0.998 - 10 - halfDiagonal;
        const km = Math.max(0, Math.min(254, Math.floor(metres / 1000)));
        const cell = Math.floor(row / FAR_CELLS_PER_DEGREE) * 360 + Math.floor(col / FAR_CELLS_PER_DEGREE);
        if (km < out[cell]) out[cell] = km;
      }
    }
    return out;
  };
  const degreeCountry = degreeBound(farCountry);
  const degreeSubdivision = degreeBound(farSubdivision);
  /**
   * Whether the point (at[0], at[1]) is proved farther than at[2] metres from the layer's borders
   * by its 1° bound or its far-table cell: the centre's distance less the point's distance to the centre, with the
   * search's slack. A boolean, not the bound: a double returned from a call V8 does not inline is
   * boxed.
   */
  const beyond = (layer: Layer): boolean => {
    if (at[2] >= FAR_CAP_M) return false;
    const lat = at[0];
    const lon = at[1];
    const degreeRow = lat >= 90 ? 179 : Math.floor(lat + 90);
    const degreeCol = lon >= 180 ? 0 : Math.floor(lon + 180);
    const degree = layer === 'country' ? degreeCountry : degreeSubdivision;
    if (degree[degreeRow * 360 + degreeCol] * 1000 > at[2]) return true;
    const far = layer === 'country' ? farCountry : farSubdivision;
    let row = Math.floor((lat + 90) * FAR_CELLS_PER_DEGREE);
    if (row === FAR_ROWS) row--;
    let col = Math.floor((lon + 180) * FAR_CELLS_PER_DEGREE);
    if (col === FAR_COLS) col = 0;
    // Metres to the cell's centre, overestimated: the latitude gap at the poles' scale (the
    // largest), the longitude gap at the row's largest.
    const dy = (lat + 90 - (row + 0.5) / FAR_CELLS_PER_DEGREE) * 111_695;
    const dx = (lon + 180 - (col + 0.5) / FAR_CELLS_PER_DEGREE) * rowEast[row];
    // The centre's distance, less the search's slack (the table holds its answers), less the
    // radius, must exceed the point's distance to the centre (times 1.01, plus 1 m): squared.
    const spare = far[row * FAR_COLS + col] * FAR_UNIT_M * 0.998 - 11 - at[2];
    if (spare > 0 && spare * spare > 1.0201 * (dx * dx + dy * dy)) return true;
    // Else each neighbour's centre, by the same inequality: tight where a centre lies beyond the
    // point from its nearest line, so most points 50-70 km out are proved here, not searched.
    for (let r = row > 0 ? row - 1 : 0; r <= row + 1 && r < FAR_ROWS; r++) {
      const ny = (lat + 90 - (r + 0.5) / FAR_CELLS_PER_DEGREE) * 111_695;
      const east = Math.max(rowEast[r], rowEast[row]);
      for (let k = -1; k <= 1; k++) {
        const c = col + k < 0 ? col + k + FAR_COLS : col + k >= FAR_COLS ? col + k - FAR_COLS : col + k;
        const nx = (lon + 180 - (col + k + 0.5) / FAR_CELLS_PER_DEGREE) * east;
        const s = far[r * FAR_COLS + c] * FAR_UNIT_M * 0.998 - 11 - at[2];
        if (s > 0 && s * s > 1.0201 * (nx * nx + ny * ny)) return true;
      }
    }
    return false;
  };

  // The entry stays small enough for V8 to inline into the caller's loop, and plain numbers in range
  // go straight into `at` (not through quickCoordinate, whose `in range ? value : NaN` keeps them
  // boxed, as geolookup's engine found): the work happens in distanceAt, which takes no doubles.
  const distanceToBorder = (
    latitude: number | string,
    longitude: number | string,
    options?: DistanceOptions,
  ): number | null => {
    if (
      typeof latitude === 'number' &&
      typeof longitude === 'number' &&
      latitude >= -90 &&
      latitude <= 90 &&
      longitude >= -180 &&
      longitude <= 180
    ) {
      at[0] = latitude;
      at[1] = longitude;
    } else args(latitude, longitude, options?.maxKm ?? DEFAULT_MAX_KM, MAX_KM, 1, layerProblem(options));
    return distanceAt(options);
  };
  /** The options' layer, their radius into at[2]; their ValidationError, the point (at) named too. */
  const layerOf = (options: DistanceOptions | undefined): Layer => {
    const km = options?.maxKm ?? DEFAULT_MAX_KM;
    const problem = layerProblem(options);
    if (!(typeof km === 'number' && km >= 0 && km <= MAX_KM.max) || problem !== undefined)
      args(at[0], at[1], km, MAX_KM, 1, problem);
    at[2] = km * 1000;
    return options?.layer ?? 'country';
  };
  const distanceAt = (options: DistanceOptions | undefined): number | null => {
    const layer = layerOf(options);
    if (beyond(layer)) return null;
    const n = search.nearest(at[0], at[1], at[2], layer, found);
    return n.metres < 0 ? null : n.metres;
  };

  const nearestOf =
    (layer: Layer) =>
    (latitude: number | string, longitude: number | string, options?: { maxKm?: number }): NearestRegion => {
      args(latitude, longitude, options?.maxKm ?? DEFAULT_MAX_KM, MAX_KM, 1);
      const lat = at[0];
      const lon = at[1];
      const radius = at[2];
      const here = layer === 'country' ? geo.tryCountryFromGps(lat, lon) : geo.trySubdivisionFromGps(lat, lon);
      if (here !== null) return { code: here, distanceM: 0 };
      const codes = layer === 'country' ? countryCodes : subdivisionCodes;
      if (!beyond(layer)) {
        const n = search.nearest(lat, lon, radius, layer, found);
        if (n.metres >= 0) return { code: codes[n.code], distanceM: n.metres };
      }
      throw new NotFoundError(`No ${layer} within ${radius / 1000} km of (${lat}, ${lon})`);
    };

  const regionsWithin = (latitude: number | string, longitude: number | string, radiusM: number): RegionsWithin => {
    args(latitude, longitude, radiusM, RADIUS_M, 1000);
    const lat = at[0];
    const lon = at[1];
    const radius = at[2];
    // within() reports each code once, so the lists need no map: only the code holding the point,
    // at 0 m, is left out of what it reports. Both layers come from one traversal.
    const hereCountry = geo.tryCountryFromGps(lat, lon);
    const hereSubdivision = geo.trySubdivisionFromGps(lat, lon);
    const countries: NearestRegion[] = hereCountry === null ? [] : [{ code: hereCountry, distanceM: 0 }];
    const subdivisions: NearestRegion[] = hereSubdivision === null ? [] : [{ code: hereSubdivision, distanceM: 0 }];
    if (!beyond('country') || !beyond('subdivision'))
      search.within(lat, lon, radius, (layer, index, m) => {
        const code = layer === 'country' ? countryCodes[index] : subdivisionCodes[index];
        if (layer === 'country' ? code !== hereCountry : code !== hereSubdivision)
          (layer === 'country' ? countries : subdivisions).push({ code, distanceM: m });
      });
    const order = (a: NearestRegion, b: NearestRegion) => a.distanceM - b.distanceM || (a.code < b.code ? -1 : 1);
    return {
      countries: countries.length < 2 ? countries : countries.sort(order),
      subdivisions: subdivisions.length < 2 ? subdivisions : subdivisions.sort(order),
    };
  };

  /** The points' count; a ValidationError naming each bad array. */
  const points = (
    lats: unknown,
    lons: unknown,
    outs: [string, unknown, typeof Float64Array | typeof Int32Array][],
  ): number => {
    const errors: Record<string, string[]> = {};
    if (!(lats instanceof Float64Array)) errors.latitudes = ['latitudes must be a Float64Array'];
    if (!(lons instanceof Float64Array)) errors.longitudes = ['longitudes must be a Float64Array'];
    const n = lats instanceof Float64Array ? lats.length : 0;
    if (lats instanceof Float64Array && lons instanceof Float64Array && lons.length !== n)
      errors.longitudes = [`longitudes must be as long as latitudes (${n}), got ${lons.length}`];
    for (const [name, array, type] of outs)
      if (array !== undefined && !(array instanceof type && (array as Float64Array).length >= n))
        errors[name] = [`${name} must be a ${type.name} of at least ${n} elements`];
    if (Object.keys(errors).length) throw new ValidationError(Object.values(errors).flat().join('; '), errors);
    return n;
  };
  const valid = (lat: number, lon: number) => lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180;

  const distancesToBorder = (
    latitudes: Float64Array,
    longitudes: Float64Array,
    options?: DistanceOptions,
    out?: Float64Array,
  ): Float64Array => {
    const n = points(latitudes, longitudes, [['out', out, Float64Array]]);
    at[0] = at[1] = 0;
    layerOf(options); // the options' errors, once
    const into = out ?? new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const lat = latitudes[i];
      const lon = longitudes[i];
      if (!valid(lat, lon)) into[i] = Number.NaN;
      else {
        at[0] = lat;
        at[1] = lon;
        const m = distanceAt(options);
        into[i] = m === null ? Number.POSITIVE_INFINITY : m;
      }
    }
    return into;
  };

  const one = { lat: new Float64Array(1), lon: new Float64Array(1), index: new Int32Array(1) };
  const nearestIndexesOf =
    (layer: Layer) =>
    (
      latitudes: Float64Array,
      longitudes: Float64Array,
      options?: { maxKm?: number },
      out?: Int32Array,
      distances?: Float64Array,
    ): Int32Array => {
      const n = points(latitudes, longitudes, [
        ['out', out, Int32Array],
        ['distances', distances, Float64Array],
      ]);
      args(0, 0, options?.maxKm ?? DEFAULT_MAX_KM, MAX_KM, 1);
      const radius = at[2];
      const into = out ?? new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const lat = latitudes[i];
        const lon = longitudes[i];
        let index = INVALID_COORDINATE;
        let metres = Number.NaN;
        if (valid(lat, lon)) {
          one.lat[0] = lat;
          one.lon[0] = lon;
          if (layer === 'country') geo.countryIndexes(one.lat, one.lon, one.index);
          else geo.subdivisionIndexes(one.lat, one.lon, one.index);
          index = one.index[0];
          if (index >= 0) metres = 0;
          else {
            at[0] = lat;
            at[1] = lon;
            at[2] = radius;
            if (!beyond(layer) && search.nearest(lat, lon, radius, layer, found).metres >= 0) {
              index = found.code;
              metres = found.metres;
            }
          }
        }
        into[i] = index;
        if (distances) distances[i] = metres;
      }
      return into;
    };

  return {
    distanceToBorder,
    distancesToBorder,
    nearestCountryIndexes: nearestIndexesOf('country'),
    nearestSubdivisionIndexes: nearestIndexesOf('subdivision'),
    countryCodes: () => countryCodes,
    subdivisionCodes: () => subdivisionCodes,
    nearestCountry: nearestOf('country'),
    nearestSubdivision: nearestOf('subdivision'),
    regionsWithin,
    meta: file.meta,
  };
}
