/**
 * Image preparation for OCR, chosen by measurement on the corpus (see bench/README.md):
 * EXIF orientation applied, the detected rotation applied, long side scaled to at most
 * OCR_MAX_SIDE (phone photos read faster and better downscaled), small images scaled up to
 * OCR_MIN_SIDE, grayscale, fast PNG encoding.
 */
import sharp from 'sharp';
import type { RasterPage } from '../input/types.js';

export const OCR_MAX_SIDE = 1800;
export const OCR_MIN_SIDE = 900;

export interface PreparedImage {
  png: Buffer;
  /** OCR pixels per original (upright-frame) pixel. */
  scale: number;
  /** Upright-frame size in original pixels. */
  width: number;
  height: number;
}

/** Renders the page upright (rotation clockwise, degrees) at OCR scale. */
export async function prepareForOcr(page: RasterPage, rotation: 0 | 90 | 180 | 270, maxSide = OCR_MAX_SIDE): Promise<PreparedImage> {
  const turned = rotation === 90 || rotation === 270;
  const width = turned ? page.height : page.width;
  const height = turned ? page.width : page.height;
  const long = Math.max(width, height);
  let scale = 1;
  if (long > maxSide) scale = maxSide / long;
  else if (long < OCR_MIN_SIDE) scale = Math.min(2, OCR_MIN_SIDE / long);
  let img = sharp(page.image, { limitInputPixels: Math.max(page.width * page.height + 1, 1) }).rotate(); // EXIF orientation
  if (rotation) img = sharp(await img.toBuffer(), { limitInputPixels: false }).rotate(rotation);
  if (scale !== 1) img = img.resize({ width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), fit: 'fill' });
  const png = await img.flatten({ background: '#ffffff' }).grayscale().png({ compressionLevel: 1 }).toBuffer();
  return { png, scale, width, height };
}
