#!/usr/bin/env node
// 12-megapixel "phone photos" of corpus receipts, for the bench: each receipt enlarged, tilted a few
// degrees, slightly in perspective, lit unevenly and laid on a generated table (wood, tablecloth or
// stone), with a shadow, a vignette and sensor noise, saved as JPEG quality 85 at 2268x4032 (some
// stored 4032x2268 with EXIF orientation 6, as phones do).
//
//   node bench/phone-photos.mjs [--corpus PATH] [--out DIR] [--count 12] [--seed 23]
//   node bench/phone-photos.mjs --real bench/phone-photos-real.json [--mirrors DIR] [--out DIR]
//
// --real: real 9-12 MP phone photos from public repositories instead (see writeReal), as DIR/phone_real;
// time them with `node bench/speed.mjs --corpus DIR --sample phone_real:20` (native tesseract in the same run).
//
// Writes, in the corpus layout, so that `node bench/run.mjs --corpus DIR` scores them as sets of their own:
//   DIR/phone_12mp/images/<id>.jpg, labels/<id>.json (copies), lineitems/<id>.json (copies, when the
//     receipt has them), manifest.json (source file and every drawn parameter per photo);
//   DIR/phone_12mp_source/images|labels|lineitems: symbolic links to the same receipts' original files under
//     the same ids, so one run compares a photo with the image it was made from.
// DIR defaults to .bench-tmp/phone (ignored by git): corpus files are never copied into the repository.
//
// The receipts are chosen by a fixed rule, not by hand: from each dataset of DATASETS in turn, the items
// in the order of sha256(`${seed}:${dataset}:${id}`), until `count` are taken. Every random choice comes
// from a generator seeded with the seed and the photo's number (test/generators/rng.ts): same seed, same photos.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { BENCH_DIR, corpusDir, parseFlags } from './experiment.mjs';
import { rng } from '../test/generators/rng.ts';

const DATASETS = ['us_uk_eu_receipts', 'sroie', 'indo_receipts_phone', 'vn_receipts_phone', 'wildreceipt_world'];
const SHORT = { us_uk_eu_receipts: 'us', sroie: 'sroie', indo_receipts_phone: 'indo', vn_receipts_phone: 'vn', wildreceipt_world: 'ww' };
/** The photo as displayed (portrait), pixels. */
const PHOTO_W = 2268, PHOTO_H = 4032;
/** Tilt of the receipt, degrees, uniform in ±MAX_TILT. */
const MAX_TILT = 8;
const IMAGE_EXT = /\.(jpe?g|png)$/i;

const flags = parseFlags();
const corpus = corpusDir(flags);
const outDir = path.resolve(flags.out ?? path.join(BENCH_DIR, '../.bench-tmp/phone'));
const count = Number(flags.count ?? 12);
const seed = Number(flags.seed ?? 23);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');

/** The receipts: round-robin over DATASETS, each dataset's items in seeded-hash order. */
function chooseReceipts() {
  const queues = DATASETS.map((ds) => {
    const dir = path.join(corpus, ds, 'images');
    const files = fs.readdirSync(dir).filter((f) => IMAGE_EXT.test(f));
    const key = (f) => createHash('sha256').update(`${seed}:${ds}:${f.replace(/\.[^.]+$/, '')}`).digest('hex');
    return files.map((f) => ({ ds, file: f, id: f.replace(/\.[^.]+$/, ''), key: key(f) })).sort((a, b) => (a.key < b.key ? -1 : 1))
      .filter((it) => fs.existsSync(path.join(corpus, ds, 'labels', `${it.id}.json`)));
  });
  const out = [];
  for (let round = 0; out.length < count; round++) {
    let any = false;
    for (const q of queues) if (q[round] && out.length < count) { out.push(q[round]); any = true; }
    if (!any) break;
  }
  return out;
}

// ---------------------------------------------------------------- textures
/** Smooth value noise in [0, 1) on a lattice of hashed values (cell = 1 unit). */
function valueNoise(seedValue) {
  const hash = (x, y) => {
    let h = (x * 374761393 + y * 668265263 + seedValue * 2147483647) | 0;
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  };
  const smooth = (t) => t * t * (3 - 2 * t);
  return (x, y) => {
    const xi = Math.floor(x), yi = Math.floor(y), fx = smooth(x - xi), fy = smooth(y - yi);
    const a = hash(xi, yi), b = hash(xi + 1, yi), c = hash(xi, yi + 1), d = hash(xi + 1, yi + 1);
    return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
  };
}
/** Fractal noise: `octaves` of value noise, each twice as fine and half as strong. */
function fbm(noise, x, y, octaves) {
  let v = 0, amp = 0.5, f = 1, norm = 0;
  for (let o = 0; o < octaves; o++) { v += amp * noise(x * f, y * f); norm += amp; amp /= 2; f *= 2; }
  return v / norm;
}
const mix = (a, b, t) => a + (b - a) * t;
const pick = (r, xs) => xs[Math.floor(r() * xs.length)];

/** A table texture at quarter resolution, RGB: wood planks, a checked tablecloth, or speckled stone. */
function tableTexture(kind, w, h, r) {
  const px = Buffer.alloc(w * h * 3);
  const noise = valueNoise(Math.floor(r() * 1e6));
  const set = (i, c0, c1, c2) => { px[i] = Math.max(0, Math.min(255, c0)); px[i + 1] = Math.max(0, Math.min(255, c1)); px[i + 2] = Math.max(0, Math.min(255, c2)); };
  if (kind === 'wood') {
    const dark = pick(r, [[96, 58, 30], [120, 80, 45], [70, 45, 28], [140, 100, 62]]);
    const light = dark.map((c) => c + 50 + r() * 30);
    const plank = 90 + r() * 80, freq = 0.03 + r() * 0.03;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const seam = Math.abs(((x + 0.5) % plank) - 0.5) < 1.2 ? 0.55 : 1;
      const grain = 0.5 + 0.5 * Math.sin(2 * Math.PI * (x * freq + 5 * fbm(noise, x / 30, y / 220, 3)));
      const t = Math.pow(grain, 0.7) * (0.8 + 0.4 * fbm(noise, x / 6 + 100, y / 60, 2));
      const i = (y * w + x) * 3;
      set(i, mix(dark[0], light[0], t) * seam, mix(dark[1], light[1], t) * seam, mix(dark[2], light[2], t) * seam);
    }
  } else if (kind === 'tablecloth') {
    const colour = pick(r, [[180, 40, 45], [40, 70, 150], [40, 120, 70], [200, 130, 40]]);
    const base = pick(r, [[225, 222, 210], [200, 205, 215], [230, 215, 200]]);
    const check = 30 + r() * 30;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const a = (Math.floor(x / check) % 2) + (Math.floor(y / check) % 2); // 0 base, 1 half tone, 2 full colour
      const weave = 0.9 + 0.1 * Math.sin(x * 2.1) * Math.sin(y * 2.3) + 0.08 * (fbm(noise, x / 40, y / 40, 2) - 0.5);
      const t = a / 2;
      const i = (y * w + x) * 3;
      set(i, mix(base[0], colour[0], t) * weave, mix(base[1], colour[1], t) * weave, mix(base[2], colour[2], t) * weave);
    }
  } else {
    const base = pick(r, [[70, 78, 88], [110, 100, 90], [50, 55, 52], [150, 140, 125]]);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const v = fbm(noise, x / 25, y / 25, 4) - 0.5;
      const speck = noise(x * 1.7 + 500, y * 1.7) > 0.93 ? 50 : noise(x * 1.3, y * 1.3 + 900) < 0.05 ? -35 : 0;
      const i = (y * w + x) * 3;
      set(i, base[0] + 90 * v + speck, base[1] + 80 * v + speck, base[2] + 70 * v + speck);
    }
  }
  return px;
}

// ---------------------------------------------------------------- geometry
/** The homography (3x3, row-major, h33 = 1) taking the four `from` points to the four `to` points. */
function homography(from, to) {
  const A = [], b = [];
  for (let k = 0; k < 4; k++) {
    const [x, y] = from[k], [u, v] = to[k];
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.push(u);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y]); b.push(v);
  }
  // Gaussian elimination with partial pivoting
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let i = c + 1; i < 8; i++) if (Math.abs(A[i][c]) > Math.abs(A[p][c])) p = i;
    [A[c], A[p]] = [A[p], A[c]]; [b[c], b[p]] = [b[p], b[c]];
    for (let i = c + 1; i < 8; i++) {
      const f = A[i][c] / A[c][c];
      for (let j = c; j < 8; j++) A[i][j] -= f * A[c][j];
      b[i] -= f * b[c];
    }
  }
  const h = new Array(8).fill(0);
  for (let i = 7; i >= 0; i--) { let s = b[i]; for (let j = i + 1; j < 8; j++) s -= A[i][j] * h[j]; h[i] = s / A[i][i]; }
  return [...h, 1];
}

// ---------------------------------------------------------------- one photo
async function makePhoto(item, index) {
  const r = rng(seed * 1000 + index);
  const src = path.join(corpus, item.ds, 'images', item.file);
  const meta = await sharp(src).rotate().toBuffer({ resolveWithObject: true }).then((o) => o.info);
  const aspect = meta.width / meta.height;
  // the receipt's size in the photo: most of its height, or of its width for a wide image
  const fitH = 0.6 + 0.25 * r(), fitW = 0.5 + 0.3 * r();
  let rh = Math.round(Math.min(fitH * PHOTO_H, (fitW * PHOTO_W) / aspect));
  let rw = Math.round(rh * aspect);
  const receipt = await sharp(src).rotate().flatten({ background: '#ffffff' }).resize({ width: rw, height: rh, fit: 'fill', kernel: 'lanczos3' })
    .removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  rw = receipt.info.width; rh = receipt.info.height;
  const rc = receipt.info.channels;
  const tilt = (r() * 2 - 1) * MAX_TILT;
  const keystone = 0.05 * r(); // the top edge this much narrower: the phone held a little tilted
  const th = (tilt * Math.PI) / 180, cos = Math.cos(th), sin = Math.sin(th);
  const corners = [[-rw / 2 * (1 - keystone), -rh / 2], [rw / 2 * (1 - keystone), -rh / 2], [rw / 2, rh / 2], [-rw / 2, rh / 2]]
    .map(([x, y]) => [x * cos - y * sin, x * sin + y * cos]);
  const spanX = Math.max(...corners.map((c) => c[0])) - Math.min(...corners.map((c) => c[0]));
  const spanY = Math.max(...corners.map((c) => c[1])) - Math.min(...corners.map((c) => c[1]));
  const cx = PHOTO_W / 2 + (r() * 2 - 1) * Math.max(0, (PHOTO_W - spanX) / 2 - 40);
  const cy = PHOTO_H / 2 + (r() * 2 - 1) * Math.max(0, (PHOTO_H - spanY) / 2 - 40);
  const quad = corners.map(([x, y]) => [x + cx, y + cy]);
  // photo pixel -> receipt pixel
  const inv = homography(quad, [[0, 0], [rw, 0], [rw, rh], [0, rh]]);
  const toReceipt = (x, y) => {
    const d = inv[6] * x + inv[7] * y + inv[8];
    return [(inv[0] * x + inv[1] * y + inv[2]) / d, (inv[3] * x + inv[4] * y + inv[5]) / d];
  };

  // the table, at quarter resolution, enlarged
  const kind = pick(r, ['wood', 'tablecloth', 'stone']);
  const qw = Math.ceil(PHOTO_W / 4), qh = Math.ceil(PHOTO_H / 4);
  const table = await sharp(tableTexture(kind, qw, qh, r), { raw: { width: qw, height: qh, channels: 3 } })
    .resize({ width: PHOTO_W, height: PHOTO_H, kernel: 'cubic' }).raw().toBuffer();
  // the receipt's shadow: its outline at 1/8 scale, blurred, shifted away from the light
  const sw = Math.ceil(PHOTO_W / 8), sh = Math.ceil(PHOTO_H / 8);
  const outline = Buffer.alloc(sw * sh);
  for (let y = 0; y < sh; y++) for (let x = 0; x < sw; x++) {
    const [u, v] = toReceipt(x * 8 + 4, y * 8 + 4);
    if (u >= 0 && u < rw && v >= 0 && v < rh) outline[y * sw + x] = 255;
  }
  const shadowShift = [Math.round(2 + 4 * r()), Math.round(2 + 4 * r())];
  const shadow = await sharp(outline, { raw: { width: sw, height: sh, channels: 1 } }).blur(3 + 3 * r())
    .resize({ width: PHOTO_W, height: PHOTO_H, kernel: 'linear' }).raw().toBuffer();
  const shadowStrength = 0.3 + 0.3 * r();

  // light: brighter on one side (paper from about 190 to 245), a warm or cool cast, a vignette
  const lightAngle = r() * 2 * Math.PI, lx = Math.cos(lightAngle), ly = Math.sin(lightAngle);
  const lightLow = 0.76 + 0.1 * r(), lightHigh = 0.93 + 0.05 * r();
  const cast = pick(r, [[1, 0.97, 0.9], [1, 1, 1], [0.95, 0.98, 1], [1, 0.98, 0.94]]);
  const vignette = 0.2 + 0.2 * r();
  const halfDiag = Math.hypot(PHOTO_W, PHOTO_H) / 2;
  const noise = rng(seed * 7919 + index);
  const out = Buffer.alloc(PHOTO_W * PHOTO_H * 3);
  for (let y = 0; y < PHOTO_H; y++) {
    for (let x = 0; x < PHOTO_W; x++) {
      const i = y * PHOTO_W + x, o = i * 3;
      const dx = x - PHOTO_W / 2, dy = y - PHOTO_H / 2;
      const light = mix(lightLow, lightHigh, 0.5 + 0.5 * ((dx * lx + dy * ly) / halfDiag)) * (1 - vignette * ((dx * dx + dy * dy) / (halfDiag * halfDiag)));
      const [u, v] = toReceipt(x + 0.5, y + 0.5);
      let c0, c1, c2;
      if (u >= 0 && u < rw - 1 && v >= 0 && v < rh - 1) {
        const u0 = Math.floor(u), v0 = Math.floor(v), fu = u - u0, fv = v - v0;
        const p = (v0 * rw + u0) * rc, q = p + rw * rc;
        const bil = (k) => (receipt.data[p + k] * (1 - fu) + receipt.data[p + rc + k] * fu) * (1 - fv) + (receipt.data[q + k] * (1 - fu) + receipt.data[q + rc + k] * fu) * fv;
        c0 = bil(0); c1 = bil(1); c2 = bil(2);
      } else {
        const sx = Math.min(PHOTO_W - 1, Math.max(0, x - shadowShift[0] * 8)), sy = Math.min(PHOTO_H - 1, Math.max(0, y - shadowShift[1] * 8));
        const dark = 1 - shadowStrength * (shadow[sy * PHOTO_W + sx] / 255);
        c0 = table[o] * dark; c1 = table[o + 1] * dark; c2 = table[o + 2] * dark;
      }
      const n = (noise() + noise() + noise() - 1.5) * 6; // sensor noise, about ±3 levels
      out[o] = Math.max(0, Math.min(255, c0 * light * cast[0] + n));
      out[o + 1] = Math.max(0, Math.min(255, c1 * light * cast[1] + n));
      out[o + 2] = Math.max(0, Math.min(255, c2 * light * cast[2] + n));
    }
  }
  // stored as the camera does: every third photo sideways (4032x2268) with EXIF orientation 6
  const exif = index % 3 === 2;
  let img = sharp(out, { raw: { width: PHOTO_W, height: PHOTO_H, channels: 3 } }).blur(0.6);
  if (exif) img = sharp(await img.raw().toBuffer(), { raw: { width: PHOTO_W, height: PHOTO_H, channels: 3 } }).rotate(270).withMetadata({ orientation: 6 });
  const jpeg = await img.jpeg({ quality: 85 }).toBuffer();
  return {
    jpeg,
    params: {
      source: `${item.ds}/images/${item.file}`, sourceSize: [meta.width, meta.height], receiptSize: [rw, rh], tilt: Math.round(tilt * 100) / 100,
      keystone: Math.round(keystone * 1000) / 1000, centre: [Math.round(cx), Math.round(cy)], quad: quad.map(([x, y]) => [Math.round(x), Math.round(y)]),
      table: kind, light: [Math.round(lightLow * 100) / 100, Math.round(lightHigh * 100) / 100], vignette: Math.round(vignette * 100) / 100,
      stored: exif ? `${PHOTO_H}x${PHOTO_W}, EXIF orientation 6` : `${PHOTO_W}x${PHOTO_H}`,
    },
  };
}

// ---------------------------------------------------------------- real photos
/**
 * --real MANIFEST: real 9-12 MP phone photos of receipts from public repositories (the manifest: repo, commit,
 * path, sha256, and the total and currency where the photo shows them clearly), read from local copies of
 * those repositories (bare git directories `<mirrors>/<owner>+<name>/repo`, as the fetch tool writes them;
 * --mirrors, default /work/.mirror), sha256 checked, written as DIR/phone_real in the corpus layout.
 */
async function writeReal(manifestFile) {
  const { execFileSync } = await import('node:child_process');
  const mirrors = path.resolve(flags.mirrors ?? '/work/.mirror');
  const { photos } = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const set = path.join(outDir, 'phone_real');
  fs.rmSync(set, { recursive: true, force: true });
  for (const sub of ['images', 'labels']) fs.mkdirSync(path.join(set, sub), { recursive: true });
  let n = 0;
  for (const ph of photos) {
    const git = path.join(mirrors, ph.repo.replace('/', '+'), 'repo');
    let bytes;
    try { bytes = execFileSync('git', ['--git-dir', git, 'show', `${ph.commit}:${ph.path}`], { maxBuffer: 64 << 20 }); } catch {
      process.stderr.write(`phone-photos: ${ph.repo} is not in ${mirrors} (fetch it first): ${ph.path} skipped\n`);
      continue;
    }
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (sha !== ph.sha256) throw new Error(`phone-photos: sha256 differs from the manifest: ${ph.repo}@${ph.commit} ${ph.path}`);
    const id = `real-${sha.slice(0, 12)}`;
    fs.writeFileSync(path.join(set, 'images', `${id}${path.extname(ph.path).toLowerCase() || '.jpg'}`), bytes);
    const label = { ...(ph.total != null ? { totalAmount: Number(ph.total) } : {}), ...(ph.currency ? { currency: ph.currency } : {}) };
    fs.writeFileSync(path.join(set, 'labels', `${id}.json`), JSON.stringify(label) + '\n');
    n++;
  }
  fs.writeFileSync(path.join(set, 'manifest.json'), JSON.stringify({ from: path.relative(process.cwd(), manifestFile), photos }, null, 2) + '\n');
  process.stderr.write(`phone-photos: ${n} of ${photos.length} real photos in ${set}\n`);
}

// ---------------------------------------------------------------- main
if (flags.real) { await writeReal(path.resolve(flags.real)); process.exit(0); }
const items = chooseReceipts();
const photoSet = path.join(outDir, 'phone_12mp'), sourceSet = path.join(outDir, 'phone_12mp_source');
for (const dir of [photoSet, sourceSet]) {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const sub of ['images', 'labels']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
}
const manifest = { seed, count, corpus, size: `${PHOTO_W}x${PHOTO_H}`, items: {} };
for (const [k, item] of items.entries()) {
  const t0 = performance.now();
  const id = `${SHORT[item.ds]}-${item.id}`;
  const { jpeg, params } = await makePhoto(item, k);
  fs.writeFileSync(path.join(photoSet, 'images', `${id}.jpg`), jpeg);
  const ext = path.extname(item.file);
  fs.symlinkSync(path.join(corpus, item.ds, 'images', item.file), path.join(sourceSet, 'images', `${id}${ext}`));
  for (const sub of ['labels', 'lineitems']) {
    const from = path.join(corpus, item.ds, sub, `${item.id}.json`);
    if (!fs.existsSync(from)) continue;
    for (const set of [photoSet, sourceSet]) fs.mkdirSync(path.join(set, sub), { recursive: true });
    fs.copyFileSync(from, path.join(photoSet, sub, `${id}.json`));
    fs.symlinkSync(from, path.join(sourceSet, sub, `${id}.json`));
  }
  manifest.items[id] = params;
  process.stderr.write(`phone-photos: ${k + 1}/${items.length} ${id} (${params.table}, tilt ${params.tilt}°, ${params.stored}) ${Math.round(performance.now() - t0)} ms\n`);
}
fs.writeFileSync(path.join(photoSet, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
process.stderr.write(`phone-photos: ${items.length} photos in ${photoSet}, their originals linked in ${sourceSet}\n`);
