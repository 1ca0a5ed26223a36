/**
 * Numbers in receipt text: money amounts under the document's conventions (decimal comma, whole
 * currencies such as rupiah, thousands separators), with their positions, and a coarse class for
 * every number. Text is validated before it becomes a number (no "0A19" -> 19).
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import type { FoundNumber } from './types.js';
import { boxesForSpan, confidenceForSpan } from './text.js';

export interface Amount {
  value: number;
  /** The matched text. */
  text: string;
  line: Line;
  start: number;
  end: number;
  /** Currency marker printed next to it. */
  currency?: string;
  /** True when it has a decimal part, a currency marker or whole-currency grouping: reads as money. */
  moneyLike: boolean;
  /** At the end of its line (right column). */
  atLineEnd: boolean;
  /** Mean OCR confidence of its words. */
  ocrConfidence: number;
  negative: boolean;
}

const CURRENCY = String.raw`RM|Rp\.?|IDR|MYR|USD|EUR|SGD|S\$|US\$|INR|Rs\.?|GBP|AUD|CAD|CHF|\$|€|£|₹|¥`;
// sign, currency, digits with separators (space only as a thousands separator before 3 digits), trailing currency
const AMOUNT_RE = new RegExp(
  String.raw`(?<![\w.,/:-])(\(?[-−]?)\s?(?:(${CURRENCY})\s?)?([-−])?\s?(\d{1,3}(?:(?:[.,']|\s(?=\d{3}\b))\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\s?\d{1,2})?)(?!\d)(?:\s?(€|EUR|RM|\$))?(-)?(?![\w/])`,
  'g',
);

/**
 * Parses a numeric string under the conventions; undefined when it is not a clean number.
 * `1.234,56` / `1,234.56` / `1 234,56` / `43.000` (whole currency) / `12,50` (decimal comma).
 */
export function parseNumber(raw: string, locale: Pick<Locale, 'decimalComma' | 'wholeCurrency'>): number | undefined {
  const s = raw.replace(/\s+/g, '').replace(/'/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return undefined;
  const lastDot = s.lastIndexOf('.'), lastComma = s.lastIndexOf(',');
  let intPart = s, frac = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = Math.max(lastDot, lastComma);
    intPart = s.slice(0, dec).replace(/[.,]/g, '');
    frac = s.slice(dec + 1);
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = s.split(sep);
    const tail = parts[parts.length - 1]!;
    if (parts.length > 2) {
      // 1.234.567 -> grouping; 1.234.56 -> last is decimal
      if (tail.length === 3) { intPart = parts.join(''); frac = ''; }
      else { intPart = parts.slice(0, -1).join(''); frac = tail; }
    } else if (tail.length === 3) {
      // 43.000 / 1,234: grouping, unless the locale writes decimals with this separator and it has 3 decimals (rare)
      intPart = parts.join(''); frac = '';
    } else {
      intPart = parts[0]!; frac = tail;
    }
  }
  if (frac.length > 2 && !locale.wholeCurrency) return undefined;
  const v = Number(`${intPart || '0'}.${frac || '0'}`);
  return Number.isFinite(v) ? v : undefined;
}

const CURRENCY_CODES: Record<string, string> = { RM: 'MYR', MYR: 'MYR', RP: 'IDR', 'RP.': 'IDR', IDR: 'IDR', USD: 'USD', 'US$': 'USD', $: 'USD', EUR: 'EUR', '€': 'EUR', SGD: 'SGD', S$: 'SGD', INR: 'INR', RS: 'INR', 'RS.': 'INR', '₹': 'INR', GBP: 'GBP', '£': 'GBP', AUD: 'AUD', CAD: 'CAD', CHF: 'CHF', '¥': 'JPY' };

/** Every amount-like number in a line. */
export function amountsInLine(line: Line, locale: Locale): Amount[] {
  const out: Amount[] = [];
  const text = line.text;
  AMOUNT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = AMOUNT_RE.exec(text))) {
    const [full, pre, cur, sign2, digits, postCur, trailingMinus] = m;
    const value = parseNumber(digits!, locale);
    if (value === undefined) continue;
    // skip parts of dates, times, percentages and phone-like runs
    const after = text.slice(m.index + full!.length, m.index + full!.length + 2);
    if (/^\s?%/.test(after)) continue;
    const hasDecimals = /[.,]\s?\d{1,2}$/.test(digits!) && !/[.,]\d{3}$/.test(digits!);
    const grouped = /\d[.,' ]\d{3}\b/.test(digits!);
    const currency = cur ?? postCur;
    const moneyLike = (hasDecimals && !locale.wholeCurrency) || !!currency || (locale.wholeCurrency && (grouped || value >= 500 || hasDecimals));
    const negative = /[-−(]/.test(pre ?? '') || !!sign2 || !!trailingMinus;
    const start = m.index + (full!.length - full!.trimStart().length);
    const end = m.index + full!.length;
    const rest = text.slice(end).trim();
    out.push({
      value: negative ? -value : value, text: full!.trim(), line, start, end,
      ...(currency ? { currency: CURRENCY_CODES[currency.toUpperCase()] ?? currency } : {}),
      moneyLike, atLineEnd: rest.length === 0 || /^[A-Z*#]{0,2}$/i.test(rest), ocrConfidence: confidenceForSpan(line, start, end), negative,
    });
  }
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
      const t = m[0].trim();
      let cls = 'number';
      let value: number | undefined;
      if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(t)) { cls = 'time'; value = Number(t.replace(':', '.').split(':')[0]); }
      else if (/^\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}$/.test(t)) { cls = 'date'; value = Number(t.replace(/\D/g, '')); }
      else if (/%$/.test(t)) { cls = 'percent'; value = parseNumber(t.slice(0, -1), locale); }
      else if (/^\+?\d[\d\- ]{7,}$/.test(t) && /[- ]/.test(t)) { cls = 'phone'; value = Number(t.replace(/\D/g, '')); }
      else {
        value = parseNumber(t.replace(/\s/g, ''), locale);
        if (value !== undefined) {
          if (/[.,]\d{2}$/.test(t) || (locale.wholeCurrency && /[.,]\d{3}$/.test(t))) cls = 'money';
          else if (/^\d{5}$/.test(t)) cls = 'postcode';
          else if (/^\d{6,}$/.test(t)) cls = 'id';
          else if (/^\d{1,3}$/.test(t)) cls = 'quantity';
        }
      }
      if (value === undefined || !Number.isFinite(value)) continue;
      out.push({ value, text: t, lineIndex: line.index, page: line.page, boxes: boxesForSpan(line, m.index, m.index + m[0].length), classifyResult: cls });
    }
  }
  return out;
}

export function toFound(a: Amount): FoundNumber {
  return { value: a.value, text: a.text, lineIndex: a.line.index, page: a.line.page, boxes: boxesForSpan(a.line, a.start, a.end) };
}
