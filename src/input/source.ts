/**
 * Bytes from the accepted input forms, with the size limit enforced before anything large is read or
 * decoded: a path is stat'ed first and read with a bounded read; base64 is measured before decoding.
 */
import { promises as fs } from 'node:fs';
import { types } from 'node:util';
import { ReceiptKitError } from '../errors.js';
import type { InputSource } from './types.js';

export interface SourceBytes {
  bytes: Buffer;
  filename?: string;
  /** Content type claimed by the source (encoded form or data: URL), never trusted over the bytes. */
  contentType?: string;
}

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${n} bytes`);

function tooLarge(bytes: number, max: number, approx = false): ReceiptKitError {
  return new ReceiptKitError('FILE_TOO_LARGE', `the file is ${approx ? 'about ' : ''}${size(bytes)}, over the ${size(max)} limit`);
}

/** Turns any accepted input form into bytes, enforcing `maxFileBytes` before reading or decoding. */
export async function readSource(source: InputSource, maxFileBytes: number): Promise<SourceBytes> {
  if (typeof source === 'string') return readPath(source, maxFileBytes);
  if (Buffer.isBuffer(source)) {
    if (source.length > maxFileBytes) throw tooLarge(source.length, maxFileBytes);
    return { bytes: source };
  }
  if (source instanceof Uint8Array || ArrayBuffer.isView(source)) {
    const view = source as ArrayBufferView;
    if (view.byteLength > maxFileBytes) throw tooLarge(view.byteLength, maxFileBytes);
    return { bytes: Buffer.from(view.buffer, view.byteOffset, view.byteLength) };
  }
  if (types.isAnyArrayBuffer(source)) {
    if (source.byteLength > maxFileBytes) throw tooLarge(source.byteLength, maxFileBytes);
    return { bytes: Buffer.from(source) };
  }
  if (source !== null && typeof source === 'object' && 'image' in source) return readEncoded(source, maxFileBytes);
  throw new ReceiptKitError('INVALID_INPUT', 'input must be a Buffer, Uint8Array, ArrayBuffer, a file path or { image: base64, filename?, contentType? }', { field: 'input' });
}

/** Reads a file: stat first (missing or too large fails without reading), then at most maxFileBytes + 1 bytes. */
async function readPath(file: string, maxFileBytes: number): Promise<SourceBytes> {
  if (file.length === 0) throw new ReceiptKitError('INVALID_INPUT', 'the file path is empty', { field: 'input' });
  let st;
  try {
    st = await fs.stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : `cannot access the file (${code ?? 'error'})`;
    throw new ReceiptKitError('INVALID_INPUT', `${why}: ${file}`, { field: 'input', cause: e });
  }
  if (!st.isFile()) throw new ReceiptKitError('INVALID_INPUT', `not a regular file: ${file}`, { field: 'input' });
  if (st.size > maxFileBytes) throw tooLarge(st.size, maxFileBytes);
  let handle;
  try {
    handle = await fs.open(file, 'r');
  } catch (e) {
    throw new ReceiptKitError('INVALID_INPUT', `cannot open the file (${(e as NodeJS.ErrnoException)?.code ?? 'error'}): ${file}`, { field: 'input', cause: e });
  }
  try {
    // The file may grow between stat and read: never read more than the limit allows.
    const buf = Buffer.allocUnsafe(Math.min(st.size, maxFileBytes) + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n === buf.length) break;
    }
    if (n > maxFileBytes) throw tooLarge(n, maxFileBytes);
    return { bytes: buf.subarray(0, n), filename: file };
  } catch (e) {
    if (e instanceof ReceiptKitError) throw e;
    throw new ReceiptKitError('UNREADABLE_FILE', `the file could not be read (${(e as NodeJS.ErrnoException)?.code ?? 'error'}): ${file}`, { cause: e });
  } finally {
    await handle.close();
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * The encoded form `{ image: base64 or data: URL, filename?, contentType? }`. The decoded size is
 * computed from the text and checked before decoding; anything that is not base64 is INVALID_INPUT.
 */
function readEncoded(source: { image: unknown; filename?: unknown; contentType?: unknown }, maxFileBytes: number): SourceBytes {
  const { image } = source;
  if (typeof image !== 'string') throw new ReceiptKitError('INVALID_INPUT', 'image must be a base64 string', { field: 'image' });
  const filename = typeof source.filename === 'string' && source.filename ? source.filename : undefined;
  let contentType = typeof source.contentType === 'string' && source.contentType ? source.contentType : undefined;
  let b64 = image;
  const dataUrl = /^\s*data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,/i.exec(b64.slice(0, 512));
  if (dataUrl) {
    if (!dataUrl[3]) throw new ReceiptKitError('INVALID_INPUT', 'image is a data: URL without ;base64', { field: 'image' });
    contentType ??= dataUrl[1] || undefined;
    b64 = b64.slice(dataUrl[0].length);
  }
  // Cheap bound first (whitespace allowed for: MIME wraps at 76 columns), exact one after stripping it.
  if (b64.length > Math.ceil(maxFileBytes / 3) * 4 * 1.05 + 64) throw tooLarge(Math.floor((b64.length * 3) / 4), maxFileBytes, true);
  const compact = /\s/.test(b64) ? b64.replace(/\s+/g, '') : b64;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const decodedLength = Math.floor((compact.length * 3) / 4) - padding;
  if (decodedLength > maxFileBytes) throw tooLarge(decodedLength, maxFileBytes);
  const url = !BASE64.test(compact);
  if ((url && !BASE64URL.test(compact)) || compact.length % 4 === 1 || (padding > 0 && compact.length % 4 !== 0)) {
    throw new ReceiptKitError('INVALID_INPUT', 'image is not valid base64', { field: 'image' });
  }
  const bytes = Buffer.from(compact, url ? 'base64url' : 'base64');
  return { bytes, ...(filename ? { filename } : {}), ...(contentType ? { contentType } : {}) };
}
