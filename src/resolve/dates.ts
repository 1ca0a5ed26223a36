/**
 * Chooses the transaction date (and the due date) among the date candidates. Like the total, a date
 * is a value: several printings of the same day support each other. Confidence comes from the
 * keyword, a printed time, the form (month name or four-digit year vs an ambiguous day/month order),
 * agreement of the printings, rivals, plausibility against "now" and the OCR confidence of the digits.
 */
import type { DateCandidate } from '../fields/dates.js';
import type { Locale } from '../locale/index.js';
import { plausibleWindow } from '../locale/dates.js';
import { confidenceFrom } from './confidence.js';
import type { EvidenceTerm } from './confidence.js';

export interface ChosenDate {
  candidate: DateCandidate;
  confidence: number;
  evidence: string[];
}

/** Highest confidence of a date read in an order (day/month or month/day) that the evidence did not settle. */
export const AMBIGUOUS_ORDER_MAX_CONFIDENCE = 0.85;
/** Evidence term of a date whose day/month order nothing settled. */
export const ORDER_UNSETTLED = 'order-unsettled';

const keyOf = (c: DateCandidate) => `${c.date.y}-${c.date.m}-${c.date.d}`;
const msOf = (c: DateCandidate) => Date.UTC(c.date.y, c.date.m - 1, c.date.d);

/** Chooses the transaction date and the due date. */
export function resolveDates(cands: DateCandidate[], locale: Locale, now: Date, lineCount: number): { date?: ChosenDate; dueDate?: ChosenDate } {
  const window = plausibleWindow(now);
  const n = Math.max(1, lineCount);
  const groups = new Map<string, DateCandidate[]>();
  for (const c of cands) {
    const k = keyOf(c);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const scoreOf = (c: DateCandidate): number => {
    let s = 1;
    if (c.kind === 'transaction') s += c.keywordAt === 'above' ? 1.0 : 1.5;
    if (c.kind === 'order') s += 0.8;
    if (c.kind === 'due') s -= 3;
    if (c.kind === 'other') s -= 2;
    if (c.time) s += 0.8;
    if (c.weekday === 'match') s += 0.8;
    if (c.weekday === 'mismatch') s -= 1;
    if (c.date.ambiguous) s -= 0.2;
    const ms = msOf(c);
    if (ms > window.maxMs) s -= 4;
    else if (ms < window.minMs) s -= 1;
    s -= 0.3 * (c.line.index / n);
    if (c.ocrConfidence < 0.5) s -= 0.4;
    if (c.guess !== undefined) s -= c.guess === 0 ? 0.3 : 1.0 + 0.3 * c.guess;
    if (c.date.unpadded) s -= 0.3;
    return s;
  };
  const scored = cands.map((c) => ({ c, s: scoreOf(c) }));
  // value-level score: the best printing plus a bonus for agreeing printings
  const valueScore = new Map<string, number>();
  for (const [k, list] of groups) {
    const best = Math.max(...list.map((c) => scored.find((x) => x.c === c)!.s));
    const lines = new Set(list.filter((c) => c.kind !== 'due' && c.kind !== 'other').map((c) => c.line.index)).size;
    valueScore.set(k, best + 0.5 * Math.min(2, Math.max(0, lines - 1)));
  }
  const tx = scored.filter((x) => x.c.kind !== 'due').sort((a, b) => (valueScore.get(keyOf(b.c))! - valueScore.get(keyOf(a.c))!) || (b.s - a.s));
  const out: { date?: ChosenDate; dueDate?: ChosenDate } = {};
  const top = tx[0];
  if (top) {
    const c = top.c;
    const k = keyOf(c);
    const same = groups.get(k)!;
    // other guesses made from the same printed date are not rival printings (their doubt is in the guess term)
    const sibling = (x: DateCandidate) => x.guess !== undefined && c.guess !== undefined && x.line === c.line && x.date.start === c.date.start;
    const rival = tx.find((x) => keyOf(x.c) !== k && x.c.kind !== 'other' && !sibling(x.c));
    const terms: EvidenceTerm[] = [];
    if (c.kind === 'transaction') terms.push({ name: `keyword:${c.keyword}`, weight: c.keywordAt === 'above' ? 0.1 : 0.2 });
    else if (c.kind === 'order') terms.push({ name: 'order-date', weight: 0.2 });
    else if (c.kind === 'other') terms.push({ name: `other-date:${c.keyword}`, weight: -1.5 });
    if (c.time) terms.push({ name: 'time', weight: 0.2 });
    if (c.weekday === 'match') terms.push({ name: 'weekday-agrees', weight: 1.0 });
    if (c.weekday === 'mismatch') terms.push({ name: 'weekday-disagrees', weight: -1.5 });
    if (c.date.form === 'month-name') terms.push({ name: 'month-name', weight: 1.5 });
    else if (c.date.form === 'iso') terms.push({ name: 'iso', weight: 0.4 });
    else if (c.date.ambiguous) {
      const settled = locale.countryConfidence >= 0.8 || locale.dayFirstSource === 'document';
      terms.push({ name: settled ? 'order-by-locale' : 'order-guessed', weight: settled ? 0 : -1.0 });
    }
    if (c.date.shortYear) terms.push({ name: 'short-year', weight: -0.2 });
    const printings = new Set(same.map((x) => x.line.index)).size;
    if (printings >= 2) terms.push({ name: `repeated:${printings}`, weight: 0.8 });
    const distinct = new Set(tx.filter((x) => x.c.kind !== 'other' && (x.c === c || !sibling(x.c))).map((x) => keyOf(x.c))).size;
    if (distinct === 1) terms.push({ name: 'only-date', weight: 0.6 });
    else terms.push({ name: `other-dates:${distinct - 1}`, weight: -0.4 });
    if (rival) {
      const margin = valueScore.get(k)! - valueScore.get(keyOf(rival.c))!;
      if (margin < 0.7) terms.push({ name: 'close-rival', weight: -1.5 });
      else if (margin < 1.5) terms.push({ name: 'rival', weight: -0.6 });
    }
    // a digit guess is made because the digits were misread: their low OCR confidence is no further doubt
    if (!same.every((x) => (x.guess ?? 0) > 0)) {
      const ocr = Math.max(...same.map((x) => x.ocrConfidence));
      if (ocr >= 0.9) terms.push({ name: 'ocr-high', weight: 1.0 });
      else if (ocr < 0.5) terms.push({ name: 'ocr-low', weight: -1.5 });
      else if (ocr < 0.75) terms.push({ name: 'ocr-mid', weight: -1.0 });
    }
    if (same.every((x) => x.repaired)) terms.push({ name: 'ocr-repaired', weight: -0.6 });
    if (same.every((x) => x.guess !== undefined)) {
      const guess = Math.min(...same.map((x) => x.guess!));
      terms.push(guess === 0 ? { name: 'separator-restored', weight: -0.5 } : { name: `digit-guess:${guess}`, weight: -1.2 });
    }
    if (same.every((x) => x.date.unpadded)) terms.push({ name: 'unpadded-day', weight: -0.8 });
    const ms = msOf(c);
    if (ms > window.maxMs) terms.push({ name: 'future', weight: -3 });
    else if (ms < window.minMs) terms.push({ name: 'old', weight: -1.5 });
    let confidence = confidenceFrom(0.9, terms);
    // a day/month order nothing settles (no country, no unambiguous date, no month name) is never a 0.9
    const unsettled = terms.some((t) => t.name === 'order-guessed') && !same.some((x) => !x.date.ambiguous);
    if (unsettled) confidence = Math.min(confidence, AMBIGUOUS_ORDER_MAX_CONFIDENCE);
    // ORDER_UNSETTLED marks the value for the readings combined later (read/combine.ts keeps the cap)
    out.date = { candidate: c, confidence, evidence: [...terms.map((t) => `${t.name}(${t.weight})`), ...(unsettled ? [ORDER_UNSETTLED] : [])] };
  }
  const due = scored.filter((x) => x.c.kind === 'due').sort((a, b) => b.s - a.s)[0];
  if (due) {
    const terms: EvidenceTerm[] = [{ name: `keyword:${due.c.keyword}`, weight: 1.2 }];
    if (due.c.date.ambiguous) terms.push({ name: 'ambiguous', weight: -0.6 });
    if (out.date && msOf(due.c) < msOf(out.date.candidate)) terms.push({ name: 'before-date', weight: -1.5 });
    out.dueDate = { candidate: due.c, confidence: confidenceFrom(0.3, terms), evidence: terms.map((t) => t.name) };
  }
  return out;
}
