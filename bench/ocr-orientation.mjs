#!/usr/bin/env node
// Orientation experiment: accuracy and cost of OcrPool's orientation detection.
//
// Every sampled corpus image (made upright by its EXIF tag; all corpus images are upright then) is turned
// by 0/90/180/270° clockwise in memory and OCR'd with detection on; the expected answer is the turn back.
// Cost on upright pages = time with detection / time without, on the same page in the same run.
//
// Usage: npm run build && node bench/ocr-orientation.mjs [--corpus ../shared/corpus]
//          [--sample indo_receipts_phone:12,sroie:12,invoices:4] [--dist dist] [--json out.json]
// Reads the corpus in place; never copies corpus files.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { corpusDir, distModule, parseFlags, spreadSample } from './experiment.mjs';

const require = createRequire(import.meta.url);
const sharp = require('sharp');
const args = parseFlags();
const corpus = corpusDir(args);
const { OcrPool } = await distModule(args, 'ocr/pool.js');
const { readWholePage } = await distModule(args, 'read/whole-page.js');
const sampleSpec = args.sample ?? 'indo_receipts_phone:12,sroie:12,invoices:4';

async function page(file, turn) {
  const image = await sharp(file).rotate().rotate(turn).jpeg({ quality: 92 }).toBuffer();
  const m = await sharp(image).metadata();
  return { kind: 'raster', index: 0, image, width: m.width, height: m.height, exifOrientation: 1 };
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const pool = new OcrPool({ size: 1 });
const rows = [];
for (const it of spreadSample(corpus, sampleSpec, 0.5).map((x) => ({ ...x, id: x.name }))) {
  const upright = await page(it.file, 0);
  await readWholePage(pool, upright, { detectOrientation: false }); // warm-up for this image's size class
  const plain = await readWholePage(pool, upright, { detectOrientation: false });
  for (const turn of [0, 90, 180, 270]) {
    const p = turn === 0 ? upright : await page(it.file, turn);
    const r = await readWholePage(pool, p, { detectOrientation: true });
    const expected = (360 - turn) % 360;
    rows.push({ ds: it.ds, id: it.id, turn, expected, got: r.rotation, conf: r.orientationConfidence, evidence: r.orientationEvidence, ms: r.ms, plainMs: plain.ms });
  }
  process.stderr.write('.');
}
process.stderr.write('\n');
await pool.close();

console.log('| dataset | turn | n | correct | median ms | median ms, detection off (upright) |');
console.log('|---|---|---|---|---|---|');
for (const ds of [...new Set(rows.map((r) => r.ds)), 'all']) {
  for (const turn of [0, 90, 180, 270]) {
    const rs = rows.filter((r) => (ds === 'all' || r.ds === ds) && r.turn === turn);
    console.log(`| ${ds} | ${turn} | ${rs.length} | ${rs.filter((r) => r.got === r.expected).length} | ${Math.round(median(rs.map((r) => r.ms)))} | ${Math.round(median(rs.map((r) => r.plainMs)))} |`);
  }
}
const up = rows.filter((r) => r.turn === 0);
const passes = (rs) => [1, 2, 3].map((n) => rs.filter((r) => r.evidence?.passes === n).length).join('/');
console.log(`\nOCR passes (1/2/3) on upright pages: ${passes(rows.filter((r) => r.turn === 0))}; on turned pages: ${passes(rows.filter((r) => r.turn !== 0))}`);
console.log(`upright pages: median cost ratio (detection on / off) = ${median(up.map((r) => r.ms / r.plainMs)).toFixed(3)}, mean = ${(up.reduce((s, r) => s + r.ms / r.plainMs, 0) / up.length).toFixed(3)}`);
for (const r of rows.filter((x) => x.got !== x.expected)) console.log(`wrong: ${r.id} turned ${r.turn}: got ${r.got}, expected ${r.expected} (confidence ${r.conf}, evidence ${JSON.stringify(r.evidence)})`);
if (args.json) fs.writeFileSync(args.json, JSON.stringify(rows, null, 1));
