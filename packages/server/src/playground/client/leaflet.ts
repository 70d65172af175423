// The part of Leaflet 1.9 the page uses, typed here: the page loads Leaflet's own leaflet.js
// before this bundle (one copy, served from the leaflet package), and the package has no types.

export type LatLngTuple = [number, number];

export interface LatLng {
  lat: number;
  lng: number;
  /** The same point with the longitude brought into [-180, 180]. */
  wrap(): LatLng;
}

export interface LatLngBounds {
  intersects(other: LatLngBounds): boolean;
}

export interface PathOptions {
  pane?: string;
  interactive?: boolean;
  stroke?: boolean;
  color?: string;
  weight?: number;
  opacity?: number;
  dashArray?: string;
  fill?: boolean;
  fillColor?: string;
  fillOpacity?: number;
  radius?: number;
}

export interface Layer {
  remove(): this;
}

export interface FeatureLayer extends Layer {
  feature?: { properties: { code: string; name: string } };
  getBounds(): LatLngBounds;
}

export interface GeoJSONLayer extends Layer {
  addData(data: unknown): this;
  clearLayers(): this;
  eachLayer(fn: (layer: FeatureLayer) => void): this;
}

export interface CircleMarker extends Layer {
  setLatLng(p: LatLngTuple): this;
}

export interface LeafletMap {
  setView(center: LatLngTuple, zoom?: number): this;
  getZoom(): number;
  getBounds(): LatLngBounds;
  latLngToContainerPoint(p: LatLngTuple): { x: number; y: number };
  getContainer(): HTMLElement;
  createPane(name: string): HTMLElement;
  on(type: 'click', fn: (e: { latlng: LatLng }) => void): this;
  on(type: 'moveend', fn: () => void): this;
}

export interface Leaflet {
  map(
    id: string,
    options: { preferCanvas: boolean; worldCopyJump?: boolean; minZoom?: number; maxZoom?: number },
  ): LeafletMap;
  geoJSON(
    data: unknown,
    options: { style: PathOptions } & PathOptions,
  ): GeoJSONLayer & { addTo(m: LeafletMap): GeoJSONLayer };
  circleMarker(p: LatLngTuple, options: PathOptions): CircleMarker & { addTo(m: LeafletMap): CircleMarker };
  control: { scale(options: { imperial: boolean }): { addTo(m: LeafletMap): unknown } };
}

export const L = (globalThis as unknown as { L: Leaflet }).L;
