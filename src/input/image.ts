import sharp, { type Metadata } from 'sharp';
import { createRequire } from 'node:module';
import { ReceiptKitError } from '../errors.js';
import type { InputLimits, MediaType, RasterPage } from './types.js';

const require = createRequire(import.meta.url);

/** Formats whose original bytes tesseract-side preprocessing (sharp) reads directly. */
const KEEP_BYTES: MediaType[] = ['image/jpeg', 'image/png', 'image/webp'];

function pixelCheck(width: number | undefined, height: number | undefined, limits: InputLimits): void {
  if (!width || !height) throw new ReceiptKitError('UNREADABLE_FILE', 'the image declares no size');
  if (width * height > limits.maxPixels) {
    throw new ReceiptKitError('FILE_TOO_LARGE', `image is ${width}x${height} (${((width * height) / 1e6).toFixed(1)} MP), over the ${(limits.maxPixels / 1e6).toFixed(1)} MP limit`);
  }
}

function unreadable(e: unknown, what: string): ReceiptKitError {
  if (e instanceof ReceiptKitError) return e;
  const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
  return new ReceiptKitError('UNREADABLE_FILE', `${what} could not be decoded: ${msg}`, { cause: e });
}

/**
 * Checks an image's header against the limits (before any decoding), proves it decodes (a cheap
 * shrink-on-load decode), and returns it as one RasterPage.
 */
export async function loadImage(bytes: Buffer, mediaType: MediaType, limits: InputLimits): Promise<RasterPage> {
  if (mediaType === 'image/heic') return loadHeic(bytes, limits);
  if (mediaType === 'image/bmp') throw new ReceiptKitError('UNSUPPORTED_MEDIA_TYPE', 'BMP images are not supported; convert to PNG or JPEG');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch (e) {
    throw unreadable(e, 'the image');
  }
  pixelCheck(meta.width, meta.height, limits);
  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
  const swap = orientation >= 5;
  const width = swap ? meta.height! : meta.width!;
  const height = swap ? meta.width! : meta.height!;
  // Prove the pixels decode (truncated or corrupt data fails here): shrink-on-load keeps it cheap.
  let image = bytes;
  try {
    const probe = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'truncated', pages: 1 });
    if (KEEP_BYTES.includes(mediaType)) {
      await probe.resize({ width: 64, height: 64, fit: 'inside' }).raw().toBuffer();
    } else {
      // GIF / TIFF (first page or frame): hand the OCR stage a PNG
      image = await probe.png({ compressionLevel: 1 }).toBuffer();
    }
  } catch (e) {
    throw unreadable(e, 'the image');
  }
  return { kind: 'raster', index: 0, image, width, height, exifOrientation: KEEP_BYTES.includes(mediaType) ? orientation : 1 };
}

async function loadHeic(bytes: Buffer, limits: InputLimits): Promise<RasterPage> {
  // sharp's bundled libheif reads HEIF headers (and AVIF); HEVC pixels need the WebAssembly decoder.
  try {
    const meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (meta.width && meta.height) pixelCheck(meta.width, meta.height, limits);
  } catch (e) {
    if (e instanceof ReceiptKitError) throw e;
  }
  let decoded: { width: number; height: number; data: Uint8ClampedArray | Uint8Array };
  try {
    const decode = require('heic-decode') as (o: { buffer: Buffer }) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
    decoded = await decode({ buffer: bytes });
  } catch (e) {
    // AVIF or other HEIF flavours sharp can decode itself
    try {
      const png = await sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'truncated' }).png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
      return { kind: 'raster', index: 0, image: png.data, width: png.info.width, height: png.info.height, exifOrientation: 1 };
    } catch {
      throw new ReceiptKitError('UNREADABLE_FILE', `the HEIC/HEIF image could not be decoded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  pixelCheck(decoded.width, decoded.height, limits);
  const png = await sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
    raw: { width: decoded.width, height: decoded.height, channels: 4 }, limitInputPixels: limits.maxPixels,
  }).png({ compressionLevel: 1 }).toBuffer();
  return { kind: 'raster', index: 0, image: png, width: decoded.width, height: decoded.height, exifOrientation: 1 };
}
