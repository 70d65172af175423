// The playground page: a point (click, typed, or the URL hash) is looked up through the service's
// routes; the answer is listed with names and ISO parents and outlined on the map.

import { type Codes, parentsOf } from '../codes.js';
import { codeOf, explain, lookUp, showAnswer } from './answer.js';
import { mapLayers } from './layers.js';
import { L } from './leaflet.js';
import { coordinate, hashOf, onGlobe, parsePoint, type Point } from './point.js';

/** Zoom for a hash without one. */
const DEFAULT_ZOOM = 5;

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function main(): Promise<void> {
  const answerList = byId<HTMLElement>('answer');
  const rule = byId<HTMLParagraphElement>('rule');
  const status = byId<HTMLParagraphElement>('status');
  const input = byId<HTMLInputElement>('point');
  const map = L.map('map', { preferCanvas: true, worldCopyJump: true, minZoom: 2, maxZoom: 14 }).setView([30, 10], 2);
  // For the browser tests, and for poking at the map from the console.
  (window as unknown as { playgroundMap: unknown }).playgroundMap = map;
  L.control.scale({ imperial: false }).addTo(map);
  const layers = mapLayers(map);
  layers.loadWorld((text) => (status.textContent = text));
  const codes = (await (await fetch('/playground/codes.json')).json()) as Codes;

  let latest = 0;
  const show = async (p: Point) => {
    const mine = ++latest;
    answerList.dataset.point = `${p.lat},${p.lon}`;
    answerList.dataset.state = 'loading';
    input.value = `${p.lat}, ${p.lon}`;
    const at = onGlobe(p);
    if (at) layers.mark(at);
    const [answer, why] = await Promise.all([lookUp(p), at ? explain(p) : null]);
    if (mine !== latest) return;
    showAnswer(answerList, answer, codes);
    rule.hidden = why === null;
    rule.textContent = why ? `${why.rule}: ${why.detail}` : '';
    answerList.dataset.state = 'done';
    const country = codeOf(answer.country);
    const subdivision = codeOf(answer.subdivision);
    if (country) layers.showSubdivisions(country);
    await layers.highlight({ country, subdivision, parents: subdivision ? parentsOf(subdivision, codes) : [] });
  };

  /** The hash this page wrote last: its own hashchange is not a new point. */
  let written = '';
  const go = (p: Point, move: boolean) => {
    const at = onGlobe(p);
    if (move && at) map.setView(at, p.zoom ?? Math.max(map.getZoom(), DEFAULT_ZOOM));
    written = hashOf(p, map.getZoom());
    if (location.hash.slice(1) !== written) location.hash = written;
    void show(p);
  };
  const fromHash = () => {
    let hash: string;
    try {
      hash = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    const p = hash === written ? null : parsePoint(hash);
    if (p === null) return;
    const at = onGlobe(p);
    if (at) map.setView(at, p.zoom ?? DEFAULT_ZOOM);
    written = hash;
    void show(p);
  };

  map.on('click', (e) => {
    const ll = e.latlng.wrap();
    go({ lat: coordinate(ll.lat), lon: coordinate(ll.lng) }, false);
  });
  byId<HTMLFormElement>('go').addEventListener('submit', (e) => {
    e.preventDefault();
    const p = parsePoint(input.value);
    if (p) go(p, true);
    else status.textContent = 'Type a point as "lat, lon", e.g. 48.8566, 2.3522.';
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
}

void main();
