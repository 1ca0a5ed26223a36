/**
 * The input stage: the only code that sees raw bytes. It turns any accepted source into checked pages
 * (images to OCR, PDF text layers to read) within the configured limits, or a typed ReceiptKitError:
 * - INVALID_INPUT (400): not an accepted input form, a missing file path, invalid base64;
 * - FILE_TOO_LARGE (413): over `maxFileBytes`, or an image header over `maxPixels`;
 * - UNSUPPORTED_MEDIA_TYPE (415): the bytes are not JPEG, PNG, GIF, WebP, TIFF, HEIC/HEIF or PDF
 *   (whatever the claimed content type says);
 * - UNREADABLE_FILE (422): empty input, truncated or corrupt images, broken, empty or encrypted PDFs;
 * - TIMEOUT: a PDF over its time budget, or the caller's AbortSignal fired.
 */
import { createHash } from 'node:crypto';
import { ReceiptKitError } from '../errors.js';
import { describeBytes, sniffMediaType } from './sniff.js';
import { readSource } from './source.js';
import { loadImage } from './image.js';
import { loadPdf } from './pdf.js';
import { readImageMetadata } from './metadata.js';
import { DEFAULT_LIMITS } from './types.js';
import type { InputLimits, InputSource, LoadedInput, MediaType } from './types.js';

export { sniffMediaType, describeBytes } from './sniff.js';
export type * from './types.js';
export { DEFAULT_LIMITS } from './types.js';

export interface LoadInputOptions {
  /** Overrides of DEFAULT_LIMITS. */
  limits?: Partial<InputLimits>;
  /** The type the caller claims (e.g. a multipart part's Content-Type); the bytes decide. */
  contentType?: string;
  filename?: string;
  /** Stops PDF work between steps (TIMEOUT). */
  signal?: AbortSignal;
  /**
   * Render the raster images painted on PDF text pages (logos, issuer blocks drawn as pictures) into
   * `TextPage.images`, for OCR (default false: the text layer alone).
   */
  pdfImages?: boolean;
}

/**
 * Reads, sniffs, checks and decodes an input into pages. Empty input is UNREADABLE_FILE (422): the
 * input form was right, the file in it is unusable. A claimed content type that differs from the
 * bytes is reported in `warnings` and otherwise ignored.
 */
export async function loadInput(source: InputSource, opts: LoadInputOptions = {}): Promise<LoadedInput> {
  const limits: InputLimits = { ...DEFAULT_LIMITS, ...definedOnly(opts.limits) };
  if (opts.signal?.aborted) throw new ReceiptKitError('TIMEOUT', 'reading the input was aborted');
  const src = await readSource(source, limits.maxFileBytes);
  const claimed = opts.contentType ?? src.contentType;
  const filename = opts.filename ?? src.filename;
  const bytes = src.bytes;
  if (bytes.length === 0) throw new ReceiptKitError('UNREADABLE_FILE', 'the file is empty');
  const mediaType = sniffMediaType(bytes);
  if (!mediaType) {
    throw new ReceiptKitError('UNSUPPORTED_MEDIA_TYPE',
      `unsupported file: the bytes look like ${describeBytes(bytes)}${claimed ? `, not ${claimed} as claimed` : ''}; expected JPEG, PNG, GIF, WebP, TIFF, HEIC or PDF`);
  }
  const warnings: string[] = [];
  if (claimed && !sameType(claimed, mediaType)) warnings.push(`the content type ${claimed} does not match the bytes (${mediaType}); the bytes were used`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const base = { mediaType, bytes, sha256, warnings, ...(filename ? { filename } : {}) };
  if (mediaType === 'application/pdf') {
    const pdf = await loadPdf(bytes, limits, opts.signal, { images: opts.pdfImages === true });
    return { ...base, pages: pdf.pages, pageCount: pdf.pageCount, metadata: pdf.metadata };
  }
  const page = await loadImage(bytes, mediaType, limits);
  const metadata = mediaType === 'image/gif' ? {} : await readImageMetadata(bytes);
  return { ...base, pages: [page], pageCount: 1, metadata };
}

function definedOnly(limits: Partial<InputLimits> | undefined): Partial<InputLimits> {
  const out: Partial<InputLimits> = {};
  for (const [k, v] of Object.entries(limits ?? {})) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** True when a claimed content type names the sniffed type (aliases and "no idea" types included). */
function sameType(claimed: string, actual: MediaType): boolean {
  const c = claimed.toLowerCase().split(';')[0]!.trim();
  if (c === actual || c === '' || c === 'application/octet-stream' || c === 'binary/octet-stream') return true;
  const aliases: Record<string, MediaType> = {
    'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'image/x-png': 'image/png', 'image/tif': 'image/tiff',
    'image/heif': 'image/heic', 'image/heic-sequence': 'image/heic', 'image/heif-sequence': 'image/heic', 'image/avif': 'image/heic',
    'application/x-pdf': 'application/pdf',
  };
  return aliases[c] === actual;
}
