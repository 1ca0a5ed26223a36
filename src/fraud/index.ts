/**
 * Fraud signals of one extraction (contract section 3, `entities.tamperingDetection`,
 * `entities.digitalDetection`, `entities.handwritingDetection`):
 *
 * tampering, each signal a score in [0, 0.99] (SIGNAL_SCORES), combined as independent evidence
 * (1 - prod(1 - s)); `isTampered` from 0.5. `details` lists the signals that fired:
 * `{ signal, score, reason, text?, regions? }` with `signal` one of
 * - `copy-move`: an area of the text repeats pixel for pixel elsewhere (digits cut and pasted);
 * - `style-outlier`: the total's digits look typed over the print (sharper edges, evener ink, one ink
 *   hue, colours on one paper-ink line, an edge profile unlike the print's);
 * - `size-outlier`: a digit of the total is much taller or shorter than its neighbours;
 * - `editing-software`, `pdf-editor`: the metadata names an image or PDF editor;
 * - `metadata-dates`: modified well after (or before) it was created;
 * - `pdf-incremental-update`, `pdf-producer-changed`: the PDF was saved again after its first save,
 *   and its revisions name different producers; `pdf-producer-mismatch` (weak): different producers
 *   in a file saved once;
 * - `arithmetic`: the amounts around the total do not add up (weak alone: OCR misreadings do that too).
 * JPEG error level analysis was measured and left out: re-saving at the file's own quality changes
 * every area about equally (0.01-0.04 grey levels), pasted or not, because the last save already
 * re-quantised the whole image (docs/decisions/2026-11-21-fraud-signals-left-out.md).
 *
 * digital: see digital.ts; handwriting: see handwriting.ts.
 *
 * Bounded: the image work runs on the first OCR'd page only, with the caps of the modules it uses
 * (words, blocks, glyphs), and stops between steps when the caller's signal aborts.
 */
import type { Box, Document, Page, Polygon } from '../document/types.js';
import { boxToPolygon } from '../document/geometry.js';
import type { FieldResults } from '../fields/types.js';
import type { LoadedInput, RasterPage } from '../input/types.js';
import { ROLE_RULES, canonicalWord } from '../locale/keywords.js';
import { checkArithmetic } from './arithmetic.js';
import type { ArithmeticCheck } from './arithmetic.js';
import { findCopies } from './copymove.js';
import type { CopyMatchCluster, CopyMoveResult } from './copymove.js';
import { DIGITAL, backgroundStats, cameraOf, digitalVerdict, hasTextLayer } from './digital.js';
import type { DigitalEvidence, DigitalResult } from './digital.js';
import { segmentGlyphs } from './glyphs.js';
import { detectHandwriting } from './handwriting.js';
import { dateFindings, pdfFindings, softwareFindings } from './provenance.js';
import { loadColorSample, loadRaster, mad, median } from './raster.js';
import type { ColorSample, Raster } from './raster.js';
import { pageWordFeatures } from './words.js';
import type { WordFeatures } from './words.js';

export interface TamperSignal {
  signal: string;
  /** This signal's evidence, 0..0.99. */
  score: number;
  /** Why it fired, for a person. */
  reason: string;
  /** The text concerned (the words of the total, the copied area's words). */
  text?: string;
  /** Where, in pixels of the original image (page 1). */
  regions?: Polygon[];
}

export interface TamperingResult { isTampered: boolean; tamperedScore: number; details: TamperSignal[] }
export interface HandwritingDetection { isHandwritten: boolean; handwrittenScore: number }

export interface FraudReport {
  tamperingDetection: TamperingResult;
  digitalDetection: DigitalResult;
  handwritingDetection: HandwritingDetection;
}

/** Scores of the signals that have a fixed weight (the image signals scale with their strength). */
export const SIGNAL_SCORES = {
  'editing-software': 0.9,
  'pdf-editor': 0.45,
  'metadata-dates': 0.35,
  'pdf-incremental-update': 0.6,
  'pdf-producer-changed': 0.55,
  /** Info and XMP name different producers in a file saved once (one genuine invoice of the corpus does). */
  'pdf-producer-mismatch': 0.3,
  /** One relation around the total fails and none holds; two or more fail. */
  arithmetic: 0.2,
  arithmetic2: 0.3,
  'size-outlier': 0.45,
} as const;

/**
 * A digit whose ink height differs by more than SIZE_DEVIATION from the median of the word's other
 * digits, while those agree within SIZE_AGREEMENT, is a size outlier. On the dev sample it fired on
 * none of the 160 untouched or tampered receipts' totals but one re-saved copy (a glyph cut joined
 * with its neighbour), so its score (0.45) does not call a receipt tampered on its own.
 */
export const SIZE_DEVIATION = 0.5;
export const SIZE_AGREEMENT = 0.15;

const AMOUNT_WORD = /^\D{0,3}[\d.,]+\D{0,2}$/;

/**
 * The focus word with a digit whose height differs from the other digits (which agree among
 * themselves within SIZE_AGREEMENT) by more than SIZE_DEVIATION. Words whose glyph cut does not match
 * their digits (more glyphs than digits + 1: split glyphs) are not judged.
 */
function sizeOutlier(e: ImageEvidence): { word: WordFeatures; deviation: number; taller: boolean } | undefined {
  let best: { word: WordFeatures; deviation: number; taller: boolean } | undefined;
  for (const f of e.focus) {
    if (!AMOUNT_WORD.test(f.word.text)) continue;
    const digits = (f.word.text.match(/\d/g) ?? []).length;
    const all = segmentGlyphs(e.raster, f.word).map((g) => g.y1 - g.y0);
    // digits only: glyphs under 60 % of the typical glyph (dots, commas) left out
    const typical = median(all);
    const hs = all.filter((h) => h >= 0.6 * typical);
    if (hs.length < 3 || hs.length > digits + 1) continue;
    for (let i = 0; i < hs.length; i++) {
      const rest = hs.filter((_, j) => j !== i);
      const m = median(rest);
      if (Math.max(...rest.map((h) => Math.abs(h - m) / m)) > SIZE_AGREEMENT) continue;
      const d = Math.abs(hs[i]! - m) / m;
      if (d > SIZE_DEVIATION && (!best || d > best.deviation)) best = { word: f.word, deviation: d, taller: hs[i]! > m };
    }
  }
  return best;
}

/** Copy-move verdict thresholds (from the dev sample of bench/tamper.mjs --dev; see docs/fraud.md). */
export const COPY = {
  /** Mean absolute difference of a copy's blocks, grey levels (copies after a JPEG save at q94-100: 0.05-2.2; printed repeats 2.5+). */
  maxDiff: 2.25,
  /** Matches per (text height / 8)^2: a copied amount gives 5-100, natural near-repeats below 2.5. */
  minDensity: 3,
  /** Offsets shorter than this many text heights (in both directions) are strokes resembling themselves. */
  minOffset: 0.6,
};

/** Matches within this mean difference (grey levels) are exact repeats (for the digital check). */
export const EXACT_DIFF = 0.75;

/**
 * Below this share of mid-tones at edges the image is bi-level (thresholded by the scanner, or drawn
 * without anti-aliasing): repeated glyphs can then be identical without any copying, so copy-move is
 * not judged (the one bi-level scan of the corpus: 0.004; other scans 0.09+, photos 0.3+).
 */
export const BILEVEL_MIDTONES = 0.03;

/**
 * Style-outlier thresholds on the "rendered" score of a focus word: the sum of its robust deviations
 * from the page's words toward what a font rasteriser draws (sharper edges, evener ink, one ink hue,
 * colours on one paper-ink line, an edge profile unlike the print's). On the dev sample (80 receipts)
 * printed totals stayed below 7 but for one (re-saved copies: two), typed-over totals reached it in 53
 * of 77 (docs/fraud.md).
 */
export const STYLE = {
  /** From here the signal fires (score 0.5)... */
  fire: 7,
  /** ...rising to 0.9 here. */
  strong: 12,
  /** Cap of the edge-profile term (it is two-sided, so one wild value must not decide alone). */
  edgeCap: 10,
  /** Each feature's deviation is capped in the general outlier score (kept in the evidence only). */
  zCap: 4,
};

const round2 = (x: number) => Math.round(x * 100) / 100;
const TOTAL_RULES = ROLE_RULES.filter((r) => r.role === 'total');
const MONEYISH = /\d[.,]\d{2}(?!\d)|\d{1,3}(?:[.,]\d{3})+(?!\d)|^\D{0,3}\d{2,}\D{0,2}$/;

export interface FraudOptions {
  signal?: AbortSignal;
  /** Filled with the raw evidence (bench and tests). */
  debug?: { image?: ImageEvidence; digital?: DigitalEvidence; arithmetic?: ArithmeticCheck };
}

/** Evidence gathered from the pixels (exported for the bench and tests). */
export interface ImageEvidence {
  page: Page;
  raster: Raster;
  words: WordFeatures[];
  copies?: CopyMoveResult;
  exact?: CopyMoveResult;
  textHeight: number;
  /** Focus words: `score` is the general outlier score (root of summed squared capped deviations, evidence only), `rendered` the one judged. */
  focus: Array<{ word: WordFeatures; score: number; rendered: number; z: Record<string, number> }>;
}

function aborted(signal?: AbortSignal): boolean { return !!signal?.aborted; }

/** Runs every check on one extraction. Never throws for a bad image: the image part is then left out. */
export async function detectFraud(input: LoadedInput, doc: Document, fields: FieldResults, opts: FraudOptions = {}): Promise<FraudReport> {
  const signals: TamperSignal[] = [];
  const add = (signal: string, score: number, reason: string, extra: Partial<TamperSignal> = {}) => signals.push({ signal, score: round2(Math.min(0.99, score)), reason, ...extra });

  // provenance
  for (const f of softwareFindings(input.metadata ?? {}, input.mediaType)) add(f.signal, SIGNAL_SCORES[f.signal as 'editing-software'], f.reason);
  for (const f of dateFindings(input.metadata ?? {}, input.mediaType)) add(f.signal, SIGNAL_SCORES['metadata-dates'], f.reason);
  if (input.mediaType === 'application/pdf') {
    for (const f of pdfFindings(input.bytes).findings) add(f.signal, SIGNAL_SCORES[f.signal as 'pdf-incremental-update'], f.reason);
  }
  // arithmetic
  const arith: ArithmeticCheck = checkArithmetic(fields, doc);
  if (arith.failing && !arith.holding) {
    const failed = arith.relations.filter((r) => !r.holds);
    add('arithmetic', arith.failing >= 2 ? SIGNAL_SCORES.arithmetic2 : SIGNAL_SCORES.arithmetic, `the amounts do not add up: ${failed.map((r) => r.formula).join('; ')}`);
  }

  // pixels
  const digitalEvidence: DigitalEvidence = { textLayer: hasTextLayer(doc) };
  const camera = cameraOf(input.metadata ?? {});
  if (camera) digitalEvidence.camera = camera;
  let image: ImageEvidence | undefined;
  if (!digitalEvidence.textLayer && !aborted(opts.signal)) {
    try {
      image = await imageEvidence(input, doc, fields, opts, digitalEvidence);
    } catch {
      image = undefined; // an image the checks cannot read: no image signals (the extraction already read it)
    }
  }
  const digital = digitalVerdict(digitalEvidence);
  if (opts.debug) Object.assign(opts.debug, { image, digital: digitalEvidence, arithmetic: arith });
  if (image) {
    const bilevel = (digitalEvidence.background?.midtoneShare ?? 1) < BILEVEL_MIDTONES;
    if (!digital.isDigital && !bilevel && image.copies) {
      const copy = bestCopy(image.copies, image.textHeight);
      if (copy) {
        const density = copy.matches * image.copies.scale / Math.max(1, (image.textHeight / 8) ** 2);
        const score = 0.6 + 0.35 * Math.min(1, (density - COPY.minDensity) / 20);
        const texts = wordsIn(image.words, [copy.a, copy.b]);
        add('copy-move', score, `an area of the text repeats pixel for pixel ${Math.round(Math.hypot(copy.dx, copy.dy) / image.raster.scale)} px away (${copy.matches} matching blocks, mean difference ${copy.meanDiff} grey levels)`,
          { ...(texts ? { text: texts } : {}), regions: [copy.a, copy.b].map((b) => polygonOf(b, image!)) });
      }
    }
    // a digit of another size among the total's digits (pasted from larger or smaller print)
    const size = digital.isDigital ? undefined : sizeOutlier(image);
    if (size) {
      add('size-outlier', SIGNAL_SCORES['size-outlier'], `a digit of ${JSON.stringify(size.word.text)} is ${Math.round(size.deviation * 100)} % ${size.taller ? 'taller' : 'shorter'} than the word's other digits`,
        { text: size.word.text, regions: [polygonOf(size.word.box, image)] });
    }
    // typed-over digits are judged against print: on a born-digital image every glyph is rendered
    const worst = digital.isDigital ? undefined : image.focus.reduce<ImageEvidence['focus'][number] | undefined>((m, f) => (!m || f.rendered > m.rendered ? f : m), undefined);
    if (worst && worst.rendered >= STYLE.fire) {
      const score = 0.5 + 0.4 * Math.min(1, (worst.rendered - STYLE.fire) / (STYLE.strong - STYLE.fire));
      const top = Object.entries(worst.z).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 3).map(([k, v]) => `${k} ${v > 0 ? '+' : ''}${v.toFixed(1)}`).join(', ');
      add('style-outlier', score, `the digits ${JSON.stringify(worst.word.text)} look unlike the rest of the print, as if typed over it (score ${worst.rendered.toFixed(1)}; robust deviations ${top})`,
        { text: worst.word.text, regions: [polygonOf(worst.word.box, image)] });
    }
  }
  const tamperedScore = round2(Math.min(0.99, 1 - signals.reduce((p, s) => p * (1 - s.score), 1)));
  const hw = detectHandwriting(doc, image ? { raster: image.raster, words: image.words } : undefined);
  return {
    tamperingDetection: { isTampered: tamperedScore >= 0.5, tamperedScore, details: signals.sort((a, b) => b.score - a.score) },
    digitalDetection: digital,
    handwritingDetection: { isHandwritten: hw.isHandwritten, handwrittenScore: hw.handwrittenScore },
  };
}

/** The strongest copy cluster that passes the verdict thresholds, unless it is part of a periodic pattern. */
export function bestCopy(res: CopyMoveResult, textHeight: number): CopyMatchCluster | undefined {
  const minOffset = Math.max(8, COPY.minOffset * textHeight);
  const unit = Math.max(1, (textHeight / 8) ** 2) / res.scale;
  for (const c of res.clusters) {
    if (c.meanDiff > COPY.maxDiff || c.matches / unit < COPY.minDensity) continue;
    if (Math.abs(c.dx) < minOffset && Math.abs(c.dy) < minOffset) continue;
    // along a line, a pattern that overlaps itself when shifted (0404, ****) is not a copy
    if (Math.abs(c.dy) < 0.5 * textHeight && c.a.x0 < c.b.x1 && c.b.x0 < c.a.x1 && c.a.y0 < c.b.y1 && c.b.y0 < c.a.y1) continue;
    // a row of repeated marks (****, ----) repeats at multiples of its pitch: not a copy
    const periodic = res.clusters.some((o) => o !== c && o.matches >= 0.3 * c.matches && Math.abs(o.dy - c.dy) <= 1 && o.dx !== 0 && c.dx !== 0
      && [o.dx / c.dx, c.dx / o.dx].some((q) => q >= 1.8 && Math.abs(q - Math.round(q)) * Math.min(Math.abs(o.dx), Math.abs(c.dx)) <= 2));
    if (periodic) continue;
    return c;
  }
  return undefined;
}

function polygonOf(b: Box, e: ImageEvidence): Polygon {
  const s = e.raster.scale;
  return boxToPolygon({ x0: b.x0 / s, y0: b.y0 / s, x1: b.x1 / s, y1: b.y1 / s }, e.page);
}

function wordsIn(words: WordFeatures[], boxes: Box[]): string {
  const hits = words.filter((w) => boxes.some((b) => w.box.x0 < b.x1 && w.box.x1 > b.x0 && w.box.y0 < b.y1 && w.box.y1 > b.y0));
  return [...new Set(hits.map((w) => w.text))].slice(0, 6).join(' ');
}

/** The first OCR'd raster page and its pixel evidence; fills the digital evidence on the way. */
async function imageEvidence(input: LoadedInput, doc: Document, fields: FieldResults, opts: FraudOptions, digital: DigitalEvidence): Promise<ImageEvidence | undefined> {
  const page = doc.pages.find((p) => p.source === 'ocr');
  if (!page) return undefined;
  const raster = input.pages.find((p): p is RasterPage => p.kind === 'raster' && p.index === page.index);
  if (!raster) return undefined;
  const [r, color] = await Promise.all([loadRaster(raster, page.rotation, undefined, page.paper), loadColorSample(raster, page.rotation, undefined, page.paper)]);
  digital.background = backgroundStats(color);
  if (aborted(opts.signal)) return undefined;
  const words = pageWordFeatures(r, doc, page.index);
  const textHeight = median(words.map((w) => w.height)) || 10;
  const digitRegions = words.filter((w) => w.hasDigit).map((w) => {
    const p = Math.round(0.2 * w.height);
    return { x0: w.box.x0 - p, y0: w.box.y0 - p, x1: w.box.x1 + p, y1: w.box.y1 + p };
  });
  const minOffset = Math.max(8, Math.round(COPY.minOffset * textHeight));
  const copies = findCopies(r.gray, r.width, r.height, digitRegions, { maxDiff: COPY.maxDiff, minMatches: 3, minOffset, exactDiff: EXACT_DIFF });
  const exact = { blocks: copies.blocks, stride: copies.stride, step: copies.step, scale: copies.scale, truncated: copies.truncated, ...copies.exact! };
  // one dominant offset is a copy (or a repeated line), not the many glyph repeats of rendered text
  const top = exact.clusters[0];
  const dominant = top && top.matches > 0.6 * exact.matched ? top.matches : 0;
  // per indexed block, as with the full grids (a coarser query step finds fewer)
  digital.exactRepeatRate = exact.blocks ? ((exact.matched - dominant) / exact.blocks) * (exact.step ** 2 / 9) : 0;
  digital.exactRepeatOffsets = exact.clusterCount;
  digital.gridAlignedRepeats = input.mediaType === 'image/jpeg' && exact.clusterCount >= 2 && exact.clusterCount <= exact.clusters.length
    && exact.clusters.every((c) => c.dx % 8 === 0 && c.dy % 8 === 0) && (exact.matched / Math.max(1, exact.blocks)) * (exact.step ** 2 / 9) >= DIGITAL.gridRepeatRate;
  if (aborted(opts.signal)) return undefined;
  const focus = styleOutliers(r, color, doc, fields, words, page.index);
  return { page, raster: r, words, copies, exact, textHeight, focus };
}

/** Words that carry the total: the total field's words and the amounts on lines labelled as a total. */
function focusWords(doc: Document, fields: FieldResults, words: WordFeatures[], pageIndex: number, scale: number): number[] {
  const out = new Set<number>();
  const t = fields.totalAmount;
  if (t && t.page === pageIndex) {
    for (const [k, w] of words.entries()) {
      if (t.boxes.some((b) => w.box.x0 < b.x1 * scale && w.box.x1 > b.x0 * scale && w.box.y0 < b.y1 * scale && w.box.y1 > b.y0 * scale) && /\d/.test(w.text)) out.add(k);
    }
  }
  let lines = 0;
  for (const l of doc.lines) {
    if (l.page !== pageIndex || lines >= 6) continue;
    const canon = l.text.split(/\s+/).map((x) => canonicalWord(x)).filter(Boolean).join(' ');
    if (!TOTAL_RULES.some((r) => r.re.test(canon))) continue;
    lines++;
    for (const [k, w] of words.entries()) if (w.line === l.index && MONEYISH.test(w.text)) out.add(k);
  }
  return [...out];
}

const FEATURES: Array<[string, (w: WordFeatures) => number, number]> = [
  // name, value, floor of the robust spread (relative to the median for ratios)
  ['sharpness', (w) => w.sharpness, 0.03],
  ['inkShare', (w) => w.inkShare, 0.03],
  ['inkSpread', (w) => w.inkSpread, 0.015],
  ['contrast', (w) => w.paper - w.ink, 4],
  ['paperNoise', (w) => w.paperNoise, 0.08],
  ['edgeMidtones', (w) => w.edgeMidtones, 0.02],
];

/**
 * Spread of the colour (B-G, R-G) of a word's darkest pixels in the colour sample: printed ink in a
 * photo varies in hue, digits typed in one colour do not. NaN with too few dark pixels.
 */
export function inkChroma(color: ColorSample, r: Raster, w: WordFeatures): number {
  const s = color.width / r.width;
  const x0 = Math.floor(w.box.x0 * s), x1 = Math.ceil(w.box.x1 * s), y0 = Math.floor(w.box.y0 * s), y1 = Math.ceil(w.box.y1 * s);
  const level = w.ink + 0.3 * Math.max(1, w.paper - w.ink);
  let n = 0, s0 = 0, s1 = 0, q0 = 0, q1 = 0;
  for (let y = Math.max(0, y0); y < Math.min(color.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(color.width, x1); x++) {
      const i = 3 * (y * color.width + x);
      const R = color.rgb[i]!, G = color.rgb[i + 1]!, B = color.rgb[i + 2]!;
      if ((R * 299 + G * 587 + B * 114) / 1000 > level) continue;
      const a = B - G, b = R - G;
      s0 += a; s1 += b; q0 += a * a; q1 += b * b; n++;
    }
  }
  if (n < 8) return NaN;
  return Math.sqrt(Math.max(0, q0 / n - (s0 / n) ** 2 + q1 / n - (s1 / n) ** 2));
}

/**
 * How far a word's pixels stray from the straight line between its paper and ink colours in RGB (mean
 * distance): anti-aliased text drawn in one colour on a flat fill lies on that line; printed ink and
 * paper photographed carry colour noise off it. NaN with too few pixels.
 */
export function colorResidual(color: ColorSample, r: Raster, w: WordFeatures): number {
  const s = color.width / r.width;
  const x0 = Math.max(0, Math.floor(w.box.x0 * s)), x1 = Math.min(color.width, Math.ceil(w.box.x1 * s));
  const y0 = Math.max(0, Math.floor(w.box.y0 * s)), y1 = Math.min(color.height, Math.ceil(w.box.y1 * s));
  const n = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  if (n < 20) return NaN;
  const lum = new Float32Array(n);
  const idx = new Int32Array(n);
  let k = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { const i = 3 * (y * color.width + x); idx[k] = i; lum[k++] = 0.299 * color.rgb[i]! + 0.587 * color.rgb[i + 1]! + 0.114 * color.rgb[i + 2]!; }
  const order = darkestFirst(lum);
  const mean = (from: number, to: number) => {
    const m = [0, 0, 0];
    for (let j = from; j < to; j++) for (let c = 0; c < 3; c++) m[c]! += color.rgb[idx[order[j]!]! + c]!;
    return m.map((v) => v / Math.max(1, to - from));
  };
  const ink = mean(0, Math.max(1, Math.floor(n * 0.1))), paper = mean(Math.floor(n * 0.8), n);
  const d = [paper[0]! - ink[0]!, paper[1]! - ink[1]!, paper[2]! - ink[2]!];
  const len = Math.hypot(d[0]!, d[1]!, d[2]!) || 1;
  const u = d.map((v) => v / len);
  let sum = 0;
  for (let j = 0; j < n; j++) {
    const i = idx[j]!;
    const v0 = color.rgb[i]! - ink[0]!, v1 = color.rgb[i + 1]! - ink[1]!, v2 = color.rgb[i + 2]! - ink[2]!;
    const t = v0 * u[0]! + v1 * u[1]! + v2 * u[2]!;
    const e0 = v0 - t * u[0]!, e1 = v1 - t * u[1]!, e2 = v2 - t * u[2]!;
    sum += Math.sqrt(e0 * e0 + e1 * e1 + e2 * e2);
  }
  return sum / n;
}

/**
 * Indices of `lum` (non-negative) by value, ties in index order: what a stable comparator sort gives,
 * as one numeric sort of exact integer keys (the value's float32 bits, which order as the values do,
 * times n, plus the index; below 2^53 for n up to 2^21). The comparator sort took 5x as long.
 */
export function darkestFirst(lum: Float32Array): Int32Array | number[] {
  const n = lum.length;
  if (n > 2 ** 21) return Array.from({ length: n }, (_, j) => j).sort((a, b) => lum[a]! - lum[b]!);
  const bits = new Uint32Array(lum.buffer, lum.byteOffset, n);
  const keys = new Float64Array(n);
  for (let j = 0; j < n; j++) keys[j] = bits[j]! * n + j;
  keys.sort();
  const order = new Int32Array(n);
  for (let j = 0; j < n; j++) order[j] = keys[j]! % n;
  return order;
}

/** Style outlier scores of the focus words against every word of the page. */
function styleOutliers(r: Raster, color: ColorSample, doc: Document, fields: FieldResults, words: WordFeatures[], pageIndex: number): ImageEvidence['focus'] {
  const focus = focusWords(doc, fields, words, pageIndex, r.scale);
  if (!focus.length) return [];
  const peers = words.filter((w) => w.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 2);
  if (peers.length < 8) return [];
  const chroma = new Map<WordFeatures, number>(), residual = new Map<WordFeatures, number>();
  for (const w of new Set([...peers, ...focus.map((k) => words[k]!)])) { chroma.set(w, inkChroma(color, r, w)); residual.set(w, colorResidual(color, r, w)); }
  const features: Array<[string, (w: WordFeatures) => number, number]> = [...FEATURES];
  // colour terms only where the print has colour to vary in (photos; not greyscale scans)
  const chromaMedian = median([...chroma.values()].filter(Number.isFinite));
  if (chromaMedian >= 1) {
    features.push(['inkChroma', (w) => chroma.get(w) ?? NaN, 0.3]);
    features.push(['colorResidual', (w) => residual.get(w) ?? NaN, 0.1]);
  }
  const refs = features.map(([name, get, floor]) => {
    const v = peers.map(get).filter(Number.isFinite);
    if (v.length < 8) return undefined;
    const m = median(v);
    return { name, get, m, s: Math.max(mad(v, m), floor) };
  });
  return focus.map((k) => {
    const w = words[k]!;
    const z: Record<string, number> = {};
    for (const ref of refs) {
      if (!ref) continue;
      const v = ref.get(w);
      if (Number.isFinite(v)) z[ref.name] = (v - ref.m) / ref.s;
    }
    const score = Math.sqrt(Object.values(z).reduce((s, v) => s + Math.min(STYLE.zCap, Math.abs(v)) ** 2, 0));
    // the signature of digits drawn by a font rasteriser: crisper edges, evener ink, one ink hue, colours
    // on one paper-ink line, and edges unlike the print's (anti-aliased on a thresholded scan, crisp on
    // a blurred photo: either way)
    const rendered = Math.max(0, z.sharpness ?? 0) + Math.max(0, -(z.inkSpread ?? 0)) + Math.max(0, -(z.inkChroma ?? 0))
      + Math.max(0, -(z.colorResidual ?? 0)) + Math.min(STYLE.edgeCap, Math.abs(z.edgeMidtones ?? 0));
    return { word: w, score, rendered, z };
  });
}
