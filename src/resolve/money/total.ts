/**
 * The total: every candidate value is scored by TOTAL_TERMS, an ordered list of named terms that each
 * add to the value's score (its rank) and to its evidence terms (its confidence); the best-scored value
 * is the total. The order is part of the behaviour (terms read what earlier ones found, e.g. `best`).
 */
import type { MoneyCandidate } from '../../fields/amounts.js';
import type { Derivation } from '../arithmetic.js';
import { confidenceFrom, roundConfidence } from '../../fields/confidence.js';
import { modelConfidence, modelScore } from '../field-model.js';
import type { RankModel } from '../field-model.js';
import type { EvidenceTerm } from '../../fields/confidence.js';
import { tapCandidates } from '../model.js';
import type { ChosenAmount } from '../../fields/amounts.js';
import type { MoneyContext, RoundingApplied, ValueCandidate } from './types.js';

/** One value being scored: what the terms found so far and what they read. */
export interface ScoreState {
  vc: ValueCandidate;
  v: number;
  score: number;
  terms: EvidenceTerm[];
  /** The strength of the value's best total label (with its place and reading). */
  kw: number;
  /** The occurrence whose label makes it a total, if any. */
  best?: MoneyCandidate;
  /** The derivations that give this value. */
  support: Derivation[];
  /** Kinds of derivation from printed readings, and from repaired ones. */
  kinds: Set<Derivation['kind']>;
  repairedKinds: Set<Derivation['kind']>;
  /** Printed equal to an amount labelled as paid. */
  paidEqual: boolean;
  /** Rounding lines applied to a total that give this value. */
  afterRounding: RoundingApplied[];
  /** Printed only with a role other than total. */
  nonTotal: boolean;
  /** The value's features: what each term found, by name (1 = present, or a measure); the model weighs them. */
  f: Record<string, number>;
}

/** A named scoring term of the total. */
export interface TotalTerm { name: string; apply: (s: ScoreState, ctx: MoneyContext) => void }

/** What the terms read about a value before any of them ran (its support, its roles, the rounding that gives it). */
export function scoreState(vc: ValueCandidate, ctx: MoneyContext): ScoreState {
  const v = vc.value;
  const support = ctx.derivedAt(v);
  const kinds = new Set(support.filter((d) => !d.repaired).map((d) => d.kind));
  const repairedKinds = new Set(support.filter((d) => d.repaired).map((d) => d.kind));
  const afterRounding = ctx.roundingApplied.filter((ra) => ctx.eq(ra.value, v) && (!ra.repaired || kinds.size > 0 || vc.printed.some((c) => c.role === 'total' || c.role === 'paid')));
  const nonTotal = vc.printed.length > 0 && vc.printed.every((c) => c.role !== 'total' && c.role !== 'none' && !(c.role === 'rounding' && v >= ctx.smallRounding * 2));
  return { vc, v, score: 0, terms: [], kw: 0, support, kinds, repairedKinds, paidEqual: ctx.paidKeys.has(ctx.keyOf(v)), afterRounding, nonTotal, f: vc.printed.length ? { printed: 1 } : {} };
}

/** A total label's strength: a rounding line's 2.4, a balance's 1.2, else its keyword's (2 when it has none). */
const labelStrength = (c: MoneyCandidate): number => (c.role === 'rounding' ? 2.4 : c.role === 'balance' ? 1.2 : (c.label?.strength ?? 2));

/** The printed total label of the value that scores best (keyword strength, OCR variant, place, reading). */
function labelledTotal(s: ScoreState, ctx: MoneyContext): void {
  const { v, vc } = s;
  const { opts, maxOther } = ctx;
  const n = Math.max(1, opts.lineCount);
  const asTotal = vc.printed.filter((c) => c.role === 'total' || (c.role === 'rounding' && v >= ctx.smallRounding * 2) || c.role === 'balance');
  for (const c of asTotal) {
    const l = c.label!;
    let sc = labelStrength(c);
    if (l.fuzzy) sc -= 0.5;
    if (l.fromLineAbove) sc -= 0.2;
    if (!c.amount.moneyLike) sc -= 1.2;
    if (!c.amount.moneyLike && !opts.wholeCurrency && maxOther > 0 && c.amount.value > 10 * maxOther) sc -= 3;
    if (opts.wholeCurrency && c.amount.value < 100) sc -= 2; // rupiah totals are not 21 or 187
    if (!c.amount.atLineEnd) sc -= 0.3;
    const placed = sc + 0.4 * (c.lineIndex / n);
    if (!s.best || placed > s.kw) { s.kw = placed; s.best = c; }
  }
  if (s.best) labelFeatures(s, s.best, ctx);
}

/** The features of the occurrence whose label makes the value a total: its strength, place and reading. */
function labelFeatures(s: ScoreState, c: MoneyCandidate, ctx: MoneyContext): void {
  const { opts, maxOther } = ctx;
  const l = c.label;
  const strength = labelStrength(c);
  const f = s.f;
  f['label-strength'] = strength;
  f[`label-role:${c.role === 'rounding' || c.role === 'balance' ? c.role : 'total'}`] = 1;
  f['label-place'] = c.lineIndex / Math.max(1, opts.lineCount);
  if (l?.fuzzy) f['label-fuzzy'] = 1;
  if (l?.fromLineAbove) f['label-line-above'] = 1;
  if (!c.amount.moneyLike) f['label-not-money-like'] = 1;
  if (!c.amount.moneyLike && !opts.wholeCurrency && maxOther > 0 && c.amount.value > 10 * maxOther) f['label-10x-largest'] = 1;
  if (opts.wholeCurrency && c.amount.value < 100) f['label-whole-currency-small'] = 1;
  if (!c.amount.atLineEnd) f['label-not-line-end'] = 1;
  if (strength >= 3.5) f['keyword-strong'] = 1;
  else if (strength < 2.2) f['keyword-weak'] = 1;
}

/** A value no total label prints but an OCR repair of one gives: that label, weaker. */
function ocrRepaired(s: ScoreState): void {
  if (s.best || !s.vc.repairedFrom.length) return;
  const c = s.vc.repairedFrom.reduce((a, b) => ((a.label?.strength ?? 0) >= (b.label?.strength ?? 0) ? a : b));
  s.kw = (c.label?.strength ?? 2) - 1.2;
  s.best = c;
  s.terms.push({ name: 'ocr-repaired', weight: -0.5 });
  s.f['label-strength'] = c.label?.strength ?? 2;
  s.f['ocr-repaired'] = 1;
}

/** The label's strength scores the value, and names its keyword and source. */
function keyword(s: ScoreState): void {
  const { vc, best } = s;
  vc.source = best ?? vc.printed.find((c) => c.role === 'none') ?? vc.printed[0];
  vc.keyword = best?.label?.keyword ?? '-';
  s.score += s.kw;
  if (!best) return;
  const strength = labelStrength(best);
  s.terms.push({ name: `keyword:${vc.keyword}`, weight: strength >= 3.5 ? 1.8 : strength >= 3 ? 0.9 : strength >= 2.2 ? 0.8 : 0.3 });
}

/** A label read through an OCR variant of its keyword is weaker evidence. */
function keywordOcrVariant(s: ScoreState): void {
  if (s.best?.label?.fuzzy) { s.terms.push({ name: 'keyword-ocr-variant', weight: -0.3 }); s.f['keyword-ocr-variant'] = 1; }
}

/** A label that says the total is final (after rounding or discount) ranks higher. */
function finalLabel(s: ScoreState): void {
  if (s.best?.label?.final) { s.score += 0.6; s.f['final-label'] = 1; }
}

/**
 * Score and weight of each kind of derivation: [score, confidence weight] when read as printed. A total
 * rounded from another (`rounded`) is a candidate but no term: it weighed 0 by hand, and every fit held it at 0.
 */
const KIND_WEIGHT: Partial<Record<Derivation['kind'], [number, number]>> = {
  'paid-change': [2.5, 2.0], 'paid-exact': [0.8, 1.0], 'subtotal-sum': [2.0, 1.0], items: [1.5, 1.0], summary: [1.2, 1.2], partials: [1.2, 1.2],
};

/** Each kind of arithmetic that gives the value (paid - change, subtotal + tax, items, ...); less when it needed a repair. */
function arithmetic(s: ScoreState): void {
  s.vc.support = s.support;
  for (const k of new Set([...s.kinds, ...s.repairedKinds])) {
    const kw = KIND_WEIGHT[k];
    if (!kw) continue;
    const [sw, cw] = kw;
    const rep = !s.kinds.has(k);
    s.score += rep ? sw * 0.6 : sw;
    s.terms.push({ name: `${k}${rep ? '(repaired)' : ''}`, weight: rep ? cw * 0.5 : cw });
    s.f[`arithmetic:${k}${rep ? '(repaired)' : ''}`] = 1;
  }
}

/** The value printed on two or more lines (independent OCR reads of it). */
function repeated(s: ScoreState): void {
  const lines = new Set(s.vc.printed.map((c) => c.lineIndex));
  if (lines.size >= 2) { s.score += Math.min(0.9, 0.3 * (lines.size - 1)); s.terms.push({ name: `repeated:${lines.size}`, weight: lines.size >= 3 ? 1.2 : 1.0 }); s.f.repeated = Math.min(3, lines.size - 1); }
}

/** Printed and the largest amount that is not a payment, change or the like. */
const isLargest = (s: ScoreState, ctx: MoneyContext): boolean => s.vc.printed.length > 0 && ctx.eq(s.v, ctx.maxOther);

/** The printed value is the largest amount that is not a payment. */
function largest(s: ScoreState, ctx: MoneyContext): void {
  if (isLargest(s, ctx)) { s.score += 0.8; s.terms.push({ name: 'largest', weight: 0.8 }); s.f.largest = 1; }
}

/** Printed equal to the amount paid with no change printed: weak support. */
function paidEqual(s: ScoreState): void {
  if (s.paidEqual && !s.kinds.has('paid-exact') && !s.kinds.has('paid-change')) { s.score += 0.5; s.terms.push({ name: 'paid-equal', weight: 1.0 }); s.f['paid-equal'] = 1; }
}

// Two or more items, read unrepaired, that add up to exactly what was paid: two independent parts of the
// page agree on the value, over a total label whose amount OCR garbled ("GRAND TOTAL 30" for 51.30). On the
// corpus's cached readings (every set), such a sum was the labelled total 24 times of 24.
/** Two or more unrepaired items add up to exactly what was paid. */
function itemsArePaid(s: ScoreState): void {
  // the items' plain sum: its formula ("items(4)") has no tax, discount or rounding added
  if (s.paidEqual && s.support.some((d) => d.kind === 'items' && !d.repaired && !d.formula.includes('+'))) {
    s.score += 2.5; s.terms.push({ name: 'items-are-paid', weight: 1.0 }); s.f['items-are-paid'] = 1;
  }
}

/** Printed only with another role (subtotal, tax, paid, ...), unless other lines add up to it or it is the rounded amount paid. */
function labelledOtherRole(s: ScoreState, ctx: MoneyContext): void {
  const { vc } = s;
  // a "subtotal" that other lines add up to is really a total (e.g. "Sub Total" printed after the tax)
  const ownLines = new Set(vc.printed.map((c) => c.lineIndex));
  const supportedByOthers = s.support.some((d) => !d.repaired && (d.kind === 'subtotal-sum' || d.kind === 'summary' || d.kind === 'paid-change') && d.lines.every((l) => !ownLines.has(l)));
  if (!s.nonTotal || s.best || (s.afterRounding.length && vc.printed.every((c) => c.role === 'paid')) || supportedByOthers) return;
  const roles = new Set(vc.printed.map((c) => c.role));
  // a subtotal on a page where no total label reads a money amount (no total line, or its amount lost):
  // the last sum the page prints, not ruled out (weaker than a total label, stronger than a bare number)
  if ([...roles].every((r) => r === 'subtotal') && !ctx.totalLabelled.some((c) => c.amount.moneyLike)) {
    s.terms.push({ name: 'subtotal-no-total', weight: -0.8 });
    s.f['subtotal-no-total'] = 1;
    return;
  }
  const onlyPaid = [...roles].every((r) => r === 'paid');
  s.score -= onlyPaid ? 1.2 : 2.5;
  s.terms.push({ name: `labelled-${[...roles].join('/')}`, weight: onlyPaid ? -0.8 : -1.5 });
  s.f[onlyPaid ? 'labelled-other-role:paid' : 'labelled-other-role'] = 1;
}

/** Neither labelled nor given by the arithmetic: a bare number ranks lower. */
function unlabelledUnsupported(s: ScoreState): void {
  if (!s.best && !s.nonTotal && !s.kinds.size) { s.score -= 0.5; s.f['unlabelled-unsupported'] = 1; }
}

/** Not printed at all, only derived. */
function derivedOnly(s: ScoreState): void {
  if (!s.vc.printed.length && !s.best) { s.score -= 1.0; s.terms.push({ name: 'derived-only', weight: -1.5 }); s.f['derived-only'] = 1; }
}

/** A plain total that a later final total (after rounding or discount) supersedes. */
function supersededByFinal(s: ScoreState, ctx: MoneyContext): void {
  const best = s.best;
  if (best && !best.label?.final && ctx.finalTotals.some((f) => !ctx.eq(f.amount.value, s.v) && f.lineIndex > best.lineIndex)) {
    s.score -= 1.2; s.terms.push({ name: 'superseded-by-final', weight: -0.8 }); s.f['superseded-by-final'] = 1;
  }
}

/** The value a rounding line makes of a total. */
function afterRounding(s: ScoreState): void {
  if (s.afterRounding.length) { s.score += 2.0; s.terms.push({ name: 'after-rounding', weight: 0.6 }); s.f['after-rounding'] = 1; }
}

/** The rounded value is also what was paid. */
function roundedIsPaid(s: ScoreState): void {
  if (s.afterRounding.length && (s.paidEqual || s.kinds.has('paid-change') || s.kinds.has('paid-exact'))) { s.score += 1.5; s.terms.push({ name: 'rounded-is-paid', weight: 0.5 }); s.f['rounded-is-paid'] = 1; }
}

/** A printed total that a rounding line below it changes (more so when the rounded value was paid). */
function beforeRounding(s: ScoreState, ctx: MoneyContext): void {
  const best = s.best;
  if (!best) return;
  const { eq, derivedAt, paidKeys, keyOf } = ctx;
  const roundedFromThis = ctx.roundingApplied.filter((ra) => ra.pre?.lineIndex === best.lineIndex && eq(ra.pre.amount.value, s.v) && !eq(ra.value, s.v) && (!ra.repaired || ra.printedAfter || derivedAt(ra.value).some((d) => d.kind !== 'rounded') || paidKeys.has(keyOf(ra.value))));
  if (!roundedFromThis.length) return;
  // stronger when the rounded value is what was paid
  const paidRounded = roundedFromThis.some((ra) => paidKeys.has(keyOf(ra.value)) || derivedAt(ra.value).some((d) => d.kind === 'paid-change' || d.kind === 'paid-exact'));
  s.score -= paidRounded ? 2.5 : 1.5; s.terms.push({ name: 'before-rounding', weight: -1.0 });
  s.f[paidRounded ? 'before-rounding:paid' : 'before-rounding'] = 1;
}

/** A labelled total under half the largest amount, with a labelled total twice its size: a tax or partial total. */
function smallForTotal(s: ScoreState, ctx: MoneyContext): void {
  const { best, v } = s;
  if (best && ctx.maxOther > 0 && v < 0.5 * ctx.maxOther && ctx.totalLabelled.some((o) => o.amount.moneyLike && o.amount.value > v * 2 && o !== best)) { s.score -= 0.8; s.terms.push({ name: 'small-for-total', weight: -0.6 }); s.f['small-for-total'] = 1; }
}

/** A labelled total below a printed subtotal, with no discount and no arithmetic, is suspicious. */
function belowSubtotal(s: ScoreState, ctx: MoneyContext): void {
  if (s.best && ctx.by('subtotal').some((c) => c.amount.moneyLike && c.amount.value > s.v + ctx.tol) && !ctx.by('discount').length && !s.kinds.size) { s.score -= 0.8; s.terms.push({ name: 'below-subtotal', weight: -0.6 }); s.f['below-subtotal'] = 1; }
}

/** The OCR confidence of the source's digits: low or middling lowers the confidence. */
function ocrQuality(s: ScoreState): void {
  const source = s.vc.source;
  const ocr = source?.amount.ocrConfidence ?? 0;
  if (source && ocr < 0.5) { s.terms.push({ name: 'low-ocr', weight: -1.5 }); s.f['low-ocr'] = 1; }
  else if (source && ocr < 0.75) { s.terms.push({ name: 'mid-ocr', weight: -1.0 }); s.f['mid-ocr'] = 1; }
}

// What a ranker reads about any printed value, whatever its label (features only: no score, no confidence
// term): its rank among the page's rival amounts (1 the largest, 1/2 the next, ...), the height of its tallest
// line against the page's median line (0 = as tall), where it last stands on the page (0 top, 1 bottom), and
// whether it stands in the totals block (at or below the first subtotal, total or tax label).
/** The value's rank among the page's amounts, its text size, its place and whether it is in the totals block. */
function pageFeatures(s: ScoreState, ctx: MoneyContext): void {
  const printed = s.vc.printed;
  if (!printed.length) return;
  const rank = ctx.rivalKeys.indexOf(ctx.keyOf(s.v));
  if (rank >= 0) s.f['amount-rank'] = 1 / (rank + 1);
  if (ctx.medianLineHeight > 0) {
    const tallest = Math.max(...printed.map((c) => c.amount.line.box.y1 - c.amount.line.box.y0));
    s.f['text-size'] = Math.min(2, Math.max(-0.5, tallest / ctx.medianLineHeight - 1));
  }
  const last = Math.max(...printed.map((c) => c.lineIndex));
  s.f['value-place'] = last / Math.max(1, ctx.opts.lineCount - 1);
  if (printed.some((c) => c.lineIndex >= ctx.facts.totalsStart)) s.f['in-totals-block'] = 1;
}

/** The total's scoring terms, in the order they run. */
export const TOTAL_TERMS: readonly TotalTerm[] = [
  { name: 'labelled-total', apply: labelledTotal },
  { name: 'ocr-repaired', apply: ocrRepaired },
  { name: 'keyword', apply: keyword },
  { name: 'keyword-ocr-variant', apply: keywordOcrVariant },
  { name: 'final-label', apply: finalLabel },
  { name: 'arithmetic', apply: arithmetic },
  { name: 'repeated', apply: repeated },
  { name: 'largest', apply: largest },
  { name: 'paid-equal', apply: paidEqual },
  { name: 'items-are-paid', apply: itemsArePaid },
  { name: 'labelled-other-role', apply: labelledOtherRole },
  { name: 'unlabelled-unsupported', apply: unlabelledUnsupported },
  { name: 'derived-only', apply: derivedOnly },
  { name: 'superseded-by-final', apply: supersededByFinal },
  { name: 'after-rounding', apply: afterRounding },
  { name: 'rounded-is-paid', apply: roundedIsPaid },
  { name: 'before-rounding', apply: beforeRounding },
  { name: 'small-for-total', apply: smallForTotal },
  { name: 'below-subtotal', apply: belowSubtotal },
  { name: 'ocr-quality', apply: ocrQuality },
  { name: 'page-features', apply: pageFeatures },
];

/** Runs the terms on one value: sets its score, terms, source and keyword, and what each term added to the score. */
export function scoreValue(vc: ValueCandidate, ctx: MoneyContext, terms: readonly TotalTerm[] = TOTAL_TERMS): ValueCandidate {
  const s = scoreState(vc, ctx);
  const gains: Array<[string, number]> = [];
  for (const t of terms) {
    const before = s.score;
    t.apply(s, ctx);
    if (s.score !== before) gains.push([t.name, Math.round((s.score - before) * 1e6) / 1e6]);
  }
  vc.score = s.score;
  vc.terms = s.terms;
  vc.features = s.f;
  vc.gains = gains;
  return vc;
}

/** The term that added most to a value's score (the first of equal gains), or `total-score` when none added anything. */
export function decidingTerm(vc: ValueCandidate): string {
  let name = 'total-score', most = 0;
  for (const [n, g] of vc.gains ?? []) if (g > most) { name = n; most = g; }
  return name;
}

/**
 * The best-ranked value, with its confidence and its margin over the first rival of another value. By
 * default values are ranked by the terms' hand-set scores; with a fitted model (models/fields.json,
 * engine option `ranking: 'fitted'`) by the model's score of their features, the margin in the model's
 * units. Either way the confidence is the top's terms' log-odds with the rival's.
 * (The model's own Platt-scaled probability was tried as the confidence: its scale differs from the
 * terms' and moved which of several readings wins, and lost more totals than the ranking gained.)
 */
export function chooseTotal(ctx: MoneyContext, terms: readonly TotalTerm[] = TOTAL_TERMS, model?: RankModel): ChosenAmount | undefined {
  for (const vc of ctx.values.values()) scoreValue(vc, ctx, terms);
  tapCandidates('total', () => [...ctx.values.values()].filter((vc) => vc.value > 0).map((vc) => ({ value: vc.value, features: vc.features ?? {}, score: vc.score })));
  const values = [...ctx.values.values()].filter((vc) => vc.value > 0);
  const rank = new Map(values.map((vc) => [vc, model ? modelScore(model, vc.features ?? {}) : vc.score]));
  const ranked = values.sort((a, b) => rank.get(b)! - rank.get(a)! || b.value - a.value);
  const top = ranked[0];
  if (!top || !(top.score > -1.5 || top.printed.length)) return undefined;
  const rival = ranked.find((r) => r !== top && !ctx.eq(r.value, top.value));
  const withRival = [...top.terms];
  const margin = rival ? rank.get(top)! - rank.get(rival)! : 5;
  if (margin < 0.6) withRival.push({ name: 'close-rival', weight: -1.8 });
  else if (margin < 1.5) withRival.push({ name: 'rival', weight: -0.8 });
  // the model's own confidence where its fit gave one (field-model.ts modelConfidence), else the terms'
  const fromModel = model ? modelConfidence(model, rank.get(top)!, rival ? rank.get(rival) : undefined) : undefined;
  let confidence = fromModel === undefined ? confidenceFrom(-0.6, withRival) : roundConfidence(fromModel);
  if (!top.printed.length) confidence = Math.min(confidence, 0.7);
  const fitted = model ? [`model=${rank.get(top)!.toFixed(2)}`] : [];
  const evidence = [...withRival.map((t) => `${t.name}(${t.weight})`), `score=${top.score.toFixed(2)}`, ...fitted, ...ranked.slice(1, 4).map((r) => `alt=${r.value}@${rank.get(r)!.toFixed(2)}`), `rule:${model ? 'fitted-model' : decidingTerm(top)}`];
  return { value: top.value, confidence, ...(top.source ? { source: top.source } : {}), keyword: top.keyword, evidence };
}
