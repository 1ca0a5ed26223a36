#!/usr/bin/env node
// PaddleOCR's recogniser fed one strip at a time against batches of strips by width (ocr/paddle.ts,
// REC_BATCH), and its thread count: the same working images read by each setting, alternating per page,
// one process. Reports per setting the median and total time per page and how many pages read the
// same words (text and order) as the first setting.
//
//   npm run build && node bench/paddle-batch.mjs [--sample sroie:20,us_uk_eu_receipts:10] [--corpus PATH]
//        [--settings JSON] [--out FILE]
// --settings: a JSON array of { name, threads?, batching?: { size, widthRatio } }; the first is the baseline.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, d) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : d; };
const corpus = path.resolve(opt('corpus', path.join(here, '../../shared/corpus')));
const sampleSpec = opt('sample', 'sroie:20,us_uk_eu_receipts:10');
const settings = JSON.parse(opt('settings', JSON.stringify([
  { name: 'one by one', batching: { size: 1, widthRatio: 1 } },
  { name: 'batch 8, widths within 10%', batching: { size: 8, widthRatio: 1.1 } },
])));
const dist = path.join(here, '../dist');
const { PaddleReader } = await import(path.join(dist, 'ocr/paddle.js'));
const { loadWorkingImage } = await import(path.join(dist, 'ocr/preprocess.js'));
const { loadInput } = await import(path.join(dist, 'input/index.js'));

/** Files of a dataset: its images, in name order, every k-th to take n spread over the set. */
function sample(ds, n) {
  const dir = path.join(corpus, ds);
  const files = fs.readdirSync(dir, { recursive: true }).map(String)
    .filter((f) => /\.(jpe?g|png|tiff?|webp)$/i.test(f)).sort();
  const step = Math.max(1, Math.floor(files.length / n));
  return files.filter((_, i) => i % step === 0).slice(0, n).map((f) => ({ ds, file: path.join(dir, f) }));
}
const items = sampleSpec.split(',').flatMap((s) => { const [ds, n] = s.split(':'); return sample(ds, Number(n ?? 10)); });
const readers = settings.map((s) => new PaddleReader({ threads: s.threads, batching: s.batching }));
const rows = [];
const median = (xs) => { const a = [...xs].sort((x, y) => x - y); return a.length ? a[(a.length - 1) >> 1] : 0; };
try {
  for (const r of readers) await r.read({ gray: Buffer.alloc(64 * 64, 255), width: 64, height: 64 }); // models loaded before timing
  for (const [n, item] of items.entries()) {
    const input = await loadInput(item.file);
    const page = input.pages[0];
    const work = await loadWorkingImage(page);
    const img = { gray: work.gray, width: work.width, height: work.height };
    const row = { ds: item.ds, file: path.basename(item.file), ms: [], texts: [] };
    // the order of the settings turns from page to page (the machine's load drifts)
    const turn = settings.map((_, i) => (i + n) % settings.length);
    for (const i of turn) {
      const t0 = performance.now(), c0 = process.cpuUsage();
      const words = await readers[i].read(img);
      row.ms[i] = performance.now() - t0;
      const c = process.cpuUsage(c0);
      (row.cpuMs ??= [])[i] = (c.user + c.system) / 1000;
      row.texts[i] = words.map((w) => w.text).join(' ');
    }
    rows.push(row);
    process.stderr.write(`${n + 1}/${items.length} ${item.ds}/${row.file} ${row.ms.map((m) => Math.round(m)).join(' / ')} ms (CPU ${row.cpuMs.map((m) => Math.round(m)).join(' / ')})\n`);
  }
} finally {
  await Promise.all(readers.map((r) => r.close()));
}
const report = settings.map((s, i) => {
  const ms = rows.map((r) => r.ms[i]);
  const cpu = rows.map((r) => r.cpuMs[i]);
  const same = rows.filter((r) => r.texts[i] === r.texts[0]).length;
  const ratio = median(rows.map((r) => r.ms[i] / r.ms[0]));
  const words = rows.reduce((a, r) => a + r.texts[i].split(' ').length, 0);
  const wordsSame = rows.reduce((a, r) => { const A = r.texts[0].split(' '), B = new Set(r.texts[i].split(' ')); return a + A.filter((w) => B.has(w)).length; }, 0);
  return { ...s, p50Ms: Math.round(median(ms)), totalMs: Math.round(ms.reduce((a, b) => a + b, 0)), cpuP50Ms: Math.round(median(cpu)), cpuTotalMs: Math.round(cpu.reduce((a, b) => a + b, 0)), medianRatio: +ratio.toFixed(3), pagesSameText: same, words, wordsOfBaselineFound: wordsSame };
});
for (const r of report) console.log(`${r.name}: p50 ${r.p50Ms} ms, total ${r.totalMs} ms, CPU p50 ${r.cpuP50Ms} ms, CPU total ${r.cpuTotalMs} ms, median ratio to first ${r.medianRatio}, same text on ${r.pagesSameText}/${rows.length} pages, ${r.wordsOfBaselineFound}/${rows.reduce((a, x) => a + x.texts[0].split(' ').length, 0)} baseline words found`);
const out = opt('out');
if (out) fs.writeFileSync(out, JSON.stringify({ when: new Date().toISOString(), sample: sampleSpec, settings: report, rows }, null, 1));
