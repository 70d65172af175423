// The browser entry has no Node built-ins: the page fetches the dataset file itself (served
// next to the page as world.geolookup) and hands the bytes over.
import { createGeoLookup, GeoLookupError, type GeoLookup } from 'geolookup/browser';

const DATASET_URL = new URL('world.geolookup', document.baseURI).href;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('status');
const form = $<HTMLFormElement>('form');
const answer = $<HTMLOutputElement>('answer');

/** One lookup as the page shows it: the codes, or the error's class and message. */
export interface Answer {
  country: string | null;
  subdivision: string | null;
  error?: { name: string; status: number; message: string };
}

function lookup(geo: GeoLookup, latitude: number | string, longitude: number | string): Answer {
  try {
    // try* answer null for "nothing here" (sea, Antarctica) and throw only for bad input.
    return {
      country: geo.tryCountryFromGps(latitude, longitude),
      subdivision: geo.trySubdivisionFromGps(latitude, longitude),
    };
  } catch (e) {
    if (!(e instanceof GeoLookupError)) throw e;
    return { country: null, subdivision: null, error: { name: e.name, status: e.status, message: e.message } };
  }
}

async function load(): Promise<GeoLookup> {
  const started = performance.now();
  const response = await fetch(DATASET_URL);
  if (!response.ok) throw new Error(`${DATASET_URL}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const fetched = performance.now();
  const geo = createGeoLookup(bytes);
  const ready = performance.now();
  const mb = (bytes.byteLength / 1e6).toFixed(1);
  status.textContent = `Dataset ${mb} MB: fetched in ${Math.round(fetched - started)} ms, ready in ${Math.round(ready - fetched)} ms.`;
  // For scripted checks and the devtools console: load timings and a batch of lookups.
  Object.assign(window, {
    geolookupTimings: { fetchMs: fetched - started, openMs: ready - fetched, bytes: bytes.byteLength },
    geolookupAnswers: (points: [number | string, number | string][]) =>
      points.map(([lat, lon]) => lookup(geo, lat, lon)),
  });
  return geo;
}

load().then(
  (geo) => {
    form.querySelector('button')!.disabled = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      // The inputs' text goes in as typed: the library validates decimal strings itself.
      const a = lookup(geo, $<HTMLInputElement>('lat').value, $<HTMLInputElement>('lon').value);
      answer.textContent = a.error
        ? `${a.error.name}: ${a.error.message}`
        : `${a.country ?? 'no country'} · ${a.subdivision ?? 'no subdivision'}`;
    });
    document.body.dataset.ready = 'true';
  },
  (err: unknown) => {
    status.textContent = `Could not load the dataset: ${String(err)}`;
    document.body.dataset.ready = 'error';
  },
);
