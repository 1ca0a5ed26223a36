#!/usr/bin/env node
/**
 * Similarity benchmark (issue 6, "Duplicates and similarity").
 *
 * Samples receipts from the corpus (sroie and indo_receipts_phone by default), makes copies of each at
 * run time in a temporary folder (nothing is written into the repository), reads every original and
 * copy with the real engine (OCR), builds the similarity signature the engine stores with a scan, and
 * scores pairs with the library's scorer:
 *
 * - same receipt: each original against each of its copies (kinds below); goal: score > 0.9 in >= 95 %;
 * - different receipts: every pair of images (originals and copies) of two different receipts; goal:
 *   score > 0.9 in <= 0.5 % of pairs.
 *
 * Copy kinds (random parameters from the seed):
 *   reencode  JPEG at quality 30-70
 *   resize    scaled to 50-85 % (never below 600 px on the long side) or to 120-150 % (under 25 MP), JPEG 85-92
 *   crop      1-4 % cut from each side, JPEG 90
 *   rotate    turned 1.5-5 degrees either way (canvas grows, filled with the paper's border colour), JPEG 90
 *   photo     photographed again: perspective warp (corners moved up to 4 %), on a background, uneven
 *             lighting and a gamma change, sensor noise, a slight blur, JPEG 60-80
 *
 * Receipts are split into two halves by a hash of their id: `--split eval` (default) samples from one,
 * `--split fit` from the other (scripts/fit-similarity.mjs fits the score on a dump of a fit run), so
 * the numbers reported here are never measured on the receipts the weights were fitted on.
 * Pairs of corpus originals labelled as the same purchase (same merchant label, date and total: the
 * corpus holds at least one receipt photographed twice) are reported separately, not as different.
 *
 * Needs the built library: `npx tsc -p tsconfig.json` first.
 *
 *   node bench/similarity.mjs [--corpus PATH] [--receipts 50] [--kinds reencode,resize,crop,rotate,photo]
 *     [--per-kind 1] [--seed 1] [--split eval|fit|all] [--datasets sroie,indo_receipts_phone]
 *     [--workers 1] [--dump FILE] [--keep DIR] [--no-store]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copier, copyBenchOptions, halfOf, mulberry32, MIN_LONG_SIDE } from './copies.mjs';

// ---------- options ----------
const { opt, flag, repo, corpus, kinds } = copyBenchOptions(import.meta.url);
const receiptsWanted = Number(opt('receipts', '50'));
const perKind = Number(opt('per-kind', '1'));
const seed = Number(opt('seed', '1'));
const split = opt('split', 'eval');
if (!['eval', 'fit', 'all'].includes(split)) throw new Error('--split eval|fit|all');
// default: the receipt datasets (photos and scans) when the corpus has them, else every dataset with images
const DEFAULT_DATASETS = ['sroie', 'indo_receipts_phone'];
const datasets = opt('datasets', null)?.split(',').filter(Boolean)
  ?? (DEFAULT_DATASETS.every((d) => existsSync(path.join(corpus, d, 'images'))) ? DEFAULT_DATASETS
    : readdirSync(corpus).filter((d) => existsSync(path.join(corpus, d, 'images'))).sort());
const workers = Number(opt('workers', '1'));
const dumpFile = opt('dump', null);
const keepDir = opt('keep', null);
const THRESHOLD = 0.9;

const dist = (p) => pathToFileURL(path.join(repo, 'dist', p)).href;
const { createEngine } = await import(dist('index.js'));
const { subjectFromExtraction, fingerprintOf } = await import(dist('validate/subject.js'));
const { signatureOf, signatureKeys } = await import(dist('similarity/index.js'));
const { textBoxesOf } = await import(dist('similarity/image.js'));
const { scorePair } = await import(dist('similarity/score.js'));
const { ReceiptStore } = await import(dist('store/store.js'));
const { findSimilarReceipts } = await import(dist('store/similar.js'));

// ---------- deterministic randomness ----------
const rng = mulberry32(seed);

// ---------- sample ----------
const pools = datasets.map((d) => {
  const dir = path.join(corpus, d, 'images');
  if (!existsSync(dir)) throw new Error(`no ${dir} (use --corpus PATH)`);
  const files = readdirSync(dir).filter((f) => /\.(jpe?g|png|webp|tiff?)$/i.test(f)).sort()
    .filter((f) => split === 'all' || halfOf(`${d}/${f}`) === split);
  return { dataset: d, dir, files };
});
const sample = [];
{
  const per = Math.ceil(receiptsWanted / pools.length);
  for (const p of pools) {
    const files = [...p.files];
    for (let i = files.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [files[i], files[j]] = [files[j], files[i]]; }
    for (const f of files.slice(0, Math.min(per, receiptsWanted - sample.length))) {
      const id = `${p.dataset}/${f.replace(/\.[^.]+$/, '')}`;
      const labelFile = path.join(corpus, p.dataset, 'labels', `${path.basename(f).replace(/\.[^.]+$/, '')}.json`);
      const label = existsSync(labelFile) ? JSON.parse(readFileSync(labelFile, 'utf8')) : {};
      sample.push({ id, dataset: p.dataset, file: path.join(p.dir, f), label });
    }
  }
}

// ---------- copies ----------
const makeCopy = copier(rng);

// ---------- read everything ----------
const tmp = keepDir ? (mkdirSync(keepDir, { recursive: true }), keepDir) : mkdtempSync(path.join(os.tmpdir(), 'rk-similarity-'));
const images = []; // { receipt, kind, file, params }
for (const r of sample) {
  const buf = readFileSync(r.file);
  images.push({ receipt: r.id, kind: 'original', file: r.file, params: {} });
  for (const kind of kinds) {
    for (let k = 0; k < perKind; k++) {
      const copy = await makeCopy(kind, buf);
      const file = path.join(tmp, `${r.id.replace(/\//g, '__')}.${kind}${perKind > 1 ? k : ''}.jpg`);
      writeFileSync(file, copy.buf);
      images.push({ receipt: r.id, kind, file, params: copy.params });
    }
  }
}
console.error(`${sample.length} receipts (${datasets.map((d) => `${sample.filter((s) => s.dataset === d).length} ${d}`).join(', ')}), ${images.length} images (${kinds.join(', ')} x ${perKind}), split ${split}, seed ${seed}`);

const engine = await createEngine({ workers });
const started = performance.now();
let done = 0;
async function readOne(im) {
  const t0 = performance.now();
  try {
    const x = await engine.analyze(im.file, { extractLineItems: true });
    const subject = subjectFromExtraction(x);
    im.signature = await signatureOf(x, subject);
    im.subject = subject;
    im.targetRotation = x.targetRotation;
    if (dumpFile) im.textBoxes = textBoxesOf(x.document);
    im.fingerprint = fingerprintOf(subject);
    im.contentHash = x.input.sha256;
  } catch (e) {
    im.error = `${e.code ?? ''} ${e.message}`;
  }
  im.ms = Math.round(performance.now() - t0);
  done++;
  if (process.stderr.isTTY || done % 10 === 0 || done === images.length) {
    const el = (performance.now() - started) / 1000;
    process.stderr.write(`\r  read ${done}/${images.length} (${el.toFixed(0)} s, ETA ${((el / done) * (images.length - done)).toFixed(0)} s)   ${process.stderr.isTTY ? '' : '\n'}`);
  }
}
{
  let next = 0;
  await Promise.all(Array.from({ length: Math.max(1, workers) }, async () => {
    while (next < images.length) await readOne(images[next++]);
  }));
}
process.stderr.write('\n');
await engine.close();
if (!keepDir) rmSync(tmp, { recursive: true, force: true });

const ok = images.filter((i) => i.signature);
const failed = images.filter((i) => !i.signature);

// ---------- score ----------
const labelOf = new Map(sample.map((s) => [s.id, s.label]));
const samePurchase = (a, b) => {
  const la = labelOf.get(a), lb = labelOf.get(b);
  if (!la || !lb || la.date === undefined || la.totalAmount === undefined) return false;
  return (la.merchantName ?? '') === (lb.merchantName ?? '') && la.date === lb.date && la.totalAmount === lb.totalAmount;
};
const positives = []; // { kind, score, a, b }
const negatives = [];
const corpusDuplicates = [];
for (let i = 0; i < images.length; i++) {
  for (let j = i + 1; j < images.length; j++) {
    const a = images[i], b = images[j];
    if (a.receipt === b.receipt) {
      if (a.kind !== 'original' && b.kind !== 'original') continue; // copy vs copy: not a goal, skipped
      const copy = a.kind === 'original' ? b : a;
      if (copy.kind === 'original') continue;
      // a copy that could not be read is a miss (score 0)
      const s = a.signature && b.signature ? scorePair(a.signature, b.signature) : { score: 0, basis: 'unreadable' };
      positives.push({ kind: copy.kind, score: s.score, basis: s.basis, a: a.receipt, file: path.basename(copy.file), params: copy.params });
    } else {
      if (!a.signature || !b.signature) continue;
      const s = scorePair(a.signature, b.signature);
      const sameDataset = a.receipt.split('/')[0] === b.receipt.split('/')[0];
      const ma = labelOf.get(a.receipt)?.merchantName, mb = labelOf.get(b.receipt)?.merchantName;
      const rec = { score: s.score, basis: s.basis, a: `${a.receipt}:${a.kind}`, b: `${b.receipt}:${b.kind}`, sameDataset, sameMerchant: Boolean(ma && ma === mb) };
      if (samePurchase(a.receipt, b.receipt)) corpusDuplicates.push(rec); else negatives.push(rec);
    }
  }
}

// ---------- through the store: does the hook find each copy's original? ----------
let storeCheck = null;
if (!flag('no-store')) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-similarity-store-'));
  const store = new ReceiptStore(path.join(dir, 'scans.db'));
  const originals = ok.filter((i) => i.kind === 'original');
  const trackingOf = new Map();
  for (const o of originals) {
    const trackingId = `t-${trackingOf.size}`;
    trackingOf.set(o.receipt, trackingId);
    store.recordScan({
      trackingId, endpoint: 'campaign-validation', contentHash: o.contentHash, resultKey: 'bench', extractionKey: 'bench',
      perceptualHash: o.signature.image?.ink?.phash ?? null, fingerprint: o.fingerprint, subject: { version: 1, lines: [] },
      similarity: { signature: o.signature, keys: signatureKeys(o.signature) }, result: {},
    });
  }
  let found = 0, flagged = 0, wrongFlagged = 0, copies = 0;
  const t0 = performance.now();
  for (const c of ok.filter((i) => i.kind !== 'original')) {
    copies++;
    const matches = findSimilarReceipts(store, { contentHash: c.contentHash, fingerprint: c.fingerprint, perceptualHash: c.signature.image?.ink?.phash ?? null, signature: c.signature });
    const own = matches.find((m) => m.trackingId === trackingOf.get(c.receipt));
    if (own) found++;
    if (own && own.similarityScore > THRESHOLD) flagged++;
    wrongFlagged += matches.filter((m) => m.trackingId !== trackingOf.get(c.receipt) && m.similarityScore > THRESHOLD
      && ![...trackingOf].some(([rid, t]) => t === m.trackingId && samePurchase(rid, c.receipt))).length;
  }
  storeCheck = { originals: originals.length, copies, found, flagged, wrongFlagged, msPerQuery: +((performance.now() - t0) / Math.max(1, copies)).toFixed(2) };
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

// ---------- report ----------
const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(2)} %` : 'n/a');
const quant = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))] : NaN);
  return `min ${q(0).toFixed(3)}  p1 ${q(0.01).toFixed(3)}  p5 ${q(0.05).toFixed(3)}  p25 ${q(0.25).toFixed(3)}  median ${q(0.5).toFixed(3)}  p75 ${q(0.75).toFixed(3)}  p95 ${q(0.95).toFixed(3)}  p99 ${q(0.99).toFixed(3)}  p99.9 ${q(0.999).toFixed(3)}  max ${q(1).toFixed(3)}`;
};
const histogram = (xs) => {
  const edges = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001];
  return edges.slice(0, -1).map((e, i) => `${e.toFixed(2)}-${Math.min(1, edges[i + 1]).toFixed(2)}: ${xs.filter((x) => x >= e && x < edges[i + 1]).length}`).join('  ');
};
const posHit = positives.filter((p) => p.score > THRESHOLD).length;
const negHit = negatives.filter((p) => p.score > THRESHOLD).length;
console.log(`\nsimilarity benchmark: ${sample.length} receipts, ${images.length} images (${failed.length} unreadable), split ${split}, seed ${seed}`);
console.log(`read: ${(ok.reduce((s, i) => s + i.ms, 0) / 1000).toFixed(0)} s of OCR, median ${[...ok.map((i) => i.ms)].sort((a, b) => a - b)[ok.length >> 1]} ms per image`);
console.log(`\nsame receipt (original vs copy) > ${THRESHOLD}: ${posHit}/${positives.length} = ${pct(posHit, positives.length)}   (goal >= 95 %)`);
for (const k of kinds) {
  const ps = positives.filter((p) => p.kind === k);
  console.log(`  ${k.padEnd(9)} ${String(ps.filter((p) => p.score > THRESHOLD).length).padStart(4)}/${String(ps.length).padEnd(4)} ${pct(ps.filter((p) => p.score > THRESHOLD).length, ps.length).padStart(8)}   ${quant(ps.map((p) => p.score))}`);
}
console.log(`different receipts > ${THRESHOLD}: ${negHit}/${negatives.length} = ${pct(negHit, negatives.length)}   (goal <= 0.5 %)`);
for (const [name, sub] of [['same dataset', negatives.filter((n) => n.sameDataset)], ['same merchant (labelled)', negatives.filter((n) => n.sameMerchant)]]) {
  const hit = sub.filter((n) => n.score > THRESHOLD).length;
  console.log(`  of which ${name}: ${hit}/${sub.length} = ${pct(hit, sub.length)}   ${quant(sub.map((n) => n.score))}`);
}
console.log(`\nscore distributions\n  same receipt:       ${quant(positives.map((p) => p.score))}\n                      ${histogram(positives.map((p) => p.score))}`);
console.log(`  different receipts: ${quant(negatives.map((p) => p.score))}\n                      ${histogram(negatives.map((p) => p.score))}`);
const misses = positives.filter((p) => p.score <= THRESHOLD).sort((a, b) => a.score - b.score);
if (misses.length) {
  console.log(`\nsame-receipt copies at or below ${THRESHOLD} (${misses.length}):`);
  for (const m of misses.slice(0, 25)) console.log(`  ${m.score.toFixed(3)}  ${m.kind.padEnd(8)} ${m.a}  ${JSON.stringify(m.params)}  ${m.basis}`);
}
const worst = negatives.sort((a, b) => b.score - a.score).slice(0, 10);
console.log(`\nhighest-scoring different receipts:`);
for (const n of worst) console.log(`  ${n.score.toFixed(3)}  ${n.a}  ~  ${n.b}  ${n.basis}`);
if (corpusDuplicates.length) {
  console.log(`\ncorpus receipts labelled as the same purchase (not counted as different): ${corpusDuplicates.length} pairs, ${corpusDuplicates.filter((d) => d.score > THRESHOLD).length} scored > ${THRESHOLD}`);
  for (const d of corpusDuplicates.filter((x) => x.a.endsWith(':original') && x.b.endsWith(':original'))) console.log(`  ${d.score.toFixed(3)}  ${d.a}  ~  ${d.b}`);
}
if (storeCheck) {
  console.log(`\nthrough the store (${storeCheck.originals} originals stored, each copy looked up with findSimilarReceipts): original found for ${storeCheck.found}/${storeCheck.copies}, flagged > ${THRESHOLD} ${storeCheck.flagged}/${storeCheck.copies} (${pct(storeCheck.flagged, storeCheck.copies)}), other receipts flagged ${storeCheck.wrongFlagged}, ${storeCheck.msPerQuery} ms per lookup`);
}
if (failed.length) console.log(`\nunreadable: ${failed.map((f) => `${path.basename(f.file)} (${f.error})`).join(', ')}`);

if (dumpFile) {
  writeFileSync(dumpFile, JSON.stringify({
    seed, split, kinds, perKind, corpus,
    receipts: sample.map((s) => ({ id: s.id, dataset: s.dataset, label: { merchantName: s.label.merchantName ?? null, date: s.label.date ?? null, totalAmount: s.label.totalAmount ?? null } })),
    images: images.map((i) => ({
      receipt: i.receipt, kind: i.kind, file: keepDir || i.kind === 'original' ? i.file : null, params: i.params, ms: i.ms, error: i.error ?? null,
      contentHash: i.contentHash ?? null, fingerprint: i.fingerprint ?? null, targetRotation: i.targetRotation ?? null, textBoxes: i.textBoxes ?? null, subject: i.subject ?? null, signature: i.signature ?? null,
    })),
  }));
  console.error(`dump written to ${dumpFile}`);
}
