// The one loader of extensions, for every front end in Node (the CLI, batch, the server, the
// client). The rule (docs/EXTENDING.md): a package named @geolookup/* or geolookup-* installed
// where Node would find a package from the working directory or from the main script's folder
// (an app's node_modules, or the global one beside the geolookup command), whose package.json has
// `"geolookup": { "extension": "<its descriptor, CommonJS>" }`; and each descriptor file
// $GEOLOOKUP_EXTENSIONS lists (path.delimiter between them), for one not installed that way.

import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { GeoLookup } from '../lookup/engine.js';
import { checkExtension, type Extension, type OpenedExtension } from './extension.js';

export const EXTENSIONS_ENV = 'GEOLOOKUP_EXTENSIONS';

interface Found {
  extension: Extension;
  /** Requires the package's Node entry: open's context.entry. */
  entry: () => Record<string, unknown>;
}

let cache: { key: string; found: readonly Found[] } | null = null;

/**
 * The extensions installed, by name, each once (the nearest install wins, as Node resolves). Read
 * once per process and $GEOLOOKUP_EXTENSIONS value: about 1 ms with none installed.
 */
export function findExtensions(): readonly Extension[] {
  return found().map((f) => f.extension);
}

/**
 * What answers `extension`'s operations over `geo` (Extension.open), its package's Node entry
 * required from where the loader found it, else from the working directory (one passed by hand).
 */
export function openExtension(extension: Extension, geo: GeoLookup, embedded: boolean): OpenedExtension {
  const f = found().find((x) => x.extension.name === extension.name);
  const entry =
    f?.entry ?? (() => createRequire(join(process.cwd(), 'x.js'))(extension.name) as Record<string, unknown>);
  return extension.open({ geo, embedded, entry });
}

function found(): readonly Found[] {
  const key = process.env[EXTENSIONS_ENV] ?? '';
  if (cache?.key !== key) cache = { key, found: discover(key) };
  return cache.found;
}

function discover(listed: string): Found[] {
  const byName = new Map<string, Found>();
  const add = (f: Found) => {
    if (!byName.has(f.extension.name)) byName.set(f.extension.name, f);
  };
  for (const file of listed.split(delimiter).filter(Boolean)) add(fromFile(resolve(file)));
  for (const dir of searched())
    for (const pkg of candidates(dir)) {
      const descriptor = declared(pkg);
      if (descriptor !== null) add(fromFile(descriptor));
    }
  return [...byName.values()].sort((a, b) => (a.extension.name < b.extension.name ? -1 : 1));
}

/** The node_modules folders, nearest first: from the working directory, then the main script's. */
function searched(): string[] {
  // A worker started from code has '[worker eval]' there: only a real path counts.
  const main = process.argv[1] && isAbsolute(process.argv[1]) ? realOrSelf(process.argv[1]) : null;
  const from = [join(process.cwd(), 'x.js'), ...(main ? [main] : [])];
  return [...new Set(from.flatMap((f) => createRequire(f).resolve.paths('x') ?? []))];
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The package folders under a node_modules folder that the rule looks at. */
function candidates(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const scoped = join(nodeModules, '@geolookup');
  return [
    ...(existsSync(scoped) ? readdirSync(scoped).map((n) => join(scoped, n)) : []),
    ...readdirSync(nodeModules)
      .filter((n) => n.startsWith('geolookup-'))
      .map((n) => join(nodeModules, n)),
  ];
}

/** The descriptor path a package's package.json declares, or null (not an extension). */
function declared(pkg: string): string | null {
  let json: { geolookup?: { extension?: unknown } };
  try {
    json = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  } catch {
    return null; // not a package (a stray folder): nothing declared
  }
  const file = json.geolookup?.extension;
  if (file === undefined) return null;
  if (typeof file !== 'string') throw new TypeError(`${pkg}/package.json: geolookup.extension must be a path`);
  return join(pkg, file);
}

/** The descriptor at `file`; its package's entry is required by name from there (self-reference in a package). */
function fromFile(file: string): Found {
  const require = createRequire(file);
  const mod = require(file) as { default?: unknown; extension?: unknown };
  const extension = checkExtension(mod.extension ?? mod.default ?? mod, file);
  return { extension, entry: () => require(extension.name) as Record<string, unknown> };
}

/** For tests: forget what was found (a package installed or removed since). */
export function forgetExtensions(): void {
  cache = null;
}
