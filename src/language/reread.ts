/**
 * The second reading in the document's own language (issue 24, part 4): when the caller gave no
 * `language` and the text of the first reading is clearly in a language whose OCR data is installed
 * but was not used, the page is worth reading again with that data. This module only decides; the
 * engine reads.
 */
import { toTesseractCode } from '../ocr/languages.js';
import type { DetectedLanguage } from './detect.js';

/** The detected language must be at least this sure to pay for a second reading. */
export const REREAD_MIN_CONFIDENCE = 0.7;

export interface RereadQuestion {
  /** The `language` option as given (undefined or `auto`: detect). */
  hint?: string | undefined;
  /** Tesseract codes the first reading used. */
  used: readonly string[];
  /** The language detected on the first reading's text. */
  detected?: DetectedLanguage | undefined;
  /** Whether the OCR data of a tesseract code is installed. */
  installed: (code: string) => boolean;
}

/**
 * The tesseract code to read the page again with, or undefined: only without a hint, with a sure
 * detection, for a language that has data installed and was not used the first time.
 */
export function secondReadingLanguage(q: RereadQuestion): string | undefined {
  if (q.hint && q.hint.trim().toLowerCase() !== 'auto') return undefined;
  const d = q.detected;
  if (!d || d.confidence < REREAD_MIN_CONFIDENCE) return undefined;
  const code = toTesseractCode(d.code);
  if (!code || q.used.includes(code)) return undefined;
  return q.installed(code) ? code : undefined;
}
