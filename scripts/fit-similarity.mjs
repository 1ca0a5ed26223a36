#!/usr/bin/env node
/**
 * Fits the similarity score (src/similarity/score.ts) and writes models/similarity.json.
 *
 * Input: dumps written by `node bench/similarity.mjs --split fit --dump FILE` (the fit half of the
 * corpus; the benchmark's default `--split eval` never samples those receipts). Each dump holds the
 * signatures of originals and their copies, read by the real engine.
 *
 * Pairs: every two images of the same receipt are "same" (original~copy and copy~copy); every two
 * images of different receipts are "different", except receipts the corpus labels as the same purchase
 * (same merchant label, date and total), which are left out; pairs across datasets (easy) are sampled
 * one in CROSS_SAMPLE and weighted up, different receipts of the same dataset (the hard ones: one
 * country, shop type or chain template) weighted SAME_DATASET_WEIGHT (--hard-weight, default 3). An
 * original sampled by several dumps counts once. Model: logistic regression on the terms of
 * score.ts, L2 penalty, the two classes weighted equally (the score is then the probability of "same"
 * at even prior odds), fitted by Newton's method, with sign constraints (agreement never counts against,
 * disagreement never for). Every pair is also added without its image measures at a quarter weight,
 * so the content-only case (text-layer PDFs) is calibrated too.
 *
 * Cross-validation: receipts are split into K folds; each fold's pairs (both receipts in the fold) are
 * scored by a model fitted on the pairs of the other folds. Reported: the share of original~copy pairs
 * above 0.9 (by copy kind) and of different-receipt pairs above 0.9, as the benchmark counts them.
 *
 *   npx tsc -p tsconfig.json && node scripts/fit-similarity.mjs DUMP... [--lambda 1] [--folds 5] [--out models/similarity.json]
 *     [--hard-weight 3] [--dry-run] [--no-cv] [--show-misses]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { solve } from './linear-solve.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf(`--${name}`); return i < 0 ? def : argv[i + 1]; };
const valued = new Set(['--lambda', '--folds', '--out', '--hard-weight']);
const files = [];
for (let i = 0; i < argv.length; i++) {
  if (valued.has(argv[i])) i++;
  else if (!argv[i].startsWith('--')) files.push(argv[i]);
}
if (!files.length) { console.error('usage: node scripts/fit-similarity.mjs DUMP... [--lambda 1] [--folds 5] [--out FILE] [--dry-run]'); process.exit(2); }
const lambda = Number(opt('lambda', '1'));
const folds = Number(opt('folds', '5'));
const out = path.resolve(opt('out', path.join(repo, 'models', 'similarity.json')));
const THRESHOLD = 0.9;
const CONTENT_ONLY_WEIGHT = 0.25;
const CROSS_SAMPLE = 10;
// different receipts from the same dataset (same country, shop types, chains: what a campaign's store
// holds) count this much more than the sampled pairs across datasets
const SAME_DATASET_WEIGHT = Number(opt('hard-weight', '3'));

const { pairFeatures } = await import(pathToFileURL(path.join(repo, 'dist/similarity/features.js')).href);
const { termsOf, TERMS } = await import(pathToFileURL(path.join(repo, 'dist/similarity/score.js')).href);

// ---------- pairs ----------
const images = [];
const labels = new Map();
for (const f of files) {
  const d = JSON.parse(readFileSync(f, 'utf8'));
  for (const r of d.receipts) labels.set(r.id, r.label);
  for (const im of d.images) {
    if (!im.signature) continue;
    // an original sampled by several runs is one image
    if (im.kind === 'original' && images.some((x) => x.kind === 'original' && x.receipt === im.receipt)) continue;
    images.push({ ...im, source: path.basename(f) });
  }
}
const samePurchase = (a, b) => {
  const la = labels.get(a), lb = labels.get(b);
  if (!la || !lb || la.date === null || la.totalAmount === null) return false;
  return (la.merchantName ?? '') === (lb.merchantName ?? '') && la.date === lb.date && la.totalAmount === lb.totalAmount;
};
const receipts = [...new Set(images.map((i) => i.receipt))].sort();
const pairs = []; // { x: number[], y: 0|1, ra, rb, kind }
for (let i = 0; i < images.length; i++) {
  for (let j = i + 1; j < images.length; j++) {
    const a = images[i], b = images[j];
    const same = a.receipt === b.receipt;
    if (!same && samePurchase(a.receipt, b.receipt)) continue;
    // pairs across datasets are easy negatives: one in CROSS_SAMPLE is kept, weighted up to stand for the rest
    const cross = a.receipt.split('/')[0] !== b.receipt.split('/')[0];
    if (cross && (i * 7919 + j * 104729) % CROSS_SAMPLE !== 0) continue;
    const w0 = cross ? CROSS_SAMPLE : !same ? SAME_DATASET_WEIGHT : 1;
    const t = termsOf(pairFeatures(a.signature, b.signature));
    const kind = same ? (a.kind === 'original' ? b.kind : b.kind === 'original' ? a.kind : 'copy~copy') : 'different';
    const count = cross ? CROSS_SAMPLE : 1; // how many pairs this one stands for, in the reported rates
    pairs.push({ x: TERMS.map((n) => t[n]), y: same ? 1 : 0, w: w0, count, ra: a.receipt, rb: b.receipt, kind, ka: a.kind, kb: b.kind });
    // the same pair without its image measures, at a quarter weight: teaches the content-only case
    // (text-layer PDFs, scans stored before signatures had images) without training data of its own
    const c = termsOf(pairFeatures({ ...a.signature, image: null }, { ...b.signature, image: null }));
    pairs.push({ x: TERMS.map((n) => c[n]), y: same ? 1 : 0, w: w0 * CONTENT_ONLY_WEIGHT, count, ra: a.receipt, rb: b.receipt, kind: `${kind} (content only)`, ka: a.kind, kb: b.kind, contentOnly: true });
  }
}
const P = TERMS.length + 1; // bias first

// ---------- logistic regression (Newton, L2, balanced classes, sign constraints) ----------
// Agreement can only add evidence for "same", disagreement only against; a weight fitted with the other
// sign (collinear measures) is held at 0 and the rest refitted. "Missing" terms are free.
const SIGN = {
  thumbCorr: 1, thumbHigh: 1, thumbUnread: 1, profileCorr: 1, profileHigh: 1, phashSim: 1, totalSame: 1, dateSame: 1, numberSame: 1, timeSame: 1, merchant: 1, amounts: 1, digits: 1, text: 1,
  aspectDiff: -1, totalDiff: -1, dateDiff: -1, numberDiff: -1, timeDiff: -1, amountsLow: -1, digitsLow: -1, textLow: -1,
};
function fit(rows) {
  const fixed = new Set();
  for (let round = 0; round < TERMS.length; round++) {
    const beta = fitFree(rows, fixed);
    const bad = TERMS.map((t, k) => [t, beta[k + 1]]).filter(([t, w]) => !fixed.has(t) && SIGN[t] && w * SIGN[t] < 0)
      .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
    if (!bad.length) return beta;
    fixed.add(bad[0][0]);
  }
  return fitFree(rows, fixed);
}

function fitFree(rows, fixed) {
  const active = [0, ...TERMS.map((t, k) => (fixed.has(t) ? -1 : k + 1)).filter((k) => k > 0)];
  const nPos = rows.reduce((s, r) => s + (r.y === 1 ? r.w : 0), 0), nAll = rows.reduce((s, r) => s + r.w, 0), nNeg = nAll - nPos;
  const wPos = nAll / (2 * Math.max(1, nPos)), wNeg = nAll / (2 * Math.max(1, nNeg));
  let beta = new Float64Array(P);
  for (let iter = 0; iter < 50; iter++) {
    const g = new Float64Array(P);
    const H = Array.from({ length: P }, () => new Float64Array(P));
    for (const r of rows) {
      const x = [1, ...r.x];
      let z = 0;
      for (let k = 0; k < P; k++) z += beta[k] * x[k];
      const p = 1 / (1 + Math.exp(-z));
      const w = (r.y ? wPos : wNeg) * r.w;
      const e = w * (p - r.y), h = w * p * (1 - p);
      for (let k = 0; k < P; k++) {
        g[k] += e * x[k];
        if (x[k] === 0) continue;
        for (let l = 0; l < P; l++) H[k][l] += h * x[k] * x[l];
      }
    }
    for (let k = 1; k < P; k++) { g[k] += lambda * beta[k]; H[k][k] += lambda; }
    H[0][0] += 1e-6;
    const sub = solve(active.map((k) => active.map((l) => H[k][l])), active.map((k) => g[k]));
    const step = new Float64Array(P);
    active.forEach((k, i) => { step[k] = sub[i]; });
    let change = 0;
    for (let k = 0; k < P; k++) { beta[k] -= step[k]; change = Math.max(change, Math.abs(step[k])); }
    if (change < 1e-7) break;
  }
  return beta;
}


const predict = (beta, x) => {
  let z = beta[0];
  for (let k = 1; k < P; k++) z += beta[k] * x[k - 1];
  return Math.min(0.999, Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000);
};

// ---------- cross-validation ----------
const foldOf = new Map(receipts.map((r, i) => [r, i % folds]));
const cv = []; // { score, y, kind }
for (let f = 0; f < (argv.includes('--no-cv') ? 0 : folds); f++) {
  const train = pairs.filter((p) => foldOf.get(p.ra) !== f && foldOf.get(p.rb) !== f);
  const test = pairs.filter((p) => foldOf.get(p.ra) === f && foldOf.get(p.rb) === f);
  const beta = fit(train);
  for (const p of test) cv.push({ score: predict(beta, p.x), y: p.y, kind: p.kind, p });
}
const rate = (xs) => {
  const all = xs.reduce((s, p) => s + p.p.count, 0);
  return all ? xs.filter((p) => p.score > THRESHOLD).reduce((s, p) => s + p.p.count, 0) / all : NaN;
};
const kinds = [...new Set(pairs.filter((p) => p.y && !p.contentOnly && p.kind !== 'copy~copy').map((p) => p.kind))].sort();
const full = cv.filter((p) => !p.p.contentOnly);
const cvPos = full.filter((p) => p.y && p.kind !== 'copy~copy');
const cvNeg = full.filter((p) => !p.y);
const co = cv.filter((p) => p.p.contentOnly);
const summary = {
  folds,
  sameReceiptAbove09: +rate(cvPos).toFixed(4),
  sameReceiptPairs: cvPos.length,
  byKind: Object.fromEntries(kinds.map((k) => { const xs = cvPos.filter((p) => p.kind === k); return [k, { above09: +rate(xs).toFixed(4), pairs: xs.length }]; })),
  copyCopyAbove09: +rate(full.filter((p) => p.kind === 'copy~copy')).toFixed(4),
  contentOnly: {
    sameReceiptAbove09: +rate(co.filter((p) => p.y && !p.kind.startsWith('copy~copy'))).toFixed(4),
    differentAbove09: +rate(co.filter((p) => !p.y)).toFixed(5),
  },
  differentAbove09: +rate(cvNeg).toFixed(5),
  differentPairs: cvNeg.reduce((s, p) => s + p.p.count, 0),
};

if (argv.includes('--show-misses')) {
  const show = (c) => console.log(`  ${c.score.toFixed(3)} ${c.p.ra}:${c.p.ka} ~ ${c.p.rb}:${c.p.kb}  ${TERMS.map((t, k) => (c.p.x[k] ? `${t}=${+c.p.x[k].toFixed(2)}` : '')).filter(Boolean).join(' ')}`);
  console.log('same receipt at or below 0.9 (cross-validated):');
  cvPos.filter((c) => c.score <= THRESHOLD).sort((a, b) => a.score - b.score).forEach(show);
  console.log('different receipts above 0.9 (cross-validated):');
  cvNeg.filter((c) => c.score > THRESHOLD).sort((a, b) => b.score - a.score).forEach(show);
}

// ---------- final fit ----------
const beta = fit(pairs);
const model = {
  version: 1,
  bias: +beta[0].toFixed(4),
  weights: Object.fromEntries(TERMS.map((t, k) => [t, +beta[k + 1].toFixed(4)])),
  fitted: {
    script: 'scripts/fit-similarity.mjs',
    data: files.map((f) => path.basename(f)),
    receipts: receipts.length,
    images: images.length,
    samePairs: pairs.filter((p) => p.y && !p.contentOnly).length,
    differentPairs: pairs.filter((p) => !p.y && !p.contentOnly).reduce((s, p) => s + p.count, 0),
    contentOnlyWeight: CONTENT_ONLY_WEIGHT,
    lambda,
    sameDatasetWeight: SAME_DATASET_WEIGHT,
    crossValidated: summary,
  },
};
console.log(JSON.stringify(summary, null, 2));
console.log('weights', JSON.stringify(model.weights), 'bias', model.bias);
if (!argv.includes('--dry-run')) {
  writeFileSync(out, `${JSON.stringify(model, null, 2)}\n`);
  console.log(`written ${path.relative(process.cwd(), out)}`);
}
