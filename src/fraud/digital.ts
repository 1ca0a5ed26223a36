/**
 * Born-digital or paper? A PDF read from its text layer was never paper. For images, three physical
 * traces of paper and camera/scanner are measured:
 * - the background: a rendered document or screenshot has large areas of one exact colour (pixels
 *   whose 3x3 neighbourhood does not vary at all); paper under a camera or scanner has grain and noise,
 *   unless the scanner clipped it to white;
 * - the glyphs: rendered text repeats every glyph pixel for pixel wherever it lands on the same
 *   sub-pixel phase, so many offsets between digits match exactly (copy detector with a tight
 *   threshold); printed glyphs never repeat exactly, not even on clean scans;
 * - specks: scans and photos have isolated dark specks (dust, dither, paper fibres) away from the text.
 * A render of a digital PDF counts as digital (it was never paper). Camera make/model in the EXIF data
 * is evidence of a photo.
 */
import type { Document } from '../document/types.js';
import type { ImageMetadata } from '../input/types.js';
import type { ColorSample } from './raster.js';

export interface BackgroundStats {
  /** Share of pixels whose 3x3 neighbourhood has a single grey value. */
  flatShare: number;
  /** Isolated dark specks per megapixel of the colour sample (components of at most 16 px, nothing dark nearby). */
  specksPerMp: number;
  /** Share of pixels in the most common exact RGB colour. */
  modeShare: number;
  /** Among edge pixels (3x3 range over 60), the share with a value well between the range's ends. */
  midtoneShare: number;
}

/** Background statistics of the colour sample. */
export function backgroundStats(c: ColorSample): BackgroundStats {
  const W = c.width, H = c.height, n = W * H;
  const g = new Uint8Array(n);
  // the most frequent exact colour: colours sorted (by radix, two 12-bit passes: a comparison sort of the
  // samples took half of this function's time), the longest run (a Map of counts took 4x as long)
  const colours = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = c.rgb[3 * i]!, gg = c.rgb[3 * i + 1]!, b = c.rgb[3 * i + 2]!;
    g[i] = (r * 299 + gg * 587 + b * 114) / 1000;
    colours[i] = (r << 16) | (gg << 8) | b;
  }
  const sorted = radixSort24(colours);
  let mode = 0;
  for (let i = 0, run = 0; i < n; i++) {
    run = i > 0 && sorted[i] === sorted[i - 1] ? run + 1 : 1;
    if (run > mode) mode = run;
  }
  // each pixel's 3x3 range, separably: the least and greatest of each row's three, then of three rows
  const rowLo = new Uint8Array(n), rowHi = new Uint8Array(n);
  for (let y = 0; y < H; y++) {
    for (let x = 1, i = y * W + 1; x < W - 1; x++, i++) {
      const a = g[i - 1]!, b = g[i]!, d = g[i + 1]!;
      rowLo[i] = a < b ? (a < d ? a : d) : (b < d ? b : d);
      rowHi[i] = a > b ? (a > d ? a : d) : (b > d ? b : d);
    }
  }
  let flat = 0, edges = 0, mid = 0;
  for (let y = 1; y < H - 1; y++) {
    for (let x = 1, i = y * W + 1; x < W - 1; x++, i++) {
      const v = g[i]!;
      const l0 = rowLo[i - W]!, l1 = rowLo[i]!, l2 = rowLo[i + W]!;
      const h0 = rowHi[i - W]!, h1 = rowHi[i]!, h2 = rowHi[i + W]!;
      const lo = l0 < l1 ? (l0 < l2 ? l0 : l2) : (l1 < l2 ? l1 : l2);
      const hi = h0 > h1 ? (h0 > h2 ? h0 : h2) : (h1 > h2 ? h1 : h2);
      if (hi === lo) flat++;
      else if (hi - lo > 60) {
        edges++;
        if (v > lo + 0.2 * (hi - lo) && v < hi - 0.2 * (hi - lo)) mid++;
      }
    }
  }
  // isolated specks: small dark components with nothing else dark within R pixels
  const dark = new Uint8Array(n);
  for (let i = 0; i < n; i++) dark[i] = g[i]! < 160 ? 1 : 0;
  const I = new Int32Array((W + 1) * (H + 1));
  for (let y = 0; y < H; y++) {
    let row = 0;
    for (let x = 0; x < W; x++) { row += dark[y * W + x]!; I[(y + 1) * (W + 1) + x + 1] = I[y * (W + 1) + x + 1]! + row; }
  }
  const rect = (x0: number, y0: number, x1: number, y1: number) => {
    x0 = Math.max(0, x0); y0 = Math.max(0, y0); x1 = Math.min(W, x1); y1 = Math.min(H, y1);
    return I[y1 * (W + 1) + x1]! - I[y0 * (W + 1) + x1]! - I[y1 * (W + 1) + x0]! + I[y0 * (W + 1) + x0]!;
  };
  const R = Math.max(4, Math.round(0.012 * W));
  const seen = new Uint8Array(n);
  // a pixel is pushed once (marked seen as it is): n entries always suffice
  const stack = new Int32Array(n);
  let specks = 0;
  for (let i = 0; i < n; i++) {
    if (!dark[i] || seen[i]) continue;
    let size = 0, x0 = W, y0 = H, x1 = 0, y1 = 0;
    let top = 0;
    stack[top++] = i;
    seen[i] = 1;
    while (top) {
      const j = stack[--top]!;
      size++;
      const x = j % W, y = (j - x) / W;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let r = j - W - 1; r <= j + W - 1; r += W) {
        for (let k = r; k <= r + 2; k++) {
          if (k !== j && k >= 0 && k < n && dark[k] && !seen[k]) { seen[k] = 1; stack[top++] = k; }
        }
      }
    }
    if (size <= 16 && rect(x0 - R, y0 - R, x1 + 1 + R, y1 + 1 + R) === size) specks++;
  }
  return { flatShare: flat / n, specksPerMp: specks / (n / 1e6), modeShare: mode / n, midtoneShare: edges ? mid / edges : 1 };
}

/** 24-bit values sorted ascending: a least-significant-digit radix sort in two passes of 12 bits. */
export function radixSort24(values: Uint32Array): Uint32Array {
  const n = values.length;
  const tmp = new Uint32Array(n), out = new Uint32Array(n);
  const count = new Uint32Array(4097);
  for (const [src, dst, shift] of [[values, tmp, 0], [tmp, out, 12]] as const) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[((src[i]! >>> shift) & 0xfff) + 1]!++;
    for (let k = 1; k <= 4096; k++) count[k]! += count[k - 1]!;
    for (let i = 0; i < n; i++) { const v = src[i]!; dst[count[(v >>> shift) & 0xfff]!++] = v; }
  }
  return out;
}

export interface DigitalEvidence {
  textLayer: boolean;
  background?: BackgroundStats;
  /** Exact repeats between digit glyphs (copy detector, tight threshold) per indexed block, a dominant single offset left out. */
  exactRepeatRate?: number;
  /** Offsets with exact repeats (at least 3 matches each). */
  exactRepeatOffsets?: number;
  /** JPEG only: exact repeats at two or more offsets, all multiples of 8 px (the block grid): rendered text compressed afterwards repeats exactly only there. */
  gridAlignedRepeats?: boolean;
  camera?: string;
}

/** Thresholds, from the corpus (bench/tamper.mjs and the module comment): see docs/fraud.md. */
export const DIGITAL = {
  /** A clean background: at least this share of perfectly flat pixels (PNG renders 0.81-0.95; phone photos <= 0.2). */
  flatShare: 0.5,
  /** Rendered text: exact glyph repeats per indexed block (renders 0.007-0.078; printed receipts 0-0.003). */
  repeatRate: 0.005,
  /**
   * Grid-aligned repeats count from this rate (JPEG'd renders 0.007-0.03; ordered dither of 600 dpi
   * scans repeats at multiples of 8 px too, at 0.001).
   */
  gridRepeatRate: 0.003,
  /** Specks per megapixel below which a clean background is not a scan (renders 0-2.3; clean scans mostly 30+). */
  specks: 6,
};

export interface DigitalResult { isDigital: boolean; digitalScore: number; details: string[] }

/** The digital-document verdict from the evidence. */
export function digitalVerdict(e: DigitalEvidence): DigitalResult {
  if (e.textLayer) return { isDigital: true, digitalScore: 0.97, details: ['pdf-text-layer'] };
  const details: string[] = [];
  let score = 0.05;
  const b = e.background;
  if (b && b.flatShare >= DIGITAL.flatShare) { score += 0.2; details.push('flat-background'); }
  if ((e.exactRepeatRate ?? 0) >= DIGITAL.repeatRate) { score += 0.5; details.push('exact-glyph-repeats'); }
  else if (e.gridAlignedRepeats) { score += 0.5; details.push('grid-aligned-glyph-repeats'); }
  else if (b && b.flatShare >= DIGITAL.flatShare && b.specksPerMp < DIGITAL.specks && (e.exactRepeatOffsets ?? 0) >= 2) {
    // a clean background without specks where glyphs repeat exactly at several offsets: a render
    score += 0.35; details.push('repeated-glyphs-on-clean-background');
  }
  if (b && b.flatShare >= DIGITAL.flatShare && b.specksPerMp < DIGITAL.specks) { score += 0.15; details.push('no-specks'); }
  if (b && b.flatShare < 0.2) { score -= 0.05; details.push('paper-texture'); }
  if (e.camera) { score -= 0.3; details.push('camera-exif'); }
  const digitalScore = Math.round(Math.max(0.01, Math.min(0.99, score)) * 100) / 100;
  return { isDigital: digitalScore >= 0.5, digitalScore, details };
}

/** Camera make/model from the metadata, when present. */
export function cameraOf(m: ImageMetadata): string | undefined {
  const s = [m.make, m.model].filter(Boolean).join(' ').trim();
  return s || undefined;
}

/** True when some page of the document was read from a PDF text layer. */
export const hasTextLayer = (doc: Document): boolean => doc.pages.some((p) => p.source === 'pdf-text');
