// Merchant-name matching for validation allow/block lists: the library's matcher (src/validate/names.ts)
// against fuse.js, measured on what OCR really reads.
//
// For every SROIE receipt, the merchant name the library read (from Documents saved by engine.analyze, or
// by running the engine) is matched against a list holding the labelled names of all receipts:
//   - hit:   it matches its own receipt's label (true positive rate over receipts whose read name is right
//            by the benchmark's rule);
//   - false: it matches the label of a *different* merchant (false positive rate over all pairs).
// Run: npm run build && node bench/names-match.mjs [--corpus PATH] [--docs DIR]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fuse from 'fuse.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const corpus = path.resolve(opt('corpus', path.join(repoRoot, '../shared/corpus')));
const docsDir = opt('docs');
const dist = (p) => import(pathToFileURL(path.join(repoRoot, 'dist', p)).href);
const { matchName, normalizeName } = await dist('validate/names.js');
const { nameMatches } = await import(pathToFileURL(path.join(repoRoot, 'bench/score.mjs')).href);

const ds = path.join(corpus, 'sroie');
const ids = fs.readdirSync(path.join(ds, 'labels')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const gold = new Map(ids.map((id) => [id, JSON.parse(fs.readFileSync(path.join(ds, 'labels', `${id}.json`), 'utf8')).merchantName]));

let read = new Map();
if (docsDir) {
  const { extractFields } = await dist('fields/index.js');
  for (const id of ids) {
    const p = path.join(docsDir, 'sroie', `${id}.json`);
    if (!fs.existsSync(p)) continue;
    const f = extractFields(JSON.parse(fs.readFileSync(p, 'utf8')), { extractTime: false, extractLineItems: false });
    if (f.merchantName) read.set(id, f.merchantName.value);
  }
} else {
  const { createEngine } = await dist('index.js');
  const engine = await createEngine({});
  const images = fs.readdirSync(path.join(ds, 'images'));
  for (const id of ids) {
    const img = images.find((f) => f.startsWith(id + '.'));
    if (!img) continue;
    const r = await engine.extract(fs.readFileSync(path.join(ds, 'images', img)), { incognito: true, refresh: true });
    if (r.merchantName.data) read.set(id, r.merchantName.data);
  }
  await engine.close();
}

// distinct merchants: labels that the benchmark's own rule would not call the same name
const labels = [...new Set(gold.values())];
const sameMerchant = (a, b) => nameMatches(a, b);

const matchers = {
  'receiptkit matchName (legal forms ignored, as merchant validation does)': (cand, entry) => matchName(cand, entry, { ignoreLegalForms: true }).matched,
  'fuse.js (threshold 0.4, default options)': (() => {
    const cache = new Map();
    return (cand, entry) => {
      let fuse = cache.get(entry);
      if (!fuse) { fuse = new Fuse([entry], { includeScore: true, threshold: 0.4, ignoreLocation: true }); cache.set(entry, fuse); }
      return fuse.search(cand).length > 0;
    };
  })(),
};
for (const threshold of [0.4, 0.3, 0.2, 0.1]) {
  const cache = new Map();
  matchers[`fuse.js (threshold ${threshold}, normalised names)`] = (cand, entry) => {
    let fuse = cache.get(entry);
    if (!fuse) { fuse = new Fuse([normalizeName(entry)], { includeScore: true, threshold, ignoreLocation: true }); cache.set(entry, fuse); }
    return fuse.search(normalizeName(cand)).length > 0;
  };
}

const out = {};
for (const [name, m] of Object.entries(matchers)) {
  let tp = 0, pos = 0, fp = 0, neg = 0;
  const t0 = performance.now();
  for (const [id, r] of read) {
    const g = gold.get(id);
    if (!nameMatches(r, g)) continue; // only receipts whose read name is right
    pos++;
    if (m(r, g)) tp++;
    for (const other of labels) {
      if (sameMerchant(other, g)) continue;
      neg++;
      if (m(r, other)) fp++;
    }
  }
  out[name] = { truePositiveRate: +(100 * tp / pos).toFixed(1) + '%', positives: pos, falsePositiveRate: +(100 * fp / neg).toFixed(2) + '%', falsePositives: fp, negatives: neg, ms: Math.round(performance.now() - t0) };
}
console.log(JSON.stringify(out, null, 2));
