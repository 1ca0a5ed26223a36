#!/usr/bin/env node
/**
 * Perceptual hashes compared (issue 26): our DCT hash of the text area (src/store/phash.ts dctHash over
 * the ink density src/similarity/image.ts measures; what a scan stores in `perceptual_hash` and the
 * similarity score's `phashSim` term uses) against the `image-hash` package (blockhash), on the same
 * pairs in one run.
 *
 * Receipts of the corpus (sroie and indo_receipts_phone by default) and one copy of each kind per receipt
 * (bench/copies.mjs: re-encoded, resized, cropped, rotated, photographed again; made in memory, nothing
 * is written). No OCR: the hashes are computed from the pixels, so the text area is the ink one (a
 * scan's signature also has one from the OCR's words; the store keeps the ink one when there is one).
 *
 * Methods (64 and 256 bits each):
 *   ours-64            dctHash: 8 x 8 lowest DCT frequencies of the 32 x 32 text-area ink density (the product)
 *   ours-256           16 x 16 lowest frequencies of the same density (this bench only)
 *   ih-file-B-precise  image-hash on the file's bytes, bits B = 8 (64-bit hash) or 16 (256), precise (blockhash)
 *   ih-file-B-fast     the same, precise = false (its even-blocks mode, the image's right and bottom remainder left out)
 *   ih-upright-B       image-hash on the page turned upright first (EXIF orientation applied with sharp, as
 *                      lossless PNG): image-hash's JPEG decoder ignores EXIF, our decode does not
 *   bh-area-B          image-hash's blockhash (its lib/block-hash.js) in place of dctHash, on our 32 x 32
 *                      text-area density: the algorithm alone, on the same input as ours
 *
 * Pairs: each original with each of its copies (duplicates), and every pair of images (originals and
 * copies) of two different receipts (false alarms when flagged; corpus receipts labelled as one purchase,
 * same merchant, date and total, are left out). A pair is flagged when its Hamming distance is at most the
 * method's threshold. Receipts are split in halves by a hash of their id (as bench/similarity.mjs: `fit`
 * and `eval`); each method's threshold is chosen on the fit half: the largest distance whose false alarms
 * stay at or under --max-false (default 0.5 %, the similarity goal for different receipts). The table is
 * the eval half at those thresholds (a second table: the same at --also budgets, default 0.1 % and 1 %, to
 * compare methods at like false alarms), with ROC AUC (threshold-free: the chance that a duplicate pair is
 * closer than a different pair, ties half). Time: milliseconds per image from the file's bytes to the
 * hash, median over every image, methods called in rotating order image by image (one process, same run).
 * "shares a band": the pair shares one of the four 16-bit bands of the 64-bit hash (how the store's
 * lookup keys p0..p3 / q0..q3 find a candidate whose OCR failed).
 *
 * Needs the built library (`npx tsc -p tsconfig.json`) and image-hash, which is not a dependency of the
 * project: `npm install --no-save image-hash@7.0.1`.
 *
 *   node bench/image-hash.mjs [--corpus PATH] [--datasets sroie,indo_receipts_phone] [--receipts N]
 *     [--seed 1] [--kinds reencode,resize,crop,rotate,photo] [--max-false 0.005] [--also 0.001,0.01] [--json FILE]
 *   (--receipts N: at most N receipts of each half; default all)
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { copier, copyBenchOptions, halfOf, mulberry32 } from './copies.mjs';

const { opt, repo, corpus, kinds } = copyBenchOptions(import.meta.url);
const datasets = opt('datasets', 'sroie,indo_receipts_phone').split(',').filter(Boolean);
const perHalf = Number(opt('receipts', 'Infinity'));
const seed = Number(opt('seed', '1'));
const maxFalse = Number(opt('max-false', '0.005'));
const alsoBudgets = opt('also', '0.001,0.01').split(',').filter(Boolean).map(Number);
const jsonFile = opt('json', null);

const require = createRequire(import.meta.url);
let imageHashLib, blockHash, jpeg, imageHashVersion;
try {
  imageHashLib = require('image-hash');
  blockHash = require('image-hash/lib/block-hash.js').default;
  jpeg = require('jpeg-js'); // image-hash's JPEG decoder (its dependency)
  imageHashVersion = require('image-hash/package.json').version;
} catch {
  console.error('image-hash is not installed: npm install --no-save image-hash@7.0.1');
  process.exit(2);
}
const dist = (p) => pathToFileURL(path.join(repo, 'dist', p)).href;
const { imageSignature, signatureOfGrey, ANALYSIS_LONG_SIDE } = await import(dist('similarity/image.js'));
const { dctHash } = await import(dist('store/phash.js'));

// ---------- hashes ----------
/** image-hash's call, as a promise (a Buffer in, never a path or URL: it fetches strings starting with "http"). */
const ihash = (data, bits, precise) => new Promise((resolve, reject) => {
  imageHashLib.imageHash({ data }, bits, precise, (err, hex) => (err ? reject(err) : resolve(hex)));
});

/** dctHash with the k x k lowest frequencies (k = 16: 256 bits); k = 8 is src/store/phash.ts. */
function dctHashK(values, n, k) {
  const cos = [];
  for (let u = 0; u < k; u++) for (let x = 0; x < n; x++) cos.push(Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n)));
  const rows = new Float64Array(n * k);
  for (let y = 0; y < n; y++) for (let u = 0; u < k; u++) {
    let s = 0;
    for (let x = 0; x < n; x++) s += values[y * n + x] * cos[u * n + x];
    rows[y * k + u] = s;
  }
  const coef = [];
  for (let v = 0; v < k; v++) for (let u = 0; u < k; u++) {
    let s = 0;
    for (let y = 0; y < n; y++) s += rows[y * k + u] * cos[v * n + y];
    coef.push(s);
  }
  const ac = coef.slice(1);
  const median = [...ac].sort((a, b) => a - b)[ac.length >> 1];
  let hex = '';
  for (let i = 0; i < coef.length; i += 4) {
    let nib = 0;
    for (let j = 0; j < 4; j++) nib = (nib << 1) | (i + j > 0 && coef[i + j] > median ? 1 : 0);
    hex += nib.toString(16);
  }
  return hex;
}

/** image-hash's blockhash of an n x n density grid (0..1), as the RGBA image it expects. */
function blockHashOfGrid(values, n, bits) {
  let max = 0;
  for (let i = 0; i < n * n; i++) if (values[i] > max) max = values[i];
  const data = Buffer.alloc(n * n * 4);
  for (let i = 0; i < n * n; i++) {
    const g = max > 0 ? Math.round((values[i] / max) * 255) : 0;
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = g;
    data[i * 4 + 3] = 255;
  }
  return blockHash({ width: n, height: n, data }, bits, 2);
}

/** The grey page as src/similarity/image.ts decodes it (decodeGrey). */
async function decodeGrey(buf) {
  const { data, info } = await sharp(buf, { failOn: 'none', limitInputPixels: false })
    .rotate().flatten({ background: '#ffffff' })
    .resize({ width: ANALYSIS_LONG_SIDE, height: ANALYSIS_LONG_SIDE, fit: 'inside', kernel: 'cubic' })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  let gray = data;
  if (info.channels > 1) {
    gray = Buffer.alloc(info.width * info.height);
    for (let i = 0; i < gray.length; i++) gray[i] = data[i * info.channels];
  }
  return { gray, width: info.width, height: info.height };
}

const METHODS = [
  { name: 'ours-64', bits: 64 },
  { name: 'ours-256', bits: 256 },
  { name: 'ih-file-8-precise', bits: 64 },
  { name: 'ih-file-8-fast', bits: 64 },
  { name: 'ih-file-16-precise', bits: 256 },
  { name: 'ih-file-16-fast', bits: 256 },
  { name: 'ih-upright-8', bits: 64 },
  { name: 'ih-upright-16', bits: 256 },
  { name: 'bh-area-8', bits: 64 },
  { name: 'bh-area-16', bits: 256 },
];

const IH_CALLS = [['ih-file-8-precise', 8, true], ['ih-file-8-fast', 8, false], ['ih-file-16-precise', 16, true], ['ih-file-16-fast', 16, false]];

/**
 * Every method's hash of one image (null when a method cannot hash it), and times. Image `turn`: ours and
 * one image-hash mode (the turn's, in rotation) are timed from the bytes, in alternating order; the
 * other modes are image-hash's own steps after one decode (its processJPG: jpeg-js decode with its
 * defaults, then lib/block-hash.js), checked equal to the timed call's hash.
 */
async function hashesOf(buf, turn) {
  const meta = await sharp(buf).metadata();
  const exif = meta.orientation ?? 1;
  const page = { kind: 'raster', index: 0, image: buf, width: exif >= 5 ? meta.height : meta.width, height: exif >= 5 ? meta.width : meta.height, exifOrientation: exif };
  const h = {}, ms = {}, errors = {};
  const [timedIh, timedBits, timedPrecise] = IH_CALLS[turn % IH_CALLS.length];
  const timedCalls = {
    'ours-64': async () => (await imageSignature([page], 0))?.ink?.phash ?? null,
    [timedIh]: () => ihash(buf, timedBits, timedPrecise),
  };
  const names = Object.keys(timedCalls);
  if (Math.floor(turn / IH_CALLS.length) % 2) names.reverse(); // each mode first on half of its images
  for (const name of names) {
    const t0 = performance.now();
    try { h[name] = await timedCalls[name](); } catch (e) { h[name] = null; errors[name] = String(e.message ?? e).slice(0, 80); }
    ms[name] = performance.now() - t0;
  }
  if (meta.format !== 'jpeg') throw new Error('the corpus images are JPEG here (image-hash decodes JPEG with jpeg-js)');
  let decoded = null;
  try { decoded = jpeg.decode(buf); } catch { /* as the timed call: null hashes */ }
  for (const [name, bits, precise] of IH_CALLS) {
    if (name === timedIh) continue;
    h[name] = decoded ? blockHash(decoded, bits, precise ? 2 : 1) : null;
    if (!decoded) errors[name] = errors[timedIh];
  }
  if ((h[timedIh] === null) !== (decoded === null)) throw new Error(`${timedIh}: the call and its steps disagree on decoding`);
  if (decoded && blockHash(decoded, timedBits, timedPrecise ? 2 : 1) !== h[timedIh]) throw new Error(`${timedIh}: the call and its steps give different hashes`);
  // the same text area hashed other ways (untimed: the analysis is ours-64's)
  const extra = [];
  const sig = await signatureOfGrey(await decodeGrey(buf), undefined, (values, n) => {
    extra.push({ 'ours-256': dctHashK(values, n, 16), 'bh-area-8': blockHashOfGrid(values, n, 8), 'bh-area-16': blockHashOfGrid(values, n, 16) });
    return dctHash(values, n);
  });
  const ink = sig?.ink ? extra[0] : null; // no OCR words: the ink view is the only one
  if ((sig?.ink?.phash ?? null) !== h['ours-64']) throw new Error('the bench decode differs from src/similarity/image.ts');
  for (const m of ['ours-256', 'bh-area-8', 'bh-area-16']) h[m] = ink ? ink[m] : null;
  if (exif > 1) {
    const png = await sharp(buf).rotate().png({ compressionLevel: 1 }).toBuffer();
    for (const [m, bits] of [['ih-upright-8', 8], ['ih-upright-16', 16]]) {
      try { h[m] = await ihash(png, bits, true); } catch (e) { h[m] = null; errors[m] = String(e.message ?? e).slice(0, 80); }
    }
  } else {
    h['ih-upright-8'] = h['ih-file-8-precise'];
    h['ih-upright-16'] = h['ih-file-16-precise'];
  }
  return { h, ms, errors, exif };
}

// ---------- sample and copies ----------
const rng = mulberry32(seed);
const makeCopy = copier(rng);
const receipts = [];
for (const d of datasets) {
  const dir = path.join(corpus, d, 'images');
  if (!existsSync(dir)) throw new Error(`no ${dir} (use --corpus PATH)`);
  for (const f of readdirSync(dir).filter((x) => /\.(jpe?g|png|webp)$/i.test(x)).sort()) {
    const id = `${d}/${f.replace(/\.[^.]+$/, '')}`;
    const labelFile = path.join(corpus, d, 'labels', `${f.replace(/\.[^.]+$/, '')}.json`);
    const label = existsSync(labelFile) ? JSON.parse(readFileSync(labelFile, 'utf8')) : {};
    receipts.push({ id, dataset: d, half: halfOf(`${d}/${f}`), file: path.join(dir, f), label });
  }
}
const sample = [];
for (const half of ['fit', 'eval']) {
  const pool = receipts.filter((r) => r.half === half);
  for (let i = pool.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [pool[i], pool[j]] = [pool[j], pool[i]]; }
  sample.push(...pool.slice(0, perHalf));
}

const images = [];
const started = performance.now();
for (const r of sample) {
  const buf = readFileSync(r.file);
  const bufs = [{ kind: 'original', buf, params: {} }];
  for (const kind of kinds) { const c = await makeCopy(kind, buf); bufs.push({ kind, buf: c.buf, params: c.params }); }
  for (const b of bufs) {
    const res = await hashesOf(b.buf, images.length);
    images.push({ receipt: r.id, half: r.half, kind: b.kind, params: b.params, ...res });
  }
  if (sample.indexOf(r) % 10 === 9 || r === sample[sample.length - 1]) {
    const el = (performance.now() - started) / 1000, n = sample.indexOf(r) + 1;
    process.stderr.write(`  ${n}/${sample.length} receipts (${el.toFixed(0)} s, ETA ${((el / n) * (sample.length - n)).toFixed(0)} s)\n`);
  }
}

// ---------- pairs ----------
const words = new Map();
const wordsOf = (hex) => {
  let w = words.get(hex);
  if (!w) {
    w = new Uint32Array(hex.length / 8);
    for (let i = 0; i < w.length; i++) w[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16);
    words.set(hex, w);
  }
  return w;
};
const popcount = (x) => { x -= (x >>> 1) & 0x55555555; x = (x & 0x33333333) + ((x >>> 2) & 0x33333333); return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; };
function hamming(a, b) {
  const wa = wordsOf(a), wb = wordsOf(b);
  let n = 0;
  for (let i = 0; i < wa.length; i++) n += popcount((wa[i] ^ wb[i]) >>> 0);
  return n;
}
const sharesBand = (a, b) => a.length === 16 && [0, 1, 2, 3].some((k) => a.slice(k * 4, k * 4 + 4) === b.slice(k * 4, k * 4 + 4));
const labelOf = new Map(sample.map((s) => [s.id, s.label]));
const samePurchase = (a, b) => {
  const la = labelOf.get(a), lb = labelOf.get(b);
  if (!la || !lb || la.date === undefined || la.totalAmount === undefined) return false;
  return (la.merchantName ?? '') === (lb.merchantName ?? '') && la.date === lb.date && la.totalAmount === lb.totalAmount;
};
const sameMerchant = (a, b) => { const ma = labelOf.get(a)?.merchantName, mb = labelOf.get(b)?.merchantName; return Boolean(ma && ma === mb); };

/** Per half and method: distances of the duplicate pairs (by kind) and of the different pairs. */
const stats = {};
for (const half of ['fit', 'eval']) {
  const ims = images.filter((i) => i.half === half);
  stats[half] = {};
  for (const m of METHODS) {
    const pos = [], neg = [], negMerchant = [], negDataset = [];
    let bandPos = 0, bandNeg = 0;
    for (let i = 0; i < ims.length; i++) {
      for (let j = i + 1; j < ims.length; j++) {
        const a = ims[i], b = ims[j];
        const ha = a.h[m.name], hb = b.h[m.name];
        if (a.receipt === b.receipt) {
          if (a.kind !== 'original' && b.kind !== 'original') continue;
          const copy = a.kind === 'original' ? b : a;
          const d = ha && hb ? hamming(ha, hb) : Infinity; // a side it cannot hash: a miss
          pos.push({ d, kind: copy.kind, exif: a.exif > 1 || b.exif > 1 });
          if (ha && hb && sharesBand(ha, hb)) bandPos++;
        } else {
          if (samePurchase(a.receipt, b.receipt)) continue;
          const d = ha && hb ? hamming(ha, hb) : Infinity; // never flagged
          neg.push(d);
          if (sameMerchant(a.receipt, b.receipt)) negMerchant.push(d);
          if (a.receipt.split('/')[0] === b.receipt.split('/')[0]) negDataset.push(d);
          if (ha && hb && sharesBand(ha, hb)) bandNeg++;
        }
      }
    }
    stats[half][m.name] = { pos, neg: Float64Array.from(neg).sort(), negMerchant, negDataset, bandPos, bandNeg, failed: ims.filter((i) => !i.h[m.name]).length, images: ims.length };
  }
}

const flaggedNeg = (sorted, t) => { // count of sorted values <= t
  let lo = 0, hi = sorted.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] <= t) lo = mid + 1; else hi = mid; }
  return lo;
};
function auc(pos, negSorted) {
  let s = 0;
  for (const p of pos) {
    const below = flaggedNeg(negSorted, p.d - 0.5), atOrBelow = flaggedNeg(negSorted, p.d);
    s += negSorted.length - atOrBelow + 0.5 * (atOrBelow - below); // different pairs farther than the duplicate, ties half
  }
  return s / (pos.length * negSorted.length);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : NaN; };
const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)} %` : 'n/a');
const pct2 = (n, d) => (d ? `${((100 * n) / d).toFixed(2)} %` : 'n/a');

const rows = [];
for (const m of METHODS) {
  const fit = stats.fit[m.name], ev = stats.eval[m.name];
  const thresholdFor = (budget) => { let t = -1; for (let c = 0; c <= m.bits; c++) if (flaggedNeg(fit.neg, c) <= budget * fit.neg.length) t = c; return t; };
  const t = thresholdFor(maxFalse);
  const atBudgets = [...alsoBudgets, maxFalse].sort((a, b) => a - b).map((budget) => {
    const tb = thresholdFor(budget);
    return { budget, threshold: tb, found: ev.pos.filter((p) => p.d <= tb).length, falseAlarms: flaggedNeg(ev.neg, tb), falseSameMerchant: ev.negMerchant.filter((d) => d <= tb).length };
  });
  const found = ev.pos.filter((p) => p.d <= t).length;
  const fa = flaggedNeg(ev.neg, t), faMerchant = ev.negMerchant.filter((d) => d <= t).length, faDataset = ev.negDataset.filter((d) => d <= t).length;
  const byKind = Object.fromEntries(kinds.map((k) => { const ps = ev.pos.filter((p) => p.kind === k); return [k, [ps.filter((p) => p.d <= t).length, ps.length]]; }));
  const exifPos = ev.pos.filter((p) => p.exif);
  const times = images.map((i) => i.ms[m.name]).filter((v) => v !== undefined);
  const ms = times.length ? median(times) : null;
  const msOurs = times.length ? median(images.filter((i) => i.ms[m.name] !== undefined).map((i) => i.ms['ours-64'])) : null;
  rows.push({
    method: m.name, bits: m.bits, threshold: t,
    fit: { found: fit.pos.filter((p) => p.d <= t).length, duplicates: fit.pos.length, falseAlarms: flaggedNeg(fit.neg, t), different: fit.neg.length },
    eval: {
      found, duplicates: ev.pos.length, falseAlarms: fa, different: ev.neg.length, falseSameMerchant: faMerchant, sameMerchant: ev.negMerchant.length, falseSameDataset: faDataset, sameDataset: ev.negDataset.length,
      byKind, exifFound: exifPos.filter((p) => p.d <= t).length, exifDuplicates: exifPos.length, auc: auc(ev.pos, ev.neg),
      bandDuplicates: ev.bandPos, bandDifferent: ev.bandNeg, unhashed: ev.failed, images: ev.images,
    },
    msPerImage: ms, msOursSameImages: msOurs, timedImages: times.length, atBudgets,
  });
}

const nFit = sample.filter((s) => s.half === 'fit').length, nEval = sample.length - nFit;
console.log(`\nperceptual hashes: ${sample.length} receipts (${datasets.join(', ')}; fit ${nFit}, eval ${nEval}), ${images.length} images (original + ${kinds.join(', ')}), seed ${seed}, image-hash ${imageHashVersion}`);
console.log(`threshold: on the fit half, the largest Hamming distance with false alarms <= ${pct2(maxFalse, 1)}; below: the eval half at it\n`);
console.log('| method | bits | threshold | duplicates found | false alarms | of which same dataset | of which same merchant | ROC AUC | shares a 16-bit band (dup / diff) | not hashed | ms per image, median (ours-64 on the same images) |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const e = r.eval;
  const time = r.method === 'ours-64' ? `${r.msPerImage.toFixed(1)} (${r.timedImages} images)`
    : r.msPerImage !== null ? `${r.msPerImage.toFixed(1)} (${r.msOursSameImages.toFixed(1)}; ${r.timedImages} images)`
      : r.method.startsWith('ours') || r.method.startsWith('bh') ? 'as ours-64' : 'as ih-file';
  console.log(`| ${r.method} | ${r.bits} | ${r.threshold} | ${e.found}/${e.duplicates} = ${pct(e.found, e.duplicates)} | ${e.falseAlarms}/${e.different} = ${pct2(e.falseAlarms, e.different)} | ${e.falseSameDataset}/${e.sameDataset} | ${e.falseSameMerchant}/${e.sameMerchant} | ${e.auc.toFixed(4)} | ${r.bits === 64 ? `${pct(e.bandDuplicates, e.duplicates)} / ${pct2(e.bandDifferent, e.different)}` : '-'} | ${e.unhashed}/${e.images} | ${time} |`);
}
const budgets = rows[0].atBudgets.map((b) => b.budget);
console.log(`\neval half at thresholds chosen on the fit half for other false-alarm budgets: duplicates found / ${rows[0].eval.duplicates}, false alarms / ${rows[0].eval.different} (of which same merchant / ${rows[0].eval.sameMerchant}), threshold`);
console.log(`| method | ${budgets.map((b) => `<= ${pct2(b, 1)}`).join(' | ')} |`);
console.log(`| --- | ${budgets.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(`| ${r.method} | ${r.atBudgets.map((b) => `${b.found}, ${b.falseAlarms} (${b.falseSameMerchant}), d <= ${b.threshold}`).join(' | ')} |`);
console.log(`\nduplicates found by kind of copy (eval half)${rows[0].eval.exifDuplicates ? `; EXIF-turned originals: the pairs whose original carries an EXIF orientation` : ''}`);
console.log(`| method | ${kinds.join(' | ')} | EXIF-turned originals |`);
console.log(`| --- | ${kinds.map(() => '---').join(' | ')} | --- |`);
for (const r of rows) console.log(`| ${r.method} | ${kinds.map((k) => `${r.eval.byKind[k][0]}/${r.eval.byKind[k][1]}`).join(' | ')} | ${r.eval.exifFound}/${r.eval.exifDuplicates} |`);
console.log(`\nfit half at the chosen thresholds: ${rows.map((r) => `${r.method} ${r.fit.found}/${r.fit.duplicates}, ${r.fit.falseAlarms}/${r.fit.different}`).join('; ')}`);
const errs = {};
for (const i of images) for (const [m, e] of Object.entries(i.errors)) (errs[m] ??= new Map()).set(e, ((errs[m].get(e)) ?? 0) + 1);
for (const [m, es] of Object.entries(errs)) console.log(`errors ${m}: ${[...es].map(([e, n]) => `${n} x ${e}`).join('; ')}`);
if (jsonFile) {
  writeFileSync(jsonFile, JSON.stringify({ seed, datasets, kinds, maxFalse, alsoBudgets, imageHashVersion, receipts: sample.length, images: images.length, rows }, null, 1));
  console.error(`written ${jsonFile}`);
}
