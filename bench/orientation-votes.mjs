#!/usr/bin/env node
// The text direction votes (no OCR reading: geometry and the text detector only) on corpus pages as they
// are and turned 90/180/270° in memory: ocr/orientation.ts textDirection (connected components of the
// enhanced working image, what the first reading used up to issue 33) and textAxis (PaddleOCR's detected
// text lines on the plain working image). Prints, per dataset and turn, how many pages each vote puts on
// the expected axis, and lists the pages where a vote on the page as it is says vertical.
//
//   npm run build && node bench/orientation-votes.mjs [--dataset a,b] [--limit N] [--turns 0,90] [--dist DIR] [--json FILE]
//
// The pages of a set are taken as upright (the expected axis of a page turned 90/270 is vertical); a page
// photographed sideways shows as a vote for vertical at turn 0 (listed: look at it).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { corpusDir, distModule, parseFlags } from './experiment.mjs';

const flags = parseFlags();
const corpus = corpusDir(flags);
const pre = await distModule(flags, 'ocr/preprocess.js');
const ori = await distModule(flags, 'ocr/orientation.js');
const { PaddleReader } = await distModule(flags, 'ocr/paddle.js');
const paddle = new PaddleReader({ threads: 1 });
const datasets = (flags.dataset ?? 'us_uk_eu_receipts,wildreceipt_world,vn_receipts_phone').split(',');
const turns = (flags.turns ?? '0,90,180,270').split(',').map(Number);
const limit = flags.limit ? Number(flags.limit) : Infinity;
const rows = [];
for (const ds of datasets) {
  const dir = path.join(corpus, ds, 'images');
  const files = fs.readdirSync(dir).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).sort().slice(0, limit);
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dir, f));
    const meta = await sharp(bytes).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const page = { kind: 'raster', index: 0, image: bytes, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height, exifOrientation: meta.orientation ?? 1 };
    const enhanced = await pre.loadWorkingImage(page, pre.DEFAULT_SCALING, true);
    const plain = await pre.loadWorkingImage(page, pre.DEFAULT_SCALING, false);
    for (const turn of turns) {
      const t0 = performance.now();
      const dir0 = ori.textDirection(await pre.analysisCopy({ ...enhanced, ...pre.rotateGray(enhanced, turn) }, ori.AXIS_ANALYSIS_LONG_SIDE));
      const t1 = performance.now();
      const lines = await paddle.textLines(pre.rotateGray(plain, turn));
      const axis = ori.textAxis(lines);
      const t2 = performance.now();
      // the classifier on the page turned to the detector's axis: the rotation it would read the page at
      const base = ori.textIsVertical(dir0, axis) ? 90 : 0;
      const cls = await paddle.upsideDown(pre.rotateGray(pre.rotateGray(plain, turn), base));
      const t3 = performance.now();
      rows.push({ ds, id: f.replace(/\.[^.]+$/, ''), turn, geometry: +dir0.score.toFixed(2), detector: +axis.score.toFixed(2), lines: axis.lines, charSize: dir0.charSize, clsRotation: (base + (cls.flip ? 180 : 0)) % 360, clsConfidence: cls.confidence, msGeometry: Math.round(t1 - t0), msDetector: Math.round(t2 - t1), msCls: Math.round(t3 - t2) });
    }
    process.stderr.write('.');
  }
}
await paddle.close();
process.stderr.write('\n');
for (const ds of datasets) {
  for (const turn of turns) {
    const r = rows.filter((x) => x.ds === ds && x.turn === turn);
    const want = turn % 180 ? -1 : 1;
    const ok = (s) => r.filter((x) => Math.sign(x[s]) === want).length;
    const med = (k) => { const v = r.map((x) => x[k]).sort((a, b) => a - b); return v[v.length >> 1]; };
    const back = (360 - turn) % 360;
    const clsOk = r.filter((x) => x.clsRotation === back).length, clsSure = r.filter((x) => x.clsConfidence >= 0.8), clsSureOk = clsSure.filter((x) => x.clsRotation === back).length;
    console.log(`${ds} turn ${turn}: geometry ${ok('geometry')}/${r.length}, detector ${ok('detector')}/${r.length}, classifier rotation ${clsOk}/${r.length} (at >= 0.8: ${clsSureOk}/${clsSure.length})  (ms p50 ${med('msGeometry')} / ${med('msDetector')} / ${med('msCls')})`);
  }
  for (const x of rows.filter((y) => y.ds === ds && y.turn === 0 && (y.geometry < 0 || y.detector < 0))) console.log(`  at turn 0 voted vertical: ${x.id} geometry ${x.geometry} detector ${x.detector} (${x.lines} lines)`);
}
if (flags.json) fs.writeFileSync(flags.json, JSON.stringify(rows, null, 0).replace(/\},\{/g, '},\n{'));
