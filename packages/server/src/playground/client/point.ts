// Points as the page takes them: typed "lat, lon", the URL hash "lat,lon[,zoom]" and map clicks.
// Coordinates stay strings, so the service applies its own input rules to what was typed.

export interface Point {
  lat: string;
  lon: string;
  zoom?: number;
}

const POINT = /^\s*([^\s,]+)\s*(?:,\s*|\s+)([^\s,]+)(?:\s*(?:,\s*|\s+)(\d{1,2}))?\s*$/;

/** "48.8566, 2.3522", "48.8566 2.3522" or "48.8566,2.3522,7"; null when it is not two or three parts. */
export function parsePoint(text: string): Point | null {
  const m = POINT.exec(text);
  if (m === null) return null;
  return m[3] === undefined ? { lat: m[1], lon: m[2] } : { lat: m[1], lon: m[2], zoom: Number(m[3]) };
}

/** Six decimals (about 0.1 m), trailing zeros dropped: what a click becomes in the hash and the request. */
export function coordinate(n: number): string {
  const s = n.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

/** [lat, lon] when both are numbers on the globe (the map can show it), else null. */
export function onGlobe(p: Point): [number, number] | null {
  const lat = Number(p.lat);
  const lon = Number(p.lon);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
}

export function hashOf(p: Point, zoom: number): string {
  return `${p.lat},${p.lon},${zoom}`;
}
