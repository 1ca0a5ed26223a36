import type { Box, Word } from '../document/types.js';

export type MediaType =
  | 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/tiff' | 'image/heic' | 'image/bmp'
  | 'application/pdf';

/** What callers may pass: bytes, a file path, or the encoded form of the hosted API. */
export type InputSource =
  | Buffer | Uint8Array | ArrayBuffer | string
  | { image: string; filename?: string; contentType?: string };

export interface InputLimits {
  /** Largest accepted file, bytes (default 20 MB). */
  maxFileBytes: number;
  /** Largest accepted image, pixels (width x height), checked from the header before decoding (default 50 MP). */
  maxPixels: number;
  /** Pages read from a PDF (default 5); later pages are ignored. */
  maxPdfPages: number;
  /**
   * Time budget for reading one PDF (parsing, text layers, rendering), ms; over it the load fails
   * with TIMEOUT. Optional: the input stage uses 30 s when absent. A caller's AbortSignal also stops it.
   */
  maxPdfMillis?: number;
  /**
   * Memory reading one PDF may add to the process, MB; over it the PDF thread is ended and the file is
   * FILE_TOO_LARGE. Optional: the input stage uses PDF_THREAD_MEMORY_MB (input/pdf-thread.ts) when absent.
   */
  maxPdfMemoryMb?: number;
}

export const DEFAULT_LIMITS: InputLimits = { maxFileBytes: 20 * 1024 * 1024, maxPixels: 50_000_000, maxPdfPages: 5 };

/**
 * sharp's `failOn` for decoding an image page's kept bytes (JPEG, PNG, WebP): the input stage's probe and
 * the OCR stage's decode use the same (sharp's default for untrusted input), so most files the OCR stage
 * cannot decode are refused by the input stage, at once. (The probe decodes a JPEG at 1/8 scale, which
 * misses some damage a full decode sees: those fail at the OCR stage's decode, read/index.ts.)
 */
export const DECODE_FAIL_ON = 'warning' as const;

/**
 * sharp's `limitInputPixels` for decoding a raster page again after the input stage accepted it: the
 * default pixel limit, or the page's own size when an engine raised that limit.
 */
export function pageDecodeLimit(page: { width: number; height: number }): number {
  return Math.max(DEFAULT_LIMITS.maxPixels, Math.ceil(page.width * page.height * 1.01));
}

/** A page that needs OCR. */
export interface RasterPage {
  kind: 'raster';
  index: number;
  /**
   * Encoded image (PNG or the original JPEG/PNG/WebP bytes) that sharp can decode. EXIF orientation is
   * NOT yet applied to these bytes when `exifOrientation` > 1: use sharp's `.rotate()` (auto-orient).
   */
  image: Buffer;
  /** Size as displayed, i.e. after EXIF orientation. */
  width: number;
  height: number;
  /** EXIF orientation tag (1..8) of `image`, 1 when none. */
  exifOrientation: number;
  /** For rendered PDF pages: pixels per PDF point (e.g. 300/72). */
  renderScale?: number;
}

/** A PDF page read from its text layer: words with boxes, no OCR needed. */
export interface TextPage {
  kind: 'text';
  index: number;
  /** Page size in pixels at `scale` pixels per PDF point (boxes use the same frame, top-left origin). */
  width: number;
  height: number;
  scale: number;
  words: Word[];
  /**
   * Fraction (0..1) of the page area painted with raster images (logos, scanned blocks), from the
   * page's operator list; absent when it could not be measured. A later stage may OCR an image-only
   * issuer block when this is large.
   */
  imageCoverage?: number;
  /**
   * Areas of the page where raster images are painted (logos, an issuer block drawn as a picture),
   * rendered for OCR: the text layer does not hold their text. At most a few per page, the largest.
   */
  images?: PageImage[];
}

/** An image area of a text page, rendered for OCR. */
export interface PageImage {
  /** Where it sits on the page, in the page's pixels. */
  box: Box;
  /** PNG of the area. */
  image: Buffer;
  /** Its size in pixels. */
  width: number;
  height: number;
  /** Image pixels per page pixel. */
  scale: number;
}

export type InputPage = RasterPage | TextPage;

/** A PDF read (input/pdf.ts, in its thread: input/pdf-thread.ts): its pages, their count, its metadata. */
export interface LoadedPdf { pages: InputPage[]; pageCount: number; metadata: ImageMetadata }

export interface ImageMetadata {
  /** EXIF/XMP fields useful to fraud checks (Software, Make, Model, dates) when present. */
  software?: string;
  make?: string;
  model?: string;
  createDate?: string;
  modifyDate?: string;
  /** PDF Producer / Creator. */
  producer?: string;
  creator?: string;
}

export interface LoadedInput {
  mediaType: MediaType;
  bytes: Buffer;
  /** sha256 of the bytes, hex. */
  sha256: string;
  /** Pages to process (at most limits.maxPdfPages). */
  pages: InputPage[];
  /** Pages in the document (PDF may have more than were read). */
  pageCount: number;
  metadata: ImageMetadata;
  filename?: string;
  /** Notes for the caller, e.g. a contentType that did not match the bytes. */
  warnings?: string[];
}
