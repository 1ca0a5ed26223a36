#!/usr/bin/env node
// Pool size experiment: pages per second with 1..N workers, all pages submitted at once.
// Sizes run alternately for several rounds (the machine is shared: load drifts), each pool warmed up
// first (worker start not counted). Reports the median wall time per size and RSS after the round.
//
// Usage: npm run build && node bench/ocr-pool-size.mjs [--sizes 1,2] [--rounds 2]
//          [--sample sroie:6,indo_receipts_phone:6] [--corpus ../shared/corpus] [--dist dist]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import { corpusDir, distModule, parseFlags, spreadSample } from './experiment.mjs';

const require = createRequire(import.meta.url);
const sharp = require('sharp');
const args = parseFlags();
const corpus = corpusDir(args);
const { OcrPool } = await distModule(args, 'ocr/pool.js');
const { readWholePage } = await distModule(args, 'read/whole-page.js');
const sizes = (args.sizes ?? '1,2').split(',').map(Number);
const rounds = Number(args.rounds ?? 2);

const pages = [];
for (const { file } of spreadSample(corpus, args.sample ?? 'sroie:6,indo_receipts_phone:6', 0.5)) {
  const image = fs.readFileSync(file);
  const m = await sharp(image).metadata();
  const turned = (m.orientation ?? 1) >= 5;
  pages.push({ kind: 'raster', index: 0, image, width: turned ? m.height : m.width, height: turned ? m.width : m.height, exifOrientation: m.orientation ?? 1 });
}

const times = Object.fromEntries(sizes.map((s) => [s, []]));
const rss = {};
for (let round = 0; round < rounds; round++) {
  for (const size of sizes) {
    const pool = new OcrPool({ size });
    await Promise.all(Array.from({ length: size }, () => readWholePage(pool, pages[0], { detectOrientation: false }))); // start every worker
    const t0 = performance.now();
    await Promise.all(pages.map((p) => readWholePage(pool, p)));
    times[size].push(performance.now() - t0);
    rss[size] = Math.round(process.memoryUsage().rss / 1e6);
    await pool.close();
    process.stderr.write('.');
  }
}
process.stderr.write('\n');
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor((s.length - 1) / 2)]; };
console.log(`${pages.length} pages, availableParallelism ${os.availableParallelism?.() ?? os.cpus().length}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| workers | wall s (median) | pages/s | vs 1 worker | RSS MB |');
console.log('|---|---|---|---|---|');
const base = median(times[sizes[0]]);
for (const s of sizes) {
  const t = median(times[s]);
  console.log(`| ${s} | ${(t / 1000).toFixed(1)} | ${(pages.length / (t / 1000)).toFixed(2)} | ${(base / t).toFixed(2)}x | ${rss[s]} |`);
}
