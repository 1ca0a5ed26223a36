#!/usr/bin/env node
// RSS over a long run of the built library (dist/) in ONE process: the same small receipts extracted
// again and again (OCR with both readers each time), RSS sampled every --sample calls.
//
//   node bench/memory.mjs [--n 2000] [--sample 50] [--json FILE] [--store]
//
// Printed: calls, time, RSS start/median/max/end, and the medians of the first and last quarter of the
// samples (growth without bound shows as a last quarter well above the first). Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : def; };
const N = Number(flag('n', 2000));
const SAMPLE = Number(flag('sample', 50));
const JSON_OUT = flag('json', '');
const STORE = args.includes('--store');
const { createEngine } = await import(pathToFileURL(path.join(root, 'dist', 'index.js')).href);

const inputs = [];
for (const f of ['receipt-en-simple.png', 'receipt-eu.png', 'receipt-us.jpg']) {
  inputs.push(await sharp(fs.readFileSync(path.join(root, 'fixtures', f))).resize({ width: 200 }).png().toBuffer());
}
inputs.push(fs.readFileSync(path.join(root, 'fixtures', 'invoice.pdf')));
const engine = await createEngine({ workers: 1, confirmPasses: 0 });
const rss = () => Math.round(process.memoryUsage().rss / 1048576);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)] ?? 0; };
const samples = [rss()];
let failed = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  // refresh: the results cache of the engine must not answer repeated files; incognito: nothing is
  // kept in the (in-memory) store, whose growth is by design (--store keeps every reading there)
  try { await engine.extract(inputs[i % inputs.length], { refresh: true, incognito: !STORE }); } catch { failed++; }
  if ((i + 1) % SAMPLE === 0) {
    samples.push(rss());
    const m = process.memoryUsage();
    console.error(`[memory] ${i + 1}/${N} ${Math.round((performance.now() - t0) / 1000)} s rss ${samples.at(-1)} MB heap ${Math.round(m.heapUsed / 1048576)} external ${Math.round(m.external / 1048576)} MB`);
  }
}
await engine.close();
const q = Math.max(1, Math.floor(samples.length / 4));
const report = {
  calls: N, failed, seconds: Math.round((performance.now() - t0) / 1000),
  rssMB: { start: samples[0], median: median(samples), max: Math.max(...samples), end: samples.at(-1) },
  firstQuarterMedian: median(samples.slice(1, 1 + q)), lastQuarterMedian: median(samples.slice(-q)),
};
console.log(JSON.stringify(report, null, 2));
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ ...report, samples }, null, 2));
