// The map's layers, each in a pane of its own (one canvas each, stacked): the world's countries,
// the subdivisions of the countries looked at, the answer's outlines, the point.

import { type CircleMarker, type GeoJSONLayer, L, type LeafletMap, type PathOptions } from './leaflet.js';

const STYLE = {
  world: { stroke: false, fillColor: '#f4efe4', fillOpacity: 1 },
  subdivisions: { color: '#b9b0a0', weight: 0.5, fill: false },
  borders: { color: '#6f6759', weight: 0.9, fill: false },
  country: { color: '#1f5fa8', weight: 2.5, fill: false },
  parent: { color: '#1f5fa8', weight: 1.5, dashArray: '5 4', fill: false },
  subdivision: { color: '#c8741a', weight: 1.5, fillColor: '#f2a541', fillOpacity: 0.45 },
  point: { color: '#b3261e', weight: 2, fillColor: '#ffffff', fillOpacity: 1, radius: 5 },
} satisfies Record<string, PathOptions>;

/** Zoom from which the subdivisions of the countries in view are drawn. */
const SUBDIVISIONS_FROM_ZOOM = 5;

export interface Highlight {
  country: string | null;
  subdivision: string | null;
  parents: string[];
}

export interface MapLayers {
  /** Draws the world's countries, asking again while the server still computes them. */
  loadWorld(status: (text: string) => void): void;
  /** Draws an alpha-3 country's subdivisions (once). */
  showSubdivisions(alpha3: string): void;
  /** Outlines the answer; resolves once drawn (false when a newer highlight replaced it). */
  highlight(h: Highlight): Promise<boolean>;
  mark(latLon: [number, number]): void;
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(url);
  return { status: r.status, body: await r.json() };
}

export function mapLayers(map: LeafletMap): MapLayers {
  const layer = (pane: string, zIndex: number, style: PathOptions): GeoJSONLayer => {
    map.createPane(pane).style.zIndex = String(zIndex);
    // Not interactive: a click anywhere is a point to look up, never a feature.
    return L.geoJSON(null, { pane, interactive: false, style }).addTo(map);
  };
  const world = layer('world', 400, STYLE.world);
  const subdivisions = layer('subdivisions', 410, STYLE.subdivisions);
  // The countries' borders again, over the subdivisions' lines that share them.
  const borders = layer('borders', 415, STYLE.borders);
  const subdivision = layer('subdivision', 420, STYLE.subdivision);
  const parents = layer('parents', 430, STYLE.parent);
  const country = layer('country', 440, STYLE.country);
  map.createPane('point').style.zIndex = '450';
  let marker: CircleMarker | null = null;
  const drawn = new Set<string>();
  let highlights = 0;

  const showSubdivisions = (alpha3: string) => {
    if (drawn.has(alpha3)) return;
    drawn.add(alpha3);
    getJson(`/playground/outlines/${alpha3}.geojson`).then(
      (r) => (r.status === 200 ? subdivisions.addData(r.body) : drawn.delete(alpha3)),
      () => drawn.delete(alpha3),
    );
  };

  map.on('moveend', () => {
    if (map.getZoom() < SUBDIVISIONS_FROM_ZOOM) return;
    const view = map.getBounds();
    let asked = 0;
    world.eachLayer((f) => {
      const code = f.feature?.properties.code;
      if (code && asked < 4 && !drawn.has(code) && f.getBounds().intersects(view)) {
        asked++;
        showSubdivisions(code);
      }
    });
  });

  const outline = async (code: string | null) =>
    code === null ? null : (await getJson(`/playground/outline/${encodeURIComponent(code)}.geojson`)).body;

  return {
    loadWorld(status) {
      const attempt = () =>
        getJson('/playground/outlines/countries.geojson').then(
          (r) => {
            if (r.status === 200) {
              world.addData(r.body);
              borders.addData(r.body);
              map.getContainer().dataset.world = 'drawn';
              return status('');
            }
            const p = r.body as { done: number; total: number };
            status(r.status === 202 ? `Computing country outlines: ${p.done} of ${p.total}…` : 'No country outlines.');
            if (r.status === 202) setTimeout(attempt, 1000);
          },
          () => setTimeout(attempt, 2000),
        );
      attempt();
    },
    showSubdivisions,
    async highlight(h) {
      const mine = ++highlights;
      const [c, s, ...ps] = await Promise.all([h.country, h.subdivision, ...h.parents].map(outline));
      if (mine !== highlights) return false;
      for (const l of [country, subdivision, parents]) l.clearLayers();
      if (c) country.addData(c);
      if (s) subdivision.addData(s);
      for (const p of ps) if (p) parents.addData(p);
      map.getContainer().dataset.highlight = [h.country, h.subdivision, ...h.parents].filter(Boolean).join(' ');
      return true;
    },
    mark(latLon) {
      if (marker === null)
        marker = L.circleMarker(latLon, { ...STYLE.point, pane: 'point', interactive: false }).addTo(map);
      else marker.setLatLng(latLon);
    },
  };
}
