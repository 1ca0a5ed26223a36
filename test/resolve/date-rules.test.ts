import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DateCandidate } from '../../src/fields/dates.js';
import type { Line } from '../../src/document/types.js';
import type { ParsedDate } from '../../src/locale/dates.js';
import { plausibleWindow } from '../../src/locale/dates.js';
import { inferLocale } from '../../src/locale/index.js';
import type { Locale } from '../../src/locale/index.js';
import { documentFromText } from '../../src/document/geometry.js';
import { extractFields } from '../../src/extract/index.js';
import { capUnsettledOrder } from '../../src/read/combine.js';
import { confidenceFrom } from '../../src/fields/confidence.js';
import {
  AMBIGUOUS_ORDER_MAX_CONFIDENCE, DATE_CAP_RULES, DATE_EVIDENCE_RULES, DUE_EVIDENCE_RULES, ORDER_UNSETTLED, RULE_PREFIX,
  SCORE_DECIDED, SCORE_RULES, dateFeatures, decidingRule, resolveDates, scoreCandidate,
} from '../../src/resolve/dates.js';

const NOW = new Date('2024-06-01T00:00:00Z');
const WINDOW = plausibleWindow(NOW);
const BASE_LOCALE = inferLocale(documentFromText('RECEIPT'));
/** A locale whose day/month order is settled (a sure country). */
const SETTLED: Locale = { ...BASE_LOCALE, countryConfidence: 0.9, dayFirstSource: 'country' };
/** A locale that settles nothing. */
const UNSETTLED: Locale = { ...BASE_LOCALE, countryConfidence: 0.2, dayFirstSource: 'default' };

const lines = new Map<number, Line>();
/** One shared Line object per index (siblings compare lines by identity). */
const lineAt = (index: number): Line => {
  if (!lines.has(index)) lines.set(index, { index, page: 0, text: `line ${index}`, words: [], box: { x0: 0, y0: index * 30, x1: 100, y1: index * 30 + 20 }, confidence: 0.95 });
  return lines.get(index)!;
};

type CandOpts = Partial<Omit<DateCandidate, 'date' | 'line'>> & { date?: Partial<ParsedDate>; at?: number };
/** A hand-made candidate of y-m-d (a plain, unlabelled, well-read numeric date on line `at`, 0 by default). */
function cand(ymd: string, opts: CandOpts = {}): DateCandidate {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const { date, at, ...rest } = opts;
  return {
    date: { y, m, d, ambiguous: false, form: 'numeric', shortYear: false, start: 0, end: 10, ...date },
    line: lineAt(at ?? 0), kind: 'none', keyword: '-', ocrConfidence: 0.95, repaired: false, ...rest,
  };
}
const resolve = (cands: DateCandidate[], locale: Locale = SETTLED, lineCount = 10) => resolveDates(cands, locale, NOW, lineCount);
const chosen = (cands: DateCandidate[], locale?: Locale) => resolve(cands, locale).date?.candidate;
const evidenceOf = (cands: DateCandidate[], locale?: Locale) => resolve(cands, locale).date?.evidence ?? [];
const score = (c: DateCandidate) => scoreCandidate(c, WINDOW, 10);
const applyScore = (name: string, c: DateCandidate) => SCORE_RULES.find((r) => r.name === name)!.apply({ c, window: WINDOW, lineCount: 10 });

describe('the rule lists', () => {
  it('name every rule once per list, in the order of the evidence', () => {
    for (const list of [SCORE_RULES, DATE_EVIDENCE_RULES, DATE_CAP_RULES, DUE_EVIDENCE_RULES]) {
      const names = list.map((r) => r.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names).not.toContain(SCORE_DECIDED);
    }
    expect(SCORE_RULES.map((r) => r.name)).toEqual(['transaction-keyword', 'order-keyword', 'due-keyword', 'other-keyword', 'time', 'weekday', 'ambiguous', 'window', 'position', 'ocr', 'guess', 'unpadded']);
    expect(DATE_EVIDENCE_RULES.map((r) => r.name)).toEqual(['keyword', 'order-date', 'other-date', 'time', 'garbled-time', 'weekday', 'month-name', 'iso', 'day-month-order', 'short-year', 'repeated', 'distinct-dates', 'rival', 'ocr-confidence', 'ocr-repaired', 'guess', 'unpadded-day', 'window']);
    expect(DATE_CAP_RULES.map((r) => r.name)).toEqual(['unsettled-order']);
    expect(DUE_EVIDENCE_RULES.map((r) => r.name)).toEqual(['due-keyword', 'due-ambiguous', 'before-date']);
  });

  it('give every rule function a one-line doc comment of its own', () => {
    const src = fs.readFileSync(new URL('../../src/resolve/dates.ts', import.meta.url), 'utf8');
    for (const r of [...SCORE_RULES, ...DATE_EVIDENCE_RULES, ...DATE_CAP_RULES, ...DUE_EVIDENCE_RULES]) {
      const fn = r.apply.name;
      expect(fn, r.name).toMatch(/^\w+$/);
      expect(src, `${r.name}: ${fn}`).toMatch(new RegExp(String.raw`\n/\*\* [^\n]*\*/\nfunction ${fn}\(`));
    }
  });
});

describe('score rules', () => {
  it('start from 1 and add every rule in order', () => {
    const c = cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', time: { h: 10, m: 0 }, at: 5 });
    expect(score(c)).toBe(1 + 1.5 + 0.8 - 0.3 * (5 / 10));
    expect(score(cand('2024-05-01'))).toBe(1);
  });

  it('transaction-keyword: a keyword beside the date beats one above, and both beat none', () => {
    expect(applyScore('transaction-keyword', cand('2024-05-01', { kind: 'transaction', keyword: 'DATE' }))).toBe(1.5);
    expect(applyScore('transaction-keyword', cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', keywordAt: 'above' }))).toBe(1.0);
    const plain = cand('2024-05-01', { at: 0 }), labelled = cand('2024-05-02', { kind: 'transaction', keyword: 'DATE', at: 5 });
    expect(chosen([plain, labelled])).toBe(labelled);
    const above = cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', keywordAt: 'above', at: 0 }), beside = cand('2024-05-02', { kind: 'transaction', keyword: 'DATE', at: 1 });
    expect(chosen([above, beside])).toBe(beside);
  });

  it('order-keyword: an order date beats a plain date printed above it', () => {
    const plain = cand('2024-05-01', { at: 0 }), order = cand('2024-05-02', { kind: 'order', keyword: 'ORDER DATE', at: 5 });
    expect(applyScore('order-keyword', order)).toBe(0.8);
    expect(chosen([plain, order])).toBe(order);
  });

  it('due-keyword: a due printing does not lift its value\'s score', () => {
    // 05-01 printed as a due date (with time and weekday) on line 0 and plain on line 9; 05-02 plain on line 1
    const due = cand('2024-05-01', { kind: 'due', keyword: 'DUE', time: { h: 9, m: 0 }, weekday: 'match', at: 0 });
    const late = cand('2024-05-01', { at: 9 }), other = cand('2024-05-02', { at: 1 });
    expect(applyScore('due-keyword', due)).toBe(-3);
    expect(chosen([due, late, other])).toBe(other);
  });

  it('other-keyword: an expiry date gives way to a plain date', () => {
    const exp = cand('2024-05-01', { kind: 'other', keyword: 'EXP', at: 0 }), plain = cand('2024-05-02', { at: 5 });
    expect(applyScore('other-keyword', exp)).toBe(-2);
    expect(chosen([exp, plain])).toBe(plain);
  });

  it('time: a date with a time beats a plain one above it', () => {
    const plain = cand('2024-05-01', { at: 0 }), timed = cand('2024-05-02', { time: { h: 12, m: 30 }, at: 5 });
    expect(applyScore('time', timed)).toBe(0.8);
    expect(chosen([plain, timed])).toBe(timed);
  });

  it('weekday: an agreeing weekday lifts a date, a disagreeing one sinks it', () => {
    const plain = cand('2024-05-01', { at: 0 }), agrees = cand('2024-05-02', { weekday: 'match', at: 5 });
    expect(applyScore('weekday', agrees)).toBe(0.8);
    expect(chosen([plain, agrees])).toBe(agrees);
    const disagrees = cand('2024-05-01', { weekday: 'mismatch', at: 0 }), later = cand('2024-05-02', { at: 5 });
    expect(applyScore('weekday', disagrees)).toBe(-1);
    expect(chosen([disagrees, later])).toBe(later);
  });

  it('ambiguous: an unsettled day/month order gives way to a settled date just below', () => {
    const amb = cand('2024-05-01', { date: { ambiguous: true }, at: 0 }), clear = cand('2024-05-02', { at: 1 });
    expect(applyScore('ambiguous', amb)).toBe(-0.2);
    expect(chosen([amb, clear])).toBe(clear);
  });

  it('window: a future or too old date gives way to a plausible one', () => {
    const future = cand('2024-07-01', { at: 0 }), old = cand('2005-05-01', { at: 0 }), plain = cand('2024-05-02', { at: 5 });
    expect(applyScore('window', future)).toBe(-4);
    expect(applyScore('window', old)).toBe(-1);
    expect(chosen([future, plain])).toBe(plain);
    expect(chosen([old, plain])).toBe(plain);
  });

  it('position: of two equal dates the higher on the page wins', () => {
    const low = cand('2024-05-01', { at: 5 }), high = cand('2024-05-02', { at: 0 });
    expect(applyScore('position', low)).toBeCloseTo(-0.15, 10);
    expect(chosen([low, high])).toBe(high);
  });

  it('ocr: digits read with low confidence give way', () => {
    const blurred = cand('2024-05-01', { ocrConfidence: 0.4, at: 0 }), plain = cand('2024-05-02', { at: 5 });
    expect(applyScore('ocr', blurred)).toBe(-0.4);
    expect(chosen([blurred, plain])).toBe(plain);
  });

  it('guess: a restored separator or an undone digit confusion gives way to a date as printed', () => {
    const restored = cand('2024-05-01', { guess: 0, at: 0 }), digit = cand('2024-05-03', { guess: 1, at: 0 });
    expect(applyScore('guess', restored)).toBe(-0.3);
    expect(applyScore('guess', digit)).toBeCloseTo(-1.3, 10);
    expect(chosen([restored, cand('2024-05-02', { at: 1 })])).toMatchObject({ date: { d: 2 } });
    expect(chosen([digit, cand('2024-05-02', { at: 5 })])).toMatchObject({ date: { d: 2 } });
  });

  it('unpadded: "6.06.22" gives way to a padded date just below', () => {
    const unpadded = cand('2024-05-01', { date: { unpadded: true }, at: 0 }), padded = cand('2024-05-02', { at: 1 });
    expect(applyScore('unpadded', unpadded)).toBe(-0.3);
    expect(chosen([unpadded, padded])).toBe(padded);
  });
});

describe('evidence rules of the date', () => {
  it('keyword: +0.2 beside the date, +0.1 above', () => {
    expect(evidenceOf([cand('2024-05-01', { kind: 'transaction', keyword: 'DATE' })])).toContain('keyword:DATE(0.2)');
    expect(evidenceOf([cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', keywordAt: 'above' })])).toContain('keyword:DATE(0.1)');
  });

  it('order-date: +0.2', () => {
    expect(evidenceOf([cand('2024-05-01', { kind: 'order', keyword: 'ORDER DATE' })])).toContain('order-date(0.2)');
  });

  it('other-date: an expiry date taken for want of another is doubted', () => {
    const r = resolve([cand('2024-05-01', { kind: 'other', keyword: 'EXP' })]).date!;
    expect(r.evidence).toContain('other-date:EXP(-1.5)');
    // other-kind dates are not counted as dates, the chosen one included (as before the rules: "other-dates:-1")
    expect(r.evidence).toEqual(['other-date:EXP(-1.5)', 'other-dates:-1(-0.4)', 'ocr-high(1)', 'rule:ocr-confidence']);
    expect(r.confidence).toBe(confidenceFrom(0.9, [{ name: 'other-date', weight: -1.5 }, { name: 'other-dates', weight: -0.4 }, { name: 'ocr-high', weight: 1.0 }]));
  });

  it('time: +0.2', () => {
    expect(evidenceOf([cand('2024-05-01', { time: { h: 10, m: 0 } })])).toContain('time(0.2)');
  });

  it('garbled-time: -1.0 when the line of every printing shows an hh:mm:ss no clock shows', () => {
    const onLine = (text: string, at: number) => ({ ...cand('2020-08-16', { at }), line: { ...lineAt(at), text } });
    expect(evidenceOf([onLine('Thoi gian:09:66:24 - 16/08/2020', 20)])).toContain('garbled-time(-1)');
    expect(evidenceOf([onLine('Thoi gian:25:10:24 - 16/08/2020', 21)])).toContain('garbled-time(-1)');
    // a possible clock beside it, a clock without seconds, or another printing on a clean line: no term
    expect(evidenceOf([onLine('16/08/2020 09:66:24 09:55:24', 22)])).not.toContain('garbled-time(-1)');
    expect(evidenceOf([onLine('16/08/2020 Ref 10:75', 23)])).not.toContain('garbled-time(-1)');
    expect(evidenceOf([onLine('Thoi gian:09:66:24 - 16/08/2020', 24), onLine('16/08/2020 09:55:24', 25)])).not.toContain('garbled-time(-1)');
  });

  it('weekday: agrees +1.0, disagrees -1.5', () => {
    expect(evidenceOf([cand('2024-05-01', { weekday: 'match' })])).toContain('weekday-agrees(1)');
    expect(evidenceOf([cand('2024-05-01', { weekday: 'mismatch' })])).toContain('weekday-disagrees(-1.5)');
  });

  it('month-name: +1.5, and no order term even when marked ambiguous', () => {
    const ev = evidenceOf([cand('2024-05-01', { date: { form: 'month-name', ambiguous: true } })], UNSETTLED);
    expect(ev).toContain('month-name(1.5)');
    expect(ev.some((e) => e.startsWith('order-'))).toBe(false);
  });

  it('iso: +0.4', () => {
    expect(evidenceOf([cand('2024-05-01', { date: { form: 'iso' } })])).toContain('iso(0.4)');
  });

  it('day-month-order: settled by the country (0) or guessed (-1.0)', () => {
    const amb = () => cand('2024-05-01', { date: { ambiguous: true } });
    expect(evidenceOf([amb()], SETTLED)).toContain('order-by-locale(0)');
    expect(evidenceOf([amb()], { ...UNSETTLED, dayFirstSource: 'document' })).toContain('order-by-locale(0)');
    expect(evidenceOf([amb()], UNSETTLED)).toContain('order-guessed(-1)');
    expect(evidenceOf([cand('2024-05-01')], UNSETTLED).some((e) => e.startsWith('order-'))).toBe(false);
  });

  it('short-year: -0.2', () => {
    expect(evidenceOf([cand('2024-05-01', { date: { shortYear: true } })])).toContain('short-year(-0.2)');
  });

  it('repeated: the value printed on two lines', () => {
    expect(evidenceOf([cand('2024-05-01', { at: 0 }), cand('2024-05-01', { at: 3 })])).toContain('repeated:2(0.8)');
    expect(evidenceOf([cand('2024-05-01', { at: 0 })]).some((e) => e.startsWith('repeated'))).toBe(false);
  });

  it('distinct-dates: the only date, or how many others (other-kind dates not counted)', () => {
    expect(evidenceOf([cand('2024-05-01')])).toContain('only-date(0.6)');
    expect(evidenceOf([cand('2024-05-01', { at: 0 }), cand('2024-03-01', { at: 5, kind: 'other', keyword: 'EXP' })])).toContain('only-date(0.6)');
    expect(evidenceOf([cand('2024-05-01', { at: 0 }), cand('2024-03-01', { at: 5 }), cand('2024-02-01', { at: 6 })])).toContain('other-dates:2(-0.4)');
  });

  it('rival: a close rival -1.5, a farther one -0.6, a far one nothing', () => {
    const top = () => cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', at: 0 });
    expect(evidenceOf([top(), cand('2024-05-02', { kind: 'transaction', keyword: 'DATE', at: 1 })])).toContain('close-rival(-1.5)');
    expect(evidenceOf([top(), cand('2024-05-02', { time: { h: 9, m: 0 }, at: 1 })])).toContain('rival(-0.6)');
    expect(evidenceOf([top(), cand('2024-05-02', { at: 1, weekday: 'mismatch' })]).some((e) => e.includes('rival'))).toBe(false);
  });

  it('ocr-confidence: high, mid and low; no term when every printing is a digit guess', () => {
    expect(evidenceOf([cand('2024-05-01', { ocrConfidence: 0.95 })])).toContain('ocr-high(1)');
    expect(evidenceOf([cand('2024-05-01', { ocrConfidence: 0.6 })])).toContain('ocr-mid(-1)');
    expect(evidenceOf([cand('2024-05-01', { ocrConfidence: 0.4 })])).toContain('ocr-low(-1.5)');
    expect(evidenceOf([cand('2024-05-01', { ocrConfidence: 0.8 })]).some((e) => e.startsWith('ocr-'))).toBe(false);
    expect(evidenceOf([cand('2024-05-01', { ocrConfidence: 0.4, guess: 1 })]).some((e) => e.startsWith('ocr-'))).toBe(false);
  });

  it('ocr-repaired: every printing needed letters read as digits', () => {
    expect(evidenceOf([cand('2024-05-01', { repaired: true })])).toContain('ocr-repaired(-0.6)');
    expect(evidenceOf([cand('2024-05-01', { repaired: true, at: 0 }), cand('2024-05-01', { at: 3 })])).not.toContain('ocr-repaired(-0.6)');
  });

  it('guess: a restored separator -0.5, a digit guess -1.2', () => {
    expect(evidenceOf([cand('2024-05-01', { guess: 0 })])).toContain('separator-restored(-0.5)');
    expect(evidenceOf([cand('2024-05-01', { guess: 2 })])).toContain('digit-guess:2(-1.2)');
  });

  it('unpadded-day: -0.8 when every printing is unpadded', () => {
    expect(evidenceOf([cand('2024-05-01', { date: { unpadded: true } })])).toContain('unpadded-day(-0.8)');
  });

  it('window: future -3, old -1.5', () => {
    expect(evidenceOf([cand('2024-07-01')])).toContain('future(-3)');
    expect(evidenceOf([cand('2005-05-01')])).toContain('old(-1.5)');
  });

  it('sums the terms in list order into the confidence', () => {
    const r = resolve([cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', time: { h: 1, m: 2 }, date: { shortYear: true } })]).date!;
    expect(r.evidence).toEqual(['keyword:DATE(0.2)', 'time(0.2)', 'short-year(-0.2)', 'only-date(0.6)', 'ocr-high(1)', 'rule:ocr-confidence']);
    expect(r.confidence).toBe(confidenceFrom(0.9, [0.2, 0.2, -0.2, 0.6, 1].map((weight) => ({ name: '', weight }))));
  });
});

describe('cap rules of the date', () => {
  const sure = { kind: 'transaction' as const, keyword: 'DATE', time: { h: 10, m: 0 }, weekday: 'match' as const };

  it('unsettled-order: an order nothing settles stays at or below the cap and is marked before the rule entry', () => {
    const r = resolve([cand('2024-05-01', { ...sure, date: { ambiguous: true } })], UNSETTLED).date!;
    expect(r.confidence).toBe(AMBIGUOUS_ORDER_MAX_CONFIDENCE);
    expect(r.evidence.slice(-2)).toEqual([ORDER_UNSETTLED, 'rule:weekday']);
  });

  it('unsettled-order: not when another printing of the value is unambiguous', () => {
    const r = resolve([cand('2024-05-01', { ...sure, date: { ambiguous: true }, at: 0 }), cand('2024-05-01', { at: 3 })], UNSETTLED).date!;
    expect(r.evidence).toContain('order-guessed(-1)');
    expect(r.evidence).not.toContain(ORDER_UNSETTLED);
    expect(r.confidence).toBeGreaterThan(AMBIGUOUS_ORDER_MAX_CONFIDENCE);
    expect(r.marks).toEqual({ orderOpen: true });
  });

  it('the marker still reaches read/combine through extractFields', () => {
    const fields = extractFields(documentFromText('CORNER SHOP\nDATE 12/03/2024 10:00\nTOTAL 5.00'), { extractTime: false, now: NOW });
    expect(fields.evidence?.date).toContain(ORDER_UNSETTLED);
    expect(fields.evidence?.date?.at(-1)).toMatch(/^rule:/);
    expect(fields.date?.marks).toEqual({ orderOpen: true, orderUnsettled: true });
    expect(capUnsettledOrder({ ...fields, date: { ...fields.date!, confidence: 0.95 } }).date?.confidence).toBe(AMBIGUOUS_ORDER_MAX_CONFIDENCE);
    // the cap follows the value's marks, not the evidence strings: a date without them keeps its confidence
    const { marks: _m, ...bare } = fields.date!;
    expect(capUnsettledOrder({ ...fields, date: { ...bare, confidence: 0.95 } }).date?.confidence).toBe(0.95);
  });

  it('a settled or unambiguous date carries no order marks', () => {
    const fields = extractFields(documentFromText('CORNER SHOP\nDATE 2024-03-12 10:00\nTOTAL 5.00'), { extractTime: false, now: NOW });
    expect(fields.date?.value.slice(0, 10)).toBe('2024-03-12');
    expect(fields.date?.marks).toBeUndefined();
  });
});

describe('the deciding rule', () => {
  it('is the rule of the largest positive term, named last in the evidence', () => {
    const ev = evidenceOf([cand('2024-05-01', { kind: 'transaction', keyword: 'DATE', date: { form: 'month-name' } })]);
    expect(ev.at(-1)).toBe('rule:month-name');
    expect(ev.filter((e) => e.startsWith(RULE_PREFIX))).toHaveLength(1);
  });

  it('is the earlier rule on a tie, and "score" when no term is positive', () => {
    const t = (rule: string, weight: number) => ({ rule, term: { name: rule, weight } });
    expect(decidingRule([t('keyword', 0.2), t('time', 0.2)])).toBe('keyword');
    expect(decidingRule([t('keyword', 0.2), t('ocr-confidence', 1)])).toBe('ocr-confidence');
    expect(decidingRule([t('day-month-order', 0), t('distinct-dates', -0.4)])).toBe(SCORE_DECIDED);
    const ev = evidenceOf([cand('2024-05-01', { ocrConfidence: 0.8, at: 0 }), cand('2024-05-02', { ocrConfidence: 0.8, at: 5 })]);
    expect(ev.at(-1)).toBe(`${RULE_PREFIX}${SCORE_DECIDED}`);
  });
});

describe('evidence rules of the due date', () => {
  const due = (ymd: string, opts: CandOpts = {}) => cand(ymd, { kind: 'due', keyword: 'DUE', at: 4, ...opts });

  it('due-keyword: +1.2 on a base of 0.3, and it decides', () => {
    const r = resolve([due('2024-05-20')]).dueDate!;
    expect(r.evidence).toEqual(['keyword:DUE', 'rule:due-keyword']);
    expect(r.confidence).toBe(confidenceFrom(0.3, [{ name: 'k', weight: 1.2 }]));
  });

  it('due-ambiguous: -0.6', () => {
    const r = resolve([due('2024-05-20', { date: { ambiguous: true } })]).dueDate!;
    expect(r.evidence).toEqual(['keyword:DUE', 'ambiguous', 'rule:due-keyword']);
    expect(r.confidence).toBe(confidenceFrom(0.3, [{ name: 'k', weight: 1.2 }, { name: 'a', weight: -0.6 }]));
  });

  it('before-date: a due date before the transaction date is doubted', () => {
    const r = resolve([cand('2024-05-10', { at: 0 }), due('2024-05-01')]);
    expect(r.date?.candidate.date.d).toBe(10);
    expect(r.dueDate!.evidence).toEqual(['keyword:DUE', 'before-date', 'rule:due-keyword']);
    expect(resolve([cand('2024-05-10', { at: 0 }), due('2024-05-30')]).dueDate!.evidence).not.toContain('before-date');
  });

  it('the best-scored due candidate is taken, and a due date is never the date', () => {
    const r = resolve([due('2024-05-20', { at: 8 }), due('2024-05-21', { at: 2 })]);
    expect(r.date).toBeUndefined();
    expect(r.dueDate?.candidate.date.d).toBe(21);
  });
});

describe('dates for the fitted ranking', () => {
  it('a candidate\'s features are its score rules\' points by their sign: the hand-set score is 1 plus them weighed +1 and -1', () => {
    const cs = [
      cand('2024-05-02', { kind: 'transaction', keywordAt: 'same', time: { h: 10, m: 5, s: 0 }, at: 2 }),
      cand('2024-05-03', { weekday: 'mismatch', ocrConfidence: 0.3, guess: 2, at: 7 }),
      cand('2031-01-01', { kind: 'other', date: { ambiguous: true, unpadded: true } }),
    ];
    for (const c of cs) {
      const f = dateFeatures(c, WINDOW, 10);
      const signed = Object.entries(f).reduce((s, [k, v]) => s + (k.endsWith('+') ? v : -v), 0);
      expect(1 + signed).toBeCloseTo(score(c), 12);
    }
    expect(dateFeatures(cs[1]!, WINDOW, 10)).toMatchObject({ 'weekday-': 1, 'ocr-': 0.4 });
    expect(dateFeatures(cs[2]!, WINDOW, 10)['window-']).toBe(4);
  });
  it('resolveDates ranks the values by a model when given one', () => {
    const cs = [cand('2024-05-02', { kind: 'transaction', keywordAt: 'same', at: 1 }), cand('2024-05-09', { at: 8 })];
    expect(keyOfChosen(resolve(cs))).toBe('2024-5-2');
    // a model that weighs only a late place on the page (the position rule's points) picks the other
    const lateWins = resolveDates(cs, SETTLED, NOW, 10, { weights: { 'position-': 10 } });
    expect(keyOfChosen(lateWins)).toBe('2024-5-9');
    expect(keyOfChosen(resolveDates(cs, SETTLED, NOW, 10, { weights: { 'position-': -1, 'transaction-keyword+': 1 } }))).toBe('2024-5-2');
    const keywordLoses = resolveDates(cs, SETTLED, NOW, 10, { weights: { 'transaction-keyword+': -5 } });
    expect(keyOfChosen(keywordLoses)).toBe('2024-5-9');
  });
});

function keyOfChosen(r: ReturnType<typeof resolveDates>): string | undefined {
  const d = r.date?.candidate.date;
  return d ? `${d.y}-${d.m}-${d.d}` : undefined;
}
