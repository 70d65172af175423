// The map: MapLibre GL JS over the playground's vector tiles (/tiles/{z}/{x}/{y}.mvt), so what is
// drawn is what the lookup answers. Countries are filled by code, subdivisions outlined from the
// zoom their tiles start at, the answer highlighted, codes written at the parts' label points.

import {
  type ExpressionSpecification,
  type GeoJSONSource,
  type LayerSpecification,
  Map as MapLibreMap,
  type MapMouseEvent,
  NavigationControl,
  ScaleControl,
} from 'maplibre-gl';

/** Zoom from which tiles hold subdivisions (the server's blocks, tiles/tiler.ts). */
export const SUBDIVISIONS_FROM_ZOOM = 8;
/** Zoom from which subdivisions are labelled in every tile, not only at their label points. */
const LABEL_EVERY_PART_FROM_ZOOM = 11;
/** Zoom of the server's last tiles; MapLibre scales them beyond. */
const TILES_MAX_ZOOM = 16;

/** Land colours, none near the sea's blue. */
const PALETTE = ['#f3e3c3', '#dcebc8', '#f6d5cf', '#e9dcc6', '#efe0f2', '#e6e3d3'];
/** A colour per code: the tiles' `hue` (a number from the code's letters) picks one of the palette's. */
const fillColour = [
  'match',
  ['%', ['get', 'hue'], PALETTE.length],
  ...PALETTE.slice(1).flatMap((c, i) => [i + 1, c]),
  PALETTE[0],
] as unknown as ExpressionSpecification;

export interface Highlight {
  country: string | null;
  subdivision: string | null;
}

export interface AnswerMap {
  map: MapLibreMap;
  /** Outlines the answer's country and fills its subdivision. */
  highlight(h: Highlight): void;
  /** The point looked up (null: none shown). */
  mark(lonLat: [number, number] | null): void;
}

const none = ['==', ['get', 'code'], ''] as ExpressionSpecification;
const is = (code: string | null) => (code === null ? none : ['==', ['get', 'code'], code]) as ExpressionSpecification;

function layers(): LayerSpecification[] {
  const src = { source: 'answers' } as const;
  return [
    { id: 'sea', type: 'background', paint: { 'background-color': '#cfe3f1' } },
    {
      id: 'country-fill',
      type: 'fill',
      ...src,
      'source-layer': 'country',
      paint: { 'fill-color': fillColour, 'fill-antialias': false },
    },
    {
      id: 'subdivision-fill',
      type: 'fill',
      ...src,
      'source-layer': 'subdivision',
      // Drawn but clear: the layer answers queryRenderedFeatures and carries the hover.
      paint: { 'fill-color': '#000000', 'fill-opacity': 0 },
    },
    {
      id: 'subdivision-hover',
      type: 'fill',
      ...src,
      'source-layer': 'subdivision',
      filter: none,
      paint: { 'fill-color': '#ffffff', 'fill-opacity': 0.35 },
    },
    {
      id: 'country-hover',
      type: 'fill',
      ...src,
      'source-layer': 'country',
      filter: none,
      maxzoom: SUBDIVISIONS_FROM_ZOOM,
      paint: { 'fill-color': '#ffffff', 'fill-opacity': 0.35 },
    },
    {
      id: 'subdivision-answer',
      type: 'fill',
      ...src,
      'source-layer': 'subdivision',
      filter: none,
      paint: { 'fill-color': '#f2a541', 'fill-opacity': 0.45 },
    },
    {
      id: 'subdivision-line',
      type: 'line',
      ...src,
      'source-layer': 'subdivision',
      paint: { 'line-color': '#9b917f', 'line-width': 0.6 },
    },
    {
      id: 'country-line',
      type: 'line',
      ...src,
      'source-layer': 'country',
      paint: { 'line-color': '#5f584c', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 10, 1.4] },
    },
    {
      id: 'subdivision-answer-line',
      type: 'line',
      ...src,
      'source-layer': 'subdivision',
      filter: none,
      paint: { 'line-color': '#c8741a', 'line-width': 1.8 },
    },
    {
      id: 'country-answer-line',
      type: 'line',
      ...src,
      'source-layer': 'country',
      filter: none,
      paint: { 'line-color': '#1f5fa8', 'line-width': 2.5 },
    },
    {
      // Close in, a region's one label point is often out of view: each tile's part is labelled.
      id: 'subdivision-label-near',
      type: 'symbol',
      ...src,
      'source-layer': 'subdivision',
      minzoom: LABEL_EVERY_PART_FROM_ZOOM,
      // The padding keeps one label in a screen's worth of each region, not one a tile.
      layout: { 'text-field': ['get', 'code'], 'text-font': ['sans-serif'], 'text-size': 12, 'text-padding': 200 },
      paint: { 'text-color': '#6b5d45', 'text-halo-color': '#ffffff', 'text-halo-width': 1.2 },
    },
    {
      id: 'subdivision-label',
      type: 'symbol',
      ...src,
      'source-layer': 'subdivision-label',
      minzoom: SUBDIVISIONS_FROM_ZOOM,
      maxzoom: LABEL_EVERY_PART_FROM_ZOOM,
      layout: {
        'text-field': ['get', 'code'],
        'text-font': ['sans-serif'],
        'text-size': 11,
        'symbol-sort-key': ['-', 0, ['get', 'area']],
      },
      paint: { 'text-color': '#6b5d45', 'text-halo-color': '#ffffff', 'text-halo-width': 1.2 },
    },
    {
      id: 'country-label',
      type: 'symbol',
      ...src,
      'source-layer': 'country-label',
      layout: {
        'text-field': ['get', 'code'],
        'text-font': ['sans-serif'],
        'text-size': ['interpolate', ['linear'], ['zoom'], 2, 10, 8, 14],
        'symbol-sort-key': ['-', 0, ['get', 'area']],
      },
      paint: { 'text-color': '#1d2733', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    },
    {
      id: 'point',
      type: 'circle',
      source: 'point',
      paint: {
        'circle-radius': 5,
        'circle-color': '#ffffff',
        'circle-stroke-color': '#b3261e',
        'circle-stroke-width': 2,
      },
    },
  ];
}

/** The map in element `id`, its tiles credited with `attribution` (HTML, from the dataset's sources). */
export function answerMap(id: string, attribution: string): AnswerMap {
  const map = new MapLibreMap({
    container: id,
    center: [10, 30],
    zoom: 1.5,
    maxZoom: 20,
    renderWorldCopies: false,
    attributionControl: { compact: false },
    style: {
      version: 8,
      sources: {
        answers: {
          type: 'vector',
          tiles: [`${location.origin}/tiles/{z}/{x}/{y}.mvt`],
          minzoom: 0,
          maxzoom: TILES_MAX_ZOOM,
          attribution,
        },
        point: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
      },
      layers: layers(),
    },
  });
  map.addControl(new NavigationControl({ showCompass: false }));
  map.addControl(new ScaleControl({ unit: 'metric' }));

  // Hover: the code under the pointer, subdivision where tiles hold them, else country.
  map.on('mousemove', (e: MapMouseEvent) => {
    const [s] = map.queryRenderedFeatures(e.point, { layers: ['subdivision-fill'] });
    const [c] = s ? [] : map.queryRenderedFeatures(e.point, { layers: ['country-fill'] });
    map.setFilter('subdivision-hover', is((s?.properties.code as string) ?? null));
    map.setFilter('country-hover', is((c?.properties.code as string) ?? null));
    map.getCanvas().style.cursor = s || c ? 'pointer' : '';
  });
  map.on('mouseout', () => {
    map.setFilter('subdivision-hover', none);
    map.setFilter('country-hover', none);
  });

  return {
    map,
    highlight(h) {
      map.setFilter('country-answer-line', is(h.country));
      map.setFilter('subdivision-answer', is(h.subdivision));
      map.setFilter('subdivision-answer-line', is(h.subdivision));
      map.getContainer().dataset.highlight = [h.country, h.subdivision].filter(Boolean).join(' ');
    },
    mark(lonLat) {
      const data: GeoJSON.FeatureCollection = {
        type: 'FeatureCollection',
        features: lonLat ? [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: lonLat } }] : [],
      };
      // Before the style has loaded its sources, the point waits for it.
      const set = () => (map.getSource('point') as GeoJSONSource).setData(data);
      if (map.getSource('point')) set();
      else map.once('load', set);
    },
  };
}
