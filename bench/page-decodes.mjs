#!/usr/bin/env node
// Every decode of one raster page in a thorough verbose extraction, timed, for two builds: the input
// probe, the paper finder's copy (when the build has one), the working images of each scale the reading
// asks for (2000 px enhanced for tesseract, plain for PaddleOCR, 4000 px for line re-reads, the 2800 and
// 1500 px confirming passes), the fraud checks' grey raster and colour sample, the similarity copy.
// Each step on a fresh page object (no cache from the other build), builds alternating, median of
// --rounds (default 3).
//
//   npm run build && node bench/page-decodes.mjs IMAGE [--old .old-dist] [--rounds 3]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { BENCH_DIR, parseFlags } from './experiment.mjs';

const flags = parseFlags();
const file = process.argv[2];
if (!file || file.startsWith('--')) { process.stderr.write('usage: node bench/page-decodes.mjs IMAGE [--old DIR] [--rounds N]\n'); process.exit(2); }
const rounds = Number(flags.rounds ?? 3);
const load = async (dir) => {
  const mod = (p) => import(pathToFileURL(path.join(dir, p)).href).catch(() => undefined);
  return { pre: await mod('ocr/preprocess.js'), fraud: await mod('fraud/raster.js'), sim: await mod('similarity/image.js'), paper: await mod('ocr/paper.js') };
};
const builds = { old: await load(path.resolve(flags.old ?? path.join(BENCH_DIR, '../.old-dist'))), new: await load(path.join(BENCH_DIR, '../dist')) };
const page0 = async () => {
  const b = fs.readFileSync(file); const m = await sharp(b).metadata(); const t = (m.orientation ?? 1) >= 5;
  return { kind: 'raster', index: 0, image: Buffer.from(b), width: t ? m.height : m.width, height: t ? m.width : m.height, exifOrientation: m.orientation ?? 1 };
};
const frameOf = async (M, p) => (M.paper?.paperFrameFound ? M.paper.paperFrameFound(p) : undefined);
const steps = (M) => [
  ['input probe (64 px)', (p) => sharp(p.image, { failOn: 'truncated' }).resize({ width: 64, height: 64, fit: 'inside' }).raw().toBuffer()],
  ...(M.paper ? [['paper finder: 640 px copy + search', async (p) => M.paper.findPaper(await M.paper.paperAnalysisCopy(p))]] : []),
  ['working 2000 enhanced (tesseract)', (p) => M.pre.loadWorkingImage(p)],
  ['working 2000 plain (PaddleOCR)', (p) => M.pre.loadWorkingImage(p, undefined, false)],
  ['working 4000 enhanced (line re-reads)', (p) => M.pre.loadWorkingImage(p, { maxLongSide: 4000, minLongSide: 0, maxUpscale: 1 }, true)],
  ['working 2800 pass', (p) => M.pre.loadWorkingImage(p, { maxLongSide: 2800, minLongSide: 2800, maxUpscale: 2 }, true)],
  ['working 1500 pass', (p) => M.pre.loadWorkingImage(p, { maxLongSide: 1500, minLongSide: 1500, maxUpscale: 2 }, true)],
  ['fraud grey raster', async (p) => M.fraud.loadRaster(p, 0, undefined, await frameOf(M, p))],
  ['fraud colour sample', async (p) => M.fraud.loadColorSample(p, 0, undefined, await frameOf(M, p))],
  ['similarity copy (800 px) + signature', async (p) => M.sim.imageSignature([p], 0, undefined, await frameOf(M, p))],
];
const times = { old: {}, new: {} };
for (let r = 0; r < rounds; r++) {
  for (const which of ['old', 'new']) {
    const p = await page0();
    for (const [name, fn] of steps(builds[which])) {
      const t0 = performance.now(); await fn(p); (times[which][name] ??= []).push(performance.now() - t0);
    }
  }
}
const med = (xs) => (xs ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : 0);
const names = [...new Set([...Object.keys(times.new), ...Object.keys(times.old)])];
let so = 0, sn = 0;
const ms = (v) => String(Math.round(v)).padStart(6);
for (const n of names) { const o = med(times.old[n]), nw = med(times.new[n]); so += o; sn += nw; console.log(`${n.padEnd(40)} old ${ms(o)} ms   new ${ms(nw)} ms`); }
console.log(`${'sum'.padEnd(40)} old ${ms(so)} ms   new ${ms(sn)} ms`);
