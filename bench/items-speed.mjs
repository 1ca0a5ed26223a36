// What `extractLineItems: false` saves, measured in one run on corpus files (ratios, medians).
//
// 1. Whole calls: verbose extraction of each file with line items on and off, alternating, several rounds,
//    warm engine. OCR dominates photos and scans, so the digital PDFs (text layer) show the saving best.
// 2. The field stage alone: extractFields on each file's Document (from engine.analyze) with and without
//    line items, many repetitions.
//
// Run: npm run build && node bench/items-speed.mjs [--corpus PATH] [--rounds 5] [--limit 20]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const corpus = path.resolve(opt('corpus', path.join(repoRoot, '../shared/corpus')));
const rounds = Number(opt('rounds', 5));
const limit = Number(opt('limit', 20));

const { createEngine } = await import(pathToFileURL(path.join(repoRoot, 'dist/index.js')).href);
const { extractFields } = await import(pathToFileURL(path.join(repoRoot, 'dist/extract/index.js')).href);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const pick = (ds, filter) => {
  const dir = path.join(corpus, ds, 'images');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(filter).sort().slice(0, limit).map((f) => path.join(dir, f));
};
const groups = {
  'invoices (PDF text layer)': pick('invoices', (f) => f.endsWith('.pdf')),
  'sroie (scans, OCR)': pick('sroie', () => true).slice(0, Math.min(limit, 10)),
};

const engine = await createEngine({});
const report = {};
for (const [name, files] of Object.entries(groups)) {
  if (!files.length) continue;
  const bufs = files.map((f) => fs.readFileSync(f));
  const docs = [];
  for (const b of bufs) docs.push((await engine.analyze(b, { extractLineItems: true, refresh: true, incognito: true })).document); // warm-up + Documents
  const on = [], off = [];
  for (let r = 0; r < rounds; r++) {
    for (const b of bufs) {
      const order = r % 2 ? [false, true] : [true, false];
      for (const withItems of order) {
        const t0 = performance.now();
        await engine.extract(b, { verbose: true, extractLineItems: withItems, refresh: true, incognito: true });
        (withItems ? on : off).push(performance.now() - t0);
      }
    }
  }
  const fOn = [], fOff = [];
  const reps = 20;
  for (let r = 0; r < reps; r++) {
    for (const d of docs) {
      for (const withItems of r % 2 ? [false, true] : [true, false]) {
        const t0 = performance.now();
        extractFields(d, { extractTime: false, extractLineItems: withItems });
        (withItems ? fOn : fOff).push(performance.now() - t0);
      }
    }
  }
  report[name] = {
    files: files.length,
    callMedianMs: { withItems: +median(on).toFixed(1), withoutItems: +median(off).toFixed(1), ratio: +(median(off) / median(on)).toFixed(3) },
    fieldStageMedianMs: { withItems: +median(fOn).toFixed(2), withoutItems: +median(fOff).toFixed(2), ratio: +(median(fOff) / median(fOn)).toFixed(3) },
  };
}
await engine.close();
console.log(JSON.stringify(report, null, 2));
