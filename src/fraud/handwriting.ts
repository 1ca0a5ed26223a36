/**
 * Is the receipt handwritten? Print puts every glyph of a word on one baseline; a hand does not. Each
 * measurable word (OCR box, at least 3 glyphs cut at the gaps of its ink, glyphs at least 60 % of the
 * word's height) gives the median distance of its glyphs' bottoms from their median bottom, over the
 * word's height; the page's "baseline jitter" is the median of that over its words. A little OCR
 * uncertainty (the share of words read with a confidence below 0.5) is added to the score.
 *
 * Honest limits: there is no handwritten receipt in the corpus, so this is not measured on real
 * handwriting. It was calibrated so that the printed receipts of the dev sample (80 scans and phone
 * photos: jitter at most 0.042, score at most 0.40) stay below the verdict, and checked on generated
 * text with jittered glyphs (tests). Descenders (g, p, y, commas) move a bottom legitimately; the median
 * over a word's glyphs and over the page keeps a few of them from counting. Text-layer PDFs score 0.
 */
import type { Document } from '../document/types.js';
import { segmentGlyphs } from './glyphs.js';
import type { Raster } from './raster.js';
import { median } from './raster.js';
import type { WordFeatures } from './words.js';

export interface HandwritingResult {
  isHandwritten: boolean;
  handwrittenScore: number;
  /** Evidence (bench and tests): words measured, the page's baseline jitter, the low-confidence share. */
  words: number;
  jitter: number;
  lowConfidenceShare: number;
}

export const HW = {
  /** Jitter maps to 0 up to here (print of the dev sample: median 0-0.02, at most 0.042)... */
  jitterFloor: 0.02,
  /** ...and to the full jitter weight this much above it. */
  jitterRange: 0.05,
  jitterWeight: 0.8,
  lowConfidenceWeight: 0.2,
  /** Fewest measurable words for a verdict. */
  minWords: 5,
};

/** Scores the OCR'd text of one page (its raster and word features); 0 without measurable words. */
export function detectHandwriting(doc: Document, image?: { raster: Raster; words: WordFeatures[] }): HandwritingResult {
  const ocr = doc.pages.some((p) => p.source === 'ocr');
  let low = 0, all = 0;
  for (const l of doc.lines) {
    if (doc.pages[l.page]?.source !== 'ocr') continue;
    for (const w of l.words) if (/[\p{L}\p{N}]/u.test(w.text)) { all++; if (w.confidence < 0.5) low++; }
  }
  const lowShare = all ? low / all : 0;
  const jitters: number[] = [];
  if (ocr && image) {
    for (const w of image.words) {
      const glyphs = segmentGlyphs(image.raster, w).filter((g) => g.y1 - g.y0 >= 0.6 * w.height);
      if (glyphs.length < 3) continue;
      const bottoms = glyphs.map((g) => g.y1);
      const mb = median(bottoms);
      jitters.push(median(bottoms.map((b) => Math.abs(b - mb))) / w.height);
    }
  }
  const jitter = jitters.length ? median(jitters) : 0;
  let score = 0;
  if (jitters.length >= HW.minWords) {
    score = HW.jitterWeight * Math.max(0, Math.min(1, (jitter - HW.jitterFloor) / HW.jitterRange)) + HW.lowConfidenceWeight * lowShare;
  }
  const handwrittenScore = Math.round(Math.min(0.99, score) * 100) / 100;
  return {
    isHandwritten: handwrittenScore >= 0.5, handwrittenScore,
    words: jitters.length, jitter: Math.round(jitter * 1000) / 1000, lowConfidenceShare: Math.round(lowShare * 1000) / 1000,
  };
}
