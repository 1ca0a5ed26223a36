/**
 * Numbers in receipt text: money amounts under the document's conventions (decimal comma, whole
 * currencies such as rupiah, thousands separators) with their positions and OCR repairs, and a coarse
 * class for every number. Text is validated before it becomes a number (no "0A19" -> 19).
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { parseNumber, repairDigitRuns } from '../locale/numbers.js';
import { parseDates } from '../locale/dates.js';
import { CURRENCY_MARKERS } from '../locale/lexicon.js';
import type { FoundNumber } from './types.js';
import { boxesForSpan, confidenceForSpan } from './text.js';

export interface Amount {
  value: number;
  /** The matched text (original OCR characters). */
  text: string;
  line: Line;
  /** Character span in `line.text`. */
  start: number;
  end: number;
  /** ISO code of a currency marker printed next to it. */
  currency?: string;
  /** Digits after the decimal separator. */
  decimals: number;
  /** Reads as money: decimals of the currency, a currency marker, or whole-currency grouping. */
  moneyLike: boolean;
  /** At the end of its line (right column), ignoring a trailing tax code. */
  atLineEnd: boolean;
  /** Mean OCR confidence of its words. */
  ocrConfidence: number;
  negative: boolean;
  /** Followed by `%`: a rate, not money. */
  percent: boolean;
  /** Letters were read as digits, or a split number was joined. */
  repaired: boolean;
  /**
   * Other readings OCR makes likely (a lost decimal point: `5142` for 51.42; a lost digit group), each
   * trusted only when the receipt's arithmetic confirms it.
   */
  alternatives: number[];
}

/**
 * A lone "R" glued to an amount with two decimals ("R288.40") is the rand's sign, or an "RM" whose M
 * was lost (RAND_SIGN; see currencyCode). Only glued and with cents: "R 12" and "R12" stay words.
 */
const RAND_SIGN = String.raw`R(?=\d{1,3}(?:[ ,]?\d{3})*[.,]\d{2}(?!\d))`;
const CUR_PREFIX = String.raw`RM|RH|RN|Rp\.?|IDR|MYR|USD|EUR|SGD|S\$|US\$|A\$|C\$|HK\$|R\$|INR|Rs\.?|GBP|AUD|CAD|CHF|\$|€|£|₹|¥|฿|₱|₫|₪|₩|${RAND_SIGN}`;
/** A sign after its amount ("12,50 €"); not one glued to the next number, nor an RM before one ("1 RM12.60", "1 RM 12.60": the quantity, then the price with its sign). */
const CUR_SUFFIX = String.raw`€|EUR|RM(?!\s?\d)|£|zł|kr|Kč|Ft|₫`;

const regexCache = new Map<string, RegExp>();
function amountRegex(locale: Pick<Locale, 'wholeCurrency' | 'spaceGrouping'>): RegExp {
  const key = `${!!locale.wholeCurrency}|${!!locale.spaceGrouping}`;
  let re = regexCache.get(key);
  if (!re) { re = buildAmountRegex(locale); regexCache.set(key, re); }
  re.lastIndex = 0;
  return re;
}

function buildAmountRegex(locale: Pick<Locale, 'wholeCurrency' | 'spaceGrouping'>): RegExp {
  const space = locale.wholeCurrency || locale.spaceGrouping ? String.raw`|\s(?=\d{3}(?![\d]|[.,]\d{3}))` : '';
  const num = String.raw`\d{1,3}(?:(?:[.,'’]\s?${space})\d{3})+(?:[.,]\s?\d{1,2}(?!\d))?|\d+(?:[.,]\s?\d{1,4})?`;
  return new RegExp(
    String.raw`(?<![\p{L}\d.,/:#-])([-−~(]?)\s?(?:(${CUR_PREFIX})\s?[.:]?\s?)?([-−])?\s?(${num})(?!\d)(?:\s?(${CUR_SUFFIX})(?![\p{L}\d]))?(-(?!\d))?(\)?)`,
    'gu',
  );
}

const currencyCode = (marker: string | undefined, locale: Locale): string | undefined => {
  if (!marker) return undefined;
  const m = marker.toUpperCase();
  if (m === '$') return locale.currency && ['USD', 'SGD', 'AUD', 'CAD', 'NZD', 'HKD', 'MXN'].includes(locale.currency) ? locale.currency : locale.printedCurrency ?? 'USD';
  if (m === 'RH' || m === 'RN') return 'MYR';
  if (m === 'R') return locale.currency === 'MYR' ? 'MYR' : 'ZAR';
  return CURRENCY_MARKERS[m] ?? CURRENCY_MARKERS[m.replace(/\.$/, '')];
};

/**
 * The dong sign read as a 4 ("26.000đ" read "26.0004"): on a dong receipt, a grouped amount whose last
 * group has one digit too many, a 4, is that amount with its sign. The 4 becomes "₫" (one character,
 * so the spans stay) and the amount counts as repaired.
 */
function dongSignRead(text: string, repairs: Array<{ start: number; end: number }>): string {
  return text.replace(/(?<![\d.,])(\d{1,3}(?:[.,]\d{3})+)4(?![\d.,])/g, (run, grouped: string, offset: number) => {
    repairs.push({ start: offset, end: offset + run.length });
    return `${grouped}₫`;
  });
}

const cache = new WeakMap<Line, { key: string; amounts: Amount[] }>();

/** Every number in a line that may be an amount, with money-likeness and OCR alternatives. */
export function amountsInLine(line: Line, locale: Locale): Amount[] {
  const key = `${locale.decimalComma}|${locale.wholeCurrency}|${locale.spaceGrouping}|${locale.currency}`;
  const hit = cache.get(line);
  if (hit && hit.key === key) return hit.amounts;
  const out: Amount[] = [];
  const original = line.text;
  const { text: digitsRepaired, repairs } = repairDigitRuns(original);
  const text = locale.currency === 'VND' ? dongSignRead(digitsRepaired, repairs) : digitsRepaired;
  const re = amountRegex(locale);
  let m: RegExpExecArray | null;
  const conv = { decimalComma: locale.decimalComma, wholeCurrency: locale.wholeCurrency };
  // numbers inside printed dates ("August 3, 2014", "25.12.18") are not amounts
  const dateSpans = /\d/.test(text) ? parseDates(text, true, 2200).map((d) => [d.start, d.end] as const) : [];
  while ((m = re.exec(text))) {
    const [full, pre, cur, sign2, digitsRaw, postCur, trailingMinus, closeParen] = m;
    const digits = digitsRaw!;
    // skip parts of dates, times, ids and phone numbers
    const endIdx = m.index + full!.length;
    const after = text.slice(endIdx, endIdx + 3);
    if (/^[/:]\d/.test(after) || /^[.,-]\d/.test(after)) continue;
    const beforeChar = text[m.index - 1] ?? ' ';
    if (/[/:]/.test(beforeChar)) continue;
    const parsed = parseNumber(digits, conv);
    if (!parsed) continue;
    const digitsAt = m.index + full!.indexOf(digits);
    if (dateSpans.some(([a, b]) => digitsAt < b && digitsAt + digits.length > a)) continue;
    const plain = digits.replace(/\s/g, '');
    // long digit runs without separators are ids, phone numbers or barcodes
    if (/^\d{7,}$/.test(plain) && !cur && !postCur) continue;
    if (/^0\d{3,}$/.test(plain)) continue;
    const percent = /^\s?%/.test(after);
    const currencyMark = cur ?? postCur;
    const hasMoneyDecimals = parsed.decimals === 2 || (parsed.decimals === 1 && /[.,]\s?\d$/.test(digits) && !!currencyMark);
    const moneyLike = !percent && (
      (locale.wholeCurrency
        ? (parsed.grouped || !!currencyMark || (parsed.decimals === 2 && /[.,]00$/.test(plain)) || (parsed.decimals === 0 && parsed.value >= 100 && parsed.value % 100 === 0 && plain.length <= 7))
        : (hasMoneyDecimals || (!!currencyMark && parsed.decimals === 0 && plain.length <= 6)))
    );
    const negative = /[-−~(]/.test(pre ?? '') && (pre !== '(' || closeParen === ')') || !!sign2 || !!trailingMinus;
    const start = m.index + (full!.length - full!.trimStart().length);
    const end = endIdx - (closeParen && !/\(/.test(pre ?? '') ? 1 : 0);
    const rest = original.slice(endIdx).trim();
    const repaired = repairs.some((r) => r.start < end && r.end > start) || /[.,]\s\d/.test(digits);
    const alternatives: number[] = [];
    if (!locale.wholeCurrency && parsed.decimals === 0 && !percent) {
      // a lost decimal point: 5142 for 51.42, 212 for 2.12
      if (/^\d{3,6}$/.test(plain)) alternatives.push(parsed.value / 100);
    }
    if (!locale.wholeCurrency && parsed.decimals === 1) alternatives.push(parsed.value); // "13.6" is 13.60
    if (locale.wholeCurrency && !parsed.grouped && (parsed.decimals === 2 || parsed.decimals === 1) && !/[.,]00$/.test(plain)) {
      // "51,59" read from "51,590", "21,0" from "21,000"
      alternatives.push(Math.round(parsed.value * 1000));
    }
    const value = negative ? -parsed.value : parsed.value;
    out.push({
      value, text: original.slice(start, end), line, start, end,
      ...(currencyMark ? { currency: currencyCode(currencyMark, locale)! } : {}),
      decimals: parsed.decimals, moneyLike, percent,
      atLineEnd: rest.length === 0 || /^[A-Z*#]{0,3}[.)]?$/i.test(rest) || /^[|\\/\]\[(){}=~_.,:;'"`*-]+$/.test(rest),
      ocrConfidence: confidenceForSpan(line, start, end), negative, repaired,
      alternatives: alternatives.filter((a) => a !== parsed.value || parsed.decimals === 1).map((a) => (negative ? -a : a)),
    });
  }
  // "57 50" at the end of a line: a decimal point read as a space
  if (!locale.wholeCurrency && out.length >= 2) {
    const b = out[out.length - 1]!, a = out[out.length - 2]!;
    if (b.atLineEnd && /^\d{2}$/.test(b.text) && /^\d{1,5}$/.test(a.text) && b.start === a.end + 1 && !a.negative && !a.percent) {
      const v = Number(`${a.text}.${b.text}`);
      out.splice(out.length - 2, 2, { ...a, value: v, text: original.slice(a.start, b.end), end: b.end, decimals: 2, moneyLike: false, atLineEnd: true, repaired: true, alternatives: [v] });
    }
  }
  cache.set(line, { key, amounts: out });
  return out;
}

/** Coarse class of each number token (verbose `numbers[].classifyResult`). */
export function classifyNumbers(doc: Document, locale: Locale): FoundNumber[] {
  const out: FoundNumber[] = [];
  const re = /[+]?\d[\d.,:/\- ]*\d%?|\d%?/g;
  for (const line of doc.lines) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line.text))) {
      // a run may hold several numbers separated by single spaces: split where a space is not grouping
      for (const piece of splitRun(m[0], m.index)) {
        const t = piece.text;
        let cls = 'number';
        let value: number | undefined;
        if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(t)) { cls = 'time'; value = Number(t.split(':')[0]) + Number(t.split(':')[1]) / 100; }
        else if (/^\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}$/.test(t)) { cls = 'date'; value = Number(t.replace(/\D/g, '')); }
        else if (/%$/.test(t)) { cls = 'percent'; value = parseNumber(t.slice(0, -1), locale)?.value; }
        else if (/^\+?\d[\d\- ]{7,}$/.test(t) && /[- ]/.test(t)) { cls = 'phone'; value = Number(t.replace(/\D/g, '')); }
        else {
          const p = parseNumber(t, { decimalComma: locale.decimalComma, wholeCurrency: locale.wholeCurrency });
          value = p?.value;
          if (p) {
            if (p.decimals === 2 || (locale.wholeCurrency && p.grouped)) cls = 'money';
            else if (/^\d{5}$/.test(t)) cls = 'postcode';
            else if (/^\d{6,}$/.test(t)) cls = 'id';
            else if (/^\d{1,3}$/.test(t)) cls = 'quantity';
          }
        }
        if (value === undefined || !Number.isFinite(value)) continue;
        out.push({ value, text: t, lineIndex: line.index, page: line.page, boxes: boxesForSpan(line, piece.start, piece.start + t.length), classifyResult: cls });
      }
    }
  }
  return out;
}

function splitRun(run: string, offset: number): Array<{ text: string; start: number }> {
  const trimmed = run.replace(/[\s\-/.:,]+$/, '');
  const parts: Array<{ text: string; start: number }> = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(trimmed))) parts.push({ text: m[0], start: offset + m.index });
  // re-join thousands groups split by a space ("3 038,14")
  const merged: Array<{ text: string; start: number }> = [];
  for (const p of parts) {
    const prev = merged[merged.length - 1];
    if (prev && /^\d{1,3}$/.test(prev.text) && /^\d{3}(?:[.,]\d{1,2})?$/.test(p.text) && p.start === prev.start + prev.text.length + 1) prev.text += ' ' + p.text;
    else merged.push({ ...p });
  }
  return merged.map((p) => ({ ...p, text: p.text.replace(/[\-/.:,]+$/, '') })).filter((p) => /\d/.test(p.text));
}

export function toFound(a: Amount): FoundNumber {
  return { value: a.value, text: a.text, lineIndex: a.line.index, page: a.line.page, boxes: boxesForSpan(a.line, a.start, a.end) };
}
