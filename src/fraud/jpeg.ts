/**
 * JPEG traces: the quantisation tables (and the IJG quality they correspond to), and error level
 * analysis (ELA): the image re-saved at its own quality and compared pixel by pixel. Areas saved as
 * often as the rest of the image change about as much as the rest when saved again; an area pasted or
 * drawn in since the previous save has been quantised one time fewer and changes more.
 */
import sharp from 'sharp';
import { DEFAULT_LIMITS } from '../input/types.js';
import { orientPixels, rotatePixels } from './raster.js';

const ZIGZAG = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63];
/** IJG (JPEG Annex K) luminance and chrominance tables, natural order. */
const STD_LUMA = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99];

export interface JpegTables {
  /** Quantisation tables by id, natural (row-major) order. */
  tables: Map<number, number[]>;
  /** DQT segments seen (an edited file re-saved by some tools carries extra ones). */
  segments: number;
  /** Start-of-frame markers seen before the first scan. */
  frames: number;
  progressive: boolean;
}

/** Reads the quantisation tables of a JPEG from its markers (stops at the first scan); never throws. */
export function readJpegTables(b: Buffer): JpegTables {
  const tables = new Map<number, number[]>();
  let segments = 0, frames = 0, progressive = false;
  let i = 2;
  try {
    while (i + 4 <= b.length) {
      if (b[i] !== 0xff) { i++; continue; }
      const m = b[i + 1]!;
      if (m === 0xff) { i++; continue; }
      if (m === 0xd8 || m === 0x01 || (m >= 0xd0 && m <= 0xd7)) { i += 2; continue; }
      if (m === 0xda || m === 0xd9) break;
      const len = b.readUInt16BE(i + 2);
      if (len < 2 || i + 2 + len > b.length) break;
      if (m === 0xdb) {
        segments++;
        let j = i + 4;
        while (j < i + 2 + len) {
          const pq = b[j]! >> 4, tq = b[j]! & 15;
          j++;
          if (j + (pq ? 128 : 64) > i + 2 + len) break;
          const t = new Array<number>(64);
          for (let k = 0; k < 64; k++) t[ZIGZAG[k]!] = pq ? b.readUInt16BE(j + 2 * k) : b[j + k]!;
          j += pq ? 128 : 64;
          tables.set(tq, t);
        }
      } else if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
        frames++;
        if (m === 0xc2 || m === 0xc6 || m === 0xca || m === 0xce) progressive = true;
      }
      i += 2 + len;
    }
  } catch { /* truncated marker: keep what was read */ }
  return { tables, segments, frames, progressive };
}

/** The IJG quality (1..100) whose scaled standard luminance table is closest, and how far off it is (mean per entry). */
export function estimateQuality(luma: number[]): { quality: number; deviation: number } {
  let best = 90, bestD = Infinity;
  for (let q = 1; q <= 100; q++) {
    const s = q < 50 ? 5000 / q : 200 - 2 * q;
    let d = 0;
    for (let k = 0; k < 64; k++) d += Math.abs(Math.max(1, Math.min(255, Math.floor((STD_LUMA[k]! * s + 50) / 100))) - luma[k]!);
    if (d < bestD) { bestD = d; best = q; }
  }
  return { quality: best, deviation: Math.round((bestD / 64) * 100) / 100 };
}

export interface ElaMap {
  /** Mean absolute RGB difference after a re-save, per pixel, upright frame (as the analysis raster). */
  diff: Float32Array;
  width: number;
  height: number;
  quality: number;
}

/** Largest image ELA runs on (it decodes and re-encodes at full resolution). */
export const ELA_MAX_PIXELS = 12_000_000;

/**
 * Error level analysis of a JPEG at `quality` with its own chroma subsampling, in the upright frame of
 * the page (EXIF orientation, then `rotation` clockwise). Undefined over ELA_MAX_PIXELS.
 */
export async function errorLevels(bytes: Buffer, quality: number, opts: { orientation: number; rotation: number; subsampling: '4:2:0' | '4:4:4' }): Promise<ElaMap | undefined> {
  const meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  if (!meta.width || !meta.height || meta.width * meta.height > ELA_MAX_PIXELS) return undefined;
  const limitInputPixels = Math.max(DEFAULT_LIMITS.maxPixels, meta.width * meta.height + 1);
  const a = await sharp(bytes, { limitInputPixels, failOn: 'none' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const width = a.info.width, height = a.info.height, ch = a.info.channels;
  const resaved = await sharp(a.data, { raw: { width, height, channels: ch } }).jpeg({ quality, chromaSubsampling: opts.subsampling }).toBuffer();
  const b = await sharp(resaved).raw().toBuffer();
  let diff = new Float32Array(width * height);
  for (let i = 0; i < diff.length; i++) {
    let s = 0;
    for (let c = 0; c < ch; c++) s += Math.abs(a.data[i * ch + c]! - b[i * ch + c]!);
    diff[i] = s / ch;
  }
  let w = width, h = height;
  if (opts.orientation > 1) ({ data: diff, width: w, height: h } = orientPixels(diff, w, h, 1, opts.orientation));
  if (opts.rotation) ({ data: diff, width: w, height: h } = rotatePixels(diff, w, h, 1, opts.rotation));
  return { diff, width: w, height: h, quality };
}
