/**
 * The paper in a photo: a receipt photographed lying on a table is found, and the page is read from the
 * paper alone, straightened, instead of from the whole photo (the readers stop reading the table's
 * texture, and a 12-megapixel photo is scaled for its paper, not for the table around it).
 *
 * On a small copy of the page (long side PAPER_ANALYSIS_LONG_SIDE):
 *   1. paperness of each pixel: bright and colourless (luminance minus saturation);
 *   2. Otsu's threshold splits paper-like pixels from the rest; a small closing joins the print to its
 *      paper; the largest connected region, its holes filled, is the candidate (or, when it is judged no
 *      paper, that region opened: a tablecloth's light checks that touch it shed); a second, brighter
 *      threshold is tried when both fail;
 *   3. its convex hull's minimum-area rectangle gives the paper's position, size and skew;
 *   4. the candidate is judged by PAPER_RULES (coverage, rectangularity, contrast with what surrounds it
 *      on every side, its outline seen on three sides at least, something left to crop): any rule that
 *      fails leaves the page as it is, so scans, renders and photos filled by their paper are never
 *      cropped.
 * A found paper becomes a PaperFrame: the rectangle with a margin, in original pixels, and the angle the
 * page is turned back by (only beyond MIN_DESKEW_DEGREES). The working image is cut from it
 * (preprocess.ts), and the Document of the page is in the frame's pixels (Page.paper maps them back).
 */
import sharp from 'sharp';
import type { RasterPage } from '../input/types.js';
import { pageDecodeLimit } from '../input/types.js';
import type { PaperFrame } from '../document/types.js';

export type { PaperFrame } from '../document/types.js';

/** Long side of the copy the paper is looked for on. */
export const PAPER_ANALYSIS_LONG_SIDE = 640;
/** The paper covers at least this share of the photo (smaller: a detail, not the receipt)... */
export const PAPER_MIN_COVERAGE = 0.08;
/** ...and at most this share (more: the photo is the paper already, as a scan is). */
export const PAPER_MAX_COVERAGE = 0.9;
/** Share of its minimum-area rectangle the region fills (a sheet is a rectangle, a trapezoid in perspective). */
export const PAPER_MIN_RECTANGULARITY = 0.85;
/** Paperness of the paper above that of the band outside each side of it in the image, median against median (0..255). */
export const PAPER_MIN_CONTRAST = 45;
/** The frame (paper and margin) must leave out at least this share of the photo, or cropping gains nothing. */
export const PAPER_MIN_CROP_GAIN = 0.12;
/** Skew below which the paper is cropped but not turned (a turn resamples the page). */
export const MIN_DESKEW_DEGREES = 1;
/** Margin kept around the paper, per side, as a share of its short side. */
export const PAPER_MARGIN = 0.02;
/** Radius, in analysis pixels, of the closing that joins print to paper. */
const CLOSING_RADIUS = 2;
/** Radius of the opening that sheds what only touches the paper, as a share of the region's short side. */
const OPENING_SHARE = 0.15;

/** An interleaved 8-bit image (3 or 4 channels: RGB first). */
export interface ColourImage { data: Uint8Array; width: number; height: number; channels: number }

/** A rectangle at any angle: centre, side lengths, and the clockwise angle of its `width` side, degrees in [-45, 45). */
export interface RotatedRect { cx: number; cy: number; width: number; height: number; angle: number }

/** What was measured of the candidate paper (analysis pixels); the rules judge these. */
export interface PaperMeasures {
  /** Filled area of the candidate region / area of the image. */
  coverage: number;
  /** Filled area / area of its minimum-area rectangle. */
  rectangularity: number;
  /** Median paperness inside the region minus that of the band outside its rectangle, on its least contrasted side. */
  contrast: number;
  /** Median paperness inside the region. */
  paperLevel: number;
  /** Share of the image outside the frame that would be cut (1 - frame area in the image / image area). */
  cropGain: number;
  /** Sides of the rectangle with their outside band in the image (0-4; the others run off the photo). */
  sidesSeen: number;
  /**
   * The region was found by shedding (opening) or at the brighter threshold, smaller than the paper-like
   * region at Otsu's threshold: `outlineSides` is the sides seen of that region's rectangle.
   */
  shrunk: boolean;
  outlineSides: number;
  rect: RotatedRect;
}

export interface PaperFinding {
  /** The paper rectangle with its margin, in the analysed image's pixels (absent when not found). */
  frame?: RotatedRect;
  measures?: PaperMeasures;
  /** The rule that declined the candidate (absent when found), e.g. 'coverage-max'. */
  declined?: string;
  /** Which candidate was judged: 'otsu' or 'brighter' (the threshold), '+opened' when its region was opened. */
  candidate?: string;
}

/** One judgement on the candidate: true when it speaks for the paper. */
export interface PaperRule { name: string; test(m: PaperMeasures): boolean }

/** The rules a candidate must pass, in order; the first that fails names the decline. */
export const PAPER_RULES: readonly PaperRule[] = [
  /** The region is large enough to be the receipt, not a detail of the table. */
  { name: 'coverage-min', test: (m) => m.coverage >= PAPER_MIN_COVERAGE },
  /** The region does not fill the photo (a scan, a render, a photo cropped to its paper). */
  { name: 'coverage-max', test: (m) => m.coverage <= PAPER_MAX_COVERAGE },
  /** The region is a sheet: it fills its minimum-area rectangle. */
  { name: 'rectangular', test: (m) => m.rectangularity >= PAPER_MIN_RECTANGULARITY },
  /** The paper stands out from what lies around it, on every side in the image (a frame does not cut across the paper). */
  { name: 'contrast', test: (m) => m.contrast >= PAPER_MIN_CONTRAST },
  /**
   * The paper's outline is seen on at least three sides: a region that runs off the photo on two sides
   * may be the lit part of a paper whose shadowed part is cut off.
   */
  { name: 'outline', test: (m) => m.sidesSeen >= 3 },
  /** The crop leaves out enough of the photo to be worth a new frame. */
  { name: 'crop-gain', test: (m) => m.cropGain >= PAPER_MIN_CROP_GAIN },
  /**
   * A shrunk region is taken only when the paper-like region it came from lies wholly in the photo
   * (background beyond all four sides): when that runs off the photo, what was shed, or left below the
   * brighter threshold, may be the rest of the paper (a shadowed end, a fold).
   */
  { name: 'whole-outline', test: (m) => !m.shrunk || (m.outlineSides === 4 && m.sidesSeen === 4) },
];

/** Paperness of every pixel: luminance minus saturation (max - min channel), clamped to 0..255. */
export function paperness(img: ColourImage): Uint8Array {
  const { data, channels } = img;
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    const r = data[j]!, g = channels >= 3 ? data[j + 1]! : r, b = channels >= 3 ? data[j + 2]! : r;
    const luma = (299 * r + 587 * g + 114 * b) / 1000;
    const sat = Math.max(r, g, b) - Math.min(r, g, b);
    out[i] = Math.max(0, Math.min(255, Math.round(luma - sat)));
  }
  return out;
}

/** Otsu's threshold of 8-bit values: the level that best separates them into two classes (values > t are the upper class). */
export function otsuThreshold(values: Uint8Array): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < values.length; i++) hist[values[i]!]!++;
  const total = values.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * hist[v]!;
  let wLow = 0, sumLow = 0, best = -1, threshold = 127;
  for (let t = 0; t < 255; t++) {
    wLow += hist[t]!;
    sumLow += t * hist[t]!;
    const wHigh = total - wLow;
    if (wLow === 0 || wHigh === 0) continue;
    const meanLow = sumLow / wLow, meanHigh = (sumAll - sumLow) / wHigh;
    const between = wLow * wHigh * (meanLow - meanHigh) ** 2;
    if (between > best) { best = between; threshold = t; }
  }
  return threshold;
}

/**
 * One pass of a binary dilation (`value` 1: a pixel becomes 1 when any pixel within `radius` along the
 * row or column is 1) or erosion (`value` 0: becomes 0 when any is 0), by a running count; the window
 * is clipped at the image's edge (no erosion from outside the image).
 */
function morphPass(src: Uint8Array, width: number, height: number, radius: number, value: 0 | 1, horizontal: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  const [lines, length] = horizontal ? [height, width] : [width, height];
  const at = (line: number, k: number): number => (horizontal ? line * width + k : k * width + line);
  for (let line = 0; line < lines; line++) {
    let count = 0; // pixels equal to `value` in the window [k - radius, k + radius]
    for (let k = 0; k < Math.min(length, radius); k++) if (src[at(line, k)] === value) count++;
    for (let k = 0; k < length; k++) {
      const enter = k + radius, leave = k - radius - 1;
      if (enter < length && src[at(line, enter)] === value) count++;
      if (leave >= 0 && src[at(line, leave)] === value) count--;
      out[at(line, k)] = count > 0 ? value : 1 - value;
    }
  }
  return out;
}

/** Dilation (`value` 1) or erosion (`value` 0) of a 0/1 mask by a square of the given radius. */
function morph(mask: Uint8Array, width: number, height: number, radius: number, value: 0 | 1): Uint8Array {
  return morphPass(morphPass(mask, width, height, radius, value, true), width, height, radius, value, false);
}

/** Morphological closing (dilate, then erode) by a square of the given radius: fills dark gaps narrower than 2r+1 (print on paper). */
export function closeMask(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  return morph(morph(mask, width, height, radius, 1), width, height, radius, 0);
}

/** Morphological opening (erode, then dilate) by a square of the given radius: removes bright parts narrower than 2r+1 (a tablecloth's white checks touching the paper). */
export function openMask(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  return morph(morph(mask, width, height, radius, 0), width, height, radius, 1);
}

/** The largest 4-connected region of 1s in a mask, as a 0/1 mask, and its area in pixels. */
export function largestRegion(mask: Uint8Array, width: number, height: number): { mask: Uint8Array; area: number } {
  const labels = new Int32Array(mask.length);
  const stack = new Int32Array(mask.length);
  let next = 0, bestLabel = 0, bestArea = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    const label = ++next;
    let top = 0, area = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top) {
      const p = stack[--top]!;
      area++;
      const x = p % width, y = (p - x) / width;
      if (x > 0 && mask[p - 1] && !labels[p - 1]) { labels[p - 1] = label; stack[top++] = p - 1; }
      if (x < width - 1 && mask[p + 1] && !labels[p + 1]) { labels[p + 1] = label; stack[top++] = p + 1; }
      if (y > 0 && mask[p - width] && !labels[p - width]) { labels[p - width] = label; stack[top++] = p - width; }
      if (y < height - 1 && mask[p + width] && !labels[p + width]) { labels[p + width] = label; stack[top++] = p + width; }
    }
    if (area > bestArea) { bestArea = area; bestLabel = label; }
  }
  const out = new Uint8Array(mask.length);
  if (bestLabel) for (let i = 0; i < mask.length; i++) if (labels[i] === bestLabel) out[i] = 1;
  return { mask: out, area: bestArea };
}

/** A region with its holes filled: every 0 not reachable from the image border through 0s becomes 1. Returns the filled area too. */
export function fillHoles(region: Uint8Array, width: number, height: number): { mask: Uint8Array; area: number } {
  const outside = new Uint8Array(region.length);
  const stack = new Int32Array(region.length);
  let top = 0;
  const seed = (p: number): void => { if (!region[p] && !outside[p]) { outside[p] = 1; stack[top++] = p; } };
  for (let x = 0; x < width; x++) { seed(x); seed((height - 1) * width + x); }
  for (let y = 0; y < height; y++) { seed(y * width); seed(y * width + width - 1); }
  while (top) {
    const p = stack[--top]!;
    const x = p % width, y = (p - x) / width;
    if (x > 0) seed(p - 1);
    if (x < width - 1) seed(p + 1);
    if (y > 0) seed(p - width);
    if (y < height - 1) seed(p + width);
  }
  const out = new Uint8Array(region.length);
  let area = 0;
  for (let i = 0; i < region.length; i++) if (!outside[i]) { out[i] = 1; area++; }
  return { mask: out, area };
}

type Point = [number, number];

/** Convex hull (counter-clockwise in a y-down frame, no repeated end point) of a region's pixel squares, from each row's outermost pixels. */
export function regionHull(region: Uint8Array, width: number, height: number): Point[] {
  const pts: Point[] = [];
  for (let y = 0; y < height; y++) {
    let x0 = -1, x1 = -1;
    for (let x = 0; x < width; x++) if (region[y * width + x]) { if (x0 < 0) x0 = x; x1 = x; }
    if (x0 < 0) continue;
    pts.push([x0, y], [x0, y + 1], [x1 + 1, y], [x1 + 1, y + 1]);
  }
  return convexHull(pts);
}

/** Convex hull of points (Andrew's monotone chain). */
export function convexHull(points: readonly Point[]): Point[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [], upper: Point[] = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, q) <= 0) lower.pop(); lower.push(q); }
  for (let i = p.length - 1; i >= 0; i--) { const q = p[i]!; while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, q) <= 0) upper.pop(); upper.push(q); }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** The minimum-area rectangle around a convex hull (one side lies along a hull edge), its angle folded into [-45, 45). */
export function minAreaRectangle(hull: readonly Point[]): RotatedRect {
  let best: RotatedRect | undefined, bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!, b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const q of hull) {
      const u = q[0] * ux + q[1] * uy, v = -q[0] * uy + q[1] * ux;
      if (u < minU) minU = u; if (u > maxU) maxU = u;
      if (v < minV) minV = v; if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const mu = (minU + maxU) / 2, mv = (minV + maxV) / 2;
      best = { cx: mu * ux - mv * uy, cy: mu * uy + mv * ux, width: maxU - minU, height: maxV - minV, angle: (Math.atan2(uy, ux) * 180) / Math.PI };
    }
  }
  if (!best) {
    const xs = hull.map((q) => q[0]), ys = hull.map((q) => q[1]);
    const x0 = Math.min(...xs, 0), x1 = Math.max(...xs, 0), y0 = Math.min(...ys, 0), y1 = Math.max(...ys, 0);
    return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, width: x1 - x0, height: y1 - y0, angle: 0 };
  }
  return foldAngle(best);
}

/** The same rectangle described with its angle in [-45, 45) (a quarter turn swaps width and height). */
export function foldAngle(r: RotatedRect): RotatedRect {
  let { width, height, angle } = r;
  angle = ((angle % 180) + 180) % 180; // [0, 180): a side's direction
  if (angle >= 135) angle -= 180;
  else if (angle >= 45) { angle -= 90; [width, height] = [height, width]; }
  return { ...r, width, height, angle };
}

/** The four corners of a rotated rectangle (clockwise from its top-left in a y-down frame). */
export function rectCorners(r: RotatedRect): Point[] {
  const t = (r.angle * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([i, j]) => {
    const dx = (i! * r.width) / 2, dy = (j! * r.height) / 2;
    return [r.cx + dx * c - dy * s, r.cy + dx * s + dy * c] as Point;
  });
}

/** A test of whether a point lies inside a rotated rectangle grown by `grow` on every side. */
function insideRect(r: RotatedRect, grow = 0): (x: number, y: number) => boolean {
  const t = (r.angle * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  const hw = r.width / 2 + grow, hh = r.height / 2 + grow;
  return (x, y) => {
    const dx = x - r.cx, dy = y - r.cy;
    return Math.abs(dx * c + dy * s) <= hw && Math.abs(-dx * s + dy * c) <= hh;
  };
}

/**
 * How the paper stands out on every side: the region's median paperness minus the median of a band (of
 * `band` px) just outside each side of its rectangle, the least of the sides whose band lies in the image
 * (at least a quarter of it). A frame that cuts across the paper (a shadowed end of the receipt left out,
 * only its brightest part taken) has paper just outside that side, and little contrast there.
 */
export function paperContrast(paper: Uint8Array, region: Uint8Array, rect: RotatedRect, width: number, height: number, band: number): { contrast: number; paperLevel: number; sidesSeen: number } {
  const inside = new Uint32Array(256);
  const sides = [0, 1, 2, 3].map(() => ({ hist: new Uint32Array(256), n: 0 })); // left, right, top, bottom
  const t = (rect.angle * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  const hw = rect.width / 2 + 1, hh = rect.height / 2 + 1;
  let nIn = 0;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const i = y * width + x;
    if (region[i]) { inside[paper[i]!]!++; nIn++; continue; }
    const dx = x + 0.5 - rect.cx, dy = y + 0.5 - rect.cy;
    const u = dx * c + dy * s, v = -dx * s + dy * c;
    const au = Math.abs(u), av = Math.abs(v);
    let side = -1;
    if (au > hw && au <= hw + band && av <= hh) side = u < 0 ? 0 : 1;
    else if (av > hh && av <= hh + band && au <= hw) side = v < 0 ? 2 : 3;
    if (side < 0) continue;
    sides[side]!.hist[paper[i]!]!++;
    sides[side]!.n++;
  }
  if (!nIn) return { contrast: 0, paperLevel: 0, sidesSeen: 0 };
  const lengths = [rect.height, rect.height, rect.width, rect.width];
  const paperLevel = histMedian(inside, nIn);
  let least = Infinity, sidesSeen = 0;
  for (const [k, side] of sides.entries()) {
    if (side.n < 0.25 * lengths[k]! * band) continue; // that side lies (mostly) beyond the image
    sidesSeen++;
    least = Math.min(least, paperLevel - histMedian(side.hist, side.n));
  }
  return { contrast: least === Infinity ? 0 : least, paperLevel, sidesSeen };
}

function histMedian(hist: Uint32Array, n: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) { acc += hist[v]!; if (acc * 2 >= n) return v; }
  return 255;
}

/** Share of the image a frame leaves out: 1 - (frame area inside the image) / image area (sampled on a grid). */
export function cropGain(frame: RotatedRect, width: number, height: number): number {
  const step = Math.max(1, Math.round(Math.max(width, height) / 200));
  const inFrame0 = insideRect(frame);
  let inFrame = 0, all = 0;
  for (let y = step / 2; y < height; y += step) for (let x = step / 2; x < width; x += step) { all++; if (inFrame0(x, y)) inFrame++; }
  return all ? 1 - inFrame / all : 0;
}

/** The paper rectangle grown by PAPER_MARGIN of its short side (and one analysis pixel) on every side. */
export function withMargin(rect: RotatedRect): RotatedRect {
  const m = PAPER_MARGIN * Math.min(rect.width, rect.height) + 1;
  return { ...rect, width: rect.width + 2 * m, height: rect.height + 2 * m };
}

/** The paper region's measures and, when PAPER_RULES all pass, its frame (the rectangle with a margin). */
export function judgeRegion(paper: Uint8Array, region: { mask: Uint8Array; area: number }, width: number, height: number, shrunkFrom?: PaperMeasures): PaperFinding {
  if (!region.area) return { declined: 'no-region' };
  const rect = minAreaRectangle(regionHull(region.mask, width, height));
  const frame = withMargin(rect);
  const measures: PaperMeasures = {
    coverage: region.area / (width * height),
    rectangularity: region.area / Math.max(1, rect.width * rect.height),
    ...paperContrast(paper, region.mask, rect, width, height, Math.max(3, Math.round(0.03 * Math.min(width, height)))),
    cropGain: cropGain(frame, width, height),
    shrunk: !!shrunkFrom,
    outlineSides: 0,
    rect,
  };
  measures.outlineSides = shrunkFrom ? shrunkFrom.sidesSeen : measures.sidesSeen;
  const failed = PAPER_RULES.find((r) => !r.test(measures));
  return failed ? { measures, declined: failed.name } : { frame, measures };
}

/**
 * The paper among the pixels brighter than `threshold`: the largest region after joining the print to
 * its paper (closing), its holes filled. When that region is not judged paper, the same region opened
 * (by OPENING_SHARE of its short side: what only touches the paper, a tablecloth's light checks, is
 * shed), largest again, filled again. The region as it is comes first, so that paper that is no
 * rectangle (curled, in perspective) is framed whole.
 */
export function paperCandidate(paper: Uint8Array, width: number, height: number, threshold: number, name = 'otsu', shrunkFrom?: PaperMeasures): PaperFinding {
  const mask = new Uint8Array(paper.length);
  for (let i = 0; i < paper.length; i++) mask[i] = paper[i]! > threshold ? 1 : 0;
  const joined = fillHoles(largestRegion(closeMask(mask, width, height, CLOSING_RADIUS), width, height).mask, width, height);
  const whole = { ...judgeRegion(paper, joined, width, height, shrunkFrom), candidate: name };
  if (whole.frame || !whole.measures) return whole;
  const r = whole.measures.rect;
  const radius = Math.max(CLOSING_RADIUS, Math.round(OPENING_SHARE * Math.min(r.width, r.height)));
  const shed = fillHoles(largestRegion(openMask(joined.mask, width, height, radius), width, height).mask, width, height);
  const opened = judgeRegion(paper, shed, width, height, shrunkFrom ?? whole.measures);
  return opened.frame ? { ...opened, candidate: `${name}+opened` } : whole;
}

/**
 * Looks for the paper on a (small) colour image (see the module's comment). Two thresholds of paperness
 * are tried, Otsu's and Otsu's within the brighter class (paper brighter than a light tablecloth); the
 * first candidate that passes PAPER_RULES is the paper, else the first candidate's decline stands.
 */
export function findPaper(img: ColourImage): PaperFinding {
  const { width, height } = img;
  const paper = paperness(img);
  const first = otsuThreshold(paper);
  const tried = paperCandidate(paper, width, height, first);
  if (tried.frame || !tried.measures) return tried;
  const brighter = paper.filter((v) => v > first);
  if (brighter.length < PAPER_MIN_COVERAGE * paper.length) return tried;
  const second = otsuThreshold(brighter);
  if (second <= first) return tried;
  const again = paperCandidate(paper, width, height, second, 'brighter', tried.measures);
  return again.frame ? again : tried;
}

/**
 * The frame of a found paper in original pixels: the analysed rectangle scaled by `toOriginal`
 * (original pixels per analysis pixel), turned only when its skew reaches MIN_DESKEW_DEGREES (else the
 * upright box around it).
 */
export function paperFrame(found: RotatedRect, toOriginal: number, imageWidth: number, imageHeight: number): PaperFrame {
  const r = { cx: found.cx * toOriginal, cy: found.cy * toOriginal, width: found.width * toOriginal, height: found.height * toOriginal, angle: found.angle };
  if (Math.abs(r.angle) >= MIN_DESKEW_DEGREES) {
    return { imageWidth, imageHeight, cx: r.cx, cy: r.cy, width: Math.round(r.width), height: Math.round(r.height), angle: Math.round(r.angle * 100) / 100 };
  }
  const xs = rectCorners(r).map((p) => p[0]), ys = rectCorners(r).map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(imageWidth, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(imageHeight, Math.ceil(Math.max(...ys)));
  return { imageWidth, imageHeight, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, width: x1 - x0, height: y1 - y0, angle: 0 };
}

/** Decodes a page's small upright colour copy (long side PAPER_ANALYSIS_LONG_SIDE; JPEG shrink-on-load makes it cheap). */
export async function paperAnalysisCopy(page: RasterPage): Promise<ColourImage> {
  const { data, info } = await sharp(page.image, { limitInputPixels: pageDecodeLimit(page), failOn: 'none' })
    .rotate()
    .resize({ width: PAPER_ANALYSIS_LONG_SIDE, height: PAPER_ANALYSIS_LONG_SIDE, fit: 'inside', withoutEnlargement: true, kernel: 'linear' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const findings = new WeakMap<Buffer, Promise<PaperFrame | undefined>>();

/**
 * The paper frame of a raster page (undefined when no paper is found with confidence), looked for once
 * per page image: every working image of the page, and the Document's page (paperFrameFound), use the
 * same frame. `width`/`height`: the page's size after EXIF orientation.
 */
export function paperFrameOf(page: RasterPage, width: number, height: number): Promise<PaperFrame | undefined> {
  let p = findings.get(page.image);
  if (!p) {
    p = paperAnalysisCopy(page).then((copy) => {
      const found = findPaper(copy).frame;
      return found ? paperFrame(found, width / copy.width, width, height) : undefined;
    });
    findings.set(page.image, p);
  }
  return p;
}

/** The paper frame the page's working images were cut from: undefined when none was found, or none was looked for. */
export function paperFrameFound(page: RasterPage): Promise<PaperFrame | undefined> {
  return (findings.get(page.image) ?? Promise.resolve(undefined)).catch(() => undefined);
}

/**
 * The pixels of a page's frame at `scale` (frame pixels per original pixel), upright and straightened,
 * interleaved colour (channels as sharp gives them), white where the frame reaches past the photo.
 * One decode of the photo, limited to the frame's upright bounding box (shrink-on-load when scaling down);
 * `kernel`: the resize's (default: cubic enlarging, lanczos3 reducing).
 */
export async function decodeFrame(page: RasterPage, frame: PaperFrame, scale: number, kernel?: 'nearest' | 'linear' | 'cubic' | 'lanczos3'): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }> {
  const limitInputPixels = pageDecodeLimit(page);
  const corners = rectCorners(frame);
  const bx0 = Math.floor(Math.min(...corners.map((c) => c[0]))), bx1 = Math.ceil(Math.max(...corners.map((c) => c[0])));
  const by0 = Math.floor(Math.min(...corners.map((c) => c[1]))), by1 = Math.ceil(Math.max(...corners.map((c) => c[1])));
  // the part of the bounding box inside the photo, decoded and scaled
  const left = Math.max(0, bx0), top = Math.max(0, by0);
  const right = Math.min(frame.imageWidth, bx1), bottom = Math.min(frame.imageHeight, by1);
  const outW = Math.max(1, Math.round((right - left) * scale)), outH = Math.max(1, Math.round((bottom - top) * scale));
  let img = sharp(page.image, { limitInputPixels, failOn: 'none' }).rotate()
    .extract({ left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) });
  if (outW !== right - left || outH !== bottom - top) img = img.resize({ width: outW, height: outH, fit: 'fill', kernel: kernel ?? (scale > 1 ? 'cubic' : 'lanczos3') });
  let part = await img.flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  if (frame.angle === 0) return part;
  // padded back to the whole bounding box (white), so that its centre is the frame's centre, then turned back
  const pad = {
    left: Math.round((left - bx0) * scale), top: Math.round((top - by0) * scale),
    right: Math.round((bx1 - right) * scale), bottom: Math.round((by1 - bottom) * scale),
  };
  const raw = (b: typeof part) => ({ raw: { width: b.info.width, height: b.info.height, channels: b.info.channels as 3 | 4 }, limitInputPixels: b.info.width * b.info.height + 1 });
  if (pad.left || pad.top || pad.right || pad.bottom) {
    part = await sharp(part.data, raw(part)).extend({ ...pad, background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  }
  const turned = await sharp(part.data, raw(part)).rotate(-frame.angle, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const w = Math.max(1, Math.min(turned.info.width, Math.round(frame.width * scale)));
  const h = Math.max(1, Math.min(turned.info.height, Math.round(frame.height * scale)));
  return sharp(turned.data, raw(turned))
    .extract({ left: Math.floor((turned.info.width - w) / 2), top: Math.floor((turned.info.height - h) / 2), width: w, height: h })
    .raw().toBuffer({ resolveWithObject: true });
}
