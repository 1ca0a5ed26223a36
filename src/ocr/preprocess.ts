/**
 * Image preparation for OCR (sharp). The page is decoded once, upright per its EXIF orientation,
 * flattened on white, converted to 8-bit grey and scaled (the "working image"); orientation analysis
 * and every OCR pass start from that buffer. Choices measured on the corpus with bench/ocr-params.mjs
 * (numbers in bench/OCR.md):
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
import { DEFAULT_LIMITS } from '../input/types.js';

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

/** The decoded page, upright per EXIF (not yet per detected rotation), grey, at OCR scale. */
export interface WorkingImage {
  /** 8-bit grey pixels, row-major, `width * height` bytes. */
  gray: Buffer;
  width: number;
  height: number;
  /** Working pixels per original pixel. */
  scale: number;
  /** Size of the original after EXIF orientation (= RasterPage width/height). */
  originalWidth: number;
  originalHeight: number;
  ms: number;
}

/** The scale factor for an image of this size under a scaling policy. */
export function ocrScale(width: number, height: number, scaling: OcrScaling = DEFAULT_SCALING): number {
  const long = Math.max(width, height);
  if (long > scaling.maxLongSide) return scaling.maxLongSide / long;
  if (scaling.minLongSide > 0 && long < scaling.minLongSide) return Math.min(scaling.maxUpscale, scaling.minLongSide / long);
  return 1;
}

/** Decodes a raster page once into the working image. */
export async function loadWorkingImage(page: RasterPage, scaling: OcrScaling = DEFAULT_SCALING): Promise<WorkingImage> {
  const started = performance.now();
  const limitInputPixels = Math.max(DEFAULT_LIMITS.maxPixels, Math.ceil(page.width * page.height * 1.01));
  let originalWidth = page.width, originalHeight = page.height;
  if (!(originalWidth > 0 && originalHeight > 0)) {
    const m = await sharp(page.image, { limitInputPixels }).metadata().catch((e: unknown) => { throw unreadable(e); });
    const turned = (m.orientation ?? 1) >= 5;
    originalWidth = (turned ? m.height : m.width) ?? 0;
    originalHeight = (turned ? m.width : m.height) ?? 0;
    if (!(originalWidth > 0 && originalHeight > 0)) throw new ReceiptKitError('UNREADABLE_FILE', 'the image has no size');
  }
  const scale = ocrScale(originalWidth, originalHeight, scaling);
  const width = Math.max(1, Math.round(originalWidth * scale));
  const height = Math.max(1, Math.round(originalHeight * scale));
  let img = sharp(page.image, { limitInputPixels }).rotate(); // EXIF orientation
  if (width !== originalWidth || height !== originalHeight) {
    img = img.resize({ width, height, fit: 'fill', kernel: scale > 1 ? 'cubic' : 'lanczos3' });
  }
  const { data, info } = await img
    .flatten({ background: '#ffffff' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((e: unknown) => { throw unreadable(e); });
  let gray = data;
  if (info.channels !== 1) { // defensive: keep the first channel
    gray = Buffer.alloc(info.width * info.height);
    for (let i = 0; i < gray.length; i++) gray[i] = data[i * info.channels]!;
  }
  return {
    gray, width: info.width, height: info.height,
    scale: info.width / originalWidth,
    originalWidth, originalHeight,
    ms: performance.now() - started,
  };
}

function unreadable(e: unknown): ReceiptKitError {
  return new ReceiptKitError('UNREADABLE_FILE', `the image could not be decoded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/** A grey raster. */
export interface GrayImage { gray: Buffer; width: number; height: number }

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

