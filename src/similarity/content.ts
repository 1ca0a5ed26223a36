/**
 * The content half of a scan's similarity signature: what the extraction read, reduced to values that
 * survive another OCR pass of the same receipt (a re-photographed copy is read with different errors)
 * and tell receipts of the same merchant apart (another purchase differs in its date, time, amounts,
 * number and items, while the header and footer are the same).
 *
 * - merchant, date, total, receipt/invoice number: the extracted values, normalised;
 * - times: every HH:MM printed;
 * - amounts: every amount printed at the end of a line, in cents (the item prices, subtotal, tax, ...);
 * - digits: every run of 4+ digits (separators inside a number removed): ids, phone numbers, amounts;
 * - text: a bottom-k sketch of the character trigrams of the text (OCR-confusion folded, spaces
 *   removed): the TEXT_SKETCH smallest 32-bit hashes of the distinct trigrams, from which the
 *   overlap of two texts is estimated (trigrams measured better than words: one misread letter costs a
 *   word but only three trigrams).
 */
import type { ValidationSubject } from '../validate/subject.js';
import { codeKey, normalizeName, ocrSkeleton } from '../validate/names.js';

export interface ContentSignature {
  merchant: string | null;
  /** YYYY-MM-DD */
  date: string | null;
  total: number | null;
  /** Receipt (else invoice) number, as a code key. */
  number: string | null;
  /** HH:MM, distinct, sorted. */
  times: string[];
  /** Line-end amounts in cents, sorted (repeats kept). */
  amounts: number[];
  /** Digit runs of 4+ digits, distinct, sorted. */
  digits: string[];
  /** Bottom-k sketch of the text's character trigrams: the smallest TEXT_SKETCH 32-bit hashes, ascending. */
  text: number[];
  /** Distinct trigrams in the text (the sketch holds all of them when there are at most TEXT_SKETCH). */
  textSize: number;
  /** OCR lines. */
  lines: number;
}

const MAX_AMOUNTS = 120;
const MAX_DIGITS = 120;
export const TEXT_SKETCH = 256;

type SubjectPart = Pick<ValidationSubject, 'merchantName' | 'date' | 'totalAmount' | 'receiptNumber' | 'invoiceNumber' | 'lines' | 'lineAmounts'>;

export function contentSignature(s: SubjectPart): ContentSignature {
  const merchant = s.merchantName ? ocrSkeleton(normalizeName(s.merchantName).replace(/ /g, '')) || null : null;
  const number = codeKey(s.receiptNumber ?? s.invoiceNumber ?? '', false) || null;
  const times = new Set<string>();
  const digits = new Set<string>();
  const grams = new Set<number>();
  for (const line of s.lines) {
    for (const m of line.matchAll(/(?<![\d:])([01]?\d|2[0-3])\s?:\s?([0-5]\d)(?!\d)/g)) times.add(`${m[1]!.padStart(2, '0')}:${m[2]}`);
    for (const m of line.matchAll(/\d(?:[\d.,\-/:]*\d)?/g)) {
      const d = m[0].replace(/\D/g, '');
      if (d.length >= 4) digits.add(d);
    }
    const t = ocrSkeleton(normalizeName(line)).replace(/ /g, '');
    for (let i = 0; i + 3 <= t.length; i++) grams.add(fnv1a(t.slice(i, i + 3)));
  }
  const amounts = s.lineAmounts
    .map((a) => Math.round(a.value * 100))
    .filter((c) => Number.isFinite(c) && c !== 0)
    .map((c) => Math.abs(c))
    .slice(0, MAX_AMOUNTS)
    .sort((a, b) => a - b);
  return {
    merchant,
    date: s.date ? s.date.slice(0, 10) : null,
    total: s.totalAmount !== null && Number.isFinite(s.totalAmount) ? Math.round(s.totalAmount * 100) / 100 : null,
    number,
    times: [...times].sort(),
    amounts,
    digits: [...digits].sort().slice(0, MAX_DIGITS),
    text: [...grams].sort((a, b) => a - b).slice(0, TEXT_SKETCH),
    textSize: grams.size,
    lines: s.lines.length,
  };
}

/** FNV-1a 32-bit hash of a string. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
