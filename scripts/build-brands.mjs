#!/usr/bin/env node
// Builds models/brands.json: a compact list of retail, food and fuel brands by country, derived from
// OpenStreetMap's name-suggestion-index (npm `name-suggestion-index`, BSD-3-Clause,
// https://github.com/osmlab/name-suggestion-index). The package itself (~60 MB) is not a dependency:
// install it anywhere (`npm install --no-save name-suggestion-index` in a scratch folder) and pass its folder:
//   node scripts/build-brands.mjs [path/to/node_modules/name-suggestion-index]
// Kept: brands of shops (`brands/shop/*`) and of restaurants, fast food, cafes, bars, pubs, fuel stations,
// pharmacies, car washes and ice-cream parlours; Latin-script names of 3+ letters; the countries of each
// brand's locationSet (`001` = worldwide). Nothing here is taken from the receipts the library is tested on.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const here = path.dirname(new URL(import.meta.url).pathname);
const arg = process.argv[2];
const pkgDir = arg ?? path.dirname(createRequire(import.meta.url).resolve('name-suggestion-index/package.json'));
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const nsi = JSON.parse(fs.readFileSync(path.join(pkgDir, 'dist/json/nsi.min.json'), 'utf8')).nsi;

const AMENITIES = new Set(['restaurant', 'fast_food', 'cafe', 'bar', 'pub', 'fuel', 'pharmacy', 'car_wash', 'ice_cream']);
const keep = (k) => k.startsWith('brands/shop/') || (k.startsWith('brands/amenity/') && AMENITIES.has(k.split('/')[2]));
/** Latin letters (with accents), digits and the usual punctuation of names; at least 3 letters. */
const latin = (s) => /^[\p{Script=Latin}\d\s&'’.\-+!,/()]+$/u.test(s) && (s.match(/\p{L}/gu) ?? []).length >= 3;

const byName = new Map();
for (const [key, cat] of Object.entries(nsi)) {
  if (!keep(key)) continue;
  for (const it of cat.items ?? []) {
    const name = (it.tags?.brand ?? it.displayName ?? '').trim();
    if (!name || !latin(name)) continue;
    const countries = (it.locationSet?.include ?? []).filter((c) => typeof c === 'string' && /^(?:[a-z]{2}|001)$/.test(c));
    const alts = (it.matchNames ?? []).filter((m) => latin(m) && m.length <= 40);
    const k = name.toLowerCase();
    const e = byName.get(k) ?? { name, countries: new Set(), alts: new Set() };
    for (const c of countries) e.countries.add(c);
    for (const a of alts) if (a.toLowerCase() !== k) e.alts.add(a);
    byName.set(k, e);
  }
}
const brands = [...byName.values()]
  .map((e) => [e.name, [...e.countries].sort().join(' '), ...[...e.alts].slice(0, 6)])
  .sort((a, b) => a[0].localeCompare(b[0]));
const out = {
  source: `name-suggestion-index ${pkg.version} (OpenStreetMap, BSD-3-Clause), built by scripts/build-brands.mjs`,
  format: '[brand, space-separated ISO country codes ("001" = worldwide), ...other names it goes by]',
  brands,
};
const file = path.join(here, '..', 'models', 'brands.json');
fs.writeFileSync(file, JSON.stringify(out).replace(/\],\[/g, '],\n['));
console.log(`${brands.length} brands -> ${file} (${(fs.statSync(file).size / 1024).toFixed(0)} KB)`);
