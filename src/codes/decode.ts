/**
 * Decodes the QR codes and common 1-D barcodes (EAN-13/8, UPC-A/E, Code 128, Code 39, ITF) printed on a page, in
 * process, with ZXing-C++ compiled to WebAssembly (`zxing-wasm`; chosen over `jsqr` by measurement:
 * docs/decisions/2026-11-26-zxing-wasm-decoder.md).
 *
 * - Offline: the .wasm is read from the installed package (zxing-wasm's default would fetch it from a
 *   CDN); it is compiled once per process, on the first page.
 * - No second decode of the file: a raster page's pixels come from the page's shared decode
 *   (ocr/page-pixels.ts), at a working size whose long side is at most WORK_LONG_SIDE (a receipt's QR
 *   modules stay >= 2 px in a phone photo at that size; zxing also tries a downscaled copy itself).
 * - Bounded: at most WORK_MAX_PIXELS go to the decoder (time and memory grow with them), MAX_CODES
 *   symbols per page, and a page's decode is skipped once the caller's signal is aborted.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { ReaderOptions, ReadResult } from 'zxing-wasm/reader';
import type { LoadedInput, PageImage, RasterPage } from '../input/types.js';
import type { Polygon } from '../document/types.js';
import { pagePixels, rawOf } from '../ocr/page-pixels.js';
import type { PageCode } from '../contract/codes.js';

const require = createRequire(import.meta.url);

/** Long side of the image the decoder sees, pixels. */
export const WORK_LONG_SIDE = 2000;
/** Pixel cap of the decoder's image (a page's width x height scaled to fit). */
export const WORK_MAX_PIXELS = 3_000_000;
/** Symbols reported per page. */
export const MAX_CODES = 16;

/** The formats looked for: what receipts print (fiscal QR codes, article, return and document barcodes). */
export const CODE_FORMATS = ['QRCode', 'EAN13', 'EAN8', 'UPCA', 'UPCE', 'Code128', 'Code39', 'ITF'] as const;

/** The first pass: every format, rotated by quarter turns (1-D scan lines are horizontal). */
const READER_OPTIONS: ReaderOptions = {
  formats: [...CODE_FORMATS],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: MAX_CODES,
};

/**
 * The second pass, only when the first found nothing: QR codes after denoising (a closing filter that
 * joins a blurred or photographed code's broken modules). QR detection needs no rotation, so it costs
 * about half the first pass (bench/codes-corpus.mjs); it found the QR codes of 2 corpus photos the first missed.
 */
const SECOND_PASS: ReaderOptions = { formats: ['QRCode'], tryHarder: true, tryRotate: false, tryInvert: false, tryDenoise: true, maxNumberOfSymbols: MAX_CODES };

let ready: Promise<unknown> | undefined;

/** The decoder, compiled from the installed package's .wasm (never fetched). */
export function prepareDecoder(): Promise<unknown> {
  if (!ready) {
    const file = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = readFileSync(file);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    ready = prepareZXingModule({ overrides: { wasmBinary, locateFile: () => file }, fireImmediately: true });
    ready.catch(() => { ready = undefined; });
  }
  return ready;
}

/** Interleaved RGBA pixels (what the decoder takes), from sharp raw pixels of any channel count. */
async function rgbaOf(data: Buffer, info: { width: number; height: number; channels: number }): Promise<Uint8ClampedArray> {
  const out = info.channels === 4 ? data : await sharp(data, { raw: rawOf({ data, info }), limitInputPixels: info.width * info.height + 1 })
    .toColourspace('srgb').ensureAlpha().raw().toBuffer();
  return new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
}

/** Codes in interleaved pixels; positions divided by `scale` and moved by `offset` (pixels of the original image). */
export async function decodePixels(data: Buffer, info: { width: number; height: number; channels: number }, place: { page: number; scale: number; offsetX?: number; offsetY?: number }): Promise<PageCode[]> {
  await prepareDecoder();
  const image = { data: await rgbaOf(data, info), width: info.width, height: info.height };
  const pixels = image as unknown as Parameters<typeof readBarcodes>[0];
  let results = (await readBarcodes(pixels, READER_OPTIONS)).filter((r) => r.isValid && r.text);
  if (!results.length) results = (await readBarcodes(pixels, SECOND_PASS)).filter((r) => r.isValid && r.text);
  return results.map((r) => toPageCode(r, place));
}

function toPageCode(r: ReadResult, place: { page: number; scale: number; offsetX?: number; offsetY?: number }): PageCode {
  const { topLeft, topRight, bottomRight, bottomLeft } = r.position;
  const at = (p: { x: number; y: number }) => ({ x: Math.round(p.x / place.scale + (place.offsetX ?? 0)), y: Math.round(p.y / place.scale + (place.offsetY ?? 0)) });
  return { format: r.format, text: r.text, page: place.page, polygon: [at(topLeft), at(topRight), at(bottomRight), at(bottomLeft)] as Polygon };
}

/** The scale (<= 1) a page of this size is decoded at. */
export function workScale(width: number, height: number): number {
  return Math.min(1, WORK_LONG_SIDE / Math.max(width, height), Math.sqrt(WORK_MAX_PIXELS / Math.max(1, width * height)));
}

/** Codes on a raster page, from its shared decode. */
async function rasterCodes(page: RasterPage): Promise<PageCode[]> {
  const scale = workScale(page.width, page.height);
  const px = await pagePixels(page, page, undefined, scale, 'linear');
  return decodePixels(px.data, px.info, { page: page.index, scale: px.info.width / page.width });
}

/** Codes in a picture of a PDF text page (a QR code drawn as an image), in the page's pixels. */
async function pictureCodes(pageIndex: number, pic: PageImage): Promise<PageCode[]> {
  const { data, info } = await sharp(pic.image, { limitInputPixels: WORK_MAX_PIXELS, failOn: 'none' }).raw().toBuffer({ resolveWithObject: true });
  return decodePixels(data, info, { page: pageIndex, scale: pic.scale, offsetX: pic.box.x0, offsetY: pic.box.y0 });
}

/**
 * Every code on the document's pages: raster pages, and the pictures of PDF text pages. A page whose
 * decode fails adds a warning and no codes; the same code on several pages is listed once.
 */
export async function readCodes(input: LoadedInput, opts: { signal?: AbortSignal } = {}): Promise<{ codes: PageCode[]; warnings: string[] }> {
  const codes: PageCode[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const page of input.pages) {
    if (opts.signal?.aborted) break;
    try {
      const found = page.kind === 'raster' ? await rasterCodes(page)
        : (await Promise.all((page.images ?? []).filter((p) => p.width * p.height <= WORK_MAX_PIXELS).map((p) => pictureCodes(page.index, p)))).flat();
      for (const c of found) {
        const key = `${c.format}\u0000${c.text}`;
        if (seen.has(key) || codes.length >= MAX_CODES) continue;
        seen.add(key);
        codes.push(c);
      }
    } catch (e) {
      warnings.push(`codes on page ${page.index + 1} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { codes, warnings };
}
