// The seam between packages (docs/EXTENDING.md): no source imports across a package boundary by a
// relative path (products import geolookup, geolookup/browser or geolookup/extend by name), and the
// core's sources name no extension package.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = readdirSync(join(ROOT, 'packages')).map((p) => join(ROOT, 'packages', p));
/** The sources each package ships or builds from (tests share test/support, and may reach it). */
const SOURCE_DIRS = [
  join(ROOT, 'src'),
  join(ROOT, 'build-data'),
  ...PACKAGES.flatMap((p) => [join(p, 'src'), join(p, 'build-data')]),
];

function files(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const path = join(dir, n);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|mts|cts|js|mjs|cjs)$/.test(n) ? [path] : [];
  });
}

/** The package a file belongs to: its folder under packages/, else the root (the core). */
const packageOf = (file: string) => PACKAGES.find((p) => file.startsWith(p + sep)) ?? ROOT;

/** Every module specifier of a file: import/export … from '…', import('…'), require('…'). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm))
    found.push(m[1]);
  return found;
}

const sources = [...SOURCE_DIRS.flatMap(files), ...PACKAGES.map((p) => join(p, 'tsup.config.ts'))];

describe('package boundaries', () => {
  it('no relative import leaves its package', () => {
    const crossings: string[] = [];
    for (const file of sources) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const spec of specifiers(text).filter((s) => s.startsWith('.'))) {
        const target = resolve(dirname(file), spec);
        if (packageOf(target) !== packageOf(file)) crossings.push(`${relative(ROOT, file)} → ${spec}`);
      }
    }
    expect(sources.length).toBeGreaterThan(200);
    expect(crossings).toEqual([]);
  });

  it("the core's sources name no extension package", () => {
    const extensions = PACKAGES.filter((p) => {
      const pkg = JSON.parse(readFileSync(join(p, 'package.json'), 'utf8'));
      return pkg.geolookup?.extension !== undefined;
    }).map((p) => JSON.parse(readFileSync(join(p, 'package.json'), 'utf8')).name as string);
    expect(extensions.sort()).toEqual(['@geolookup/borders', '@geolookup/timezones']);
    const naming = files(join(ROOT, 'src')).filter((f) =>
      extensions.some((name) => readFileSync(f, 'utf8').includes(name)),
    );
    expect(naming.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("the server's modules import each other in no circle, type imports counted", () => {
    const dir = join(ROOT, 'packages', 'server', 'src');
    const all = files(dir).filter((f) => f.endsWith('.ts'));
    const edges = new Map(
      all.map((f) => [
        f,
        specifiers(readFileSync(f, 'utf8'))
          .filter((s) => s.startsWith('.'))
          .map((s) => resolve(dirname(f), s.replace(/\.js$/, '.ts')))
          .filter((t) => all.includes(t)),
      ]),
    );
    // Depth-first search for a back edge: a file reached again while still on the path.
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (f: string, path: string[]) => {
      state.set(f, 'open');
      for (const t of edges.get(f) ?? []) {
        if (state.get(t) === 'open') circles.push([...path, f, t].map((x) => relative(dir, x)).join(' → '));
        else if (!state.has(t)) visit(t, [...path, f]);
      }
      state.set(f, 'done');
    };
    for (const f of all) if (!state.has(f)) visit(f, []);
    expect(all.length).toBeGreaterThan(40);
    expect(circles).toEqual([]);
  });
});
