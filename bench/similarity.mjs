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
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';

// ---------- copies (bench/copies.mjs until issue 52; the kinds are those of the header) ----------
const KINDS = ['reencode', 'resize', 'crop', 'rotate', 'photo'];
const MIN_LONG_SIDE = 600;

/**
 * The bench's options, from `argv`: `opt(name, default)` (a value after `--name`),
 * `flag(name)`, the corpus (`--corpus`, default ../shared/corpus beside the repository) and the copy
 * `kinds` (`--kinds`, checked). `--help` prints the calling script's header comment and exits.
 */
function copyBenchOptions(scriptUrl, argv = process.argv.slice(2)) {
  const opt = (name, def) => {
    const i = argv.indexOf(`--${name}`);
    if (i < 0) return def;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
    return v;
  };
  const flag = (name) => argv.includes(`--${name}`);
  if (flag('help')) {
    console.log(readFileSync(fileURLToPath(scriptUrl), 'utf8').split('*/')[0]);
    process.exit(0);
  }
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const corpus = path.resolve(opt('corpus', path.join(repo, '..', 'shared', 'corpus')));
  const kinds = opt('kinds', KINDS.join(',')).split(',').filter(Boolean);
  for (const k of kinds) if (!KINDS.includes(k)) throw new Error(`unknown kind ${k} (${KINDS.join(', ')})`);
  return { opt, flag, repo, corpus, kinds };
}

/** A seeded random number generator (mulberry32): numbers in [0, 1). */
function mulberry32(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The half of the corpus a receipt (`<dataset>/<file>`) is in: 'fit' or 'eval', by a hash of its id. */
const halfOf = (id) => (createHash('sha256').update(id).digest()[0] & 1 ? 'fit' : 'eval');

/** `makeCopy(kind, buf)` -> { buf, params }, drawing its parameters from `rng`. */
function copier(rng) {
  const uni = (lo, hi) => lo + (hi - lo) * rng();
  const pm = () => (rng() < 0.5 ? -1 : 1);
  const gauss = () => {
    const u = Math.max(1e-12, rng()), v = rng();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };

  async function borderColour(img) {
    const { data, info } = await img.clone().resize(64, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = [];
    for (let i = 0; i < 64; i++) for (const [x, y] of [[i, 0], [i, 63], [0, i], [63, i]]) px.push(data.subarray((y * 64 + x) * info.channels, (y * 64 + x) * info.channels + 3));
    const med = (c) => px.map((p) => p[c]).sort((a, b) => a - b)[px.length >> 1];
    return { r: med(0), g: med(1), b: med(2) };
  }

  /** Homography mapping the unit square's corners to four points (for the inverse warp). */
  function homography(src, dst) {
    // solve for h (8 unknowns): dst = H * src
    const A = [], bvec = [];
    for (let i = 0; i < 4; i++) {
      const [x, y] = src[i], [u, v] = dst[i];
      A.push([x, y, 1, 0, 0, 0, -u * x, -u * y]); bvec.push(u);
      A.push([0, 0, 0, x, y, 1, -v * x, -v * y]); bvec.push(v);
    }
    const n = 8;
    const M = A.map((row, i) => [...row, bvec[i]]);
    for (let c = 0; c < n; c++) {
      let p = c;
      for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
      [M[c], M[p]] = [M[p], M[c]];
      for (let r = 0; r < n; r++) {
        if (r === c) continue;
        const f = M[r][c] / M[c][c];
        for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
      }
    }
    const h = M.map((row, i) => row[n] / row[i]);
    return [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1];
  }

  async function photographAgain(buf) {
    const base = sharp(buf).rotate().removeAlpha();
    const { data, info } = await base.clone().raw().toBuffer({ resolveWithObject: true });
    const { width: w, height: h, channels: ch } = info;
    // the receipt on a darker surface, seen from a slightly different angle
    const pad = Math.round(Math.max(w, h) * 0.06);
    const W = w + 2 * pad, H = h + 2 * pad;
    const j = (s) => uni(-s, s);
    const m = 0.04;
    const dst = [
      [pad + j(m) * w, pad + j(m) * h], [pad + w + j(m) * w, pad + j(m) * h],
      [pad + w + j(m) * w, pad + h + j(m) * h], [pad + j(m) * w, pad + h + j(m) * h],
    ];
    const src = [[0, 0], [w, 0], [w, h], [0, h]];
    const Hinv = homography(dst, src); // output pixel -> source pixel
    const bg = [uni(60, 140), uni(60, 140), uni(60, 140)];
    const gamma = uni(0.7, 1.4);
    const light0 = uni(0.7, 1.0), light1 = uni(0.95, 1.1), lightAngle = rng() * 2 * Math.PI;
    const sigma = uni(3, 8);
    const out = Buffer.alloc(W * H * 3);
    const lut = new Float64Array(256);
    for (let i = 0; i < 256; i++) lut[i] = 255 * Math.pow(i / 255, gamma);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const d = Hinv[6] * x + Hinv[7] * y + 1;
        const sx = (Hinv[0] * x + Hinv[1] * y + Hinv[2]) / d, sy = (Hinv[3] * x + Hinv[4] * y + Hinv[5]) / d;
        const t = ((x / W - 0.5) * Math.cos(lightAngle) + (y / H - 0.5) * Math.sin(lightAngle)) + 0.5;
        const light = light0 + (light1 - light0) * Math.min(1, Math.max(0, t));
        const noise = gauss() * sigma;
        for (let c = 0; c < 3; c++) {
          let v;
          if (sx >= 0 && sy >= 0 && sx <= w - 1 && sy <= h - 1) {
            const x0 = Math.floor(sx), y0 = Math.floor(sy), x1 = Math.min(w - 1, x0 + 1), y1 = Math.min(h - 1, y0 + 1);
            const fx = sx - x0, fy = sy - y0;
            const at = (xx, yy) => data[(yy * w + xx) * ch + Math.min(c, ch - 1)];
            v = (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
          } else v = bg[c];
          out[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(lut[Math.round(v)] * light + noise)));
        }
      }
    }
    return { buf: await sharp(out, { raw: { width: W, height: H, channels: 3 } }).blur(uni(0.5, 1.1)).jpeg({ quality: Math.round(uni(60, 80)) }).toBuffer(), params: { gamma: +gamma.toFixed(2), noise: +sigma.toFixed(1) } };
  }

  async function makeCopy(kind, buf) {
    const img = sharp(buf).rotate();
    const meta = await img.metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const w = turned ? meta.height : meta.width, h = turned ? meta.width : meta.height;
    switch (kind) {
      case 'reencode': {
        const q = Math.round(uni(30, 70));
        return { buf: await img.jpeg({ quality: q }).toBuffer(), params: { quality: q } };
      }
      case 'resize': {
        // smaller, but never below MIN_LONG_SIDE px on the long side (the phone crops are ~730 px already:
        // a 40 % copy of one is illegible), or 20-50 % larger
        const floor = Math.min(1, MIN_LONG_SIDE / Math.max(w, h));
        // (larger only while the copy stays under 25 MP: some scans are 60 MP already)
        const up = uni(1.2, 1.5), down = Math.max(floor, uni(0.5, 0.85));
        const f = rng() < 0.7 || w * h * up * up > 25e6 ? down : up;
        return { buf: await img.resize(Math.round(w * f), Math.round(h * f), { fit: 'fill' }).jpeg({ quality: Math.round(uni(85, 92)) }).toBuffer(), params: { factor: +f.toFixed(2) } };
      }
      case 'crop': {
        const l = uni(0.01, 0.04), r = uni(0.01, 0.04), t = uni(0.01, 0.04), b = uni(0.01, 0.04);
        const left = Math.round(w * l), top = Math.round(h * t);
        const width = Math.round(w * (1 - l - r)), height = Math.round(h * (1 - t - b));
        return { buf: await img.extract({ left, top, width, height }).jpeg({ quality: 90 }).toBuffer(), params: { l: +l.toFixed(3), r: +r.toFixed(3), t: +t.toFixed(3), b: +b.toFixed(3) } };
      }
      case 'rotate': {
        const a = pm() * uni(1.5, 5);
        const background = await borderColour(sharp(buf).rotate());
        return { buf: await img.rotate(a, { background }).jpeg({ quality: 90 }).toBuffer(), params: { degrees: +a.toFixed(2) } };
      }
      case 'photo':
        return photographAgain(buf);
      default:
        throw new Error(kind);
    }
  }

  return makeCopy;
}

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
