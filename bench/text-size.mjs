#!/usr/bin/env node
// Each reader's best text height, measured (issue 33, item 2): pages of the chosen sets (by default the
// photos whose long side is under --max-long) are read whole by tesseract (enhanced working image, PSM 6)
// and by PaddleOCR (plain working image) with the page enlarged so that its measured character size
// (ocr/orientation.ts textDirection().charSize, in working pixels) becomes each target height, up to 3x
// (never reduced; `off` = the working image as it is). Per reader and target: labelled totals and dates
// found on one OCR line (as bench/ocr-params.mjs counts them), and the median time.
//
//   npm run build && node bench/text-size.mjs [--dataset wildreceipt_world] [--max-long 1000] [--tess off,20,28] [--paddle off,14,20] [--dist DIR]
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { corpusDir, dateForms, distModule, foundInReading, parseFlags, totalForms } from './experiment.mjs';

const flags = parseFlags();
const corpus = corpusDir(flags);
const pre = await distModule(flags, 'ocr/preprocess.js');
const ori = await distModule(flags, 'ocr/orientation.js');
const { PaddleReader } = await distModule(flags, 'ocr/paddle.js');
const { OcrPool } = await distModule(flags, 'ocr/pool.js');
const paddle = new PaddleReader({ threads: 1 });
const pool = new OcrPool({ size: 1 });
const datasets = (flags.dataset ?? 'wildreceipt_world').split(',');
const maxLong = Number(flags['max-long'] ?? 1000);
const tess = (flags.tess ?? 'off,20,28').split(',');
const pad = (flags.paddle ?? 'off,14,20').split(',');

function expectations(ds, id) {
  const label = JSON.parse(fs.readFileSync(path.join(corpus, ds, 'labels', `${id}.json`), 'utf8'));
  return { totals: label.totalAmount !== undefined ? totalForms(label.totalAmount) : [], dates: label.date ? dateForms(label.date) : [] };
}
/** Words into lines by their vertical centres (PaddleOCR's words come ungrouped). */
function linesOf(words) {
  const sorted = [...words].sort((a, b) => (a.box.y0 + a.box.y1) - (b.box.y0 + b.box.y1));
  const lines = [];
  for (const w of sorted) {
    const c = (w.box.y0 + w.box.y1) / 2, h = w.box.y1 - w.box.y0;
    const l = lines.find((x) => Math.abs(x.c - c) < h * 0.5);
    if (l) l.words.push(w); else lines.push({ c, words: [w] });
  }
  return lines.map((l) => l.words.sort((a, b) => a.box.x0 - b.box.x0).map((w) => w.text).join(' '));
}
const scalingFor = (long, k) => ({ maxLongSide: Math.max(2000, Math.ceil(long * k)), minLongSide: Math.round(long * k), maxUpscale: k });
const score = {};
const add = (key, r, ms) => { const s = (score[key] ??= { total: 0, totalN: 0, date: 0, dateN: 0, ms: [] }); if (r.total !== undefined) { s.totalN++; s.total += r.total ? 1 : 0; } if (r.date !== undefined) { s.dateN++; s.date += r.date ? 1 : 0; } s.ms.push(ms); };
const perPage = [];
for (const ds of datasets) {
  const dir = path.join(corpus, ds, 'images');
  for (const f of fs.readdirSync(dir).filter((x) => /\.(jpe?g|png|webp)$/i.test(x)).sort()) {
    const bytes = fs.readFileSync(path.join(dir, f));
    const meta = await sharp(bytes).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const page = { kind: 'raster', index: 0, image: bytes, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height, exifOrientation: meta.orientation ?? 1 };
    const long = Math.max(page.width, page.height);
    if (long >= maxLong) continue;
    const id = f.replace(/\.[^.]+$/, ''), ex = expectations(ds, id);
    const plain = await pre.loadWorkingImage(page, pre.DEFAULT_SCALING, false);
    const copyLong = ori.AXIS_ANALYSIS_LONG_SIDE, plainLong = Math.max(plain.width, plain.height);
    const char = ori.textDirection(await pre.analysisCopy(plain, copyLong)).charSize * plainLong / copyLong;
    const row = { ds, id, long, char: +char.toFixed(1) };
    for (const t of tess) {
      const k = t === 'off' ? 1 : Math.min(3, Math.max(1, Number(t) / char));
      const work = await pre.loadWorkingImage(page, k > 1 ? scalingFor(plainLong, k) : pre.DEFAULT_SCALING, true);
      const t0 = performance.now();
      const { lines } = await pool.readPage(work, {});
      const ms = performance.now() - t0;
      const r = foundInReading(lines.map((l) => l.map((w) => w.text).join(' ')), ex);
      add(`tesseract@${t}`, r, ms); row[`t${t}`] = `${r.total ? 'T' : '-'}${r.date ? 'D' : '-'}`;
    }
    for (const t of pad) {
      const k = t === 'off' ? 1 : Math.min(3, Math.max(1, Number(t) / char));
      const work = await pre.loadWorkingImage(page, k > 1 ? scalingFor(plainLong, k) : pre.DEFAULT_SCALING, false);
      const t0 = performance.now();
      const words = await paddle.read(work);
      const ms = performance.now() - t0;
      const r = foundInReading(linesOf(words), ex);
      add(`paddle@${t}`, r, ms); row[`p${t}`] = `${r.total ? 'T' : '-'}${r.date ? 'D' : '-'}`;
    }
    perPage.push(row);
    process.stderr.write(`${JSON.stringify(row)}\n`);
  }
}
await paddle.close(); await pool.close();
for (const [k, s] of Object.entries(score)) {
  const ms = s.ms.sort((a, b) => a - b)[s.ms.length >> 1];
  console.log(`${k.padEnd(16)} totals ${s.total}/${s.totalN}  dates ${s.date}/${s.dateN}  p50 ${Math.round(ms)} ms`);
}
if (flags.json) fs.writeFileSync(flags.json, JSON.stringify(perPage));
