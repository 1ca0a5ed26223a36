/**
 * Near-duplicate copies of a receipt image for the similarity benches (bench/similarity.mjs,
 * and, until issue 52, bench/image-hash.mjs): the kinds of copy, each with random parameters drawn from the caller's `rng`
 * (a function returning numbers in [0, 1)), so a seed gives the same copies in every bench.
 *
 *   reencode  JPEG at quality 30-70
 *   resize    scaled to 50-85 % (never below 600 px on the long side) or to 120-150 % (under 25 MP), JPEG 85-92
 *   crop      1-4 % cut from each side, JPEG 90
 *   rotate    turned 1.5-5 degrees either way (canvas grows, filled with the paper's border colour), JPEG 90
 *   photo     photographed again: perspective warp (corners moved up to 4 %), on a background, uneven
 *             lighting and a gamma change, sensor noise, a slight blur, JPEG 60-80
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const KINDS = ['reencode', 'resize', 'crop', 'rotate', 'photo'];
export const MIN_LONG_SIDE = 600;

/**
 * The options the copy benches share, from `argv`: `opt(name, default)` (a value after `--name`),
 * `flag(name)`, the corpus (`--corpus`, default ../shared/corpus beside the repository) and the copy
 * `kinds` (`--kinds`, checked). `--help` prints the calling script's header comment and exits.
 */
export function copyBenchOptions(scriptUrl, argv = process.argv.slice(2)) {
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
export function mulberry32(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The half of the corpus a receipt (`<dataset>/<file>`) is in: 'fit' or 'eval', by a hash of its id. */
export const halfOf = (id) => (createHash('sha256').update(id).digest()[0] & 1 ? 'fit' : 'eval');

/** `makeCopy(kind, buf)` -> { buf, params }, drawing its parameters from `rng`. */
export function copier(rng) {
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
