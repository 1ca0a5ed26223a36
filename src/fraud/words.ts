/**
 * What each OCR word looks like in the pixels: text height, ink and paper levels, edge sharpness,
 * ink coverage and the noise of the paper around the glyphs. A number that was typed over a filled
 * rectangle, or pasted from another print, looks unlike the words printed with it.
 */
import type { Box, Document, Line, Word } from '../document/types.js';
import type { Raster } from './raster.js';
import { quantile, scaledBox } from './raster.js';

export interface WordFeatures {
  /** Index of the line in Document.lines and of the word in the line. */
  line: number;
  word: number;
  text: string;
  /** Box in analysis pixels. */
  box: Box;
  /** Height of the box, analysis pixels. */
  height: number;
  hasDigit: boolean;
  confidence: number;
  /** Paper level (90th percentile of grey in the padded box) and ink level (5th percentile in the box). */
  paper: number;
  ink: number;
  /** 90th percentile of the grey gradient magnitude in the box, divided by the contrast (paper - ink). */
  sharpness: number;
  /** Share of the box darker than halfway between paper and ink. */
  inkShare: number;
  /**
   * Mean absolute Laplacian of the paper pixels around and between the glyphs (pixels whose 3x3
   * neighbourhood spans at most a small range): the paper's noise. NaN when too few paper pixels.
   */
  paperNoise: number;
  /** Paper pixels the noise was measured on (sampled pixels times the sampling area). */
  paperPixels: number;
  /**
   * Standard deviation of the grey of the ink's core (dark pixels whose 3x3 neighbourhood is all dark):
   * print and photographs vary, a glyph filled with one colour does not. NaN with too few core pixels.
   */
  inkNoise: number;
  /** Box height over the median box height of the words of its line (1 for a lone word). */
  heightRatio: number;
  /**
   * Spread of the darkest ink (pixels within 30 % of the contrast from the ink level) over the contrast:
   * printed and photographed strokes are unevenly dark, a glyph drawn in one colour is even.
   */
  inkSpread: number;
  /**
   * Among edge pixels of the box (3x3 range over half the contrast), the share with a value well
   * between the range's ends: anti-aliased or blurred edges have many, thresholded print few.
   */
  edgeMidtones: number;
}

/** Words too small to measure are left out. */
const MIN_HEIGHT = 6;

/** The padded box of a word: 35 % of its height around it. */
export function padBox(b: Box, r: Pick<Raster, 'width' | 'height'>, f = 0.35): Box {
  const p = Math.max(2, Math.round((b.y1 - b.y0) * f));
  return { x0: Math.max(0, b.x0 - p), y0: Math.max(0, b.y0 - p), x1: Math.min(r.width, b.x1 + p), y1: Math.min(r.height, b.y1 + p) };
}

/** The q-quantile of values counted in a 256-bin histogram (bin index = value). */
function histQuantile(hist: Uint32Array, total: number, q: number): number {
  if (!total) return NaN;
  const target = q * (total - 1);
  let seen = 0;
  for (let v = 0; v < hist.length; v++) {
    seen += hist[v]!;
    if (seen > target) return v;
  }
  return hist.length - 1;
}

/** Features of one word, or undefined when it is too small. */
export function wordFeatures(r: Raster, w: Word, line: number, index: number): WordFeatures | undefined {
  const box = scaledBox(w.box, r);
  const h = box.y1 - box.y0, wd = box.x1 - box.x0;
  if (h < MIN_HEIGHT || wd < 3) return undefined;
  const { gray, width, height } = r;
  // large text (high-resolution scans) is sampled: every `step`-th row and column
  const step = Math.max(1, Math.floor(h / 24));
  const inner = new Uint32Array(256), outer = new Uint32Array(256);
  let innerN = 0, outerN = 0;
  const padded = padBox(box, r);
  for (let y = padded.y0; y < padded.y1; y += step) {
    const inY = y >= box.y0 && y < box.y1;
    for (let x = padded.x0; x < padded.x1; x += step) {
      const v = gray[y * width + x]!;
      outer[v]!++; outerN++;
      if (inY && x >= box.x0 && x < box.x1) { inner[v]!++; innerN++; }
    }
  }
  const paper = histQuantile(outer, outerN, 0.9);
  const ink = histQuantile(inner, innerN, 0.05);
  const contrast = Math.max(1, paper - ink);
  const half = (paper + ink) / 2;
  let dark = 0, gradN = 0;
  const grads = new Uint32Array(256);
  for (let y = Math.max(1, box.y0); y < Math.min(height - 1, box.y1); y += step) {
    for (let x = Math.max(1, box.x0); x < Math.min(width - 1, box.x1); x += step) {
      const i = y * width + x;
      if (gray[i]! < half) dark++;
      const gx = gray[i + 1]! - gray[i - 1]!, gy = gray[i + width]! - gray[i - width]!;
      grads[Math.min(255, Math.round(Math.sqrt(gx * gx + gy * gy) / 2))]!++;
      gradN++;
    }
  }
  // paper noise: pixels of the padded box whose 3x3 neighbourhood is nearly flat
  const flatRange = Math.max(6, 0.15 * contrast);
  // darkest ink: its spread
  const darkLevel = ink + 0.3 * contrast;
  let ds = 0, dss = 0, dn = 0;
  for (let v = 0; v <= Math.min(255, Math.floor(darkLevel)); v++) { const c = inner[v]!; ds += v * c; dss += v * v * c; dn += c; }
  const inkSpread = dn >= 8 ? Math.sqrt(Math.max(0, dss / dn - (ds / dn) ** 2)) / contrast : NaN;
  // ink core: dark pixels whose 3x3 neighbourhood is all dark
  const coreLevel = ink + contrast * 0.35;
  let noise = 0, flat = 0, cs = 0, css = 0, core = 0, edges = 0, mids = 0;
  for (let y = Math.max(1, padded.y0); y < Math.min(height - 1, padded.y1); y += step) {
    const inY = y >= box.y0 && y < box.y1;
    for (let x = Math.max(1, padded.x0); x < Math.min(width - 1, padded.x1); x += step) {
      const i = y * width + x;
      let lo = 255, hi = 0;
      for (let dy = -width; dy <= width; dy += width) {
        for (let dx = -1; dx <= 1; dx++) { const v = gray[i + dy + dx]!; if (v < lo) lo = v; if (v > hi) hi = v; }
      }
      const v = gray[i]!;
      if (inY && x >= box.x0 && x < box.x1 && hi - lo > 0.5 * contrast) {
        edges++;
        if (v > lo + 0.25 * (hi - lo) && v < hi - 0.25 * (hi - lo)) mids++;
      }
      if (hi - lo <= flatRange && lo >= half) {
        noise += Math.abs(4 * v - gray[i - 1]! - gray[i + 1]! - gray[i - width]! - gray[i + width]!) / 4;
        flat++;
      } else if (inY && x >= box.x0 && x < box.x1 && hi <= coreLevel) {
        cs += v; css += v * v; core++;
      }
    }
  }
  return {
    line, word: index, text: w.text, box, height: h, hasDigit: /\d/.test(w.text), confidence: w.confidence,
    paper, ink, sharpness: histQuantile(grads, gradN, 0.9) / contrast, inkShare: dark / Math.max(1, innerN),
    paperNoise: flat >= 30 ? noise / flat : NaN, paperPixels: flat * step * step,
    inkNoise: core >= 12 ? Math.sqrt(Math.max(0, css / core - (cs / core) ** 2)) : NaN,
    heightRatio: 1, inkSpread, edgeMidtones: edges >= 10 ? mids / edges : NaN,
  };
}

/** Features of every measurable word of the lines of one page (at most `maxWords`, in reading order). */
export function pageWordFeatures(r: Raster, doc: Document, page: number, maxWords = 1500): WordFeatures[] {
  const out: WordFeatures[] = [];
  const lines: Line[] = doc.lines.filter((l) => l.page === page);
  for (const l of lines) {
    const heights = l.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text)).map((w) => w.box.y1 - w.box.y0);
    const lineHeight = heights.length ? quantile(heights, 0.5) : 0;
    for (const [k, w] of l.words.entries()) {
      if (out.length >= maxWords) return out;
      if (!/[\p{L}\p{N}]/u.test(w.text)) continue;
      const f = wordFeatures(r, w, l.index, k);
      if (!f) continue;
      if (heights.length > 1 && lineHeight > 0) f.heightRatio = (w.box.y1 - w.box.y0) / lineHeight;
      out.push(f);
    }
  }
  return out;
}

