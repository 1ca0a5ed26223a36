/**
 * A page's pixels, decoded once at full resolution at most. Every stage that looks at a raster page (the
 * working images of each scale, the fraud checks, the similarity signature) asks here for the page, or
 * for its paper frame (paper.ts), upright, flattened on white, sRGB, at a scale:
 *   - at most SHRINK_ON_LOAD_MAX_SCALE: decoded directly at that size (a JPEG is decoded at 1/2, 1/4 or
 *     1/8 of its size by shrink-on-load, then resized): cheap, not shared;
 *   - above it: resized from the page's one full-resolution decode, kept (weakly, with the page's bytes)
 *     for the other stages (a 12-megapixel photo's line re-reads, confirming passes and fraud checks
 *     each decoded the whole photo again before).
 */
import sharp from 'sharp';
import type { RasterPage } from '../input/types.js';
import { DECODE_FAIL_ON, pageDecodeLimit } from '../input/types.js';
import type { PaperFrame } from '../document/types.js';
import { decodeFrame } from './paper.js';

/** Interleaved 8-bit pixels as sharp's raw output gives them. */
export interface PagePixels { data: Buffer; info: { width: number; height: number; channels: number } }

export type ResizeKernel = 'nearest' | 'linear' | 'cubic' | 'lanczos3';

/** Scales above this cannot be decoded smaller by JPEG shrink-on-load: they come from the shared full-resolution decode. */
export const SHRINK_ON_LOAD_MAX_SCALE = 0.5;

const fullDecodes = new WeakMap<Buffer, Map<PaperFrame | 'whole', Promise<PagePixels>>>();

/**
 * The page (`frame` undefined: the whole image, `size` its size after EXIF orientation) or its paper
 * frame at `scale` (pixels per original pixel); `kernel`: the resize's (default cubic enlarging,
 * lanczos3 reducing).
 */
export async function pagePixels(page: RasterPage, size: { width: number; height: number }, frame: PaperFrame | undefined, scale: number, kernel?: ResizeKernel): Promise<PagePixels> {
  if (scale <= SHRINK_ON_LOAD_MAX_SCALE) return frame ? decodeFrame(page, frame, scale, kernel) : decodeWhole(page, size, scale, kernel);
  const full = await fullResolution(page, size, frame);
  const w = frame ? frame.width : size.width, h = frame ? frame.height : size.height;
  const width = Math.max(1, Math.round(w * scale)), height = Math.max(1, Math.round(h * scale));
  if (width === full.info.width && height === full.info.height) return full;
  return sharp(full.data, { raw: rawOf(full), limitInputPixels: full.info.width * full.info.height + 1 })
    .resize({ width, height, fit: 'fill', kernel: kernel ?? (scale > 1 ? 'cubic' : 'lanczos3') })
    .raw().toBuffer({ resolveWithObject: true });
}

/** The page's (or frame's) full-resolution decode, made once per page image and frame. */
function fullResolution(page: RasterPage, size: { width: number; height: number }, frame: PaperFrame | undefined): Promise<PagePixels> {
  let byFrame = fullDecodes.get(page.image);
  if (!byFrame) { byFrame = new Map(); fullDecodes.set(page.image, byFrame); }
  const key = frame ?? 'whole';
  let p = byFrame.get(key);
  if (!p) {
    const map = byFrame;
    p = frame ? decodeFrame(page, frame, 1) : decodeWhole(page, size, 1);
    map.set(key, p);
    p.catch(() => map.delete(key));
  }
  return p;
}

/** The whole image, upright per EXIF, flattened on white, sRGB, at `scale` (one decode; shrink-on-load when scaling down). */
export async function decodeWhole(page: RasterPage, size: { width: number; height: number }, scale: number, kernel?: ResizeKernel): Promise<PagePixels> {
  const width = Math.max(1, Math.round(size.width * scale));
  const height = Math.max(1, Math.round(size.height * scale));
  let img = sharp(page.image, { limitInputPixels: pageDecodeLimit(page), failOn: DECODE_FAIL_ON }).rotate(); // EXIF orientation
  if (width !== size.width || height !== size.height) {
    img = img.resize({ width, height, fit: 'fill', kernel: kernel ?? (scale > 1 ? 'cubic' : 'lanczos3') });
  }
  return img.flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
}

/** sharp's raw-input description of decoded pixels. */
export function rawOf(p: PagePixels): { width: number; height: number; channels: 1 | 2 | 3 | 4 } {
  return { width: p.info.width, height: p.info.height, channels: p.info.channels as 1 | 2 | 3 | 4 };
}
