/**
 * Images (JPEG, PNG, WebP, GIF, TIFF, HEIC/HEIF/AVIF) to one RasterPage. Order of work, cheapest and
 * safest first: header (size, orientation) -> pixel limit -> a real but small decode proving the
 * pixels are readable -> the page. Every sharp pipeline that decodes pixels has `limitInputPixels`.
 */
import { createRequire } from 'node:module';
import sharp, { type Metadata } from 'sharp';
import { ReceiptKitError } from '../errors.js';
import { DECODE_FAIL_ON } from './types.js';
import type { InputLimits, MediaType, RasterPage } from './types.js';

const require = createRequire(import.meta.url);

/** Formats whose original bytes are kept as the page image (the OCR stage decodes them with sharp). */
const KEEP_BYTES: ReadonlySet<MediaType> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Side of the box the decodability probe shrinks to: JPEG shrink-on-load makes it nearly free. */
const PROBE_SIZE = 64;

/** Throws FILE_TOO_LARGE when width x height exceeds the pixel limit, UNREADABLE_FILE when there is no size. */
export function checkPixels(width: number | undefined, height: number | undefined, limits: InputLimits): void {
  if (!width || !height || width < 1 || height < 1) throw new ReceiptKitError('UNREADABLE_FILE', 'the image declares no size');
  if (width * height > limits.maxPixels) {
    throw new ReceiptKitError('FILE_TOO_LARGE',
      `the image is ${width}x${height} pixels (${((width * height) / 1e6).toFixed(1)} MP), over the ${(limits.maxPixels / 1e6).toFixed(1)} MP limit`);
  }
}

function unreadable(e: unknown, what: string): ReceiptKitError {
  if (e instanceof ReceiptKitError) return e;
  const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
  if (/exceeds pixel limit/i.test(msg ?? '')) return new ReceiptKitError('FILE_TOO_LARGE', `${what} is over the pixel limit`, { cause: e });
  return new ReceiptKitError('UNREADABLE_FILE', `${what} could not be decoded: ${msg}`, { cause: e });
}

/**
 * Checks an image's header against the limits before decoding, proves the pixels decode, and returns
 * the image as one RasterPage (first page/frame of multi-page TIFF and animated GIF/WebP).
 * JPEG/PNG/WebP keep their original bytes and EXIF orientation; GIF/TIFF/HEIF become an upright PNG.
 */
export async function loadImage(bytes: Buffer, mediaType: MediaType, limits: InputLimits): Promise<RasterPage> {
  if (mediaType === 'image/heic') return loadHeif(bytes, limits);
  let meta: Metadata;
  try {
    // Header only: no pixels are decoded here, so no pixel limit is needed yet.
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch (e) {
    throw unreadable(e, `the ${label(mediaType)} image`);
  }
  // multi-page files: `height` is the first page's unless pages were requested
  checkPixels(meta.width, meta.pageHeight ?? meta.height, limits);
  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
  const turned = orientation >= 5;
  const width = turned ? meta.pageHeight ?? meta.height! : meta.width!;
  const height = turned ? meta.width! : meta.pageHeight ?? meta.height!;
  const decode = (failOn: 'truncated' | 'warning') => sharp(bytes, { limitInputPixels: limits.maxPixels, failOn, pages: 1, page: 0 });
  if (KEEP_BYTES.has(mediaType)) {
    // A real decode (truncated/corrupt data fails) at thumbnail size: shrink-on-load keeps it cheap. As
    // strict as the OCR stage's decode of these same bytes (ocr/preprocess.ts: sharp's default, 'warning'):
    // a file that stage would refuse (a bit-flipped JPEG: "Corrupt JPEG data") is refused here, before any
    // OCR worker or model is started for it; at 1/8 scale some damage does not show (about 1 in 10
    // damaged JPEGs), and those fail at the OCR stage's full decode.
    try {
      await decode(DECODE_FAIL_ON).resize({ width: PROBE_SIZE, height: PROBE_SIZE, fit: 'inside' }).raw().toBuffer();
    } catch (e) {
      throw unreadable(e, `the ${label(mediaType)} image`);
    }
    return { kind: 'raster', index: 0, image: bytes, width, height, exifOrientation: orientation };
  }
  // GIF / TIFF: the OCR stage gets an upright PNG of the first page or frame.
  try {
    const out = await decode('truncated').autoOrient().png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
    return { kind: 'raster', index: 0, image: out.data, width: out.info.width, height: out.info.height, exifOrientation: 1 };
  } catch (e) {
    throw unreadable(e, `the ${label(mediaType)} image`);
  }
}

interface HeifImage { width: number; height: number; decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }> }
type HeifDecodeAll = (o: { buffer: Buffer }) => Promise<HeifImage[] & { dispose(): void }>;

/**
 * HEIC/HEIF/AVIF: sharp's bundled libheif reads AVIF but not HEVC pixels, so HEVC goes through
 * `heic-decode` (libheif in WebAssembly): headers first (pixel limit), then RGBA, then PNG via sharp.
 */
async function loadHeif(bytes: Buffer, limits: InputLimits): Promise<RasterPage> {
  const declared = heifDeclaredSize(bytes);
  if (declared) checkPixels(declared.width, declared.height, limits);
  let meta: Metadata | undefined;
  try { meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata(); } catch { /* HEVC: headers may be unreadable to sharp */ }
  if (meta?.width && meta.height) checkPixels(meta.width, meta.height, limits);
  if (meta?.compression === 'av1' || (meta && !isHevcBrand(bytes))) {
    // AVIF (or another flavour sharp decodes itself)
    try {
      const out = await sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'truncated' }).autoOrient().png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
      return { kind: 'raster', index: 0, image: out.data, width: out.info.width, height: out.info.height, exifOrientation: 1 };
    } catch (e) {
      if (meta.compression === 'av1') throw unreadable(e, 'the AVIF image');
    }
  }
  let images: Awaited<ReturnType<HeifDecodeAll>> | undefined;
  try {
    const decodeAll = heifDecoder();
    images = await withoutHeifLogs(() => decodeAll({ buffer: bytes }));
    const first = images[0];
    if (!first) throw new Error('no image in the file');
    checkPixels(first.width, first.height, limits);
    const rgba = await withoutHeifLogs(() => first.decode());
    const png = await sharp(Buffer.from(rgba.data.buffer, rgba.data.byteOffset, rgba.data.byteLength), {
      raw: { width: rgba.width, height: rgba.height, channels: 4 }, limitInputPixels: limits.maxPixels,
    }).png({ compressionLevel: 1 }).toBuffer();
    return { kind: 'raster', index: 0, image: png, width: rgba.width, height: rgba.height, exifOrientation: 1 };
  } catch (e) {
    if (e instanceof ReceiptKitError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new ReceiptKitError('UNREADABLE_FILE', `the HEIC/HEIF image could not be decoded (${msg}); convert it to JPEG or PNG`, { cause: e });
  } finally {
    try { images?.dispose(); } catch { /* already freed */ }
  }
}

/**
 * The library prints nothing itself, and neither may the HEIC decoder inside it. libheif's WebAssembly
 * module binds its stdout and stderr (`print`, `printErr`) to console.log and console.error when it is
 * loaded: loading it with those silenced binds them to nothing (synchronous: no other code runs meanwhile).
 */
let heifDecodeAll: HeifDecodeAll | undefined;
function heifDecoder(): HeifDecodeAll {
  if (!heifDecodeAll) {
    const { log, error, warn, info } = console;
    const quiet = (): void => undefined;
    Object.assign(console, { log: quiet, error: quiet, warn: quiet, info: quiet });
    try {
      heifDecodeAll = (require('heic-decode') as { all: HeifDecodeAll }).all;
    } finally {
      Object.assign(console, { log, error, warn, info });
    }
  }
  return heifDecodeAll;
}

/** libheif's JavaScript reports its failures with console.log (they also reach us as errors): these lines only. */
const HEIF_LOG = /^(Could not create HEIF context|Could not parse HEIF file|Error loading image ids|No images found|Could not get image data for id|Decoding image failed)/;
let heifQuiet = 0;
let appLog: typeof console.log | undefined;
/** Runs a decode step with libheif's own console.log lines dropped (anything else logged meanwhile passes). */
async function withoutHeifLogs<T>(fn: () => Promise<T>): Promise<T> {
  if (heifQuiet++ === 0) {
    const log = console.log;
    appLog = log;
    console.log = (...args: unknown[]) => { if (!(typeof args[0] === 'string' && HEIF_LOG.test(args[0]))) log.apply(console, args); };
  }
  try {
    return await fn();
  } finally {
    if (--heifQuiet === 0 && appLog) { console.log = appLog; appLog = undefined; }
  }
}

function isHevcBrand(b: Buffer): boolean {
  const brands = b.subarray(8, Math.min(b.length, 64)).toString('latin1');
  return /hei[cxms]|hev[cx]/.test(brands);
}

/**
 * The largest image size declared by `ispe` properties in a HEIF file's `meta` box (the primary
 * image of a grid is the largest), read without decoding anything; undefined when not found.
 */
export function heifDeclaredSize(b: Buffer): { width: number; height: number } | undefined {
  let best: { width: number; height: number } | undefined;
  const walk = (start: number, end: number, depth: number): void => {
    let i = start;
    while (i + 8 <= end && depth < 6) {
      let size = b.readUInt32BE(i);
      const type = b.toString('latin1', i + 4, i + 8);
      let header = 8;
      if (size === 1 && i + 16 <= end) { size = Number(b.readBigUInt64BE(i + 8)); header = 16; } else if (size === 0) size = end - i;
      if (size < header || i + size > end) return;
      if (type === 'meta') walk(i + header + 4, i + size, depth + 1); // full box: version + flags
      else if (type === 'iprp' || type === 'ipco') walk(i + header, i + size, depth + 1);
      else if (type === 'ispe' && size >= header + 12) {
        const width = b.readUInt32BE(i + header + 4), height = b.readUInt32BE(i + header + 8);
        if (!best || width * height > best.width * best.height) best = { width, height };
      }
      i += size;
    }
  };
  try { walk(0, b.length, 0); } catch { /* malformed boxes: fall back to the decoder's header check */ }
  return best;
}

function label(t: MediaType): string {
  return ({ 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/gif': 'GIF', 'image/webp': 'WebP', 'image/tiff': 'TIFF', 'image/heic': 'HEIC', 'image/bmp': 'BMP', 'application/pdf': 'PDF' } as const)[t];
}
