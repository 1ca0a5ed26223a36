/**
 * The image half of a scan's similarity signature: what the page looks like, measured so that a
 * re-encoded, resized, slightly cropped, slightly rotated or re-photographed copy of the same receipt
 * measures (nearly) the same.
 *
 * 1. The first raster page is decoded upright (EXIF, then the OCR's 90° turn), grey, long side
 *    ANALYSIS_LONG_SIDE px.
 * 2. Ink is found with an adaptive threshold (lighting-independent: a gamma or brightness change, a
 *    shadow gradient, leave it alone) and the skew is measured from its character-sized components:
 *    the angle whose projection of their tops and bottoms has the sharpest peaks (text lines) within
 *    ±MAX_SKEW degrees. The page is not resampled: the measures below sample the ink through the turn.
 * 3. The *text area*, measured twice, in the deskewed frame: the extent (1st to 99th percentile) of
 *    the words the OCR read with confidence, and the extent of ink components that have neighbours on
 *    their line (characters). Margins, background, a crop of the margins and a rotation's corners do
 *    not move either; a torn paper edge can move the second, a failed OCR the first, so the pair
 *    comparison takes the better-agreeing of the two.
 * 4. Inside each text area: an ink-density thumbnail (THUMB_W x THUMB_H cells), a row profile
 *    (PROFILE_BINS rows of ink density: the pattern of printed lines down the receipt), a 64-bit DCT
 *    hash of the density, and the text area's aspect ratio.
 *
 * Receipts all look alike at thumbnail scale (white paper, dark lines of text), so these measures are
 * never used alone: src/similarity/score.ts combines them with the content of the extraction.
 */
import sharp from 'sharp';
import type { RasterPage } from '../input/types.js';
import { pageDecodeLimit } from '../input/types.js';
import { connectedComponents, inkMask } from '../ocr/orientation.js';
import type { ComponentBox } from '../ocr/orientation.js';
import { rotateGray } from '../ocr/preprocess.js';
import { pagePixels, rawOf } from '../ocr/page-pixels.js';
import type { PaperFrame } from '../document/types.js';
import type { GrayImage, Rotation } from '../ocr/preprocess.js';
import { dctHash } from './phash.js';

export const ANALYSIS_LONG_SIDE = 800;
export const MAX_SKEW = 8;
export const THUMB_W = 16;
export const THUMB_H = 40;
export const PROFILE_BINS = 96;

/** The page's text area, measured one way. */
export interface ImageView {
  /** Height / width of the text area, upright and deskewed. */
  aspect: number;
  /** 64-bit DCT hash of the text area's ink density, 16 hex digits. */
  phash: string;
  /** Ink density of the text area, THUMB_W x THUMB_H cells row-major, one byte each, base64. */
  thumb: string;
  /** Ink density per row of the text area, PROFILE_BINS bytes, base64. */
  profile: string;
}

export interface ImageSignature {
  /** Skew that was corrected, degrees (counter-clockwise positive). */
  skew: number;
  /** The text area from the words the OCR read with confidence (null with too few). */
  text: ImageView | null;
  /** The text area from ink components that have neighbours on their line (null on a blank page). */
  ink: ImageView | null;
}

/** Word boxes of the page in its upright frame (the Document's frame), original pixels. */
export interface TextBoxes {
  /** Upright-frame size of the page the boxes are in. */
  width: number;
  height: number;
  boxes: Array<{ x0: number; y0: number; x1: number; y1: number }>;
}

/**
 * The image signature of the first raster page, or null (text-layer PDFs, undecodable images, blank
 * pages). `rotation`: clockwise degrees the page was turned to read upright; `text`: the confidently
 * read words of that page, which give the text area (else ink components do); `paper`: the page was
 * read from the paper found in the photo (Page.paper), whose frame the words are in: that frame is measured.
 */
export async function imageSignature(pages: ReadonlyArray<{ kind: string }>, rotation: number, text?: TextBoxes, paper?: PaperFrame): Promise<ImageSignature | null> {
  const page = pages.find((p): p is RasterPage => p.kind === 'raster');
  if (!page) return null;
  try {
    const grey = rotateGray(paper ? await decodePaperGrey(page, paper) : await decodeGrey(page), normRotation(rotation));
    return signatureOfGrey(grey, text);
  } catch {
    return null;
  }
}

/** Words that make the text area: read with confidence, two letters or digits at least. */
export function textBoxesOf(doc: { pages: ReadonlyArray<{ index: number; width: number; height: number; source: string }>; lines: ReadonlyArray<{ page: number; words: ReadonlyArray<{ text: string; confidence: number; box: { x0: number; y0: number; x1: number; y1: number } }> }> }): TextBoxes | undefined {
  const page = doc.pages.find((p) => p.source === 'ocr');
  if (!page) return undefined;
  const boxes = doc.lines.filter((l) => l.page === page.index).flatMap((l) => l.words)
    .filter((w) => w.confidence >= 0.6 && w.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 2)
    .map((w) => w.box);
  return { width: page.width, height: page.height, boxes };
}

function normRotation(r: number): Rotation {
  const n = ((Math.round(r / 90) * 90) % 360 + 360) % 360;
  return n as Rotation;
}

async function decodeGrey(page: RasterPage): Promise<GrayImage> {
  const limitInputPixels = pageDecodeLimit(page);
  const { data, info } = await sharp(page.image, { limitInputPixels, failOn: 'none' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: ANALYSIS_LONG_SIDE, height: ANALYSIS_LONG_SIDE, fit: 'inside', kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { gray: firstChannel(data, info.width, info.height, info.channels), width: info.width, height: info.height };
}

/** The paper frame of a page (Page.paper), grey, long side ANALYSIS_LONG_SIDE. */
async function decodePaperGrey(page: RasterPage, paper: PaperFrame): Promise<GrayImage> {
  const frame = await pagePixels(page, page, paper, ANALYSIS_LONG_SIDE / Math.max(paper.width, paper.height), 'cubic');
  const { data, info } = await sharp(frame.data, { raw: rawOf(frame), limitInputPixels: frame.info.width * frame.info.height + 1 })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { gray: firstChannel(data, info.width, info.height, info.channels), width: info.width, height: info.height };
}

function firstChannel(data: Buffer, w: number, h: number, channels: number): Buffer {
  if (channels === 1) return data;
  const out = Buffer.alloc(w * h);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!;
  return out;
}

/** Fewest confident words for the OCR text area; with fewer, ink components decide. */
const MIN_WORDS = 6;

/**
 * The signature of an upright grey page (exported for tests and the benches). `hash` hashes the 32 x 32
 * ink density of a text area (dctHash; docs/decisions/2026-11-26-own-perceptual-hash.md compares others).
 */
export async function signatureOfGrey(img: GrayImage, text?: TextBoxes, hash: (values: ArrayLike<number>, n: number) => string = dctHash): Promise<ImageSignature | null> {
  const { width: w, height: h } = img;
  const radius = Math.max(6, Math.round(Math.max(w, h) / 60));
  const ink = inkMask(img, radius, 12);
  const sized = characterComponents(ink, w, h);
  const skew = estimateSkew(sized, w, h);
  const turn = new Turn(skew, w, h);
  // points marking the text's extent, in the deskewed frame
  const view = (boxes: ReadonlyArray<{ x0: number; y0: number; x1: number; y1: number }>, s: number): ImageView | null => {
    const xs: number[] = [], ys: number[] = [];
    for (const b of boxes) {
      const cx = ((b.x0 + b.x1) / 2) * s, cy = ((b.y0 + b.y1) / 2) * s;
      for (const [x, y] of [[b.x0 * s, cy], [b.x1 * s, cy], [cx, b.y0 * s], [cx, b.y1 * s]] as const) {
        const p = turn.forward(x, y);
        xs.push(p.x); ys.push(p.y);
      }
    }
    const area = { x0: quantile(xs, 0.01), x1: quantile(xs, 0.99), y0: quantile(ys, 0.01), y1: quantile(ys, 0.99) };
    if (!(area.x1 - area.x0 >= 8 && area.y1 - area.y0 >= 8)) return null;
    const density = (gw: number, gh: number) => densityGrid(ink, w, h, area, turn, gw, gh);
    return {
      aspect: round4((area.y1 - area.y0) / (area.x1 - area.x0)),
      phash: hash(density(32, 32), 32),
      thumb: toBytes(density(THUMB_W, THUMB_H)).toString('base64'),
      profile: toBytes(density(1, PROFILE_BINS)).toString('base64'),
    };
  };
  const chars = withLineNeighbours(sized);
  const fromInk = chars.length >= MIN_COMPONENTS ? view(chars, 1) : null;
  const fromText = text && text.boxes.length >= MIN_WORDS && text.width > 0 ? view(text.boxes, w / text.width) : null;
  if (!fromInk && !fromText) return null;
  return { skew: round4(skew), text: fromText, ink: fromInk };
}

const MIN_COMPONENTS = 8;

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
}

/** Turning the page clockwise by `deg` about its centre (undoing a counter-clockwise skew). */
class Turn {
  private readonly c: number;
  private readonly s: number;
  constructor(deg: number, private readonly w: number, private readonly h: number) {
    const t = (deg * Math.PI) / 180;
    this.c = Math.cos(t); this.s = Math.sin(t);
  }
  /** Image point -> deskewed point. */
  forward(x: number, y: number): { x: number; y: number } {
    const dx = x - this.w / 2, dy = y - this.h / 2;
    return { x: dx * this.c - dy * this.s + this.w / 2, y: dx * this.s + dy * this.c + this.h / 2 };
  }
  /** Deskewed point -> image point. */
  back(x: number, y: number): { x: number; y: number } {
    const dx = x - this.w / 2, dy = y - this.h / 2;
    return { x: dx * this.c + dy * this.s + this.w / 2, y: -dx * this.s + dy * this.c + this.h / 2 };
  }
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/**
 * Skew angle in degrees (positive: the text runs up to the right, i.e. the page was turned
 * counter-clockwise), from character-sized components: the angle whose projection of their tops and
 * bottoms onto the vertical axis has the largest sum of squared counts (aligned text lines make tall,
 * narrow peaks). Long rules, paper edges and the canvas edge of a turned copy are not characters, so
 * they do not vote.
 */
export function estimateSkew(chars: readonly ComponentBox[], w: number, h: number): number {
  const xs: number[] = [], ys: number[] = [];
  for (const b of chars) {
    const cx = (b.x0 + b.x1) / 2 - w / 2;
    xs.push(cx, cx); ys.push(b.y0 - h / 2, b.y1 - h / 2);
  }
  if (xs.length < 40) return 0;
  const span = Math.ceil(Math.hypot(w, h)) + 2;
  const bins = new Float64Array(span);
  const sharpness = (deg: number): number => {
    const t = (deg * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
    bins.fill(0);
    // y' of the point after turning the page clockwise by `deg` (undoing a counter-clockwise skew)
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i]! * c + xs[i]! * s + span / 2)]! += 1;
    let sum = 0;
    for (let i = 0; i < span; i++) sum += bins[i]! * bins[i]!;
    return sum;
  };
  let best = 0, bestScore = -1;
  for (let d = -MAX_SKEW; d <= MAX_SKEW + 1e-9; d += 0.5) {
    const v = sharpness(d);
    if (v > bestScore) { bestScore = v; best = d; }
  }
  const coarse = best;
  for (let d = coarse - 0.4; d <= coarse + 0.4 + 1e-9; d += 0.1) {
    const v = sharpness(d);
    if (v > bestScore) { bestScore = v; best = d; }
  }
  return Math.abs(best) < 0.05 ? 0 : best;
}

export interface Area { x0: number; y0: number; x1: number; y1: number }

/** Character-sized ink components: not specks, long rules or blobs. */
export function characterComponents(ink: Uint8Array, w: number, h: number): ComponentBox[] {
  const maxH = Math.max(6, h * 0.05), maxW = Math.max(8, w * 0.3);
  return connectedComponents(ink, w, h).filter((b) => {
    const bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
    return bh >= MIN_CHAR_PX && bh <= maxH && bw <= maxW && b.pixels >= 2 * MIN_CHAR_PX;
  });
}

/** Smallest character height counted, analysis pixels (JPEG and sensor speckles are smaller). */
const MIN_CHAR_PX = 4;

/**
 * Components with a neighbour on their text line: another component overlapping at least half of the
 * smaller height, within two heights sideways. Characters have them; specks along a paper edge, a
 * fold or a shadow line up vertically and do not.
 */
function withLineNeighbours(comps: ComponentBox[]): ComponentBox[] {
  const byX = [...comps].sort((a, b) => a.x0 - b.x0);
  const keep = new Set<ComponentBox>();
  const maxW = byX.reduce((m, b) => Math.max(m, b.x1 - b.x0 + 1), 0);
  for (let i = 0; i < byX.length; i++) {
    const a = byX[i]!;
    const ah = a.y1 - a.y0 + 1;
    const reach = 2 * ah;
    // candidates start no further left than a.x0 - reach - widest component
    let lo = i;
    while (lo > 0 && byX[lo - 1]!.x0 >= a.x0 - reach - maxW) lo--;
    for (let j = lo; j < byX.length; j++) {
      const b = byX[j]!;
      if (b.x0 > a.x1 + reach) break;
      if (b === a) continue;
      const gap = Math.max(b.x0 - a.x1, a.x0 - b.x1, 0);
      if (gap > reach) continue;
      const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) + 1;
      if (overlap >= 0.5 * Math.min(ah, b.y1 - b.y0 + 1)) { keep.add(a); keep.add(b); break; }
    }
  }
  return comps.filter((c) => keep.has(c));
}

/**
 * Share of ink in each of gw x gh cells of the area (deskewed frame, row-major), sampled at one point per
 * analysis pixel mapped back into the image. Points outside the image count as paper.
 */
function densityGrid(ink: Uint8Array, w: number, h: number, a: Area, turn: Turn, gw: number, gh: number): Float64Array {
  const sums = new Float64Array(gw * gh), counts = new Float64Array(gw * gh);
  const aw = a.x1 - a.x0, ah = a.y1 - a.y0;
  for (let y = a.y0; y < a.y1; y += 1) {
    const gy = Math.min(gh - 1, Math.floor(((y - a.y0) / ah) * gh));
    for (let x = a.x0; x < a.x1; x += 1) {
      const gx = Math.min(gw - 1, Math.floor(((x - a.x0) / aw) * gw));
      const p = turn.back(x, y);
      const ix = Math.round(p.x), iy = Math.round(p.y);
      const v = ix >= 0 && iy >= 0 && ix < w && iy < h ? ink[iy * w + ix]! : 0;
      sums[gy * gw + gx]! += v;
      counts[gy * gw + gx]! += 1;
    }
  }
  for (let i = 0; i < sums.length; i++) sums[i] = counts[i]! ? sums[i]! / counts[i]! : 0;
  return sums;
}

/** Densities (0..1) as bytes, scaled so the densest cell is 255 (the comparisons are scale-free). */
function toBytes(v: Float64Array): Buffer {
  let max = 0;
  for (const x of v) if (x > max) max = x;
  const out = Buffer.alloc(v.length);
  if (max > 0) for (let i = 0; i < v.length; i++) out[i] = Math.round((v[i]! / max) * 255);
  return out;
}
