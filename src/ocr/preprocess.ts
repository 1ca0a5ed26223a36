/**
 * Image preparation for OCR (sharp). The page is decoded (page-pixels.ts: at the working scale, or from
 * its one full-resolution decode), upright per its EXIF orientation, cut to its paper when it is a photo
 * of a receipt on a table (paper.ts), flattened on white, converted to 8-bit grey and scaled (the
 * "working image"); orientation analysis and every OCR pass start from that buffer. Choices measured
 * on the corpus (docs/decisions/2026-11-21-tesseract-page-reading.md; numbers in bench/OCR.md):
 * - long side at most 2000 px: 1600, 2000 and 2400 found the same totals and dates on the sample and
 *   took about the same time (text, not pixels, drives tesseract's time); 2000 keeps small print on
 *   A4 invoice renders above ~170 dpi;
 * - no upscaling: enlarging the ~730 px phone crops to 1100-1800 px found no more values and cost
 *   1.5-2x the time;
 * - grey: as good as colour; no own thresholding or lighting correction (tesseract's adaptive
 *   thresholding and a background flattening were tried: no gain, or slower and worse);
 * - handed to tesseract as binary PGM, which reads the same text as PNG and skips a zlib round trip
 *   inside the WebAssembly core (about 10 % faster per page than PNG level 1).
 * `limitInputPixels` is always set (decompression bombs): the input stage's limit, or the page's own size.
 */
import sharp from 'sharp';
import { ReceiptKitError } from '../errors.js';
import type { RasterPage } from '../input/types.js';
import { DECODE_FAIL_ON, pageDecodeLimit } from '../input/types.js';
import { paperFrameOf } from './paper.js';
import { pagePixels, rawOf } from './page-pixels.js';
import type { PaperFrame } from './paper.js';
import { AXIS_ANALYSIS_LONG_SIDE, textDirection } from './orientation.js';
import type { GrayImage } from './gray.js';

export type Rotation = 0 | 90 | 180 | 270;

export interface OcrScaling {
  /** Images whose long side is larger are downscaled to it. */
  maxLongSide: number;
  /** Images whose long side is smaller are upscaled towards it... */
  minLongSide: number;
  /** ...by at most this factor. */
  maxUpscale: number;
}

export const DEFAULT_SCALING: Readonly<OcrScaling> = { maxLongSide: 2000, minLongSide: 0, maxUpscale: 1 };

/**
 * Photographed paper: a page whose paper is grey rather than white (the median of its blocks' 90th
 * percentile brightness is below PHOTO_PAPER_BELOW) is a photo, not a scan or a render. On 81 phone
 * photos of receipts the paper level was 186-232 (median 207); on 178 scans 198-255, median 255, with
 * 18 below 236.
 * Such a page is enlarged to a long side of at least PHOTO_MIN_LONG_SIDE (at most PHOTO_MAX_UPSCALE
 * times) and its contrast equalised locally (CLAHE, PHOTO_CLAHE_TILE px tiles at working scale, slope
 * 3). Measured (docs/decisions/2026-11-21-tesseract-page-reading.md; all 81 phone photos; labelled value present in the OCR text):
 * totals 51 -> 59 of 78, dates 38 -> 52 of 70; on the 18 grey scans dates 15 -> 16 of 18, totals the
 * same. On white scans the same treatment lost dates (60 scans: 49 -> 45 of 55), hence the gate.
 * Tiles of 16/24/32/64/128 px gave dates 50/53/52/46/39; upscaling to 1000/1200/1400 with 64 px tiles gave
 * totals 60/59/55 and dates 45/46/47.
 */
export const PHOTO_PAPER_BELOW = 236;
export const PHOTO_MIN_LONG_SIDE = 1200;
export const PHOTO_MAX_UPSCALE = 3;
export const PHOTO_CLAHE_TILE = 32;

/** The decoded page, upright per EXIF (not yet per detected rotation), grey, at OCR scale. */
export interface WorkingImage {
  /** 8-bit grey pixels, row-major, `width * height` bytes. */
  gray: Buffer;
  width: number;
  height: number;
  /** Working pixels per original pixel (of the frame). */
  scale: number;
  /** The page was recognised as photographed paper and enlarged / equalised (see PHOTO_PAPER_BELOW). */
  photo: boolean;
  /** Paper brightness 0..255 (median of the blocks' 90th percentiles). */
  paperLevel: number;
  /**
   * Size of the page's frame at original resolution: the image after EXIF orientation (= RasterPage
   * width/height), or the paper found in it (`paper`), straightened.
   */
  originalWidth: number;
  originalHeight: number;
  /** The paper the working image was cut from (absent: the whole image). */
  paper?: PaperFrame;
  ms: number;
}

/**
 * The paper is looked for (paper.ts) in images whose long side exceeds this, and not in rendered PDF
 * pages. Such an image is scaled down for reading anyway, and cut to its paper it gives the paper the
 * pixels the table had: a camera's own photo. Smaller images are mostly photos cropped already and cost
 * little to read whole; cut to their paper they read neither better nor worse (the 44 corpus photos of
 * us_uk_eu and vn whose paper was found: totals +1 -1 and +1, dates -2, names +2 -1, against HEAD).
 */
export const PAPER_MIN_LONG_SIDE = DEFAULT_SCALING.maxLongSide;

/** Whether the paper is looked for in this page (see PAPER_MIN_LONG_SIDE): a photo, not a render, larger than reading needs. */
export function lookForPaper(page: Pick<RasterPage, 'renderScale'>, imageWidth: number, imageHeight: number): boolean {
  return page.renderScale === undefined && Math.max(imageWidth, imageHeight) > PAPER_MIN_LONG_SIDE;
}

/**
 * Long side a paper frame (paper.ts) is enlarged to, at most, by the page readings (see paperScaling,
 * paperScale): the corpus's phone photos, receipts photographed close, are read best at about
 * PHOTO_MIN_LONG_SIDE (1200; bench/OCR.md), and a receipt cut from a 12-megapixel photo is such a photo.
 * On the 12 photos of bench/phone-photos.mjs, in one run against 2000: totals 12/12 and dates 12/12
 * both, names 9/10 against 8/10, the sum of the times 0.82x.
 */
export const PAPER_MAX_LONG_SIDE = 1400;

/**
 * The scaling of a paper frame: a page reading under the default limit (no fixed size asked, a long side
 * of at most DEFAULT_SCALING's) reads the paper at most PAPER_MAX_LONG_SIDE long, and a pass at a fixed
 * size (the confirming passes at 2800 and 1500) at that size times PAPER_MAX_LONG_SIDE / 2000, in the
 * same proportion to the paper's first reading as to a page's (not a paper 1700 px long enlarged to
 * 2800); the line re-readings at full resolution keep theirs.
 */
export function paperScaling(s: OcrScaling): OcrScaling {
  if (s.maxLongSide > DEFAULT_SCALING.maxLongSide && s.minLongSide === 0) return s;
  if (s.minLongSide > 0) {
    const k = PAPER_MAX_LONG_SIDE / DEFAULT_SCALING.maxLongSide;
    return { ...s, maxLongSide: Math.round(s.maxLongSide * k), minLongSide: Math.round(s.minLongSide * k) };
  }
  return { ...s, maxLongSide: Math.min(s.maxLongSide, PAPER_MAX_LONG_SIDE) };
}

/**
 * The scale a paper frame is read at: its own under paperScaling, but never below the scale of the
 * whole photo under a page's limit (the paper keeps at least the pixels it had there; only a paper small
 * in its photo is enlarged, up to PAPER_MAX_LONG_SIDE).
 */
export function paperScale(paper: { width: number; height: number }, imageWidth: number, imageHeight: number, scaling: OcrScaling): number {
  const whole = ocrScale(imageWidth, imageHeight, { ...scaling, minLongSide: 0 });
  return Math.max(whole, ocrScale(paper.width, paper.height, paperScaling(scaling)));
}

/** The scale factor for an image of this size under a scaling policy. */
export function ocrScale(width: number, height: number, scaling: OcrScaling = DEFAULT_SCALING): number {
  const long = Math.max(width, height);
  if (long > scaling.maxLongSide) return scaling.maxLongSide / long;
  if (scaling.minLongSide > 0 && long < scaling.minLongSide) return Math.min(scaling.maxUpscale, scaling.minLongSide / long);
  return 1;
}

/**
 * Decodes a raster page into the working image (`enhancePhotos`: apply the photo treatment when the
 * paper is grey). A large photo whose paper is found (ocr/paper.ts; see lookForPaper) is decoded
 * as that paper only, straightened, and scaled by paperScale:
 * its frame's size is `originalWidth`/`originalHeight`, and `paper` says where it lies in the photo.
 */
export async function loadWorkingImage(page: RasterPage, scaling: OcrScaling = DEFAULT_SCALING, enhancePhotos = true): Promise<WorkingImage> {
  const started = performance.now();
  let imageWidth = page.width, imageHeight = page.height;
  if (!(imageWidth > 0 && imageHeight > 0)) {
    const m = await sharp(page.image, { limitInputPixels: pageDecodeLimit(page), failOn: DECODE_FAIL_ON }).metadata().catch((e: unknown) => { throw unreadable(e); });
    const turned = (m.orientation ?? 1) >= 5;
    imageWidth = (turned ? m.height : m.width) ?? 0;
    imageHeight = (turned ? m.width : m.height) ?? 0;
    if (!(imageWidth > 0 && imageHeight > 0)) throw new ReceiptKitError('UNREADABLE_FILE', 'the image has no size');
  }
  // a failed search for the paper leaves the whole image (an undecodable one fails below, as before)
  const paper = lookForPaper(page, imageWidth, imageHeight) ? await paperFrameOf(page, imageWidth, imageHeight).catch(() => undefined) : undefined;
  const originalWidth = paper ? paper.width : imageWidth, originalHeight = paper ? paper.height : imageHeight;
  const scale = paper ? paperScale(paper, imageWidth, imageHeight, scaling) : ocrScale(originalWidth, originalHeight, scaling);
  const pixels = await pagePixels(page, { width: imageWidth, height: imageHeight }, paper, scale).catch((e: unknown) => { throw unreadable(e); });
  const { data, info } = pixels;
  const bw = await sharp(data, { raw: rawOf(pixels), limitInputPixels: info.width * info.height + 1 })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const luma = firstChannel(bw.data, bw.info);
  const level = paperLevel(luma);
  const greyPaper = level < PHOTO_PAPER_BELOW;
  const photo = enhancePhotos && greyPaper;
  // a photo's colour is the light's as much as the ink's (a warm lamp saturates the paper): luminance
  let img2 = photo ? await treatPhoto(luma, originalWidth, originalHeight, scaling) : greyPaper ? luma : inkGrey(data, info, luma);
  if (!greyPaper && !paper && page.renderScale === undefined) img2 = await enlargeSmallPage(img2, scaling);
  return {
    ...img2,
    scale: img2.width / originalWidth,
    photo, paperLevel: level,
    originalWidth, originalHeight,
    ...(paper ? { paper } : {}),
    ms: performance.now() - started,
  };
}

/** Paper brightness: the median over an 8x8 grid of blocks of each block's 90th percentile (sampled). */
export function paperLevel(img: GrayImage): number {
  const G = 8, { gray, width: w, height: h } = img;
  const levels: number[] = [];
  const hist = new Uint32Array(256);
  for (let gy = 0; gy < G; gy++) {
    const y0 = Math.floor((gy * h) / G), y1 = Math.max(y0 + 1, Math.floor(((gy + 1) * h) / G));
    for (let gx = 0; gx < G; gx++) {
      const x0 = Math.floor((gx * w) / G), x1 = Math.max(x0 + 1, Math.floor(((gx + 1) * w) / G));
      const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 1024)));
      hist.fill(0);
      let n = 0;
      for (let y = y0; y < Math.min(y1, h); y += step) {
        const row = y * w;
        for (let x = x0; x < Math.min(x1, w); x += step) { hist[gray[row + x]!]!++; n++; }
      }
      if (!n) continue;
      let acc = 0, v = 0;
      const want = Math.floor(n * 0.9);
      for (; v < 255; v++) { acc += hist[v]!; if (acc > want) break; }
      levels.push(v);
    }
  }
  levels.sort((a, b) => a - b);
  return levels.length ? levels[levels.length >> 1]! : 255;
}

/**
 * A small image of white paper whose text is small (a photo cropped to its receipt, a low-resolution
 * scan) is enlarged under a page's limit as a grey photo is (PHOTO_MIN_LONG_SIDE, at most
 * PHOTO_MAX_UPSCALE times), without the equalisation that loses dates on white scans, when that
 * enlarges it by at least SMALL_PAGE_MIN_UPSCALE and its characters (orientation.ts charSize, the
 * median ink component's long side) are under SMALL_TEXT_BELOW px: "Check Total: 65.66" read as 52 in a
 * 343x450 photo (characters 12.6 px), right enlarged. A page whose text is already large is read as it
 * is: measured on the corpus, a 480x640 photo with 17 px characters read enlarged lost its name.
 * A fixed size asked (a confirming pass) or a re-read's full resolution keeps its own.
 */
export const SMALL_PAGE_MIN_UPSCALE = 1.25;
export const SMALL_TEXT_BELOW = 14;

async function enlargeSmallPage(img: GrayImage, scaling: OcrScaling): Promise<GrayImage> {
  if (scaling.minLongSide > 0 || scaling.maxLongSide > DEFAULT_SCALING.maxLongSide) return img;
  const long = Math.max(img.width, img.height);
  const k = Math.min(PHOTO_MAX_UPSCALE, PHOTO_MIN_LONG_SIDE / long);
  if (k < SMALL_PAGE_MIN_UPSCALE) return img;
  const charSize = textDirection(await analysisCopy(img, AXIS_ANALYSIS_LONG_SIDE)).charSize * long / AXIS_ANALYSIS_LONG_SIDE;
  if (!(charSize > 0 && charSize < SMALL_TEXT_BELOW)) return img;
  return scaleGray(img, k);
}

/** A grey image enlarged (or reduced) `k` times (lanczos3). */
export async function scaleGray(img: GrayImage, k: number): Promise<GrayImage> {
  const { data, info } = await sharp(img.gray, { raw: { width: img.width, height: img.height, channels: 1 }, limitInputPixels: img.width * img.height + 1 })
    .resize({ width: Math.max(1, Math.round(img.width * k)), height: Math.max(1, Math.round(img.height * k)), fit: 'fill', kernel: 'lanczos3' })
    .raw().toBuffer({ resolveWithObject: true });
  return firstChannel(data, info);
}

/** Enlarges (see PHOTO_MIN_LONG_SIDE) and locally equalises a photographed page. */
async function treatPhoto(img: GrayImage, originalWidth: number, originalHeight: number, scaling: OcrScaling): Promise<GrayImage> {
  const long = Math.max(originalWidth, originalHeight);
  const current = Math.max(img.width, img.height);
  const wantLong = Math.min(Math.max(PHOTO_MIN_LONG_SIDE, scaling.minLongSide), long * Math.max(PHOTO_MAX_UPSCALE, scaling.maxUpscale), Math.max(scaling.maxLongSide, current));
  const k = wantLong > current ? wantLong / current : 1;
  let pipe = sharp(img.gray, { raw: { width: img.width, height: img.height, channels: 1 }, limitInputPixels: img.width * img.height + 1 });
  if (k > 1) pipe = pipe.resize({ width: Math.round(img.width * k), height: Math.round(img.height * k), fit: 'fill', kernel: 'cubic' });
  const { data, info } = await pipe
    .clahe({ width: PHOTO_CLAHE_TILE, height: PHOTO_CLAHE_TILE, maxSlope: 3 })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return firstChannel(data, info);
}

/** Colour saturation (max - min channel) from which a mid-tone pixel counts as coloured ink. */
export const INK_SATURATION = 96;
/** ... and the brightness below which: brighter saturated areas (a yellow highlighter) stay light. */
export const INK_MAX_LUMA = 200;

/**
 * Grey for OCR on white paper: `luma` (sharp's 'b-w' of the same raster) with coloured ink darkened:
 * a saturated mid-tone pixel (orange, cyan or light-red text: luminance 140-200, which binarisation
 * turns white) becomes 255 - saturation when that is darker. Grey, white and dark pixels, and bright
 * colour (highlighter yellow, pale tinted paper), keep their luminance. `rgb` is the raster as
 * interleaved sRGB (`info.channels` >= 3; fewer: `luma` is returned).
 */
export function inkGrey(rgb: Buffer, info: { width: number; height: number; channels: number }, luma: GrayImage): GrayImage {
  const { channels } = info;
  if (channels < 3) return luma;
  const l = luma.gray;
  let gray: Buffer | undefined;
  for (let i = 0, j = 0; i < l.length; i++, j += channels) {
    const r = rgb[j]!, g = rgb[j + 1]!, b = rgb[j + 2]!;
    const sat = Math.max(r, g, b) - Math.min(r, g, b);
    if (sat < INK_SATURATION || l[i]! >= INK_MAX_LUMA || 255 - sat >= l[i]!) continue;
    gray ??= Buffer.from(l); // copied on the first coloured pixel: a grey page costs no copy
    gray[i] = 255 - sat;
  }
  return gray ? { gray, width: luma.width, height: luma.height } : luma;
}

/** The grey raster of a sharp raw output: its first channel (sharp may still hand back more than one). */
export function firstChannel(data: Buffer, info: { width: number; height: number; channels: number }): GrayImage {
  if (info.channels === 1) return { gray: data, width: info.width, height: info.height };
  const gray = Buffer.alloc(info.width * info.height);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * info.channels]!;
  return { gray, width: info.width, height: info.height };
}

function unreadable(e: unknown): ReceiptKitError {
  return new ReceiptKitError('UNREADABLE_FILE', `the image could not be decoded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/** A grey raster. */
export type { GrayImage } from './gray.js';

/** Rotates a grey raster clockwise by a multiple of 90° (exact pixel copy, no resampling). */
export function rotateGray(img: GrayImage, rotation: Rotation): GrayImage {
  const { gray, width: w, height: h } = img;
  if (rotation === 0) return img;
  const out = Buffer.allocUnsafe(w * h);
  if (rotation === 180) {
    for (let i = 0, n = w * h; i < n; i++) out[n - 1 - i] = gray[i]!;
    return { gray: out, width: w, height: h };
  }
  // 90 cw: source (x, y) -> destination (h - 1 - y, x) in a w-tall, h-wide image; 270 cw: (y, w - 1 - x)
  const W = h;
  if (rotation === 90) {
    for (let y = 0; y < h; y++) { const row = y * w, dx = h - 1 - y; for (let x = 0; x < w; x++) out[x * W + dx] = gray[row + x]!; }
  } else {
    for (let y = 0; y < h; y++) { const row = y * w; for (let x = 0; x < w; x++) out[(w - 1 - x) * W + y] = gray[row + x]!; }
  }
  return { gray: out, width: h, height: w };
}

/** A rectangular crop of a grey raster (clamped to the image). */
export function cropGray(img: GrayImage, left: number, top: number, width: number, height: number): GrayImage {
  const x0 = Math.max(0, Math.min(img.width - 1, Math.round(left)));
  const y0 = Math.max(0, Math.min(img.height - 1, Math.round(top)));
  const w = Math.max(1, Math.min(img.width - x0, Math.round(width)));
  const h = Math.max(1, Math.min(img.height - y0, Math.round(height)));
  const out = Buffer.allocUnsafe(w * h);
  for (let y = 0; y < h; y++) img.gray.copy(out, y * w, (y0 + y) * img.width + x0, (y0 + y) * img.width + x0 + w);
  return { gray: out, width: w, height: h };
}

/**
 * Binary PGM (P5) of a grey raster, the format handed to tesseract. The header carries a comment long
 * enough that tesseract.js's EXIF sniffing (which scans the first 500 bytes for an orientation tag)
 * only ever sees header text, never pixels.
 */
export function encodePgm(img: GrayImage): Buffer {
  const header = Buffer.from(`P5\n# ${'receiptkit-ocr '.repeat(34)}\n${img.width} ${img.height}\n255\n`, 'latin1');
  return Buffer.concat([header, img.gray.subarray(0, img.width * img.height)]);
}

/** A small copy (long side `longSide`) for layout analysis. */
export async function analysisCopy(img: GrayImage, longSide: number): Promise<GrayImage> {
  const s = longSide / Math.max(img.width, img.height);
  const width = Math.max(1, Math.round(img.width * s)), height = Math.max(1, Math.round(img.height * s));
  if (width === img.width && height === img.height) return img;
  const { data, info } = await sharp(img.gray, { raw: { width: img.width, height: img.height, channels: 1 }, limitInputPixels: img.width * img.height + 1 })
    .resize({ width, height, fit: 'fill', kernel: s > 1 ? 'linear' : 'cubic' })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { gray: data, width: info.width, height: info.height };
}

/** Where the ink level is measured: a neighbourhood at least this share of the paper level (faintInkCopy). */
export const FAINT_PAPER_SHARE = 0.8;
/** The ink level: this quantile of the pixels darker than their paper neighbourhood (faintInkCopy). */
export const FAINT_INK_QUANTILE = 0.1;
/** The ink is already dark when it is this far below the paper (then a global threshold finds it). */
export const FAINT_INK_SPAN = 150;
/** A pixel is ink when it is more than this many grey levels darker than its neighbourhood (faintInkCopy). */
const INK_BELOW_NEIGHBOURHOOD = 10;

/**
 * Faint ink beside a dark border: a light receipt scanned on a black lid prints its text at 175-225 on
 * paper at 245, and tesseract's global threshold falls between the black border and the paper, so the
 * whole page reads as no words (SROIE X51006619696: an upright, legible receipt read as nothing, then
 * turned 180° on a band of garbage). The copy stretches the ink's level to black and the paper's to
 * white. The ink level is taken only where the neighbourhood is paper (a blur at least
 * FAINT_PAPER_SHARE of the paper level), so the border cannot set it: FAINT_INK_QUANTILE of the pixels
 * more than INK_BELOW_NEIGHBOURHOOD grey levels darker than their neighbourhood there. Undefined when the
 * ink is already dark (nothing to stretch).
 */
export async function faintInkCopy(img: WorkingImage): Promise<WorkingImage | undefined> {
  const { gray, width, height } = img;
  const sigma = Math.max(4, Math.round(Math.max(width, height) / 80));
  const { data, info } = await sharp(gray, { raw: { width, height, channels: 1 }, limitInputPixels: width * height + 1 })
    .blur(sigma).raw().toBuffer({ resolveWithObject: true });
  const bg = firstChannel(data, info).gray;
  const paper = paperLevel(img);
  const hist = new Uint32Array(256);
  let n = 0;
  for (let i = 0; i < gray.length; i++) {
    const b = bg[i]!, v = gray[i]!;
    if (b >= paper * FAINT_PAPER_SHARE && v < b - INK_BELOW_NEIGHBOURHOOD) { hist[v]!++; n++; }
  }
  if (!n) return undefined;
  let acc = 0, ink = 0;
  for (; ink < 255; ink++) { acc += hist[ink]!; if (acc >= n * FAINT_INK_QUANTILE) break; }
  if (paper - ink >= FAINT_INK_SPAN || paper <= ink) return undefined;
  const span = paper - ink;
  const out = Buffer.alloc(gray.length);
  for (let i = 0; i < gray.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(((gray[i]! - ink) * 255) / span)));
  return { ...img, gray: out };
}
