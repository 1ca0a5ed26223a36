#!/usr/bin/env node
// OCR parameter experiment: page segmentation mode x image scale, on a small corpus sample.
//
// For each configuration it OCRs the sample once (one warm tesseract.js worker, best_int English,
// LSTM only) and reports, per dataset:
//   total  = share of labelled totals whose printed form (33.90 / 43.000 / 43,000) appears on one OCR line
//   date   = share of labelled numeric dates whose digits (DDMMYY, DDMMYYYY, YYYYMMDD, ...) appear on one line
//   ms     = median OCR time per image (recognize only) and median preprocessing time (sharp)
// Times are only comparable within one run (the machine is shared): compare them as ratios.
//
// Usage: node bench/ocr-params.mjs [--corpus ../shared/corpus] [--sample sroie:25,indo_receipts_phone:20,invoices:4]
//          [--configs psm6@2000,psm4@2000,psm6@2000^1500] [--json out.json]
// A configuration is `psm<N>@<max long side>[^<min long side>][c][treatments][+t<M>][:<langs>][#std]`: images larger than
// the max are downscaled, smaller than the min upscaled (at most 3x); grey unless `c` (colour kept);
// treatments (bench/OCR.md): n normalise; h/H/M/N/K CLAHE with 64/32/16/24/128 px tiles, L 64 px slope 6, P 32 px slope 2;
// s sharpen; b/W a 24 px border (copied edge / white); #std the 4.0.0 model instead of best_int; --only id,id picks files.
// `+t<M>` sets tesseract's thresholding_method (0 Otsu, the default; 1 Leptonica adaptive Otsu; 2 Sauvola);
// `:ind+eng` picks the languages (installed @tesseract.js-data best_int packages; default eng).
// Reads the corpus in place; never copies corpus files.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusDir, dateForms, foundInReading, parseFlags, spreadSample, totalForms } from './experiment.mjs';

const require = createRequire(import.meta.url);
const sharp = require('sharp');
const { createWorker, OEM } = require('tesseract.js');

const args = parseFlags();
const corpus = corpusDir(args);
const sampleSpec = args.sample ?? 'sroie:25,indo_receipts_phone:20,invoices:4';
const configs = (args.configs ?? 'psm6@1600,psm6@2000,psm6@2400,psm4@2000,psm3@2000').split(',').map(parseConfig);

function parseConfig(s) {
  const m = /^psm(\d+)@(\d+)(?:\^(\d+))?([gc])?([nhsHKLMNPbW]*)((?:\+t\d)*)(?::([a-z_+]+))?(#std)?$/.exec(s);
  if (!m) throw new Error(`bad config ${s}`);
  const flags = m[6] ?? '';
  return { name: s, psm: m[1], maxLong: Number(m[2]), minLong: Number(m[3] ?? 0), gray: m[4] !== 'c', treat: m[5] ?? '', threshold: /\+t(\d)/.exec(flags)?.[1], langs: m[7] ?? 'eng', model: m[8] ? '4.0.0' : '4.0.0_best_int' };
}



/** Printed forms of the labelled total and digit forms of the labelled date. */
function expectations(item) {
  const label = JSON.parse(fs.readFileSync(path.join(corpus, item.ds, 'labels', `${item.id}.json`), 'utf8'));
  const raw = label.raw ?? {};
  let totals = [];
  if (label.totalAmount !== undefined) {
    if (item.ds === 'sroie' && raw.total) totals = [String(raw.total)];
    else if (item.ds === 'indo_receipts_phone' && raw.tokensByLabel?.Total_value) totals = [raw.tokensByLabel.Total_value.join('').replace(/^Rp\.?/i, '')];
    else totals = totalForms(label.totalAmount);
    totals = totals.map((t) => t.replace(/\s+/g, ''));
  }
  let dates = [];
  const printedDate = item.ds === 'sroie' ? raw.date : item.ds === 'indo_receipts_phone' ? raw.tokensByLabel?.Date_value?.join(' ') : raw.date;
  if (label.date && !(printedDate && /[a-z]/i.test(printedDate))) dates = dateForms(label.date);
  return { totals, dates };
}

async function prepare(file, cfg) {
  const t0 = performance.now();
  const meta = await sharp(file).metadata();
  const turned = (meta.orientation ?? 1) >= 5;
  const w = turned ? meta.height : meta.width, h = turned ? meta.width : meta.height;
  const long = Math.max(w, h);
  let scale = 1;
  if (long > cfg.maxLong) scale = cfg.maxLong / long;
  else if (cfg.minLong && long < cfg.minLong) scale = Math.min(3, cfg.minLong / long);
  let img = sharp(file, { limitInputPixels: 60_000_000 }).rotate();
  if (scale !== 1) img = img.resize(Math.round(w * scale), Math.round(h * scale), { fit: 'fill', kernel: scale > 1 ? 'cubic' : 'lanczos3' });
  if (cfg.gray) img = img.grayscale();
  if (cfg.treat.includes('n')) img = img.normalise();
  if (cfg.treat.includes('h')) img = img.clahe({ width: 64, height: 64, maxSlope: 3 });
  if (cfg.treat.includes('H')) img = img.clahe({ width: 32, height: 32, maxSlope: 3 });
  if (cfg.treat.includes('K')) img = img.clahe({ width: 128, height: 128, maxSlope: 3 });
  if (cfg.treat.includes('L')) img = img.clahe({ width: 64, height: 64, maxSlope: 6 });
  if (cfg.treat.includes('M')) img = img.clahe({ width: 16, height: 16, maxSlope: 3 });
  if (cfg.treat.includes('N')) img = img.clahe({ width: 24, height: 24, maxSlope: 3 });
  if (cfg.treat.includes('P')) img = img.clahe({ width: 32, height: 32, maxSlope: 2 });
  if (cfg.treat.includes('b')) img = sharp(await img.flatten({ background: '#ffffff' }).png({ compressionLevel: 1 }).toBuffer()).extend({ top: 24, bottom: 24, left: 24, right: 24, extendWith: 'copy' });
  if (cfg.treat.includes('W')) img = sharp(await img.flatten({ background: '#ffffff' }).png({ compressionLevel: 1 }).toBuffer()).extend({ top: 24, bottom: 24, left: 24, right: 24, background: '#ffffff' });
  if (cfg.treat.includes('s')) img = img.sharpen({ sigma: 1 });
  const png = await img.flatten({ background: '#ffffff' }).png({ compressionLevel: 1 }).toBuffer();
  return { png, ms: performance.now() - t0, scale };
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const pct = (a) => { const v = a.filter((x) => x !== undefined); return v.length ? `${(100 * v.filter(Boolean).length / v.length).toFixed(0)}% (${v.filter(Boolean).length}/${v.length})` : '-'; };

const only = args.only ? new Set(String(args.only).split(',')) : null;
const items = spreadSample(corpus, sampleSpec, 0).filter((it) => !only || only.has(it.id));
const exp = new Map(items.map((it) => [it.file, expectations(it)]));
// one worker per language set; a private folder of symlinks lets one worker load several packages' data
const langDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocr-params-'));
const workers = new Map();
async function workerFor(langs, model = '4.0.0_best_int') {
  const key = `${langs}#${model}`;
  if (!workers.has(key)) {
    const dir = path.join(langDir, model);
    fs.mkdirSync(dir, { recursive: true });
    for (const code of langs.split('+')) {
      const file = path.join(path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), model, `${code}.traineddata.gz`);
      if (!fs.existsSync(path.join(dir, `${code}.traineddata.gz`))) fs.symlinkSync(file, path.join(dir, `${code}.traineddata.gz`));
    }
    workers.set(key, await createWorker(langs, OEM.LSTM_ONLY, { langPath: dir, gzip: true, cacheMethod: 'none', errorHandler: () => {} }));
  }
  return workers.get(key);
}
for (const cfg of configs) await workerFor(cfg.langs, cfg.model);

const results = [];
// Interleave configurations per image so that machine load drifts hit every configuration alike.
for (const it of items) {
  for (const cfg of configs) {
    const prep = await prepare(it.file, cfg);
    const t0 = performance.now();
    const params = { tessedit_pageseg_mode: cfg.psm, debug_file: '/dev/null', ...(cfg.threshold ? { thresholding_method: cfg.threshold } : {}) };
    const r = await (await workerFor(cfg.langs, cfg.model)).recognize(prep.png, params, { blocks: true, text: false });
    const ocrMs = performance.now() - t0;
    const lines = [];
    for (const b of r.data.blocks ?? []) for (const p of b.paragraphs) for (const l of p.lines) {
      lines.push(l.words.map((w) => w.text.trim()).filter(Boolean).join(' '));
    }
    results.push({ cfg: cfg.name, ds: it.ds, id: it.id, ocrMs, prepMs: prep.ms, scale: prep.scale, ...foundInReading(lines, exp.get(it.file)) });
  }
  process.stderr.write('.');
}
process.stderr.write('\n');
for (const w of workers.values()) await w.terminate();
fs.rmSync(langDir, { recursive: true, force: true });

const datasets = [...new Set(items.map((i) => i.ds))];
const rows = [];
for (const cfg of configs) {
  for (const ds of [...datasets, 'all']) {
    const rs = results.filter((r) => r.cfg === cfg.name && (ds === 'all' || r.ds === ds));
    rows.push({ config: cfg.name, dataset: ds, n: rs.length, total: pct(rs.map((r) => r.total)), date: pct(rs.map((r) => r.date)), ocrMs: Math.round(median(rs.map((r) => r.ocrMs))), prepMs: Math.round(median(rs.map((r) => r.prepMs))) });
  }
}
console.log('| config | dataset | n | total found | date found | OCR ms (median) | prep ms |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.config} | ${r.dataset} | ${r.n} | ${r.total} | ${r.date} | ${r.ocrMs} | ${r.prepMs} |`);
if (args.json) fs.writeFileSync(args.json, JSON.stringify({ corpus, configs, results, rows }, null, 1));
