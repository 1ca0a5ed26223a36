/**
 * Date conventions and parsing primitives: numeric dates in either order, month and weekday names in
 * several languages, compact `yyyymmdd` / `ddmmyyyy`, two-digit years, printed times.
 */
import { MONTHS, MONTH_PATTERN, OCR_MONTH_SLIPS, WEEKDAYS } from './lexicon.js';

export interface DateParts { y: number; m: number; d: number }

export interface ParsedDate extends DateParts {
  /** Both day/month orders were valid and the convention decided. */
  ambiguous: boolean;
  /** The printed form (for evidence). */
  form: 'numeric' | 'iso' | 'month-name' | 'compact';
  /** Two-digit year. */
  shortYear: boolean;
  start: number;
  end: number;
  /** The separators of a numeric date (e.g. `/`), for document-level order votes. */
  sep?: string;
  /** For numeric dates: the order the digits allow ('dm' only, 'md' only, or both). */
  orders?: 'dm' | 'md' | 'both';
  /** A one-digit first part before a zero-padded second ("6.06.22"): often a digit lost at the edge. */
  unpadded?: boolean;
  /** The month name was read through an OCR slip (lexicon OCR_MONTH_SLIPS: "0ec" for Dec). */
  slip?: boolean;
}

const slipOf = (month: string) => (OCR_MONTH_SLIPS[month.toLowerCase()] !== undefined ? { slip: true } : {});

export function validDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || m < 1 || m > 12 || d < 1 || d > 31) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

export function year4(y: number, yLen: number): number {
  if (yLen >= 4) return y;
  return y < 100 ? 2000 + y : y;
}

/** Reads a numeric a/b/c date; `dayFirst` decides when both orders are valid. */
export function readNumericDate(a: number, b: number, c: number, aLen: number, cLen: number, dayFirst: boolean): (DateParts & { ambiguous: boolean; orders: 'dm' | 'md' | 'both' }) | undefined {
  if (aLen === 4) return validDate(a, b, c) ? { y: a, m: b, d: c, ambiguous: false, orders: 'dm' } : undefined; // yyyy-mm-dd
  if (cLen !== 2 && cLen !== 4) return undefined;
  const y = year4(c, cLen);
  const dm = validDate(y, b, a) ? { y, m: b, d: a } : undefined;
  const md = validDate(y, a, b) ? { y, m: a, d: b } : undefined;
  if (dm && md) {
    if (a === b) return { ...dm, ambiguous: false, orders: 'both' };
    return { ...(dayFirst ? dm : md), ambiguous: true, orders: 'both' };
  }
  if (dm) return { ...dm, ambiguous: false, orders: 'dm' };
  if (md) return { ...md, ambiguous: false, orders: 'md' };
  return undefined;
}

const NUMERIC = /(?<![\d/.-]|\d:)(\d{1,4})\s?([/.\-])\s?(\d{1,2})\s?([/.\-])\s?(\d{4}(?=[0-2]?\d[:.][0-5]\d)|(?:\d{4}|\d{2})(?!\d|\/(?!\d{1,2}:\d{2})|[.:]\d))/g;
const DAY_MONTH_NAME = new RegExp(String.raw`(?<![\d\p{L}])(\d{1,2})(?:st|nd|rd|th|er|e|\.)?[\s.\-/,]*(?:de\s+|of\s+)?(${MONTH_PATTERN})\.?(?![\p{L}])[\s.\-/,'’‘′´]*(?:de\s+)?(\d{4}(?=[0-2]?\d[:.][0-5]\d)|(?:\d{4}|\d{2})(?!\d)|\d{2}(?=[0-2]?\d:[0-5]\d))`, 'giu');
const MONTH_NAME_DAY = new RegExp(String.raw`(?<![\p{L}])(${MONTH_PATTERN})\.?(?![\p{L}])[\s.\-/]*(\d{1,2})(?:st|nd|rd|th)?(?!\d)[\s,.\-/'’‘′´]*(\d{4}(?=[0-2]?\d[:.][0-5]\d)|(?:\d{4}|['’‘′´]?\d{2})(?![\d:]))`, 'giu');
const COMPACT = /(?<![\d.,])(\d{8})(?![\d.,])/g;

/** Every date printed in a text, under the given order convention. */
export function parseDates(text: string, dayFirst: boolean, maxYear: number): ParsedDate[] {
  const found: ParsedDate[] = [];
  const overlaps = (s: number, e: number) => found.some((f) => f.start < e && s < f.end);
  let m: RegExpExecArray | null;
  DAY_MONTH_NAME.lastIndex = 0;
  while ((m = DAY_MONTH_NAME.exec(text))) {
    const month = MONTHS[m[2]!.toLowerCase()];
    const y = year4(Number(m[3]), m[3]!.length);
    const d = Number(m[1]);
    if (month && validDate(y, month, d)) found.push({ y, m: month, d, ambiguous: false, form: 'month-name', shortYear: m[3]!.length === 2, start: m.index, end: m.index + m[0].length, ...slipOf(m[2]!) });
  }
  MONTH_NAME_DAY.lastIndex = 0;
  while ((m = MONTH_NAME_DAY.exec(text))) {
    if (overlaps(m.index, m.index + m[0].length)) continue;
    const month = MONTHS[m[1]!.toLowerCase()];
    const yRaw = m[3]!.replace(/['’‘′´`]/, '');
    const y = year4(Number(yRaw), yRaw.length);
    const d = Number(m[2]);
    if (month && validDate(y, month, d)) found.push({ y, m: month, d, ambiguous: false, form: 'month-name', shortYear: yRaw.length === 2, start: m.index, end: m.index + m[0].length, ...slipOf(m[1]!) });
  }
  NUMERIC.lastIndex = 0;
  while ((m = NUMERIC.exec(text))) {
    if (overlaps(m.index, m.index + m[0].length)) continue;
    const [, a, s1, b, s2, c] = m;
    // mixed separators are an OCR accident at most once ("25/12-2018"); "1.5-2" is not a date
    if (s1 !== s2 && !(a!.length <= 2 && c!.length === 4)) continue;
    // "09.20.00" after TIME is a clock reading, not a date ("Time: 2016/11/02 18:01" is one, its year first)
    if (c!.length === 2 && a!.length <= 2 && (c === '00' || /(?:TIME|TIEMPO|HEURE|ZEIT|UHR|JAM|WAKTU|PUKUL)\s*[:.]?\s*$/i.test(text.slice(Math.max(0, m.index - 12), m.index)))) continue;
    const r = readNumericDate(Number(a), Number(b), Number(c), a!.length, c!.length, dayFirst);
    if (!r) continue;
    if (a!.length === 3) continue;
    const unpadded = a!.length === 1 && b!.length === 2 && b!.startsWith('0');
    found.push({ y: r.y, m: r.m, d: r.d, ambiguous: r.ambiguous, form: a!.length === 4 ? 'iso' : 'numeric', shortYear: a!.length !== 4 && c!.length === 2, start: m.index, end: m.index + m[0].length, sep: s1!, orders: r.orders, ...(unpadded ? { unpadded } : {}) });
  }
  COMPACT.lastIndex = 0;
  while ((m = COMPACT.exec(text))) {
    if (overlaps(m.index, m.index + 8)) continue;
    const s = m[1]!;
    const ymd = { y: +s.slice(0, 4), m: +s.slice(4, 6), d: +s.slice(6, 8) };
    const dmy = { y: +s.slice(4, 8), m: +s.slice(2, 4), d: +s.slice(0, 2) };
    const ok = (x: DateParts) => x.y >= 2000 && x.y <= maxYear && validDate(x.y, x.m, x.d);
    const r = ok(ymd) && !ok(dmy) ? ymd : ok(dmy) && !ok(ymd) ? dmy : undefined;
    if (r) found.push({ ...r, ambiguous: false, form: 'compact', shortYear: false, start: m.index, end: m.index + 8 });
  }
  return found.sort((x, y) => x.start - y.start);
}

/**
 * Single-digit OCR confusions, most likely first (a faded base stroke turns 2 into 7, an open 8 reads 3 or 6, ...).
 */
const DIGIT_CONFUSIONS: Record<string, string> = { '0': '8692', '1': '74', '2': '7', '3': '852', '4': '1', '5': '63', '6': '580', '7': '21', '8': '3609', '9': '80' };

/** A date that was not printed as read: `rank` 0 when only a lost separator was restored, else 1 + the confusion's rank. */
export interface GuessedDate extends ParsedDate { rank: number }

/** A dd.mm.yy shape, also with a separator misread (space, comma, colon) when a time follows ("07 08.22-20:30"). */
const DATE_SHAPE = /(?<![\d.,/:-])(\d{2})([/.\-, ])(\d{2})([/.\-:])(\d{4}|\d{2})(?![\d]|[.,:]\d)/g;
const TIME_AFTER = /^[-\s]{0,2}\d{1,2}[:.]\d{2}/;

const DAY_MS = 86_400_000;
/** A receipt dated more than this many years back is implausible (also: more than a day ahead). */
export const PLAUSIBLE_MAX_AGE_YEARS = 15;

/** The span of plausible transaction dates, in ms since the epoch. */
export interface DateWindow { minMs: number; maxMs: number }

/** Plausible dates seen from `now`: at most a day ahead (time zones), at most PLAUSIBLE_MAX_AGE_YEARS back. */
export function plausibleWindow(now: Date): DateWindow {
  const t = now.getTime();
  return { minMs: t - PLAUSIBLE_MAX_AGE_YEARS * 365 * DAY_MS, maxMs: t + DAY_MS };
}

/** How much further back than the window a date read as printed is still taken as printed (not a misread digit). */
export const PRINTED_EXTRA_YEARS = 5;

/** The window for dates as printed: the same end, PRINTED_EXTRA_YEARS further back. */
export function asPrintedWindow(w: DateWindow): DateWindow {
  return { minMs: w.minMs - PRINTED_EXTRA_YEARS * 365 * DAY_MS, maxMs: w.maxMs };
}

/** Is the day inside the window? */
export function inWindow(p: DateParts, w: DateWindow): boolean {
  const ms = Date.UTC(p.y, p.m - 1, p.d);
  return ms >= w.minMs && ms <= w.maxMs;
}

/**
 * Dates an OCR slip hid: a numeric date shape that reads as no date, or as one outside the window
 * (a year in the future, a day 76), read again with one digit replaced by a usual confusion; and a
 * date whose first separator was lost to a space when a time follows. Only shapes that give no
 * plausible date as printed are guessed at; each guess carries its rank for the resolver's penalty.
 */
export function guessDates(text: string, dayFirst: boolean, window: DateWindow): GuessedDate[] {
  const out: GuessedDate[] = [];
  // a date as printed stands unless it is ahead or far older than the window (old receipts are filed too)
  const printedWindow = asPrintedWindow(window);
  const read = (a: string, b: string, c: string) => {
    const r = readNumericDate(Number(a), Number(b), Number(c), a.length, c.length, dayFirst);
    return r && inWindow(r, window) ? r : undefined;
  };
  DATE_SHAPE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DATE_SHAPE.exec(text))) {
    const [all, a, s1, b, s2, c] = m as unknown as [string, string, string, string, string, string];
    const timed = TIME_AFTER.test(text.slice(m.index + all.length));
    // a separator misread: the first as a space or comma, or the second as a colon ("02/07:22 22:25:09"), only before a time
    const lost = s1 === ' ' || s1 === ',' || s2 === ':';
    if (lost && (!timed || (s2 === ':' && !/[/.\-]/.test(s1)))) continue;
    if (!lost && s1 !== s2) continue;
    const base = { form: 'numeric' as const, shortYear: c.length === 2, start: m.index, end: m.index + all.length, sep: s2 };
    const asReadAny = readNumericDate(Number(a), Number(b), Number(c), a.length, c.length, dayFirst);
    const asRead = asReadAny && inWindow(asReadAny, printedWindow) ? asReadAny : undefined;
    if (asRead) {
      if (lost) out.push({ y: asRead.y, m: asRead.m, d: asRead.d, ambiguous: asRead.ambiguous, orders: asRead.orders, ...base, rank: 0 });
      continue;
    }
    // one digit at a time: the day and month digits and the last two of the year
    const digits = (a + b + c.slice(-2)).split('');
    const seen = new Set<string>();
    for (let pos = 0; pos < digits.length; pos++) {
      const alts = DIGIT_CONFUSIONS[digits[pos]!] ?? '';
      for (let k = 0; k < alts.length; k++) {
        const t = [...digits];
        t[pos] = alts[k]!;
        const r = read(t.slice(0, 2).join(''), t.slice(2, 4).join(''), c.slice(0, -2) + t.slice(4).join(''));
        if (!r) continue;
        const key = `${r.y}-${r.m}-${r.d}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ y: r.y, m: r.m, d: r.d, ambiguous: r.ambiguous, orders: r.orders, ...base, rank: 1 + k });
      }
    }
  }
  // a slash read as 7 or 1 between day and month ("04707/2018" for 04/07/2018)
  SLASH_AS_DIGIT.lastIndex = 0;
  while ((m = SLASH_AS_DIGIT.exec(text))) {
    const [all, a, b, c] = m as unknown as [string, string, string, string];
    const r = read(a, b, c);
    if (!r) continue;
    out.push({ y: r.y, m: r.m, d: r.d, ambiguous: r.ambiguous, orders: r.orders, form: 'numeric', shortYear: c.length === 2, start: m.index, end: m.index + all.length, sep: '/', rank: 1 });
  }
  return out;
}

const SLASH_AS_DIGIT = /(?<![\d/.,:-])(\d{2})[71](\d{2})\/(\d{4})(?![\d]|[.,:]\d)/g;

const TIME = /(?:(?<=[/.\-\sA-Za-z](?:19|20)\d\d)|(?<![\d.,:]))([01]?\d|2[0-3])\s?[:hH]\s?([0-5]\d)(?:\s?:\s?([0-5]\d))?(?:\s*(AM|PM|A\.M\.|P\.M\.))?(?![\d.,]\d)/i;

export interface TimeOfDay { h: number; m: number; s: number }

/** The first time of day printed in a text. */
export function parseTime(text: string): (TimeOfDay & { start: number; end: number }) | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] ? Number(m[3]) : 0;
  const ap = m[4]?.toUpperCase().replace(/\./g, '');
  if (ap === 'PM' && h < 12) h += 12;
  if (ap === 'AM' && h === 12) h = 0;
  return { h, m: min, s, start: m.index, end: m.index + m[0].length };
}

const WEEKDAY_RE = new RegExp(String.raw`(?<![\p{L}])(${Object.keys(WEEKDAYS).filter((k) => k.length >= 4 || ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].includes(k)).sort((a, b) => b.length - a.length).join('|')})(?![\p{L}])`, 'iu');

/** A weekday name printed in a text (0 = Sunday), if any. */
export function weekdayIn(text: string): number | undefined {
  const m = WEEKDAY_RE.exec(text);
  return m ? WEEKDAYS[m[1]!.toLowerCase()] : undefined;
}

/** ISO string of a date (noon UTC unless a time is given). */
export function isoDate(p: DateParts, time?: TimeOfDay): string {
  const z = (n: number, w = 2) => String(n).padStart(w, '0');
  const t = time ? `${z(time.h)}:${z(time.m)}:${z(time.s)}` : '12:00:00';
  return `${z(p.y, 4)}-${z(p.m)}-${z(p.d)}T${t}.000Z`;
}
