/**
 * Page orientation, in two cheap steps (docs/decisions/2026-11-21-orientation-search.md; numbers in bench/OCR.md):
 *
 * 1. Text direction (0/180 vs 90/270) from geometry, no OCR: on a ~1000 px grey copy, ink is found with
 *    an adaptive threshold, split into connected components (characters or bits of them), and each
 *    component votes for the direction of its nearest neighbour (the "docstrum" idea): characters of a
 *    word sit closer side by side than lines sit above each other, so upright or upside-down text
 *    votes horizontal and sideways text votes vertical. About 15-25 ms a page.
 * 2. Upright vs upside down (0 vs 180, or 90 vs 270) by OCR confidence: the full OCR of the likely
 *    orientation is kept when its words are confidently read; otherwise a small band of the page is
 *    read turned 180° and compared with the same band of the first reading (see pool.ts).
 *
 * Tesseract's own orientation detection (OSD, legacy engine) was tried and rejected: on rotated copies of
 * corpus receipts it was right 14/48 times on the phone photos and 37/48 on the scans, at 150-260 ms.
 */
import type { GrayImage } from './gray.js';
import type { TextLineShape } from './reader.js';

/** Long side of the copy the direction is measured on. */
export const AXIS_ANALYSIS_LONG_SIDE = 1000;

/**
 * Ink mask by adaptive mean threshold: a pixel is ink when darker than its (2r+1)² neighbourhood mean by
 * more than `offset` grey levels. Works on unevenly lit photos where one global threshold fails.
 */
export function inkMask(img: GrayImage, radius = 15, offset = 10): Uint8Array {
  const { gray: g, width: w, height: h } = img;
  const W = w + 1;
  const integral = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let s = 0;
    for (let x = 0; x < w; x++) {
      s += g[y * w + x]!;
      integral[(y + 1) * W + x + 1] = integral[y * W + x + 1]! + s;
    }
  }
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - radius), y1 = Math.min(h, y + radius + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - radius), x1 = Math.min(w, x + radius + 1);
      const sum = integral[y1 * W + x1]! - integral[y0 * W + x1]! - integral[y1 * W + x0]! + integral[y0 * W + x0]!;
      const mean = sum / ((y1 - y0) * (x1 - x0));
      ink[y * w + x] = g[y * w + x]! < mean - offset ? 1 : 0;
    }
  }
  return ink;
}

export interface ComponentBox { x0: number; y0: number; x1: number; y1: number; pixels: number }

/** 4-connected components of a mask (union-find over one raster pass), as bounding boxes. */
export function connectedComponents(mask: Uint8Array, w: number, h: number): ComponentBox[] {
  const label = new Int32Array(w * h).fill(-1);
  const parent: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) { parent[a] = parent[parent[a]!]!; a = parent[a]!; }
    return a;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      const up = y > 0 && mask[i - w] ? label[i - w]! : -1;
      const left = x > 0 && mask[i - 1] ? label[i - 1]! : -1;
      if (up < 0 && left < 0) { label[i] = parent.length; parent.push(parent.length); }
      else if (up >= 0 && left >= 0) {
        const a = find(up), b = find(left);
        label[i] = a;
        if (a !== b) parent[b] = a;
      } else label[i] = up >= 0 ? up : left;
    }
  }
  const boxes = new Map<number, ComponentBox>();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const l = label[y * w + x]!;
      if (l < 0) continue;
      const r = find(l);
      let b = boxes.get(r);
      if (!b) boxes.set(r, (b = { x0: x, y0: y, x1: x, y1: y, pixels: 0 }));
      if (x < b.x0) b.x0 = x;
      if (x > b.x1) b.x1 = x;
      if (y < b.y0) b.y0 = y;
      if (y > b.y1) b.y1 = y;
      b.pixels++;
    }
  }
  return [...boxes.values()];
}

export interface TextDirection {
  /** True when the text runs top to bottom (page turned 90° or 270°). */
  vertical: boolean;
  /** (horizontal votes - vertical votes) / all votes, in [-1, 1]; near 0 = undecided. */
  score: number;
  /** Components that voted. */
  votes: number;
  /** Median component size (long side), analysis pixels; a proxy for character size. */
  charSize: number;
}

/**
 * Text direction of a grey image (any size; use a ~1000 px copy). Each character-sized component votes
 * for the direction to its nearest neighbour: horizontal when that neighbour is more than twice as far
 * sideways as up/down, vertical in the opposite case.
 */
export function textDirection(img: GrayImage): TextDirection {
  const { width: w, height: h } = img;
  const comps = connectedComponents(inkMask(img), w, h).filter((b) => {
    const size = Math.max(b.x1 - b.x0, b.y1 - b.y0) + 1;
    return size >= 3 && size <= 60 && b.pixels >= 4;
  });
  if (comps.length < 10) return { vertical: false, score: 0, votes: 0, charSize: 0 };
  const sizes = comps.map((b) => Math.max(b.x1 - b.x0, b.y1 - b.y0) + 1).sort((a, b) => a - b);
  const charSize = sizes[sizes.length >> 1]!;
  const cell = Math.max(4, charSize * 2);
  const cx = comps.map((b) => (b.x0 + b.x1) / 2), cy = comps.map((b) => (b.y0 + b.y1) / 2);
  const grid = new Map<number, number[]>();
  const key = (gx: number, gy: number): number => gy * 100_003 + gx;
  for (let i = 0; i < comps.length; i++) {
    const k = key(Math.floor(cx[i]! / cell), Math.floor(cy[i]! / cell));
    const bucket = grid.get(k);
    if (bucket) bucket.push(i); else grid.set(k, [i]);
  }
  let horizontal = 0, vertical = 0;
  for (let i = 0; i < comps.length; i++) {
    const gx = Math.floor(cx[i]! / cell), gy = Math.floor(cy[i]! / cell);
    let best = Infinity, bdx = 0, bdy = 0;
    for (let ix = gx - 1; ix <= gx + 1; ix++) {
      for (let iy = gy - 1; iy <= gy + 1; iy++) {
        for (const j of grid.get(key(ix, iy)) ?? []) {
          if (j === i) continue;
          const dx = cx[j]! - cx[i]!, dy = cy[j]! - cy[i]!;
          const d = dx * dx + dy * dy;
          if (d < best) { best = d; bdx = Math.abs(dx); bdy = Math.abs(dy); }
        }
      }
    }
    if (best === Infinity) continue;
    if (bdy < bdx * 0.5) horizontal++;
    else if (bdx < bdy * 0.5) vertical++;
  }
  const votes = horizontal + vertical;
  const score = votes ? (horizontal - vertical) / votes : 0;
  return { vertical: score < 0, score, votes, charSize };
}

/** What a reading says about its orientation. */
export interface ReadingQuality {
  /** Mean confidence (0..1) of words with at least two letters or digits, weighted by their length. */
  confidence: number;
  /** Words that counted. */
  words: number;
}

/** Confidence of a reading, from its words (confidence 0..1). Punctuation-only fragments do not count. */
export function readingQuality(words: ReadonlyArray<{ text: string; confidence: number }>): ReadingQuality {
  let sum = 0, weight = 0, n = 0;
  for (const w of words) {
    const alnum = w.text.replace(/[^\p{L}\p{N}]/gu, '').length;
    if (alnum < 2) continue;
    const wt = Math.min(alnum, 12);
    sum += w.confidence * wt;
    weight += wt;
    n++;
  }
  return { confidence: weight ? sum / weight : 0, words: n };
}


/** The text direction the detector's lines show (textAxis). */
export interface TextAxis {
  /** True when the lines run top to bottom (page turned 90° or 270°). */
  vertical: boolean;
  /** (horizontal - vertical) / both, each the summed length of the lines elongated that way, in [-1, 1]. */
  score: number;
  /** Elongated lines that voted. */
  lines: number;
}

/** A detector's line votes for a direction when it is at least this many times longer than it is thick. */
export const AXIS_LINE_ELONGATION = 2.5;
/**
 * The detector's vote decides horizontal from this score (with at least AXIS_MIN_LINES lines), vertical
 * up to AXIS_VERTICAL_UP_TO; in between, the geometry (textDirection) decides. The detector was trained on
 * horizontal lines: upright pages score 0.71-1 on the photo sets, sideways text sometimes breaks into
 * short pieces that vote horizontal (up to 0.21 on pages turned 90°), hence the asymmetric thresholds
 * (docs/decisions/2026-11-27-orientation-from-text-lines.md).
 */
export const AXIS_HORIZONTAL_FROM = 0.5;
export const AXIS_VERTICAL_UP_TO = -0.2;
export const AXIS_MIN_LINES = 3;

/**
 * Whether the page's text runs top to bottom: the detector's lines where they are clear (a tablecloth's
 * pattern or a column of quantities fools the geometry's components, not the lines), else the geometry.
 */
export function textIsVertical(direction: Pick<TextDirection, 'vertical'>, axis?: TextAxis): boolean {
  if (axis && axis.lines >= AXIS_MIN_LINES) {
    if (axis.score >= AXIS_HORIZONTAL_FROM) return false;
    if (axis.score <= AXIS_VERTICAL_UP_TO) return true;
  }
  return direction.vertical;
}

/**
 * Text direction from a detector's text lines (PaddleOCR's DB detector: text lines, not characters, so
 * a background's pattern, which gives blobs, rarely votes): a line much wider than tall votes
 * horizontal, one much taller than wide vertical, each with its length.
 */
export function textAxis(lines: readonly TextLineShape[]): TextAxis {
  let horizontal = 0, vertical = 0, n = 0;
  for (const l of lines) {
    const long = Math.max(l.width, l.height), short = Math.min(l.width, l.height);
    if (short <= 0 || long < AXIS_LINE_ELONGATION * short) continue;
    n++;
    if (l.width >= l.height) horizontal += long; else vertical += long;
  }
  const all = horizontal + vertical;
  const score = all ? (horizontal - vertical) / all : 0;
  return { vertical: score < 0, score, lines: n };
}
