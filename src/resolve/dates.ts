/**
 * Chooses the transaction date (and the due date) among the date candidates. Like the total, a date
 * is a value: several printings of the same day support each other. Confidence comes from the
 * keyword, a printed time, the form (month name or four-digit year vs an ambiguous day/month order),
 * agreement of the printings, rivals, plausibility against "now" and the OCR confidence of the digits.
 *
 * The work is done by ordered lists of small named rules (as chrono-node lists its parsers and
 * refiners), run by `resolveDates`:
 *   SCORE_RULES          a candidate's score (summed in list order from 1), which ranks the candidates;
 *   DATE_EVIDENCE_RULES  the confidence terms of the chosen date, in list order;
 *   DATE_CAP_RULES       caps on that confidence, each with the marker it leaves in the evidence;
 *   DUE_EVIDENCE_RULES   the confidence terms of the due date.
 * The order of each list is the order of the terms in the evidence (and of the additions in the
 * score): changing it changes the outputs.
 *
 * The evidence of a chosen value ends with `rule:<name>`, the rule that decided it: the evidence rule
 * that gave the largest positive term (the earlier rule on a tie), or `rule:score` when no term was
 * positive (the value won on its score alone).
 */
import type { DateCandidate } from '../fields/dates.js';
import type { DateMarks } from '../fields/types.js';
import type { Locale } from '../locale/index.js';
import { plausibleWindow } from '../locale/dates.js';
import type { DateWindow } from '../locale/dates.js';
import { confidenceFrom } from '../fields/confidence.js';
import type { EvidenceTerm } from '../fields/confidence.js';
import { modelScore } from './field-model.js';
import type { RankModel } from './field-model.js';
import { tapCandidates } from './model.js';

export interface ChosenDate {
  candidate: DateCandidate;
  confidence: number;
  evidence: string[];
  /** What later stages decide by (the transaction date only). */
  marks?: DateMarks;
}

/** Highest confidence of a date read in an order (day/month or month/day) that the evidence did not settle. */
export const AMBIGUOUS_ORDER_MAX_CONFIDENCE = 0.85;
/** Evidence term of a date whose day/month order nothing settled. */
export const ORDER_UNSETTLED = 'order-unsettled';
/** Prefix of the evidence entry naming the rule that decided a value. */
export const RULE_PREFIX = 'rule:';
/** The decider named when no evidence term was positive: the value won on its score alone. */
export const SCORE_DECIDED = 'score';

const keyOf = (c: DateCandidate) => `${c.date.y}-${c.date.m}-${c.date.d}`;
const msOf = (c: DateCandidate) => Date.UTC(c.date.y, c.date.m - 1, c.date.d);

/** A named rule of one of the lists. */
export interface DateRule<C, R> {
  name: string;
  apply: (ctx: C) => R;
}

// ---------------------------------------------------------------------------------------------
// Score rules: each returns what it adds to a candidate's score (0 when it does not apply).

/** What a score rule sees: one candidate, the plausible window, the document's line count (>= 1). */
export interface ScoreContext {
  c: DateCandidate;
  window: DateWindow;
  lineCount: number;
}

/** A transaction keyword: +1.5 beside the date, +1.0 on the line above. */
function transactionKeywordScore({ c }: ScoreContext): number { return c.kind === 'transaction' ? (c.keywordAt === 'above' ? 1.0 : 1.5) : 0; }
/** An order-date keyword: +0.8. */
function orderKeywordScore({ c }: ScoreContext): number { return c.kind === 'order' ? 0.8 : 0; }
/** A due-date keyword: -3 (a due date is not the transaction date). */
function dueKeywordScore({ c }: ScoreContext): number { return c.kind === 'due' ? -3 : 0; }
/** Another kind of date (expiry, print, delivery, period...): -2. */
function otherKeywordScore({ c }: ScoreContext): number { return c.kind === 'other' ? -2 : 0; }
/** A time printed beside the date: +0.8. */
function timeScore({ c }: ScoreContext): number { return c.time ? 0.8 : 0; }
/** A weekday printed beside the date: +0.8 when it is the date's, -1 when not. */
function weekdayScore({ c }: ScoreContext): number { return c.weekday === 'match' ? 0.8 : c.weekday === 'mismatch' ? -1 : 0; }
/** A day/month order the digits do not settle: -0.2. */
function ambiguousScore({ c }: ScoreContext): number { return c.date.ambiguous ? -0.2 : 0; }
/** Outside the plausible window: -4 in the future, -1 too old. */
function windowScore({ c, window }: ScoreContext): number { const ms = msOf(c); return ms > window.maxMs ? -4 : ms < window.minMs ? -1 : 0; }
/** Lower on the page: up to -0.3 at the last line. */
function positionScore({ c, lineCount }: ScoreContext): number { return -(0.3 * (c.line.index / lineCount)); }
/** Digits read with OCR confidence below 0.5: -0.4. */
function ocrScore({ c }: ScoreContext): number { return c.ocrConfidence < 0.5 ? -0.4 : 0; }
/** Not printed as read: -0.3 for a restored separator, -(1 + 0.3 rank) for an undone digit confusion. */
function guessScore({ c }: ScoreContext): number { return c.guess === undefined ? 0 : -(c.guess === 0 ? 0.3 : 1.0 + 0.3 * c.guess); }
/** A one-digit day before a padded month ("6.06.22", often a digit lost at the edge): -0.3. */
function unpaddedScore({ c }: ScoreContext): number { return c.date.unpadded ? -0.3 : 0; }

/** The score rules, summed in this order from 1. */
export const SCORE_RULES: readonly DateRule<ScoreContext, number>[] = [
  { name: 'transaction-keyword', apply: transactionKeywordScore },
  { name: 'order-keyword', apply: orderKeywordScore },
  { name: 'due-keyword', apply: dueKeywordScore },
  { name: 'other-keyword', apply: otherKeywordScore },
  { name: 'time', apply: timeScore },
  { name: 'weekday', apply: weekdayScore },
  { name: 'ambiguous', apply: ambiguousScore },
  { name: 'window', apply: windowScore },
  { name: 'position', apply: positionScore },
  { name: 'ocr', apply: ocrScore },
  { name: 'guess', apply: guessScore },
  { name: 'unpadded', apply: unpaddedScore },
];

/** A candidate's score: 1 plus what every score rule adds, in list order. */
export function scoreCandidate(c: DateCandidate, window: DateWindow, lineCount: number, rules: readonly DateRule<ScoreContext, number>[] = SCORE_RULES): number {
  const ctx: ScoreContext = { c, window, lineCount };
  let s = 1;
  for (const r of rules) s += r.apply(ctx);
  return s;
}

/**
 * A candidate's features for the fitted ranking (issue 34): each score rule's points under `<rule>+` or
 * `<rule>-` by their sign, as their size, so the hand-set score is 1 plus the features weighed +1 and -1.
 */
export function dateFeatures(c: DateCandidate, window: DateWindow, lineCount: number, rules: readonly DateRule<ScoreContext, number>[] = SCORE_RULES): Record<string, number> {
  const ctx: ScoreContext = { c, window, lineCount };
  const f: Record<string, number> = {};
  for (const r of rules) {
    const p = r.apply(ctx);
    if (p) f[`${r.name}${p > 0 ? '+' : '-'}`] = Math.abs(p);
  }
  return f;
}

// ---------------------------------------------------------------------------------------------
// Evidence rules of the chosen date: each returns its terms (none when it does not apply).

export interface Scored { c: DateCandidate; s: number }

/** What an evidence rule of the transaction date sees. */
export interface DateEvidenceContext {
  /** The chosen printing. */
  c: DateCandidate;
  /** Every printing of the chosen value (of any kind). */
  same: DateCandidate[];
  /** The candidates that are not due dates, best first. */
  ranked: Scored[];
  /** The best candidate of another value that is no other-kind date nor a sibling guess. */
  rival?: Scored;
  /** The value-level score of a candidate's value. */
  valueScore: (c: DateCandidate) => number;
  /** Another guess made from the same printed date as the chosen one (not a rival printing). */
  sibling: (x: DateCandidate) => boolean;
  locale: Locale;
  window: DateWindow;
}

/** The transaction keyword: +0.2 beside the date, +0.1 on the line above. */
function keywordTerms({ c }: DateEvidenceContext): EvidenceTerm[] {
  return c.kind === 'transaction' ? [{ name: `keyword:${c.keyword}`, weight: c.keywordAt === 'above' ? 0.1 : 0.2 }] : [];
}
/** An order-date keyword: +0.2. */
function orderDateTerms({ c }: DateEvidenceContext): EvidenceTerm[] { return c.kind === 'order' ? [{ name: 'order-date', weight: 0.2 }] : []; }
/** Another kind of date chosen for want of a better one: -1.5. */
function otherDateTerms({ c }: DateEvidenceContext): EvidenceTerm[] { return c.kind === 'other' ? [{ name: `other-date:${c.keyword}`, weight: -1.5 }] : []; }
/** A time printed beside the date: +0.2. */
function timeTerms({ c }: DateEvidenceContext): EvidenceTerm[] { return c.time ? [{ name: 'time', weight: 0.2 }] : []; }
/** A clock reading with seconds ("09:66:24"), whose parts are checked by impossibleTime. */
const CLOCK = /(?<![\d.]|\d:)(\d{1,2}):(\d{2}):(\d{2})(?![\d.:])/g;
/**
 * The line shows an hh:mm:ss no clock shows (an hour past 24, minutes or seconds past 59) and none that a
 * clock shows: its digits were misread, and a date beside them may be too ("Thời gian: 09:55:24 -
 * 15/08/2020" read "09:66:24 - 16/08/2020").
 */
function impossibleTime(text: string): boolean {
  const clocks = [...text.matchAll(CLOCK)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as const);
  return clocks.length > 0 && clocks.every(([h, m, sec]) => h > 24 || m > 59 || sec > 59);
}
/** Every printing's line shows an impossible time (its digits, and the date's, misread): -1.0. */
function garbledTimeTerms({ same }: DateEvidenceContext): EvidenceTerm[] {
  return same.length && same.every((x) => impossibleTime(x.line.text)) ? [{ name: 'garbled-time', weight: -1.0 }] : [];
}
/** The weekday printed beside the date: +1.0 when it is the date's, -1.5 when not. */
function weekdayTerms({ c }: DateEvidenceContext): EvidenceTerm[] {
  if (c.weekday === 'match') return [{ name: 'weekday-agrees', weight: 1.0 }];
  return c.weekday === 'mismatch' ? [{ name: 'weekday-disagrees', weight: -1.5 }] : [];
}
/** A month printed by name: +1.5. */
function monthNameTerms({ c }: DateEvidenceContext): EvidenceTerm[] { return c.date.form === 'month-name' ? [{ name: 'month-name', weight: 1.5 }] : []; }
/** A year-first (yyyy-mm-dd) date: +0.4. */
function isoTerms({ c }: DateEvidenceContext): EvidenceTerm[] { return c.date.form === 'iso' ? [{ name: 'iso', weight: 0.4 }] : []; }
/** A numeric day/month order both readings allow: 0 when the country or the document settles it, else -1.0. */
function orderTerms({ c, locale }: DateEvidenceContext): EvidenceTerm[] {
  if (!orderOpen(c)) return [];
  const settled = orderSettled(locale);
  return [{ name: settled ? 'order-by-locale' : 'order-guessed', weight: settled ? 0 : -1.0 }];
}
/** The printed date is numeric and both day/month orders read it. */
const orderOpen = (c: DateCandidate) => c.date.form !== 'month-name' && c.date.form !== 'iso' && !!c.date.ambiguous;
/** The country (sure) or the document's other dates settle the day/month order. */
const orderSettled = (locale: Locale) => locale.countryConfidence >= 0.8 || locale.dayFirstSource === 'document';
/** A two-digit year: -0.2. */
function shortYearTerms({ c }: DateEvidenceContext): EvidenceTerm[] { return c.date.shortYear ? [{ name: 'short-year', weight: -0.2 }] : []; }
/** The value printed on two lines or more: +0.8. */
function repeatedTerms({ same }: DateEvidenceContext): EvidenceTerm[] {
  const printings = new Set(same.map((x) => x.line.index)).size;
  return printings >= 2 ? [{ name: `repeated:${printings}`, weight: 0.8 }] : [];
}
/** The only date value of the document: +0.6; else -0.4 for the other values. */
function distinctDatesTerms({ c, ranked, sibling }: DateEvidenceContext): EvidenceTerm[] {
  const distinct = new Set(ranked.filter((x) => x.c.kind !== 'other' && (x.c === c || !sibling(x.c))).map((x) => keyOf(x.c))).size;
  return distinct === 1 ? [{ name: 'only-date', weight: 0.6 }] : [{ name: `other-dates:${distinct - 1}`, weight: -0.4 }];
}
/** A rival value scored close: -1.5 within 0.7, -0.6 within 1.5. */
function rivalTerms({ c, rival, valueScore }: DateEvidenceContext): EvidenceTerm[] {
  if (!rival) return [];
  const margin = valueScore(c) - valueScore(rival.c);
  return margin < 0.7 ? [{ name: 'close-rival', weight: -1.5 }] : margin < 1.5 ? [{ name: 'rival', weight: -0.6 }] : [];
}
/** The best OCR confidence of the printings: +1.0 from 0.9, -1.0 below 0.75, -1.5 below 0.5 (not when every printing is a digit guess). */
function ocrTerms({ same }: DateEvidenceContext): EvidenceTerm[] {
  // a digit guess is made because the digits were misread: their low OCR confidence is no further doubt
  if (same.every((x) => (x.guess ?? 0) > 0)) return [];
  const ocr = Math.max(...same.map((x) => x.ocrConfidence));
  return ocr >= 0.9 ? [{ name: 'ocr-high', weight: 1.0 }] : ocr < 0.5 ? [{ name: 'ocr-low', weight: -1.5 }] : ocr < 0.75 ? [{ name: 'ocr-mid', weight: -1.0 }] : [];
}
/** Every printing needed letters read as digits: -0.6. */
function repairedTerms({ same }: DateEvidenceContext): EvidenceTerm[] { return same.every((x) => x.repaired) ? [{ name: 'ocr-repaired', weight: -0.6 }] : []; }
/** Every printing is a guess: -0.5 for a restored separator, -1.2 for an undone digit confusion. */
function guessTerms({ same }: DateEvidenceContext): EvidenceTerm[] {
  const guess = guessOf(same);
  if (guess === undefined) return [];
  return [guess === 0 ? { name: 'separator-restored', weight: -0.5 } : { name: `digit-guess:${guess}`, weight: -1.2 }];
}
/** The fewest digits guessed in any printing of the date when every printing is a guess (0: only a separator restored), else undefined. */
const guessOf = (same: readonly DateCandidate[]) => (same.every((x) => x.guess !== undefined) ? Math.min(...same.map((x) => x.guess!)) : undefined);
/** Every printing has a one-digit day before a padded month: -0.8. */
function unpaddedTerms({ same }: DateEvidenceContext): EvidenceTerm[] { return same.every((x) => x.date.unpadded) ? [{ name: 'unpadded-day', weight: -0.8 }] : []; }
/** Outside the plausible window: -3 in the future, -1.5 too old. */
function windowTerms({ c, window }: DateEvidenceContext): EvidenceTerm[] {
  const ms = msOf(c);
  return ms > window.maxMs ? [{ name: 'future', weight: -3 }] : ms < window.minMs ? [{ name: 'old', weight: -1.5 }] : [];
}

/** The evidence rules of the transaction date, whose terms are listed (and summed) in this order. */
export const DATE_EVIDENCE_RULES: readonly DateRule<DateEvidenceContext, EvidenceTerm[]>[] = [
  { name: 'keyword', apply: keywordTerms },
  { name: 'order-date', apply: orderDateTerms },
  { name: 'other-date', apply: otherDateTerms },
  { name: 'time', apply: timeTerms },
  { name: 'garbled-time', apply: garbledTimeTerms },
  { name: 'weekday', apply: weekdayTerms },
  { name: 'month-name', apply: monthNameTerms },
  { name: 'iso', apply: isoTerms },
  { name: 'day-month-order', apply: orderTerms },
  { name: 'short-year', apply: shortYearTerms },
  { name: 'repeated', apply: repeatedTerms },
  { name: 'distinct-dates', apply: distinctDatesTerms },
  { name: 'rival', apply: rivalTerms },
  { name: 'ocr-confidence', apply: ocrTerms },
  { name: 'ocr-repaired', apply: repairedTerms },
  { name: 'guess', apply: guessTerms },
  { name: 'unpadded-day', apply: unpaddedTerms },
  { name: 'window', apply: windowTerms },
];

// ---------------------------------------------------------------------------------------------
// Cap rules of the chosen date: each returns the highest confidence it allows and the marker it leaves.

/** A cap on the confidence, with the evidence entry that marks it (after the terms). */
export interface DateCap { max: number; marker: string }

/** What a cap rule sees: the evidence context and the terms the evidence rules gave. */
export interface DateCapContext extends DateEvidenceContext { terms: readonly EvidenceTerm[] }

/** A day/month order nothing settles (no country, no unambiguous printing, no month name) is never a 0.9. */
function unsettledOrderCap({ c, same, locale }: DateCapContext): DateCap | undefined {
  // ORDER_UNSETTLED marks the evidence; the chosen date's marks carry it (orderUnsettled) to the readings combined later (read/combine.ts capUnsettledOrder)
  return orderOpen(c) && !orderSettled(locale) && !same.some((x) => !x.date.ambiguous) ? { max: AMBIGUOUS_ORDER_MAX_CONFIDENCE, marker: ORDER_UNSETTLED } : undefined;
}

/** The cap rules of the transaction date, in this order. */
export const DATE_CAP_RULES: readonly DateRule<DateCapContext, DateCap | undefined>[] = [
  { name: 'unsettled-order', apply: unsettledOrderCap },
];

// ---------------------------------------------------------------------------------------------
// Evidence rules of the due date.

/** What an evidence rule of the due date sees: the chosen due date and the chosen transaction date. */
export interface DueEvidenceContext { c: DateCandidate; date?: DateCandidate }

/** The due-date keyword: +1.2. */
function dueKeywordTerms({ c }: DueEvidenceContext): EvidenceTerm[] { return [{ name: `keyword:${c.keyword}`, weight: 1.2 }]; }
/** A day/month order the digits do not settle: -0.6. */
function dueAmbiguousTerms({ c }: DueEvidenceContext): EvidenceTerm[] { return c.date.ambiguous ? [{ name: 'ambiguous', weight: -0.6 }] : []; }
/** Due before the transaction date: -1.5. */
function beforeDateTerms({ c, date }: DueEvidenceContext): EvidenceTerm[] { return date && msOf(c) < msOf(date) ? [{ name: 'before-date', weight: -1.5 }] : []; }

/** The evidence rules of the due date, in this order. */
export const DUE_EVIDENCE_RULES: readonly DateRule<DueEvidenceContext, EvidenceTerm[]>[] = [
  { name: 'due-keyword', apply: dueKeywordTerms },
  { name: 'due-ambiguous', apply: dueAmbiguousTerms },
  { name: 'before-date', apply: beforeDateTerms },
];

// ---------------------------------------------------------------------------------------------
// Running the lists.

/** A term with the rule that gave it. */
export interface RuledTerm { rule: string; term: EvidenceTerm }

/** Every rule's terms, in list order, each with its rule's name. */
export function runEvidenceRules<C>(rules: readonly DateRule<C, EvidenceTerm[]>[], ctx: C): RuledTerm[] {
  return rules.flatMap((r) => r.apply(ctx).map((term) => ({ rule: r.name, term })));
}

/** The rule that decided: the one with the largest positive term (the earlier on a tie), else SCORE_DECIDED. */
export function decidingRule(terms: readonly RuledTerm[]): string {
  let best: RuledTerm | undefined;
  for (const t of terms) if (t.term.weight > 0 && (!best || t.term.weight > best.term.weight)) best = t;
  return best?.rule ?? SCORE_DECIDED;
}

/** Ranks the candidates that are not due dates: by their value's score, then by their own. */
function rankDates(scored: Scored[], valueScore: (c: DateCandidate) => number): Scored[] {
  return scored.filter((x) => x.c.kind !== 'due').sort((a, b) => (valueScore(b.c) - valueScore(a.c)) || (b.s - a.s));
}

/** What a value's further printings add: 0.5 for each further line printing it (up to 2), its feature `more-lines+`. */
function moreLines(list: readonly DateCandidate[]): number {
  const lines = new Set(list.filter((c) => c.kind !== 'due' && c.kind !== 'other').map((c) => c.line.index)).size;
  return 0.5 * Math.min(2, Math.max(0, lines - 1));
}

/** Value-level scores: the best printing of a value plus what its further printings add (moreLines). */
function valueScores(groups: Map<string, DateCandidate[]>, scoreOf: Map<DateCandidate, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, list] of groups) out.set(k, Math.max(...list.map((c) => scoreOf.get(c)!)) + moreLines(list));
  return out;
}

/**
 * A value's features: its best printing's (by the hand-set score) with `more-lines+`; the value's
 * hand-set score is 1 plus these weighed +1 and -1 (see dateFeatures).
 */
function valueFeatures(list: readonly DateCandidate[], scoreOf: Map<DateCandidate, number>, window: DateWindow, lineCount: number): Record<string, number> {
  const best = list.reduce((a, b) => (scoreOf.get(b)! > scoreOf.get(a)! ? b : a));
  const more = moreLines(list);
  return { ...dateFeatures(best, window, lineCount), ...(more ? { 'more-lines+': more } : {}) };
}

/** The values' rank scores: hand-set (valueScores), or with a model its weights of their features; tapped for the fit. */
function valueRanks(groups: Map<string, DateCandidate[]>, scoreOf: Map<DateCandidate, number>, window: DateWindow, lineCount: number, model?: RankModel): Map<string, number> {
  const hand = valueScores(groups, scoreOf);
  // (features only when a model ranks or the fit listens)
  const features = (k: string) => valueFeatures(groups.get(k)!, scoreOf, window, lineCount);
  const ranked = [...groups].filter(([, list]) => list.some((c) => c.kind !== 'due'));
  // (the tapped score leaves out the 1 every value starts from, so that it is exactly its features weighed +1 and -1)
  tapCandidates('date', () => ranked.map(([k]) => ({ value: k, features: features(k), score: hand.get(k)! - 1 })));
  return model ? new Map([...groups.keys()].map((k) => [k, modelScore(model, features(k))])) : hand;
}

/** The evidence context of the top-ranked candidate. */
function dateContext(ranked: Scored[], groups: Map<string, DateCandidate[]>, valueScore: (c: DateCandidate) => number, locale: Locale, window: DateWindow): DateEvidenceContext {
  const c = ranked[0]!.c;
  const k = keyOf(c);
  // other guesses made from the same printed date are not rival printings (their doubt is in the guess term)
  const sibling = (x: DateCandidate) => x.guess !== undefined && c.guess !== undefined && x.line === c.line && x.date.start === c.date.start;
  const rival = ranked.find((x) => keyOf(x.c) !== k && x.c.kind !== 'other' && !sibling(x.c));
  return { c, same: groups.get(k)!, ranked, ...(rival ? { rival } : {}), valueScore, sibling, locale, window };
}

/** The chosen transaction date from its context: terms, caps, markers, then the deciding rule. */
function chooseDate(ctx: DateEvidenceContext): ChosenDate {
  const ruled = runEvidenceRules(DATE_EVIDENCE_RULES, ctx);
  const terms = ruled.map((t) => t.term);
  let confidence = confidenceFrom(0.9, terms);
  const markers: string[] = [];
  for (const rule of DATE_CAP_RULES) {
    const cap = rule.apply({ ...ctx, terms });
    if (!cap) continue;
    confidence = Math.min(confidence, cap.max);
    markers.push(cap.marker);
  }
  return { candidate: ctx.c, confidence, evidence: [...terms.map((t) => `${t.name}(${t.weight})`), ...markers, `${RULE_PREFIX}${decidingRule(ruled)}`], marks: dateMarks(ctx, markers) };
}

/** The chosen date's marks: from the candidate and its printings as its terms are (orderTerms, guessTerms), and from the caps that held it (unsettledOrderCap). */
function dateMarks({ c, same }: DateEvidenceContext, markers: readonly string[]): DateMarks {
  return {
    ...(orderOpen(c) ? { orderOpen: true as const } : {}),
    ...(markers.includes(ORDER_UNSETTLED) ? { orderUnsettled: true as const } : {}),
    ...((guessOf(same) ?? 0) > 0 ? { digitGuess: true as const } : {}),
  };
}

/** The chosen due date: the best-scored due candidate with its terms. */
function chooseDueDate(scored: Scored[], date: DateCandidate | undefined): ChosenDate | undefined {
  const due = scored.filter((x) => x.c.kind === 'due').sort((a, b) => b.s - a.s)[0];
  if (!due) return undefined;
  const ruled = runEvidenceRules(DUE_EVIDENCE_RULES, { c: due.c, ...(date ? { date } : {}) });
  const terms = ruled.map((t) => t.term);
  return { candidate: due.c, confidence: confidenceFrom(0.3, terms), evidence: [...terms.map((t) => t.name), `${RULE_PREFIX}${decidingRule(ruled)}`] };
}

/**
 * Chooses the transaction date and the due date. Values rank by their hand-set scores, or with `model`
 * (engine option `ranking: 'fitted'`) by its weights of their features (the rival's margin then in the
 * model's units); a value's printings rank by their hand-set scores either way.
 */
export function resolveDates(cands: DateCandidate[], locale: Locale, now: Date, lineCount: number, model?: RankModel): { date?: ChosenDate; dueDate?: ChosenDate } {
  const window = plausibleWindow(now);
  const n = Math.max(1, lineCount);
  const groups = new Map<string, DateCandidate[]>();
  for (const c of cands) groups.set(keyOf(c), [...(groups.get(keyOf(c)) ?? []), c]);
  const scored = cands.map((c) => ({ c, s: scoreCandidate(c, window, n) }));
  const scoreOf = new Map<DateCandidate, number>();
  for (const x of scored) if (!scoreOf.has(x.c)) scoreOf.set(x.c, x.s);
  const values = valueRanks(groups, scoreOf, window, n, model);
  const valueScore = (c: DateCandidate) => values.get(keyOf(c))!;
  const ranked = rankDates(scored, valueScore);
  const out: { date?: ChosenDate; dueDate?: ChosenDate } = {};
  if (ranked.length) out.date = chooseDate(dateContext(ranked, groups, valueScore, locale, window));
  const due = chooseDueDate(scored, out.date?.candidate);
  if (due) out.dueDate = due;
  return out;
}
