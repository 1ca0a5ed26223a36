import { promises as fs } from 'node:fs';
import { ReceiptKitError } from '../errors.js';
import type { InputSource } from './types.js';

export interface SourceBytes { bytes: Buffer; filename?: string; contentType?: string }

const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Turns any accepted input form into bytes, enforcing the size limit before reading or decoding. */
export async function readSource(source: InputSource, maxFileBytes: number): Promise<SourceBytes> {
  const tooLarge = (size: number) => new ReceiptKitError('FILE_TOO_LARGE', `file is ${MB(size)}, over the ${MB(maxFileBytes)} limit`);
  if (typeof source === 'string') {
    let st;
    try { st = await fs.stat(source); } catch { throw new ReceiptKitError('INVALID_INPUT', `no such file: ${source}`, { field: 'input' }); }
    if (!st.isFile()) throw new ReceiptKitError('INVALID_INPUT', `not a regular file: ${source}`, { field: 'input' });
    if (st.size > maxFileBytes) throw tooLarge(st.size);
    const bytes = await fs.readFile(source);
    if (bytes.length > maxFileBytes) throw tooLarge(bytes.length);
    return { bytes, filename: source };
  }
  if (Buffer.isBuffer(source)) {
    if (source.length > maxFileBytes) throw tooLarge(source.length);
    return { bytes: source };
  }
  if (source instanceof Uint8Array) {
    if (source.byteLength > maxFileBytes) throw tooLarge(source.byteLength);
    return { bytes: Buffer.from(source.buffer, source.byteOffset, source.byteLength) };
  }
  if (source instanceof ArrayBuffer) {
    if (source.byteLength > maxFileBytes) throw tooLarge(source.byteLength);
    return { bytes: Buffer.from(source) };
  }
  if (source && typeof source === 'object' && 'image' in source) {
    const { image, filename, contentType } = source;
    if (typeof image !== 'string') throw new ReceiptKitError('INVALID_INPUT', 'image must be a base64 string', { field: 'image' });
    let b64 = image;
    let claimed = contentType;
    const m = /^data:([^;,]*)(;base64)?,/.exec(b64.slice(0, 300));
    if (m) {
      if (!m[2]) throw new ReceiptKitError('INVALID_INPUT', 'data URL is not base64', { field: 'image' });
      claimed = claimed ?? (m[1] || undefined);
      b64 = b64.slice(m[0].length);
    }
    // 4 base64 characters carry 3 bytes: reject before decoding
    if (Math.floor((b64.length * 3) / 4) > maxFileBytes + 3) throw tooLarge(Math.floor((b64.length * 3) / 4));
    const compact = b64.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
      throw new ReceiptKitError('INVALID_INPUT', 'image is not valid base64', { field: 'image' });
    }
    const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
    if (bytes.length > maxFileBytes) throw tooLarge(bytes.length);
    return { bytes, ...(filename ? { filename } : {}), ...(claimed ? { contentType: claimed } : {}) };
  }
  throw new ReceiptKitError('INVALID_INPUT', 'input must be a Buffer, Uint8Array, ArrayBuffer, file path or { image: base64 }', { field: 'input' });
}
