/**
 * Media type detection from the bytes (magic numbers). A file name or a claimed content type is never
 * trusted: only what the first bytes say.
 */
import type { MediaType } from './types.js';

/** Major or compatible brands of an ISO-BMFF `ftyp` box that mark a HEIF still image (HEIC, AVIF). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

/**
 * Detects a supported media type from the first bytes; `undefined` when the bytes are not one the
 * library reads (JPEG, PNG, GIF, WebP, TIFF, HEIC/HEIF/AVIF, PDF). BMP is recognised by
 * `describeBytes` only: sharp cannot decode it.
 */
export function sniffMediaType(b: Uint8Array): MediaType | undefined {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (isHeif(b)) return 'image/heic';
  // Readers accept junk before the header within the first 1024 bytes.
  if (ascii(b, 0, 1024).includes('%PDF-')) return 'application/pdf';
  return undefined;
}

/** True for an ISO-BMFF file whose `ftyp` box names a HEIF still-image brand. */
function isHeif(b: Uint8Array): boolean {
  if (b.length < 16 || ascii(b, 4, 8) !== 'ftyp') return false;
  const size = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  if (HEIF_BRANDS.has(ascii(b, 8, 12))) return true;
  // compatible brands follow the major brand and the minor version
  for (let i = 16; i + 4 <= Math.min(size, b.length, 256); i += 4) if (HEIF_BRANDS.has(ascii(b, i, i + 4))) return true;
  return false;
}

/** A short description of bytes that are not a supported type ("text", "a zip archive", ...), for error messages. */
export function describeBytes(b: Uint8Array): string {
  if (b.length === 0) return 'empty';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return 'a zip archive (or an Office document)';
  if (startsWith(b, [0x1f, 0x8b])) return 'gzip data';
  if (ascii(b, 0, 4) === 'Rar!') return 'a RAR archive';
  if (startsWith(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'a 7z archive';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0])) return 'a legacy Office document';
  if (startsWith(b, [0x7f, 0x45, 0x4c, 0x46]) || ascii(b, 0, 2) === 'MZ') return 'an executable';
  if (isBmp(b)) return 'a BMP image (convert it to PNG or JPEG)';
  if (ascii(b, 4, 8) === 'ftyp') return `an ISO media file (brand ${JSON.stringify(ascii(b, 8, 12))}, e.g. a video)`;
  if (startsWith(b, [0x00, 0x00, 0x01, 0x00])) return 'an icon file';
  if (startsWith(b, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50]) || startsWith(b, [0xff, 0x4f, 0xff, 0x51])) return 'a JPEG 2000 image';
  if (ascii(b, 0, 4) === 'RIFF') return 'a RIFF file (audio/video)';
  const sample = b.subarray(0, 512);
  let printable = 0;
  for (const c of sample) if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 0x80) printable++;
  const nul = sample.includes(0);
  if (!nul && printable / sample.length > 0.95) {
    const text = ascii(b, 0, 256).replace(/^\uFEFF|^\xef\xbb\xbf/, '').trimStart().toLowerCase();
    if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'an SVG image (text)';
    if (text.startsWith('<?xml')) return 'XML text';
    if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'HTML text';
    if (text.startsWith('{') || text.startsWith('[')) return 'JSON or other text';
    if (/^[a-z0-9+/=\s]+$/i.test(text) && text.length >= 64) return 'text (base64? send it as the encoded form)';
    if (text.startsWith('data:')) return 'text (a data: URL; send it as the encoded form)';
    return 'text';
  }
  return 'unknown binary data';
}

/** A BMP file header: "BM", reserved zeros and a known DIB header size. */
function isBmp(b: Uint8Array): boolean {
  if (b.length < 18 || b[0] !== 0x42 || b[1] !== 0x4d) return false;
  if (b[6] !== 0 || b[7] !== 0 || b[8] !== 0 || b[9] !== 0) return false;
  const dib = b[14]! | (b[15]! << 8) | (b[16]! << 16) | (b[17]! << 24);
  return [12, 40, 52, 56, 64, 108, 124].includes(dib);
}

function startsWith(b: Uint8Array, sig: number[]): boolean {
  if (b.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[i] !== sig[i]) return false;
  return true;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < Math.min(to, b.length); i++) s += String.fromCharCode(b[i]!);
  return s;
}
