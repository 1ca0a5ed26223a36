/**
 * The pixels the fraud checks look at: one raster page decoded upright (EXIF orientation and the page's
 * detected rotation applied, so the Document's word boxes fit it) as 8-bit grey at full resolution
 * (copies must stay exact), and a small colour copy for colour statistics.
 */
import sharp from 'sharp';
import type { Box, Page } from '../document/types.js';
import type { RasterPage } from '../input/types.js';
import { pageDecodeLimit } from '../input/types.js';
import { firstChannel } from '../ocr/preprocess.js';
import { pagePixels, rawOf } from '../ocr/page-pixels.js';
import type { PaperFrame } from '../document/types.js';

/**
 * Pixel cap of the grey analysis image. The input stage already refuses images over its own limit
 * (50 MP by default), so this only bites when an engine raises that limit; larger images are shrunk
 * by an integer factor (copies at even offsets stay exact).
 */
export const GRAY_MAX_PIXELS = 50_000_000;
/** Pixel cap of the colour copy (colour statistics only: exact colours, colour count). */
export const COLOR_MAX_PIXELS = 2_000_000;

export interface Raster {
  width: number;
  height: number;
  /** 8-bit grey, row-major, upright. */
  gray: Uint8Array;
  /** Analysis pixels per upright-frame pixel of the Document (1 unless shrunk). */
  scale: number;
}

export interface ColorSample {
  width: number;
  height: number;
  /** 8-bit RGB, row-major, 3 bytes a pixel, upright, at most COLOR_MAX_PIXELS. */
  rgb: Uint8Array;
}

/**
 * Decodes a raster page to upright grey for the Document's page (rotation applied), capped in pixels.
 * `paper`: the page was read from the paper found in the photo (Page.paper): the raster is that frame's.
 */
export async function loadRaster(page: RasterPage, rotation: Page['rotation'], maxPixels = GRAY_MAX_PIXELS, paper?: PaperFrame): Promise<Raster> {
  const frameW = paper ? paper.width : page.width, frameH = paper ? paper.height : page.height;
  const px = frameW * frameH;
  const factor = px > maxPixels ? Math.ceil(Math.sqrt(px / maxPixels)) : 1;
  let gray: Uint8Array, width: number, height: number;
  if (factor === 1 || paper) {
    // the page's (or its paper frame's) shared full-resolution decode, or the frame at 1/factor
    const pixels = await pagePixels(page, page, paper, 1 / factor, 'linear');
    const grey = await sharp(pixels.data, { raw: rawOf(pixels), limitInputPixels: pixels.info.width * pixels.info.height + 1 })
      .greyscale().raw().toBuffer({ resolveWithObject: true });
    ({ gray } = firstChannel(grey.data, grey.info));
    ({ width, height } = grey.info);
  } else {
    // shrunk by an integer factor (copies at even offsets stay exact)
    const img = sharp(page.image, { limitInputPixels: pageDecodeLimit(page), failOn: 'none' }).autoOrient()
      .resize({ width: Math.max(1, Math.floor(page.width / factor)), height: Math.max(1, Math.floor(page.height / factor)), fit: 'fill', kernel: 'linear' });
    const { data, info } = await img.flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
    ({ gray } = firstChannel(data, info));
    ({ width, height } = info);
  }
  if (rotation) ({ data: gray, width, height } = rotatePixels(gray, width, height, 1, rotation));
  return { width, height, gray, scale: width / (rotation === 90 || rotation === 270 ? frameH : frameW) };
}

/** A small upright colour copy of a raster page (for colour statistics); of its paper frame when it has one. */
export async function loadColorSample(page: RasterPage, rotation: Page['rotation'], maxPixels = COLOR_MAX_PIXELS, paper?: PaperFrame): Promise<ColorSample> {
  const px = paper ? paper.width * paper.height : page.width * page.height;
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  if (paper) {
    decoded = await pagePixels(page, page, paper, Math.min(1, Math.sqrt(maxPixels / px)), 'nearest');
  } else {
    let img = sharp(page.image, { limitInputPixels: pageDecodeLimit(page), failOn: 'none' }).autoOrient();
    if (px > maxPixels) {
      const s = Math.sqrt(maxPixels / px);
      img = img.resize({ width: Math.max(1, Math.round(page.width * s)), height: Math.max(1, Math.round(page.height * s)), fit: 'fill', kernel: 'nearest' });
    }
    decoded = await img.flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  }
  const { data, info } = decoded;
  let rgb: Uint8Array = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let width = info.width, height = info.height;
  if (info.channels !== 3) rgb = toRgb(rgb, info.channels, width * height);
  if (rotation) ({ data: rgb, width, height } = rotatePixels(rgb, width, height, 3, rotation));
  return { width, height, rgb };
}

function toRgb(src: Uint8Array, channels: number, n: number): Uint8Array {
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) out[i * 3 + c] = src[i * channels + Math.min(c, channels - 1)]!;
  }
  return out;
}

/** Turns an interleaved pixel buffer clockwise by 90, 180 or 270 degrees. */
export function rotatePixels<T extends Uint8Array | Float32Array>(src: T, width: number, height: number, channels: number, degrees: number): { data: T; width: number; height: number } {
  const d = ((degrees % 360) + 360) % 360;
  if (d === 0) return { data: src, width, height };
  // a Buffer's own constructor is the deprecated Buffer() (DEP0005 printed into the user's process)
  const out = (Buffer.isBuffer(src) ? Buffer.alloc(src.length) : new (src.constructor as { new(n: number): T })(src.length)) as T;
  const W = d === 180 ? width : height, H = d === 180 ? height : width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let nx: number, ny: number;
      if (d === 90) { nx = height - 1 - y; ny = x; } else if (d === 180) { nx = width - 1 - x; ny = height - 1 - y; } else { nx = y; ny = width - 1 - x; }
      const s = (y * width + x) * channels, t = (ny * W + nx) * channels;
      for (let c = 0; c < channels; c++) out[t + c] = src[s + c]!;
    }
  }
  return { data: out, width: W, height: H };
}

/** Mirrors an interleaved pixel buffer left-right. */
export function flopPixels<T extends Uint8Array | Float32Array>(src: T, width: number, height: number, channels: number): T {
  // a Buffer's own constructor is the deprecated Buffer() (DEP0005 printed into the user's process)
  const out = (Buffer.isBuffer(src) ? Buffer.alloc(src.length) : new (src.constructor as { new(n: number): T })(src.length)) as T;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * channels, t = (y * width + (width - 1 - x)) * channels;
      for (let c = 0; c < channels; c++) out[t + c] = src[s + c]!;
    }
  }
  return out;
}

/** Applies an EXIF orientation (1..8) to a buffer in the stored frame: the result is as displayed. */
export function orientPixels<T extends Uint8Array | Float32Array>(src: T, width: number, height: number, channels: number, orientation: number): { data: T; width: number; height: number } {
  switch (orientation) {
    case 2: return { data: flopPixels(src, width, height, channels), width, height };
    case 3: return rotatePixels(src, width, height, channels, 180);
    case 4: { const r = rotatePixels(src, width, height, channels, 180); return { ...r, data: flopPixels(r.data, r.width, r.height, channels) }; }
    case 5: { const r = rotatePixels(src, width, height, channels, 270); return { ...r, data: flopPixels(r.data, r.width, r.height, channels) }; }
    case 6: return rotatePixels(src, width, height, channels, 90);
    case 7: { const r = rotatePixels(src, width, height, channels, 90); return { ...r, data: flopPixels(r.data, r.width, r.height, channels) }; }
    case 8: return rotatePixels(src, width, height, channels, 270);
    default: return { data: src, width, height };
  }
}

/** A Document box in analysis pixels, clamped to the image, integer edges (x1/y1 exclusive). */
export function scaledBox(b: Box, r: Pick<Raster, 'width' | 'height' | 'scale'>): Box {
  return {
    x0: Math.max(0, Math.min(r.width, Math.floor(b.x0 * r.scale))),
    y0: Math.max(0, Math.min(r.height, Math.floor(b.y0 * r.scale))),
    x1: Math.max(0, Math.min(r.width, Math.ceil(b.x1 * r.scale))),
    y1: Math.max(0, Math.min(r.height, Math.ceil(b.y1 * r.scale))),
  };
}

// ---- small statistics ----

export function quantile(values: ArrayLike<number>, q: number): number {
  const n = values.length;
  if (!n) return NaN;
  const s = Float64Array.from(values as ArrayLike<number>).sort();
  const pos = Math.min(n - 1, Math.max(0, q * (n - 1)));
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const median = (values: ArrayLike<number>): number => quantile(values, 0.5);

/** Median absolute deviation, scaled to a standard deviation for normal data. */
export function mad(values: ArrayLike<number>, center = median(values)): number {
  const d = Array.from(values as ArrayLike<number>, (v) => Math.abs(v - center));
  return median(d) * 1.4826;
}

export const round3 = (x: number): number => Math.round(x * 1000) / 1000;
