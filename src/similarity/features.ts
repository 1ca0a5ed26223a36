/**
 * Pair features: how two scans' signatures compare, one number per measure, `null` when a side lacks
 * what the measure needs (no image, no total read, ...). score.ts turns them into one calibrated score.
 */
import type { ContentSignature } from './content.js';
import { TEXT_SKETCH } from './content.js';
import type { ImageSignature, ImageView } from './image.js';
import { PROFILE_BINS, THUMB_H, THUMB_W } from './image.js';
import { hammingDistance } from './phash.js';
import { editDistance } from '../validate/names.js';

export interface PairFeatures {
  /** Best correlation (-1..1) of the ink-density thumbnails over small shifts. */
  thumbCorr: number | null;
  /** Best correlation (-1..1) of the row profiles over small shifts. */
  profileCorr: number | null;
  /** Hamming distance of the DCT hashes / 64. */
  phashDist: number | null;
  /** |ln(aspect a / aspect b)| of the text areas. */
  aspectDiff: number | null;
  /** 1 same total, 0 different; null when a side has none. */
  total: number | null;
  /** 1 same day, 0 different. */
  date: number | null;
  /** Receipt/invoice number: 1 equal, 0.5 one edit apart (6+ characters), 0 different. */
  number: number | null;
  /** 1 a printed time in common, 0 times on both and none in common. */
  time: number | null;
  /** Merchant name similarity, 1 - edit distance / length. */
  merchant: number | null;
  /** Dice overlap of the line-end amounts (multisets); null unless both have 3+. */
  amounts: number | null;
  /** Dice overlap of the 4+ digit runs; null unless both have 2+. */
  digits: number | null;
  /** Dice overlap of the texts' character trigrams (estimated from the sketches); null unless both have 20+. */
  text: number | null;
}

export function pairFeatures(
  a: { image: ImageSignature | null; content: ContentSignature },
  b: { image: ImageSignature | null; content: ContentSignature },
): PairFeatures {
  return { ...compareImages(a.image, b.image), ...contentFeatures(a.content, b.content) };
}

export type ContentFeatures = Omit<PairFeatures, keyof ImageFeatures>;

/** The content half of the pair features (cheap). */
export function contentFeatures(ca: ContentSignature, cb: ContentSignature): ContentFeatures {
  return {
    total: ca.total !== null && cb.total !== null ? (Math.abs(ca.total - cb.total) < 0.005 ? 1 : 0) : null,
    date: ca.date && cb.date ? (ca.date === cb.date ? 1 : 0) : null,
    number: ca.number && cb.number ? numberMatch(ca.number, cb.number) : null,
    time: ca.times.length && cb.times.length ? (ca.times.some((t) => cb.times.includes(t)) ? 1 : 0) : null,
    merchant: ca.merchant && cb.merchant ? 1 - editDistance(ca.merchant, cb.merchant) / Math.max(ca.merchant.length, cb.merchant.length) : null,
    amounts: ca.amounts.length >= 3 && cb.amounts.length >= 3 ? multisetDice(ca.amounts, cb.amounts) : null,
    digits: ca.digits.length >= 2 && cb.digits.length >= 2 ? setDice(ca.digits, cb.digits) : null,
    text: ca.textSize >= 20 && cb.textSize >= 20 ? sketchDice(ca.text, cb.text) : null,
  };
}

/**
 * The smallest aspect difference of the text-area measures both pages have (what the image terms
 * could at best include, without the costly alignment); null when they have none in common (then
 * compareImages gives nulls too).
 */
export function smallestAspectDiff(a: ImageSignature | null, b: ImageSignature | null): number | null {
  if (!a || !b) return null;
  let aspect: number | null = null;
  for (const [va, vb] of [[a.text, b.text], [a.ink, b.ink]] as Array<[ImageView | null, ImageView | null]>) {
    if (!va || !vb) continue;
    const d = va.aspect > 0 && vb.aspect > 0 ? Math.abs(Math.log(va.aspect / vb.aspect)) : 0;
    aspect = aspect === null ? d : Math.min(aspect, d);
  }
  return aspect;
}

export function compareImagesOf(a: ImageSignature | null, b: ImageSignature | null): ImageFeatures {
  return compareImages(a, b);
}

export type ImageFeatures = Pick<PairFeatures, 'thumbCorr' | 'profileCorr' | 'phashDist' | 'aspectDiff'>;

/** The two pages compared through each text-area measure both have; the better-agreeing one counts. */
function compareImages(a: ImageSignature | null, b: ImageSignature | null): ImageFeatures {
  let best: ImageFeatures = { thumbCorr: null, profileCorr: null, phashDist: null, aspectDiff: null };
  if (!a || !b) return best;
  for (const [va, vb] of [[a.text, b.text], [a.ink, b.ink]] as Array<[ImageView | null, ImageView | null]>) {
    if (!va || !vb) continue;
    const f = compareViews(va, vb);
    if (best.thumbCorr === null || f.thumbCorr! > best.thumbCorr) best = f;
  }
  return best;
}

function compareViews(a: ImageView, b: ImageView): ImageFeatures {
  const pa = bytes(a.profile), ta = bytes(a.thumb);
  let best: ImageFeatures | null = null;
  // b as stored, and turned 180° (the OCR may have decided the orientation of one copy wrongly)
  for (const flip of [false, true]) {
    const pb = flip ? reversed(bytes(b.profile)) : bytes(b.profile);
    const tb = flip ? reversed(bytes(b.thumb)) : bytes(b.thumb);
    const fit = alignProfiles(pa, pb);
    const thumbCorr = alignedThumbCorrelation(ta, tb, fit);
    if (!best || thumbCorr > best.thumbCorr!) {
      best = {
        thumbCorr,
        profileCorr: fit.r,
        phashDist: flip ? null : hammingDistance(a.phash, b.phash) / 64,
        aspectDiff: a.aspect > 0 && b.aspect > 0 ? Math.abs(Math.log(a.aspect / b.aspect)) : null,
      };
    }
  }
  if (best!.phashDist === null) best!.phashDist = 0.5;
  return best!;
}

function reversed(v: Uint8Array): Uint8Array {
  const out = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[v.length - 1 - i]!;
  return out;
}

/** y in b = scale * (y in a - centre) + centre + shift, in profile bins. */
interface Alignment { scale: number; shift: number; r: number }

/** The scale (0.9..1.1) and shift (±6 bins) of b's rows that best correlate the two row profiles. */
export function alignProfiles(a: Uint8Array, b: Uint8Array): Alignment {
  const n = a.length;
  const sa = smooth1(a), sb = smooth1(b);
  let best: Alignment = { scale: 1, shift: 0, r: -1 };
  for (let k = 0; k <= 10; k++) {
    const scale = 0.9 + 0.02 * k;
    for (let shift = -6; shift <= 6; shift += 1) {
      const r = profileCorrelation(sa, sb, scale, shift);
      if (r > best.r) best = { scale, shift, r };
    }
  }
  return best;
}

/** Pearson correlation of a with b resampled at scale * (i - centre) + centre + shift (overlap only; -1 under 60 %). */
function profileCorrelation(a: Float64Array, b: Float64Array, scale: number, shift: number): number {
  const n = a.length, c = n / 2;
  let k = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (let i = 0; i < n; i++) {
    const x = scale * (i + 0.5 - c) + c + shift - 0.5;
    if (x < 0 || x > n - 1) continue;
    const j = Math.floor(x), f = x - j;
    const vb = f === 0 ? b[j]! : b[j]! * (1 - f) + b[j + 1]! * f;
    const va = a[i]!;
    k++; sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb;
  }
  return pearson(k, n, sa, sb, saa, sbb, sab);
}

function pearson(k: number, n: number, sa: number, sb: number, saa: number, sbb: number, sab: number): number {
  if (k < 4 || k < n * 0.6) return -1;
  const cov = sab - (sa * sb) / k, varA = saa - (sa * sa) / k, varB = sbb - (sb * sb) / k;
  return varA > 0 && varB > 0 ? cov / Math.sqrt(varA * varB) : 0;
}

/** [1 2 1] smoothing of a profile. */
function smooth1(v: Uint8Array): Float64Array {
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[Math.max(0, i - 1)]! + 2 * v[i]! + v[Math.min(v.length - 1, i + 1)]!) / 4;
  return out;
}

/**
 * Thumbnail correlation with b's rows mapped by the profile alignment, best over a small sideways
 * stretch and shift (a crop or a perspective changes the width of the text area too).
 */
function alignedThumbCorrelation(a: Uint8Array, b: Uint8Array, fit: Alignment): number {
  const w = THUMB_W, h = THUMB_H;
  const sa = smooth(a), sb = smooth(b);
  const rowShift = fit.shift * (h / PROFILE_BINS);
  let best = -1;
  for (const xs of [0.94, 1, 1.06]) {
    for (const dx of [-0.5, 0, 0.5]) {
      let k = 0, s1 = 0, s2 = 0, s11 = 0, s22 = 0, s12 = 0;
      for (let y = 0; y < h; y++) {
        const yb = fit.scale * (y + 0.5 - h / 2) + h / 2 + rowShift - 0.5;
        if (yb < -0.01 || yb > h - 0.99) continue;
        const cy = Math.min(h - 1, Math.max(0, yb)), y0 = Math.floor(cy), y1 = Math.min(h - 1, y0 + 1), fy = cy - y0;
        for (let x = 0; x < w; x++) {
          const xb = xs * (x + 0.5 - w / 2) + w / 2 + dx - 0.5;
          if (xb < -0.01 || xb > w - 0.99) continue;
          const cx = Math.min(w - 1, Math.max(0, xb)), x0 = Math.floor(cx), x1 = Math.min(w - 1, x0 + 1), fx = cx - x0;
          const vb = (sb[y0 * w + x0]! * (1 - fx) + sb[y0 * w + x1]! * fx) * (1 - fy) + (sb[y1 * w + x0]! * (1 - fx) + sb[y1 * w + x1]! * fx) * fy;
          const va = sa[y * w + x]!;
          k++; s1 += va; s2 += vb; s11 += va * va; s22 += vb * vb; s12 += va * vb;
        }
      }
      const r = pearson(k, w * h, s1, s2, s11, s22, s12);
      if (r > best) best = r;
    }
  }
  return best;
}

/** [1 2 1] smoothing across and down (sub-cell misalignment then costs little). */
function smooth(v: Uint8Array): Float64Array {
  const w = THUMB_W, h = THUMB_H;
  const tmp = new Float64Array(w * h), out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const l = v[y * w + Math.max(0, x - 1)]!, c = v[y * w + x]!, r = v[y * w + Math.min(w - 1, x + 1)]!;
    tmp[y * w + x] = (l + 2 * c + r) / 4;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const u = tmp[Math.max(0, y - 1) * w + x]!, c = tmp[y * w + x]!, d = tmp[Math.min(h - 1, y + 1) * w + x]!;
    out[y * w + x] = (u + 2 * c + d) / 4;
  }
  return out;
}

const cache = new Map<string, Uint8Array>();
function bytes(b64: string): Uint8Array {
  let v = cache.get(b64);
  if (!v) {
    v = new Uint8Array(Buffer.from(b64, 'base64'));
    if (cache.size > 4096) cache.clear();
    cache.set(b64, v);
  }
  return v;
}

function numberMatch(a: string, b: string): number {
  if (a === b) return 1;
  if (Math.min(a.length, b.length) >= 6 && editDistance(a, b, 1) <= 1) return 0.5;
  return 0;
}

/** Dice coefficient of two sorted arrays taken as multisets. */
export function multisetDice(a: readonly number[], b: readonly number[]): number {
  let i = 0, j = 0, common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { common++; i++; j++; } else if (a[i]! < b[j]!) i++; else j++;
  }
  return (2 * common) / (a.length + b.length);
}

/**
 * Dice coefficient of two sets from their bottom-k sketches (ascending hashes, at most k each, all of a
 * set when it is smaller): the Jaccard index is estimated on the k smallest hashes of the union, which
 * both sketches hold (exact when both sets fit in their sketches).
 */
export function sketchDice(a: readonly number[], b: readonly number[], k = TEXT_SKETCH): number {
  let i = 0, j = 0, seen = 0, both = 0;
  while (seen < k && (i < a.length || j < b.length)) {
    const va = i < a.length ? a[i]! : Infinity, vb = j < b.length ? b[j]! : Infinity;
    if (va === vb) { both++; i++; j++; } else if (va < vb) i++; else j++;
    seen++;
  }
  const jaccard = seen ? both / seen : 0;
  return (2 * jaccard) / (1 + jaccard);
}

/** Dice coefficient of two sets (arrays of distinct values). */
export function setDice<T>(a: readonly T[], b: readonly T[]): number {
  const s = new Set(a);
  let common = 0;
  for (const x of b) if (s.has(x)) common++;
  return (2 * common) / (a.length + b.length);
}
