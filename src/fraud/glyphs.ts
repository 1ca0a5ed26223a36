/**
 * Glyph consistency: each digit printed on a receipt comes from the printer's one font at one size, so
 * a digit resembles the other digits of the receipt closely (after alignment), while a number typed
 * over the original in another font does not. Words are cut into glyphs at the gaps of their ink
 * (OCR gives word boxes only), each glyph is resampled to CELL_W x CELL_H grey, normalised, and compared
 * by normalised cross-correlation (best over small shifts) with the glyphs of the *other* words; a
 * word's score is the mean of its glyphs' best correlations.
 */
import type { Raster } from './raster.js';
import type { WordFeatures } from './words.js';

export const CELL_W = 10, CELL_H = 16;
const SHIFT_X = 1, SHIFT_Y = 1;
/** Cap on reference glyphs (the digit glyphs every scored glyph is compared with). */
export const MAX_CELLS = 300;

interface Cell { word: number; v: Float32Array }

function cellOf(r: Raster, x0: number, y0: number, x1: number, y1: number): Float32Array | undefined {
  const w = x1 - x0, h = y1 - y0;
  if (w < 3 || h < 5) return undefined;
  const v = new Float32Array(CELL_W * CELL_H);
  let mean = 0;
  for (let j = 0; j < CELL_H; j++) {
    for (let i = 0; i < CELL_W; i++) {
      // area-ish sample: the mean of the source pixels under the target pixel (at least one)
      const sx0 = x0 + Math.floor((i * w) / CELL_W), sx1 = Math.max(sx0 + 1, x0 + Math.floor(((i + 1) * w) / CELL_W));
      const sy0 = y0 + Math.floor((j * h) / CELL_H), sy1 = Math.max(sy0 + 1, y0 + Math.floor(((j + 1) * h) / CELL_H));
      let s = 0, n = 0;
      for (let y = sy0; y < sy1; y++) for (let x = sx0; x < sx1; x++) { s += r.gray[y * r.width + x]!; n++; }
      const val = s / n;
      v[j * CELL_W + i] = val;
      mean += val;
    }
  }
  mean /= v.length;
  let norm = 0;
  for (let k = 0; k < v.length; k++) { v[k]! -= mean; norm += v[k]! * v[k]!; }
  if (norm < v.length * 15 * 15) return undefined; // nearly blank: no glyph to compare
  return v;
}

/** Best normalised cross-correlation of two cells over small shifts (overlap only). */
function bestNcc(a: Float32Array, b: Float32Array): number {
  let best = -1;
  for (let sy = -SHIFT_Y; sy <= SHIFT_Y; sy++) {
    for (let sx = -SHIFT_X; sx <= SHIFT_X; sx++) {
      let ab = 0, aa = 0, bb = 0;
      for (let j = Math.max(0, -sy); j < CELL_H - Math.max(0, sy); j++) {
        const ra = j * CELL_W, rb = (j + sy) * CELL_W + sx;
        for (let i = Math.max(0, -sx); i < CELL_W - Math.max(0, sx); i++) {
          const x = a[ra + i]!, y = b[rb + i]!;
          ab += x * y; aa += x * x; bb += y * y;
        }
      }
      const c = ab / Math.sqrt(aa * bb || 1);
      if (c > best) best = c;
    }
  }
  return best;
}

/** A glyph: a run of ink columns in a word box (split when wider than a character), cut to its ink rows. */
interface Glyph { x0: number; y0: number; x1: number; y1: number }

/** Glyphs of a word, by the vertical projection of its ink (gaps between glyphs), tallest-first order kept left to right. */
export function segmentGlyphs(r: Raster, w: WordFeatures): Glyph[] {
  const b = w.box, h = b.y1 - b.y0;
  const level = w.paper - 0.45 * Math.max(1, w.paper - w.ink);
  const cols: number[] = [];
  for (let x = b.x0; x < b.x1; x++) {
    let n = 0;
    for (let y = b.y0; y < b.y1; y++) if (r.gray[y * r.width + x]! < level) n++;
    cols.push(n);
  }
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= cols.length; i++) {
    const ink = i < cols.length && cols[i]! > 0;
    if (ink && start < 0) start = i;
    if (!ink && start >= 0) { runs.push([start, i]); start = -1; }
  }
  const maxW = Math.max(3, 0.8 * h);
  const out: Glyph[] = [];
  for (const [a, z] of runs) {
    const parts = Math.max(1, Math.round((z - a) / (0.6 * h)));
    const pieces = (z - a) > maxW ? parts : 1;
    for (let k = 0; k < pieces; k++) {
      const x0 = b.x0 + a + Math.floor(((z - a) * k) / pieces), x1 = b.x0 + a + Math.floor(((z - a) * (k + 1)) / pieces);
      let y0 = b.y1, y1 = b.y0;
      for (let y = b.y0; y < b.y1; y++) {
        for (let x = x0; x < x1; x++) if (r.gray[y * r.width + x]! < level) { if (y < y0) y0 = y; if (y + 1 > y1) y1 = y + 1; break; }
      }
      // digits are most of the text height: commas, dots and dashes are left out
      if (y1 - y0 >= 0.6 * h && x1 - x0 >= 2) out.push({ x0, y0, x1, y1 });
    }
  }
  return out;
}

/**
 * For the words at `targets` (indices into `words`), the mean best correlation of their glyphs with the
 * glyphs of the *other* words that have digits (of a similar shape: width/height within 30 %); NaN when
 * a word has no comparable glyph. At most MAX_CELLS reference glyphs are used (spread over the page).
 */
export function glyphConsistency(r: Raster, words: WordFeatures[], targets: number[]): Map<number, number> {
  const glyphsOf = (k: number) => segmentGlyphs(r, words[k]!).map((g) => ({ word: k, v: cellOf(r, g.x0, g.y0, g.x1, g.y1), aspect: (g.x1 - g.x0) / Math.max(1, g.y1 - g.y0) }))
    .filter((c): c is Cell & { aspect: number } => !!c.v);
  const digitWords = words.map((w, k) => (w.hasDigit ? k : -1)).filter((k) => k >= 0);
  // reference words spread over the page when there are too many
  const refs: Array<Cell & { aspect: number }> = [];
  const stride = Math.max(1, Math.ceil(digitWords.length / 80));
  for (let i = 0; i < digitWords.length && refs.length < MAX_CELLS; i += stride) refs.push(...glyphsOf(digitWords[i]!));
  const out = new Map<number, number>();
  for (const k of targets) {
    let sum = 0, count = 0;
    for (const c of glyphsOf(k)) {
      let best = -1;
      for (const ref of refs) {
        if (ref.word === k || Math.abs(ref.aspect - c.aspect) > 0.3 * Math.max(ref.aspect, c.aspect)) continue;
        const v = bestNcc(c.v, ref.v);
        if (v > best) best = v;
      }
      if (best > -1) { sum += best; count++; }
    }
    out.set(k, count ? sum / count : NaN);
  }
  return out;
}
