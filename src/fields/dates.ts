/**
 * Dates: every printed form (numeric in any order, month names in several languages, compact
 * yyyymmdd), read under the locale's day/month order, ranked by keyword (transaction date vs due,
 * expiry or print dates), time printed beside it, repetition and plausibility.
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { MONTHS, MONTH_PATTERN } from '../locale/lexicon.js';
import { boxesForSpan, fold } from './text.js';
import type { Located } from './types.js';

export interface DateCandidate {
  year: number; month: number; day: number;
  /** Both readings were possible and the locale decided. */
  ambiguous: boolean;
  line: Line;
  start: number; end: number;
  time?: { h: number; m: number; s: number };
  keyword: string;
  kind: 'transaction' | 'due' | 'other';
  score: number;
}

const NUMERIC = /(?<![\d/.-])(\d{1,4})\s?([/.\-])\s?(\d{1,2})\s?\2\s?(\d{2,4})(?![\d/])/g;
const DAY_MONTH_NAME = new RegExp(String.raw`(?<![\d])(\d{1,2})(?:st|nd|rd|th|er)?[\s.\-/,]*(${MONTH_PATTERN})\.?[\s.\-/,']*(\d{4}|\d{2})(?!\d)`, 'gi');
const MONTH_NAME_DAY = new RegExp(String.raw`\b(${MONTH_PATTERN})\.?[\s.\-/]*(\d{1,2})(?:st|nd|rd|th)?[\s,.\-/']+(\d{4}|\d{2})(?!\d)`, 'gi');
const COMPACT = /(?<!\d)(\d{8})(?!\d)/g;
const TIME = /(?<!\d)([01]?\d|2[0-3])\s?[:.hH]\s?([0-5]\d)(?:\s?[:.]\s?([0-5]\d))?\s*(AM|PM|A\.M\.|P\.M\.)?(?![\d.,])/i;

const TRANSACTION_KW = /\b(DATE|DATED|TARIKH|TANGGAL|TGL|DATUM|FECHA|DATA|INVOICE\s*DATE|BILL\s*DATE|RECEIPT\s*DATE|ISSUED?|FACTUURDATUM|RECHNUNGSDATUM|DATE\s*DE\s*FACTURE|ORDER\s*DATE|TRANS\w*\s*DATE|WAKTU)\b/;
const DUE_KW = /\b(DUE|PAYMENT\s*DUE|ECHEANCE|FALLIG\w*|VERVAL\w*|JATUH\s*TEMPO|PAY\s*BY)\b/;
const OTHER_KW = /\b(EXP\w*|VALID\w*|UNTIL|BEST\s*BEFORE|PRINT\w*|DELIVERY|LIVRAISON|LIEFER\w*|PERIOD|FROM|TO|BIRTH|SINCE|MEMBER|PROMO\w*|BERLAKU|CHECK[\s-]*(IN|OUT)|ARRIVAL|DEPARTURE)\b/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

function year4(y: number): number { return y < 100 ? 2000 + y : y; }

/** Reads a numeric a/b/c date under the locale; undefined when no valid reading. */
export function readNumericDate(a: number, b: number, c: number, aLen: number, cLen: number, dayFirst: boolean): { y: number; m: number; d: number; ambiguous: boolean } | undefined {
  if (aLen === 4) return validDate(a, b, c) ? { y: a, m: b, d: c, ambiguous: false } : undefined; // yyyy-mm-dd
  if (cLen !== 2 && cLen !== 4) return undefined;
  const y = year4(c);
  const dm = validDate(y, b, a) ? { y, m: b, d: a } : undefined;
  const md = validDate(y, a, b) ? { y, m: a, d: b } : undefined;
  if (dm && md) {
    if (a === b) return { ...dm, ambiguous: false };
    return { ...(dayFirst ? dm : md), ambiguous: true };
  }
  const r = dm ?? md;
  return r ? { ...r, ambiguous: false } : undefined;
}

function timeNear(line: Line, from: number): DateCandidate['time'] | undefined {
  const rest = line.text.slice(from);
  const m = TIME.exec(rest) ?? TIME.exec(line.text.slice(0, Math.max(0, from)));
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] ? Number(m[3]) : 0;
  const ap = m[4]?.toUpperCase().replace(/\./g, '');
  if (ap === 'PM' && h < 12) h += 12;
  if (ap === 'AM' && h === 12) h = 0;
  return { h, m: min, s };
}

/** Every date printed in the document. */
export function dateCandidates(doc: Document, locale: Locale, now: Date): DateCandidate[] {
  const out: DateCandidate[] = [];
  const maxYear = now.getUTCFullYear() + 1;
  for (let li = 0; li < doc.lines.length; li++) {
    const line = doc.lines[li]!;
    const text = line.text;
    const found: Array<{ y: number; m: number; d: number; ambiguous: boolean; start: number; end: number }> = [];
    let m: RegExpExecArray | null;
    NUMERIC.lastIndex = 0;
    while ((m = NUMERIC.exec(text))) {
      const r = readNumericDate(Number(m[1]), Number(m[3]), Number(m[4]), m[1]!.length, m[4]!.length, locale.dayFirst);
      if (r) found.push({ ...r, start: m.index, end: m.index + m[0].length });
    }
    DAY_MONTH_NAME.lastIndex = 0;
    while ((m = DAY_MONTH_NAME.exec(text))) {
      const month = MONTHS[m[2]!.toLowerCase()];
      const y = year4(Number(m[3]));
      if (month && validDate(y, month, Number(m[1]))) found.push({ y, m: month, d: Number(m[1]), ambiguous: false, start: m.index, end: m.index + m[0].length });
    }
    MONTH_NAME_DAY.lastIndex = 0;
    while ((m = MONTH_NAME_DAY.exec(text))) {
      const month = MONTHS[m[1]!.toLowerCase()];
      const y = year4(Number(m[3]));
      if (month && validDate(y, month, Number(m[2]))) found.push({ y, m: month, d: Number(m[2]), ambiguous: false, start: m.index, end: m.index + m[0].length });
    }
    if (!found.length) {
      COMPACT.lastIndex = 0;
      while ((m = COMPACT.exec(text))) {
        const s = m[1]!;
        const ymd = { y: +s.slice(0, 4), m: +s.slice(4, 6), d: +s.slice(6, 8) };
        const dmy = { y: +s.slice(4, 8), m: +s.slice(2, 4), d: +s.slice(0, 2) };
        const okY = (x: { y: number; m: number; d: number }) => x.y >= 2000 && x.y <= maxYear && validDate(x.y, x.m, x.d);
        const r = okY(ymd) && !okY(dmy) ? ymd : okY(dmy) && !okY(ymd) ? dmy : undefined;
        if (r) found.push({ ...r, ambiguous: false, start: m.index, end: m.index + 8 });
      }
    }
    if (!found.length) continue;
    const up = fold(text);
    const prev = li > 0 ? fold(doc.lines[li - 1]!.text) : '';
    const kwDue = DUE_KW.exec(up);
    const kwTx = TRANSACTION_KW.exec(up) ?? (!kwDue && TRANSACTION_KW.test(prev) && !/\d/.test(prev) ? TRANSACTION_KW.exec(prev) : null);
    const kwOther = OTHER_KW.exec(up);
    for (const f of found) {
      if (f.y < 2000 || f.y > maxYear) continue;
      const kind: DateCandidate['kind'] = kwDue ? 'due' : kwOther && !kwTx ? 'other' : 'transaction';
      const time = timeNear(line, f.end);
      out.push({
        year: f.y, month: f.m, day: f.d, ambiguous: f.ambiguous, line, start: f.start, end: f.end,
        ...(time ? { time } : {}),
        keyword: (kwDue?.[0] ?? kwTx?.[0] ?? kwOther?.[0] ?? '-').trim(), kind, score: 0,
      });
    }
  }
  return out;
}

function iso(c: DateCandidate, withTime: boolean): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const t = withTime && c.time ? `${p(c.time.h)}:${p(c.time.m)}:${p(c.time.s)}` : '12:00:00';
  return `${p(c.year, 4)}-${p(c.month)}-${p(c.day)}T${t}.000Z`;
}

export interface DateFields { date?: Located<string>; dueDate?: Located<string> }

/** Chooses the transaction date (and a due date when printed). */
export function findDates(doc: Document, locale: Locale, extractTime: boolean, now: Date): DateFields {
  const cands = dateCandidates(doc, locale, now);
  const out: DateFields = {};
  const key = (c: DateCandidate) => `${c.year}-${c.month}-${c.day}`;
  const counts = new Map<string, number>();
  for (const c of cands) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  const nowMs = now.getTime();
  const n = doc.lines.length || 1;
  for (const c of cands) {
    let s = 1;
    if (c.kind === 'transaction' && c.keyword !== '-') s += 1.5;
    if (c.kind === 'due') s -= 2;
    if (c.kind === 'other') s -= 1.5;
    if (c.time) s += 0.8;
    if (c.ambiguous) s -= 0.3;
    s += 0.4 * Math.min(2, (counts.get(key(c)) ?? 1) - 1);
    const ms = Date.UTC(c.year, c.month - 1, c.day);
    if (ms > nowMs + 86_400_000) s -= 2; // in the future
    if (ms < nowMs - 30 * 365 * 86_400_000) s -= 1;
    s -= 0.2 * (c.line.index / n); // transaction dates are usually printed high up or next to the time
    c.score = s;
  }
  const tx = cands.filter((c) => c.kind !== 'due').sort((a, b) => b.score - a.score);
  const best = tx[0];
  if (best) {
    const distinct = new Set(tx.map(key)).size;
    let conf = 0.6;
    if (best.keyword !== '-' && best.kind === 'transaction') conf += 0.12;
    if (best.time) conf += 0.12;
    if (distinct === 1) conf += 0.15;
    else if ((tx[1] && key(tx[1]) !== key(best) && tx[1].score > best.score - 0.8)) conf -= 0.2;
    if ((counts.get(key(best)) ?? 1) > 1) conf += 0.05;
    if (best.ambiguous) conf -= locale.countryConfidence >= 0.6 ? 0.05 : 0.2;
    if (best.kind === 'other') conf -= 0.25;
    out.date = {
      value: iso(best, extractTime), confidence: Math.max(0.05, Math.min(0.99, conf)), text: best.line.text,
      lineIndex: best.line.index, keyword: best.keyword, boxes: boxesForSpan(best.line, best.start, best.end), page: best.line.page,
    };
  }
  const due = cands.filter((c) => c.kind === 'due').sort((a, b) => b.score - a.score)[0];
  if (due) {
    out.dueDate = {
      value: iso(due, false), confidence: due.ambiguous ? 0.55 : 0.75, text: due.line.text, lineIndex: due.line.index,
      keyword: due.keyword, boxes: boxesForSpan(due.line, due.start, due.end), page: due.line.page,
    };
  }
  return out;
}
