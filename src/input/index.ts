/**
 * The input stage: the only code that sees raw bytes. It turns any accepted source into checked pages
 * (images to OCR, PDF text layers to read) within the configured limits, or a typed error.
 */
import { createHash } from 'node:crypto';
import { ReceiptKitError } from '../errors.js';
import { describeBytes, sniffMediaType } from './sniff.js';
import { readSource } from './source.js';
import { loadImage } from './image.js';
import { loadPdf } from './pdf.js';
import { readImageMetadata } from './metadata.js';
import { DEFAULT_LIMITS } from './types.js';
import type { InputLimits, InputSource, LoadedInput } from './types.js';

export { sniffMediaType } from './sniff.js';
export type * from './types.js';
export { DEFAULT_LIMITS } from './types.js';

export interface LoadInputOptions {
  limits?: Partial<InputLimits>;
  contentType?: string;
  filename?: string;
  signal?: AbortSignal;
}

/** Reads, sniffs, checks and decodes an input into pages. */
export async function loadInput(source: InputSource, opts: LoadInputOptions = {}): Promise<LoadedInput> {
  const limits: InputLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const src = await readSource(source, limits.maxFileBytes);
  const claimed = opts.contentType ?? src.contentType;
  const filename = opts.filename ?? src.filename;
  const bytes = src.bytes;
  if (bytes.length === 0) throw new ReceiptKitError('UNREADABLE_FILE', 'the file is empty');
  const mediaType = sniffMediaType(bytes);
  if (!mediaType) {
    throw new ReceiptKitError('UNSUPPORTED_MEDIA_TYPE',
      `unsupported file: the bytes look like ${describeBytes(bytes)}${claimed ? ` (claimed ${claimed})` : ''}; expected JPEG, PNG, GIF, WebP, TIFF, HEIC or PDF`);
  }
  const warnings: string[] = [];
  if (claimed && !sameKind(claimed, mediaType)) warnings.push(`contentType ${claimed} does not match the bytes (${mediaType}); the bytes were used`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const base = { mediaType, bytes, sha256, warnings, ...(filename ? { filename } : {}) };
  if (mediaType === 'application/pdf') {
    const pdf = await loadPdf(bytes, limits, opts.signal);
    return { ...base, pages: pdf.pages, pageCount: pdf.pageCount, metadata: pdf.metadata };
  }
  const page = await loadImage(bytes, mediaType, limits);
  const metadata = mediaType === 'image/gif' || mediaType === 'image/bmp' ? {} : await readImageMetadata(bytes);
  return { ...base, pages: [page], pageCount: 1, metadata };
}

function sameKind(claimed: string, actual: string): boolean {
  const c = claimed.toLowerCase().split(';')[0]!.trim();
  if (c === actual) return true;
  if (c === 'image/jpg' || c === 'image/pjpeg') return actual === 'image/jpeg';
  if (c === 'image/heif') return actual === 'image/heic';
  return c === 'application/octet-stream' || c === '';
}
