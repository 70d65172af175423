// The files of the page: its HTML and CSS (here), its script (client/app.ts bundled) and MapLibre's
// own files, resolved from the installed maplibre-gl package, so the page needs nothing from the network.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientBuildOptions } from './client-build.js';

export interface Asset {
  type: string;
  body: Buffer | string;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>geolookup playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/playground/maplibre/maplibre-gl.css">
<link rel="stylesheet" href="/playground/style.css">
<script type="module" src="/playground/app.js"></script>
</head>
<body>
<aside>
<h1>geolookup playground</h1>
<form id="go"><input id="point" placeholder="lat, lon" aria-label="latitude, longitude" autocomplete="off" spellcheck="false"><button>Look up</button></form>
<p class="hint">Click the map, or open <code>#lat,lon[,zoom]</code>.</p>
<dl id="answer" aria-live="polite"></dl>
<p id="rule" hidden></p>
<p id="status"></p>
</aside>
<main id="map"></main>
</body>
</html>
`;

const STYLE = `html, body { height: 100%; margin: 0; }
body { display: grid; grid-template-columns: 22rem 1fr; font: 14px/1.4 system-ui, sans-serif; color: #1d2733; }
aside { padding: 0.75rem 1rem; overflow: auto; border-right: 1px solid #c9d2dc; background: #f7f9fb; }
h1 { font-size: 1.1rem; margin: 0 0 0.75rem; }
form { display: flex; gap: 0.4rem; }
input { flex: 1; font: inherit; padding: 0.3rem 0.4rem; }
button { font: inherit; padding: 0.3rem 0.6rem; }
.hint { color: #5b6875; font-size: 0.85rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.35rem 0.75rem; margin: 1rem 0; }
dt { color: #5b6875; }
dd { margin: 0; }
code { font: 600 0.95em ui-monospace, monospace; }
.chain span + span::before { content: " › "; color: #8a96a3; }
.problem { color: #a33a1f; }
.none { color: #5b6875; }
#rule { border-left: 3px solid #d9822b; padding-left: 0.5rem; }
#status { color: #5b6875; font-size: 0.85rem; }
#map { height: 100%; background: #cfe3f1; }
`;

/** Where a file of the package is: beside the bundle (dist) or under src/ when run from the sources. */
const here: string | undefined = import.meta.url;
const fromSources = here?.endsWith('.ts') === true;

function packagePath(...parts: string[]): string {
  return here ? fileURLToPath(new URL(parts.join('/'), here)) : join(__dirname, ...parts);
}

let maplibreDir: string | undefined;
const cached = new Map<string, Asset>();
let script: Promise<string> | undefined;

/** MapLibre's files the page may ask for: its module, the module its workers run, its stylesheet. */
const MAPLIBRE_FILES: Record<string, string> = {
  'maplibre-gl.mjs': JS,
  'maplibre-gl-worker.mjs': JS,
  'maplibre-gl.css': CSS,
};

function maplibreFile(name: string): Asset | null {
  const type = MAPLIBRE_FILES[name];
  if (type === undefined) return null;
  maplibreDir ??= dirname(createRequire(here ?? __filename).resolve('maplibre-gl/package.json'));
  return { type, body: readFileSync(join(maplibreDir, 'dist', name)) };
}

/** The page's script: bundled by the build, or now from client/app.ts when run from the sources. */
async function appScript(): Promise<string> {
  if (!fromSources) return readFileSync(packagePath('playground', 'app.js'), 'utf8');
  const { build } = await import('esbuild');
  const entry = packagePath('client', 'app.ts');
  const result = await build({ ...clientBuildOptions(entry), write: false });
  return result.outputFiles[0].text;
}

/** The asset at a path under /playground/ (or '' for the page), or null when there is none. */
export async function asset(path: string): Promise<Asset | null> {
  if (path === '') return { type: 'text/html; charset=utf-8', body: PAGE };
  if (path === 'style.css') return { type: CSS, body: STYLE };
  if (path === 'app.js') return { type: JS, body: await (script ??= appScript()) };
  if (!path.startsWith('maplibre/')) return null;
  let a = cached.get(path);
  if (a === undefined) {
    const file = maplibreFile(path.slice('maplibre/'.length));
    if (file === null) return null;
    cached.set(path, (a = file));
  }
  return a;
}
