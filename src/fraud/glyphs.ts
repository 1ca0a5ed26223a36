/**
 * Glyphs of a word: the runs of ink columns in its OCR box (OCR gives word boxes only), split when wider
 * than a character, each cut to its ink rows. Used for the baseline jitter of handwriting.
 *
 * (Glyph-shape consistency between the total's digits and the other digits was tried as a tamper
 * signal and left out: on the dev sample, bold or enlarged printed totals differed from the item
 * print as much as digits typed in another font did.)
 */
import type { Raster } from './raster.js';
import type { WordFeatures } from './words.js';

/** A glyph: a run of ink columns in a word box (split when wider than a character), cut to its ink rows. */
export interface Glyph { x0: number; y0: number; x1: number; y1: number }

/** Glyphs of a word, left to right, by the vertical projection of its ink (gaps between glyphs); glyphs under 30 % of the box height (dots, dashes) left out. */
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
      // the glyph's rows: the run of inked rows (gaps up to GAP rows bridged) with the most ink, so
      // that bits of the neighbouring lines inside the box do not stretch it
      const rows: number[] = [];
      for (let y = b.y0; y < b.y1; y++) {
        let n = 0;
        for (let x = x0; x < x1; x++) if (r.gray[y * r.width + x]! < level) n++;
        rows.push(n);
      }
      const gap = Math.max(1, Math.round(0.08 * h));
      let y0 = b.y1, y1 = b.y0, best = 0;
      for (let i = 0; i < rows.length;) {
        if (!rows[i]) { i++; continue; }
        let j = i, ink = 0, last = i;
        while (j < rows.length && j - last <= gap) { if (rows[j]) { ink += rows[j]!; last = j; } j++; }
        if (ink > best) { best = ink; y0 = b.y0 + i; y1 = b.y0 + last + 1; }
        i = last + 1;
      }
      // dots and dashes are left out (callers filter by height further)
      if (y1 - y0 >= 0.3 * h && x1 - x0 >= 2) out.push({ x0, y0, x1, y1 });
    }
  }
  return out;
}

