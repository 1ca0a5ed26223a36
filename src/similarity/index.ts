/**
 * Similarity of receipts: a signature per scan (image + content, stored with the scan) and a calibrated
 * score for a pair of signatures (score.ts). The store's hook (src/store/similar.ts) finds candidate
 * scans and scores them.
 */
import type { LoadedInput } from '../input/types.js';
import type { Document } from '../document/types.js';
import type { ValidationSubject } from '../validate/subject.js';
import { contentSignature } from './content.js';
import type { ContentSignature } from './content.js';
import { imageSignature, textBoxesOf } from './image.js';
import type { ImageSignature } from './image.js';

export type { ContentSignature } from './content.js';
export type { ImageSignature } from './image.js';

/** Format of the stored signature; a scan stored with another version is compared on its content only. */
export const SIGNATURE_VERSION = 1;

export interface SimilaritySignature {
  v: typeof SIGNATURE_VERSION;
  image: ImageSignature | null;
  content: ContentSignature;
}

/** The signature of a fresh extraction: the page image (upright per the OCR) and what was read. */
export async function signatureOf(
  x: { input: Pick<LoadedInput, 'pages'>; document: Pick<Document, 'pages' | 'lines'>; targetRotation: number },
  subject: ValidationSubject,
): Promise<SimilaritySignature> {
  return {
    v: SIGNATURE_VERSION,
    image: await imageSignature(x.input.pages, x.targetRotation, textBoxesOf(x.document), x.document.pages.find((p) => p.source === 'ocr')?.paper),
    content: contentSignature(subject),
  };
}

/** A signature from a stored subject only (scans stored before signatures existed): no image part. */
export function contentOnlySignature(subject: ValidationSubject): SimilaritySignature {
  return { v: SIGNATURE_VERSION, image: null, content: contentSignature(subject) };
}

/** Parses a stored signature; null when absent, unreadable or of another version. */
export function parseSignature(json: string | null | undefined): SimilaritySignature | null {
  if (!json) return null;
  try {
    const s = JSON.parse(json) as SimilaritySignature;
    return s && s.v === SIGNATURE_VERSION && s.content ? s : null;
  } catch {
    return null;
  }
}

/**
 * Lookup keys of a signature (the store's inverted index, table scan_keys): a stored scan sharing keys
 * with a new one is scored against it. Total, date, receipt number, the larger line amounts, long
 * digit runs (ids, phone numbers), and 16-bit bands of each image hash (a copy whose OCR failed still
 * shares hash bands with its original).
 */
export function signatureKeys(sig: SimilaritySignature): string[] {
  const c = sig.content;
  const keys: string[] = [];
  if (c.total !== null) keys.push(`t:${Math.round(c.total * 100)}`);
  if (c.date) keys.push(`d:${c.date}`);
  if (c.number && c.number.length >= 3) keys.push(`n:${c.number}`);
  for (const a of [...new Set(c.amounts)].filter((v) => v >= 100).sort((x, y) => y - x).slice(0, 20)) keys.push(`a:${a}`);
  for (const d of c.digits.filter((v) => v.length >= 6).slice(0, 30)) keys.push(`x:${d}`);
  for (const [name, view] of [['p', sig.image?.text], ['q', sig.image?.ink]] as const) {
    if (!view) continue;
    for (let band = 0; band < 4; band++) keys.push(`${name}${band}:${view.phash.slice(band * 4, band * 4 + 4)}`);
  }
  return keys;
}
