/**
 * Perceptual hash of the first raster page: a 64-bit difference hash (dHash, 9x8 grey pixels, one bit
 * per horizontal neighbour pair) as 16 hex digits. Robust to scaling and recompression, cheap (a few
 * ms on the already size-checked image). Null for text-layer PDFs and when the image cannot be read.
 */
import sharp from 'sharp';
import type { LoadedInput } from '../input/types.js';

export async function perceptualHash(input: LoadedInput): Promise<string | null> {
  const page = input.pages.find((p) => p.kind === 'raster');
  if (!page || page.kind !== 'raster') return null;
  try {
    const px = await sharp(page.image, { limitInputPixels: false, failOn: 'none' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .greyscale()
      .resize(9, 8, { fit: 'fill', kernel: 'lanczos3' })
      .extractChannel(0)
      .raw()
      .toBuffer();
    let bits = 0n;
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) bits = (bits << 1n) | (px[y * 9 + x]! > px[y * 9 + x + 1]! ? 1n : 0n);
    }
    return bits.toString(16).padStart(16, '0');
  } catch {
    return null;
  }
}

/** Bits that differ between two hashes (0..64). */
export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x) { n += Number(x & 1n); x >>= 1n; }
  return n;
}
