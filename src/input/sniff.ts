import type { MediaType } from './types.js';

/** Detects the media type from the first bytes (magic numbers); undefined when not a supported type. */
export function sniffMediaType(b: Uint8Array): MediaType | undefined {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'image/png';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0x00) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0x00 && b[3] === 0x2a))) return 'image/tiff';
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    const brand = ascii(b, 8, 12);
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif'].includes(brand)) return 'image/heic';
  }
  if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return 'image/bmp';
  // %PDF- may be preceded by junk within the first 1024 bytes (allowed by readers)
  const head = ascii(b, 0, Math.min(b.length, 1024));
  if (head.includes('%PDF-')) return 'application/pdf';
  return undefined;
}

/** A short description of unsupported bytes, for error messages. */
export function describeBytes(b: Uint8Array): string {
  if (b.length === 0) return 'empty';
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'a zip archive';
  if (b[0] === 0x1f && b[1] === 0x8b) return 'gzip data';
  const sample = b.subarray(0, 512);
  let printable = 0;
  for (const c of sample) if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 0xc0) printable++;
  if (printable / sample.length > 0.95) {
    const text = ascii(b, 0, 64).trimStart().toLowerCase();
    if (text.startsWith('<svg') || text.startsWith('<?xml')) return 'XML/SVG text';
    if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'HTML';
    return 'text';
  }
  return 'unknown binary data';
}

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < Math.min(to, b.length); i++) s += String.fromCharCode(b[i]!);
  return s;
}
