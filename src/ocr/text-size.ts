/**
 * Reading at the text's own size (issue 33, item 2): a page is scaled from the size of its characters,
 * not from its pixel size. The character size is measured once per page on its plain working image (the
 * median connected component of ocr/orientation.ts textDirection, on the ~1000 px analysis copy, brought
 * back to working pixels); each reader then gets the page enlarged so that its characters reach the
 * height it reads best (measured with bench/text-size.mjs; numbers in bench/OCR.md). Pages whose text is
 * large enough keep the scaling they had.
 */
import { AXIS_ANALYSIS_LONG_SIDE, textDirection } from './orientation.js';
import { analysisCopy } from './preprocess.js';
import type { GrayImage, OcrScaling, WorkingImage } from './preprocess.js';

/** A page is enlarged at most this much for its text (the Lanczos 3x of issue 33's ww070). */
export const TEXT_MAX_UPSCALE = 3;
/** ...and to a long side of at most this. */
export const TEXT_MAX_LONG_SIDE = 2400;

/** Character size (px, in the working image's pixels) of a page: 0 when too few characters were found. */
export async function charSize(work: GrayImage): Promise<number> {
  const long = Math.max(work.width, work.height);
  const copy = await analysisCopy(work, AXIS_ANALYSIS_LONG_SIDE);
  const c = textDirection(copy).charSize;
  return c > 0 ? (c * long) / Math.max(copy.width, copy.height) : 0;
}

/**
 * The scaling that reads a page whose working image (under `base`) has characters `char` px tall with
 * characters `target` px tall: enlarged by target / char, at most TEXT_MAX_UPSCALE times its original and
 * TEXT_MAX_LONG_SIDE long; `base` itself when the characters are that tall already, were not measured,
 * or the page is a paper cut from a larger photo (its scale is the paper's own: preprocess.ts paperScale).
 */
export function textScaling(base: OcrScaling, work: Pick<WorkingImage, 'scale' | 'originalWidth' | 'originalHeight' | 'paper'>, char: number, target: number): OcrScaling {
  if (!(char > 0) || char >= target || work.paper) return base;
  const long = Math.max(work.originalWidth, work.originalHeight);
  const scale = Math.min(TEXT_MAX_UPSCALE, (work.scale * target) / char, TEXT_MAX_LONG_SIDE / long);
  if (scale <= work.scale * 1.05) return base;
  const side = Math.round(long * scale);
  return { maxLongSide: Math.max(base.maxLongSide, side), minLongSide: side, maxUpscale: Math.max(1, scale) };
}
