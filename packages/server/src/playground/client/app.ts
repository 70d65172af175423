// The playground page: a point (click, typed, or the URL hash) is looked up through the service's
// routes; the answer is listed with names and ISO parents and highlighted on the map, which draws
// the answering dataset's own tiles.

import type { Codes, DatasetFacts } from '../codes.js';
import { codeOf, explain, lookUp, showAnswer } from './answer.js';
import { answerMap } from './map.js';
import { coordinate, hashOf, onGlobe, parsePoint, type Point } from './point.js';

/** Zoom for a hash without one. */
const DEFAULT_ZOOM = 5;

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The sources' credits as the attribution control's HTML (texts escaped, links to each source). */
function attributionHtml(facts: DatasetFacts): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return facts.attribution
    .map((a) => (a.url ? `<a href="${esc(a.url)}" rel="noreferrer">${esc(a.text)}</a>` : esc(a.text)))
    .join(' | ');
}

async function main(): Promise<void> {
  const answerList = byId<HTMLElement>('answer');
  const rule = byId<HTMLParagraphElement>('rule');
  const status = byId<HTMLParagraphElement>('status');
  const input = byId<HTMLInputElement>('point');
  const [codes, facts] = (await Promise.all(
    ['/playground/codes.json', '/playground/dataset.json'].map(async (u) => (await fetch(u)).json()),
  )) as [Codes, DatasetFacts];
  const { map, highlight, mark } = answerMap('map', attributionHtml(facts));
  // For the browser tests, and for poking at the map from the console.
  (window as unknown as { playgroundMap: unknown }).playgroundMap = map;
  map.on('idle', () => (map.getContainer().dataset.idle = String(Math.round(map.getZoom()))));
  map.on('movestart', () => delete map.getContainer().dataset.idle);

  let latest = 0;
  /** No answer on screen: nothing highlighted, no point, no rule. */
  const clear = () => {
    latest++;
    answerList.replaceChildren();
    delete answerList.dataset.point;
    answerList.dataset.state = 'empty';
    rule.hidden = true;
    rule.textContent = '';
    highlight({ country: null, subdivision: null });
    mark(null);
  };
  const show = async (p: Point) => {
    const mine = ++latest;
    status.textContent = '';
    answerList.dataset.point = `${p.lat},${p.lon}`;
    answerList.dataset.state = 'loading';
    input.value = `${p.lat}, ${p.lon}`;
    const at = onGlobe(p);
    mark(at && [at[1], at[0]]);
    const [answer, why] = await Promise.all([lookUp(p), at ? explain(p) : null]);
    if (mine !== latest) return;
    showAnswer(answerList, answer, codes);
    rule.hidden = why === null;
    rule.textContent = why ? `${why.rule}: ${why.detail}` : '';
    answerList.dataset.state = 'done';
    highlight({ country: codeOf(answer.country), subdivision: codeOf(answer.subdivision) });
  };

  /** The hash this page wrote last: its own hashchange is not a new point. */
  let written = '';
  const go = (p: Point, move: boolean) => {
    const at = onGlobe(p);
    if (move && at) map.jumpTo({ center: [at[1], at[0]], zoom: p.zoom ?? Math.max(map.getZoom(), DEFAULT_ZOOM) });
    written = hashOf(p, Math.round(map.getZoom()));
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
    if (at) map.jumpTo({ center: [at[1], at[0]], zoom: p.zoom ?? DEFAULT_ZOOM });
    written = hash;
    void show(p);
  };

  map.on('click', (e) => {
    const ll = e.lngLat.wrap();
    go({ lat: coordinate(ll.lat), lon: coordinate(ll.lng) }, false);
  });
  byId<HTMLFormElement>('go').addEventListener('submit', (e) => {
    e.preventDefault();
    const p = parsePoint(input.value);
    if (p) return go(p, true);
    clear();
    status.textContent = 'Type a point as "lat, lon", e.g. 48.8566, 2.3522.';
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
}

void main();
