// Exact distances on the WGS 84 ellipsoid: Karney's geodesic inverse, as GeographicLib computes it
// (and PostGIS's geography distance). Only the few edges search.ts finds nearest get one.

import geographiclib from 'geographiclib-geodesic';

const { Geodesic } = geographiclib;
const WGS84 = Geodesic.WGS84;
const DISTANCE = Geodesic.DISTANCE;

/** Metres along the geodesic from (lat1, lon1) to (lat2, lon2). */
export function geodesicMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return WGS84.Inverse(lat1, lon1, lat2, lon2, DISTANCE).s12 as number;
}
