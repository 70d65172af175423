// The browser entry has no Node built-ins: the page fetches a dataset file served next to it
// and hands the bytes over. Lite (simplified borders, a few MB) by default; ?data=world for full.
import { createGeoLookup, GeoLookupError, type GeoLookup } from 'geolookup/browser';

const DATASETS = { lite: 'world-lite.geolookup', world: 'world.geolookup' } as const;
type Dataset = keyof typeof DATASETS;

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

/** Load timings, for scripted checks and the devtools console. */
export interface Timings {
  dataset: Dataset;
  fetchMs: number;
  openMs: number;
  /** The first lookup after opening (one tryCountryFromGps at a fixed point). */
  firstAnswerMs: number;
  bytes: number;
}

/** The dataset the query names: none → lite, data=world → full; anything else is refused. */
function chosenDataset(): Dataset {
  const asked = new URLSearchParams(location.search).get('data');
  if (asked === null) return 'lite';
  // A fixed choice, never a URL from the query: the page fetches only its own two files.
  if (asked === 'world') return 'world';
  throw new Error(`unknown dataset ${JSON.stringify(asked)}: leave data= out for lite, or use ?data=world`);
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
  const dataset = chosenDataset();
  const url = new URL(DATASETS[dataset], document.baseURI).href;
  const started = performance.now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const fetched = performance.now();
  const geo = createGeoLookup(bytes);
  const ready = performance.now();
  geo.tryCountryFromGps(48.8566, 2.3522);
  const answered = performance.now();
  const timings: Timings = {
    dataset,
    fetchMs: fetched - started,
    openMs: ready - fetched,
    firstAnswerMs: answered - ready,
    bytes: bytes.byteLength,
  };
  const mb = (bytes.byteLength / 1e6).toFixed(1);
  status.textContent =
    `Dataset ${dataset} (${DATASETS[dataset]}, ${mb} MB): fetched in ${Math.round(timings.fetchMs)} ms, ` +
    `ready in ${Math.round(timings.openMs)} ms, first answer in ${timings.firstAnswerMs.toFixed(1)} ms.`;
  Object.assign(window, {
    geolookupTimings: timings,
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
