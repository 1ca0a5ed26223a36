/**
 * Chooses the total and the other money fields among the finders' candidates. A total is a value, not
 * a line: every printed occurrence and every arithmetic derivation of the same value is evidence for
 * it. The chosen value's confidence is computed from that evidence (keyword strength, paid - change,
 * subtotal + tax, items, tax summary, repetition, being the largest amount) and from its rivals.
 */
import { printedRate } from '../fields/amounts.js';
import type { MoneyCandidate, MoneyFacts } from '../fields/amounts.js';
import type { Amount } from '../fields/numbers.js';
import { cents, confusedVariants } from '../locale/numbers.js';
import { TAX_NAME } from '../locale/keywords.js';
import { derivations, same } from './arithmetic.js';
import type { Derivation, Reading } from './arithmetic.js';
import { confidenceFrom, roundConfidence } from './confidence.js';
import type { EvidenceTerm } from './confidence.js';

export interface ChosenAmount {
  value: number;
  confidence: number;
  /** The printed amount it was read from (absent when only derived). */
  source?: MoneyCandidate;
  keyword: string;
  evidence: string[];
}

export interface MoneyResolution {
  total?: ChosenAmount;
  subtotal?: ChosenAmount;
  tax?: ChosenAmount;
  paid?: ChosenAmount;
  change?: ChosenAmount;
  discount?: ChosenAmount;
  tip?: ChosenAmount;
  rounding?: ChosenAmount;
}

interface ValueCandidate {
  value: number;
  /** Printed occurrences with this exact reading. */
  printed: MoneyCandidate[];
  /** Occurrences where an OCR-repaired reading gives this value. */
  repairedFrom: MoneyCandidate[];
  score: number;
  terms: EvidenceTerm[];
  support: Derivation[];
  keyword: string;
  source?: MoneyCandidate;
}

const readingsOf = (c: MoneyCandidate, withAlternatives = true): Reading[] => {
  const out: Reading[] = [];
  // a number without the currency's decimals takes part in the arithmetic only through its repaired readings
  if (c.amount.moneyLike || (c.amount.value === 0 && c.role !== 'none')) out.push({ value: c.amount.value, repaired: false, lineIndex: c.lineIndex });
  if (withAlternatives) for (const v of c.amount.alternatives) out.push({ value: v, repaired: true, lineIndex: c.lineIndex });
  return out;
};

/** Chooses the money fields. */
export function resolveMoney(facts: MoneyFacts, opts: { wholeCurrency: boolean; lineCount: number }): MoneyResolution {
  const tol = opts.wholeCurrency ? 0.5 : 0.005;
  const eq = (a: number, b: number) => same(a, b, tol);
  const { candidates } = facts;
  const by = (...roles: string[]) => candidates.filter((c) => roles.includes(c.role));
  const smallRounding = opts.wholeCurrency ? 100 : 0.1;
  // rounding lines: the printed value, or a repaired reading ("2" for 0.02) when that is small
  const roundingCands = by('rounding').flatMap((c): MoneyCandidate[] => {
    if (c.amount.moneyLike && Math.abs(c.amount.value) < smallRounding) return [c];
    if (c.amount.moneyLike) return [];
    const alt = c.amount.alternatives.find((v) => Math.abs(v) < smallRounding && v !== 0);
    if (alt !== undefined) return [{ ...c, amount: { ...c.amount, value: alt, moneyLike: true, repaired: true, alternatives: [] } }];
    // "2" for 0.02: the leading "0.0" lost; the sign is unknown
    if (!opts.wholeCurrency && c.amount.decimals === 0 && Math.abs(c.amount.value) >= 1 && Math.abs(c.amount.value) <= 4) {
      const v = Math.abs(c.amount.value) / 100;
      return [v, -v].map((x) => ({ ...c, amount: { ...c.amount, value: x, moneyLike: true, repaired: true, alternatives: [] } }));
    }
    return [];
  });
  const roundingAsTotal = by('rounding').filter((c) => c.amount.value >= smallRounding * 2 && c.amount.moneyLike);
  const rd = (list: MoneyCandidate[], alt = true) => list.flatMap((c) => readingsOf(c, alt));
  const positive = (list: Reading[]) => list.filter((r) => r.value > 0);

  // a tendered amount or change is never negative: a leading "-" there is OCR noise
  const absolute = (list: Reading[]) => list.map((r) => ({ ...r, value: Math.abs(r.value) }));
  const arithmetic = {
    paid: positive(absolute(rd(by('paid')))),
    change: absolute(rd(by('change'))),
    subtotal: positive(rd(by('subtotal'))),
    taxBase: positive(rd(by('taxBase'))),
    tax: rd(by('tax', 'taxIncluded')).filter((r) => r.value >= 0),
    service: positive(rd(by('service'))),
    discount: rd(by('discount')).filter((r) => r.value !== 0),
    rounding: rd(roundingCands, false),
    items: facts.items.map((c) => (c.amount.moneyLike ? { value: c.amount.value, repaired: false, lineIndex: c.lineIndex } : { value: c.amount.alternatives[0] ?? c.amount.value, repaired: true, lineIndex: c.lineIndex })),
    summary: facts.summaryRows,
    wholeCurrency: opts.wholeCurrency,
  };
  const derived = derivations(arithmetic);
  // partial totals that add up ("Total 0% supplies" + "Total 6% supplies")
  const partials = by('total').filter((c) => c.amount.moneyLike && c.amount.value > 0).slice(0, 8);
  for (let i = 0; i < partials.length; i++) for (let j = i + 1; j < partials.length; j++) {
    const a = partials[i]!, b = partials[j]!;
    if (a.lineIndex === b.lineIndex || eq(a.amount.value, b.amount.value)) continue;
    derived.push({ value: cents(a.amount.value + b.amount.value), kind: 'partials', repaired: false, lines: [a.lineIndex, b.lineIndex], formula: `${a.amount.value}+${b.amount.value}` });
  }
  // a total followed by a rounding line: the rounded value is what is paid
  const totalLabelledEarly = [...by('total'), ...roundingAsTotal];
  const roundingApplied: Array<{ pre?: MoneyCandidate; value: number; printedAfter: boolean; repaired: boolean }> = [];
  for (const w of totalLabelledEarly) {
    if (!w.amount.moneyLike || w.amount.value <= 0) continue;
    for (const r of roundingCands) {
      if (r.amount.value === 0 || r.lineIndex < w.lineIndex) continue;
      const v = cents(w.amount.value + r.amount.value);
      const printedAfter = totalLabelledEarly.some((o) => o.lineIndex > r.lineIndex && eq(o.amount.value, v));
      roundingApplied.push({ pre: w, value: v, printedAfter, repaired: r.amount.repaired });
      derived.push({ value: v, kind: 'rounded', repaired: r.amount.repaired, lines: [w.lineIndex, r.lineIndex], formula: `${w.amount.value}+${r.amount.value}` });
    }
  }

  // a derived pre-rounding total (subtotal + tax, tax summary) followed by a rounding line
  for (const d of derived.filter((x) => (x.kind === 'summary' || x.kind === 'subtotal-sum') && !x.repaired)) {
    for (const r of roundingCands) {
      if (r.amount.value === 0 || r.amount.repaired || (d.kind === 'subtotal-sum' && d.lines.some((l) => l > r.lineIndex))) continue;
      const v = cents(d.value + r.amount.value);
      derived.push({ value: v, kind: 'rounded', repaired: false, lines: [...d.lines, r.lineIndex], formula: `${d.formula}+${r.amount.value}` });
      roundingApplied.push({ value: v, printedAfter: false, repaired: false });
    }
  }

  // --- candidate values ---
  const values = new Map<string, ValueCandidate>();
  const keyOf = (v: number) => (opts.wholeCurrency ? String(Math.round(v)) : cents(v).toFixed(2));
  // derivations and printed amounts indexed by value (equality within the tolerance = same key)
  const derivedByKey = new Map<string, Derivation[]>();
  for (const d of derived) { const k = keyOf(d.value); const l = derivedByKey.get(k); if (l) l.push(d); else derivedByKey.set(k, [d]); }
  const derivedAt = (v: number): Derivation[] => derivedByKey.get(keyOf(v)) ?? [];
  const printedLines = new Map<string, Set<number>>();
  const paidKeys = new Set<string>();
  for (const c of candidates) {
    if (c.amount.moneyLike) { const k = keyOf(c.amount.value); (printedLines.get(k) ?? printedLines.set(k, new Set()).get(k)!).add(c.lineIndex); }
    if (c.role === 'paid') paidKeys.add(keyOf(Math.abs(c.amount.value)));
  }
  const get = (v: number): ValueCandidate => {
    const k = keyOf(v);
    let vc = values.get(k);
    if (!vc) { vc = { value: opts.wholeCurrency ? Math.round(v) : cents(v), printed: [], repairedFrom: [], score: 0, terms: [], support: [], keyword: '-' }; values.set(k, vc); }
    return vc;
  };
  const totalLabelled = [...by('total'), ...roundingAsTotal, ...by('balance')];
  for (const c of candidates) {
    if (c.amount.value <= 0) continue;
    if (c.amount.moneyLike || c.role === 'total') get(c.amount.value).printed.push(c);
  }
  // OCR repairs of labelled totals: a lost decimal point, one confused digit; kept only with arithmetic support
  const strongDerived = (v: number) => new Set(derivedAt(v).filter((d) => !d.repaired && d.kind !== 'rounded').map((d) => d.kind)).size >= 2;
  for (const c of totalLabelled) {
    const text = c.amount.value.toFixed(opts.wholeCurrency ? 0 : 2);
    const reps = [...c.amount.alternatives, ...(c.amount.moneyLike ? confusedVariants(text) : [])];
    // "34.2" printed for 34.21: the last digit lost
    if (!opts.wholeCurrency && c.amount.decimals === 1) for (let k = 1; k <= 9; k++) reps.push(cents(c.amount.value + k / 100));
    for (const v of reps) if (v > 0 && derivedAt(v).length) get(v).repairedFrom.push(c);
    // any one digit, when the arithmetic says so twice, or when paid - change says so and nothing supports the printed value
    const printedSupported = derivedAt(c.amount.value).length > 0 || [...(printedLines.get(keyOf(c.amount.value)) ?? [])].some((l) => l !== c.lineIndex);
    const paidChange = (v: number) => derivedAt(v).some((d) => d.kind === 'paid-change' && !d.repaired);
    if (c.amount.moneyLike) for (const v of anyDigitVariants(text)) if (v > 0 && (strongDerived(v) || (!printedSupported && paidChange(v))) && !reps.includes(v)) get(v).repairedFrom.push(c);
  }
  // values only the arithmetic shows (two independent derivations agree)
  const maxPrinted = Math.max(0, ...candidates.filter((c) => c.amount.moneyLike && !['paid', 'change', 'balance', 'points', 'deposit', 'info', 'quantity'].includes(c.role)).map((c) => c.amount.value));
  for (const list of derivedByKey.values()) {
    // paid - change alone is also a candidate (two labelled numbers and a subtraction) when it is of the size of a total
    const paidChangeOnly = list.some((e) => e.kind === 'paid-change' && !e.repaired) && list[0]!.value >= 0.3 * maxPrinted;
    if (new Set(list.map((e) => e.kind)).size >= 2 || paidChangeOnly) get(list[0]!.value);
  }

  const moneyPrinted = candidates.filter((c) => c.amount.moneyLike && c.amount.value > 0);
  const excludedFromMax = new Set(['paid', 'change', 'balance', 'points', 'deposit', 'info', 'quantity']);
  const maxOther = Math.max(0, ...moneyPrinted.filter((c) => !excludedFromMax.has(c.role)).map((c) => c.amount.value));
  const n = Math.max(1, opts.lineCount);
  const finalTotals = totalLabelled.filter((c) => c.label?.final && (c.amount.moneyLike || c.amount.decimals >= 1 || c.amount.alternatives.length > 0) && c.amount.value > 0);

  for (const vc of values.values()) {
    const v = vc.value;
    const terms: EvidenceTerm[] = [];
    let score = 0;
    // keyword evidence from printed occurrences labelled as totals
    const asTotal = vc.printed.filter((c) => c.role === 'total' || (c.role === 'rounding' && v >= smallRounding * 2) || c.role === 'balance');
    let kw = 0;
    let best: MoneyCandidate | undefined;
    for (const c of asTotal) {
      const l = c.label!;
      let s = c.role === 'rounding' ? 2.4 : c.role === 'balance' ? 1.2 : l.strength;
      if (l.fuzzy) s -= 0.5;
      if (l.fromLineAbove) s -= 0.2;
      if (!c.amount.moneyLike) s -= 1.2;
      if (!c.amount.moneyLike && !opts.wholeCurrency && maxOther > 0 && c.amount.value > 10 * maxOther) s -= 3;
      if (opts.wholeCurrency && c.amount.value < 100) s -= 2; // rupiah totals are not 21 or 187
      if (!c.amount.atLineEnd) s -= 0.3;
      const sc = s + 0.4 * (c.lineIndex / n);
      if (!best || sc > kw) { kw = sc; best = c; }
    }
    if (!best && vc.repairedFrom.length) {
      const c = vc.repairedFrom.reduce((a, b) => ((a.label?.strength ?? 0) >= (b.label?.strength ?? 0) ? a : b));
      kw = (c.label?.strength ?? 2) - 1.2;
      best = c;
      terms.push({ name: 'ocr-repaired', weight: -0.5 });
    }
    vc.source = best ?? vc.printed.find((c) => c.role === 'none') ?? vc.printed[0];
    vc.keyword = best?.label?.keyword ?? '-';
    score += kw;
    if (best) {
      const l = best.label;
      const strength = best.role === 'balance' ? 1.2 : best.role === 'rounding' ? 2.4 : (l?.strength ?? 2);
      terms.push({ name: `keyword:${vc.keyword}`, weight: strength >= 3.5 ? 1.8 : strength >= 3 ? 0.9 : strength >= 2.2 ? 0.8 : 0.3 });
      if (l?.fuzzy) terms.push({ name: 'keyword-ocr-variant', weight: -0.3 });
      if (l?.final) score += 0.6;
    }
    // arithmetic support
    const support = derivedAt(v);
    vc.support = support;
    const kinds = new Set(support.filter((d) => !d.repaired).map((d) => d.kind));
    const repairedKinds = new Set(support.filter((d) => d.repaired).map((d) => d.kind));
    const kindWeight: Record<Derivation['kind'], [number, number]> = {
      'paid-change': [2.5, 2.0], 'paid-exact': [0.8, 1.0], 'subtotal-sum': [2.0, 1.0], items: [1.5, 1.0], summary: [1.2, 1.2], rounded: [0, 0], partials: [1.2, 1.2],
    };
    for (const k of new Set([...kinds, ...repairedKinds])) {
      const [sw, cw] = kindWeight[k];
      const rep = !kinds.has(k);
      score += rep ? sw * 0.6 : sw;
      terms.push({ name: `${k}${rep ? '(repaired)' : ''}`, weight: rep ? cw * 0.5 : cw });
    }
    // repetition across lines (independent OCR reads of the same value)
    const lines = new Set(vc.printed.map((c) => c.lineIndex));
    if (lines.size >= 2) { score += Math.min(0.9, 0.3 * (lines.size - 1)); terms.push({ name: `repeated:${lines.size}`, weight: lines.size >= 3 ? 1.2 : 1.0 }); }
    // the largest amount that is not a payment
    if (vc.printed.length && eq(v, maxOther)) { score += 0.8; terms.push({ name: 'largest', weight: 0.8 }); }
    else if (maxOther > 0 && v > maxOther + tol && !vc.printed.some((c) => c.role === 'total')) { score -= 0.5; }
    // printed equal to the amount paid with no change printed: weak
    const paidEqual = paidKeys.has(keyOf(v));
    if (paidEqual && !kinds.has('paid-exact') && !kinds.has('paid-change')) { score += 0.5; terms.push({ name: 'paid-equal', weight: 1.0 }); }
    const afterRounding = roundingApplied.filter((ra) => eq(ra.value, v) && (!ra.repaired || kinds.size > 0 || vc.printed.some((c) => c.role === 'total' || c.role === 'paid')));
    // printed only with another role
    const nonTotal = vc.printed.length > 0 && vc.printed.every((c) => c.role !== 'total' && c.role !== 'none' && !(c.role === 'rounding' && v >= smallRounding * 2));
    // a "subtotal" that other lines add up to is really a total (e.g. "Sub Total" printed after the tax)
    const ownLines = new Set(vc.printed.map((c) => c.lineIndex));
    const supportedByOthers = support.some((d) => !d.repaired && (d.kind === 'subtotal-sum' || d.kind === 'summary' || d.kind === 'paid-change') && d.lines.every((l) => !ownLines.has(l)));
    if (nonTotal && !best && !(afterRounding.length && vc.printed.every((c) => c.role === 'paid')) && !supportedByOthers) {
      const roles = new Set(vc.printed.map((c) => c.role));
      const onlyPaid = [...roles].every((r) => r === 'paid');
      score -= onlyPaid ? 1.2 : 2.5;
      terms.push({ name: `labelled-${[...roles].join('/')}`, weight: onlyPaid ? -0.8 : -1.5 });
    }
    if (!best && !nonTotal && !kinds.size) { score -= 0.5; }
    if (!vc.printed.length && !best) { score -= 1.0; terms.push({ name: 'derived-only', weight: -1.5 }); }
    // a later final total (after rounding/discount) supersedes a plain total
    if (best && !best.label?.final && finalTotals.some((f) => !eq(f.amount.value, v) && f.lineIndex > best!.lineIndex)) {
      score -= 1.2; terms.push({ name: 'superseded-by-final', weight: -0.8 });
    }
    if (afterRounding.length) {
      score += 2.0; terms.push({ name: 'after-rounding', weight: 0.6 });
      if (paidEqual || kinds.has('paid-change') || kinds.has('paid-exact')) { score += 1.5; terms.push({ name: 'rounded-is-paid', weight: 0.5 }); }
    }
    const roundedFromThis = best ? roundingApplied.filter((ra) => ra.pre?.lineIndex === best!.lineIndex && eq(ra.pre.amount.value, v) && !eq(ra.value, v) && (!ra.repaired || ra.printedAfter || derivedAt(ra.value).some((d) => d.kind !== 'rounded') || paidKeys.has(keyOf(ra.value)))) : [];
    if (roundedFromThis.length) {
      // stronger when the rounded value is what was paid
      const paidRounded = roundedFromThis.some((ra) => paidKeys.has(keyOf(ra.value)) || derivedAt(ra.value).some((d) => d.kind === 'paid-change' || d.kind === 'paid-exact'));
      score -= paidRounded ? 2.5 : 1.5; terms.push({ name: 'before-rounding', weight: -1.0 });
    }
    // a labelled total much smaller than the other amounts is a tax or partial total
    if (best && maxOther > 0 && v < 0.5 * maxOther && totalLabelled.some((o) => o.amount.moneyLike && o.amount.value > v * 2 && o !== best)) { score -= 0.8; terms.push({ name: 'small-for-total', weight: -0.6 }); }
    // a total below a printed subtotal is suspicious unless there is a discount
    if (best && by('subtotal').some((s) => s.amount.moneyLike && s.amount.value > v + tol) && !by('discount').length && !kinds.size) { score -= 0.8; terms.push({ name: 'below-subtotal', weight: -0.6 }); }
    // OCR quality of the digits
    const ocr = vc.source?.amount.ocrConfidence ?? 0;
    if (vc.source && ocr < 0.5) terms.push({ name: 'low-ocr', weight: -1.5 });
    else if (vc.source && ocr < 0.75) terms.push({ name: 'mid-ocr', weight: -1.0 });
    vc.score = score;
    vc.terms = terms;
  }

  const ranked = [...values.values()].filter((vc) => vc.value > 0).sort((a, b) => b.score - a.score || b.value - a.value);
  const out: MoneyResolution = {};
  const top = ranked[0];
  if (top && (top.score > -1.5 || top.printed.length)) {
    const rival = ranked.find((r) => r !== top && !eq(r.value, top.value));
    const terms = [...top.terms];
    const margin = rival ? top.score - rival.score : 5;
    if (margin < 0.6) terms.push({ name: 'close-rival', weight: -1.8 });
    else if (margin < 1.5) terms.push({ name: 'rival', weight: -0.8 });
    let confidence = confidenceFrom(-0.6, terms);
    if (!top.printed.length) confidence = Math.min(confidence, 0.7);
    out.total = { value: top.value, confidence, ...(top.source ? { source: top.source } : {}), keyword: top.keyword, evidence: [...terms.map((t) => `${t.name}(${t.weight})`), `score=${top.score.toFixed(2)}`, ...ranked.slice(1, 4).map((r) => `alt=${r.value}@${r.score.toFixed(2)}`)] };
  }
  const total = out.total?.value;

  // --- subtotal, tax, rounding, paid, change, discount, tip: consistent with the total when possible ---
  const pickConsistent = (list: MoneyCandidate[], test: (v: number, c: MoneyCandidate) => boolean, baseConf: number, okConf: number): ChosenAmount | undefined => {
    const usable = list.filter((c) => c.amount.moneyLike || c.amount.alternatives.length);
    const hits: Array<{ c: MoneyCandidate; v: number; ok: boolean }> = [];
    for (const c of usable) {
      const vals = c.amount.moneyLike ? [c.amount.value, ...c.amount.alternatives] : c.amount.alternatives;
      for (const v of vals) hits.push({ c, v, ok: total !== undefined && test(v, c) });
    }
    const ok = hits.find((h) => h.ok);
    const chosen = ok ?? hits.filter((h) => h.c.amount.moneyLike && h.v === h.c.amount.value).pop();
    if (!chosen) return undefined;
    return { value: cents(chosen.v), confidence: roundConfidence(ok ? okConf : baseConf), source: chosen.c, keyword: chosen.c.label?.keyword ?? '-', evidence: ok ? ['consistent-with-total'] : [] };
  };
  // a tax amount too large for the total may have lost its decimal point ("Tax 6.25% +$257"): its repaired reading
  const taxSized = (v: number) => v >= 0 && (total === undefined || v < total * 0.5 + tol);
  const taxes = by('tax', 'taxIncluded').flatMap((c): MoneyCandidate[] => {
    if (taxSized(c.amount.value)) return [c];
    const alt = c.amount.alternatives.find(taxSized);
    // only as an alternative: taken when it agrees with the total, never as a fallback
    return alt !== undefined ? [{ ...c, amount: { ...c.amount, value: alt, moneyLike: false, alternatives: [alt] } }] : [];
  });
  const subtotals = by('subtotal', 'taxBase').filter((c) => c.amount.value > 0 && (total === undefined || c.amount.value <= total * 1.5));
  const roundV = roundingCands.map((r) => r.amount.value);
  const discV = by('discount').map((d) => Math.abs(d.amount.value));
  const sumsTo = (parts: number[]) => total !== undefined && [0, ...roundV].some((r) => [0, ...discV].some((d) => eq(parts.reduce((a, b) => a + b, 0) + r - d, total)));

  const sub = pickConsistent(subtotals, (v) => taxes.some((t) => sumsTo([v, t.amount.value])) || (sumsTo([v]) && taxes.some((t) => t.role === 'taxIncluded')), 0.55, 0.9);
  if (sub) out.subtotal = sub;
  const taxChoice = pickConsistent(taxes, (v, c) => subtotals.some((s) => sumsTo([s.amount.value, v])) || facts.summaryRows.some((r) => eq(r.tax, v) && total !== undefined && eq(r.net + r.tax, total)) || (taxes.find((t) => t.role === 'taxIncluded' && eq(t.amount.value, v)) !== undefined && plausibleIncludedTax(v, total!))
    // the rate printed on the tax line gives it from the total ("VAT (20.00%) 22.82" of 136.95, "Tax 6.25% 2.57" of 43.67)
    || (!opts.wholeCurrency && v > 0 && taxAtPrintedRate(facts, c.lineIndex, v, total!))
    // a subtotal that is already the total: the tax printed above it is included, at a usual rate
    || (v > 0 && subtotals.some((s) => sumsTo([s.amount.value])) && plausibleIncludedTax(v, total!)), 0.5, 0.88);
  // several tax lines (CGST + SGST, 7 % + 19 %) that together close subtotal + tax = total
  const taxLines = taxes.filter((t) => t.amount.moneyLike && t.amount.value > 0);
  const taxSum = cents(taxLines.reduce((a, t) => a + t.amount.value, 0));
  if (taxLines.length >= 2 && new Set(taxLines.map((t) => t.lineIndex)).size >= 2 && subtotals.some((sc) => sumsTo([sc.amount.value, taxSum])) && !(taxChoice && subtotals.some((sc) => sumsTo([sc.amount.value, taxChoice.value])))) {
    out.tax = { value: taxSum, confidence: 0.88, source: taxLines[taxLines.length - 1]!, keyword: taxLines[0]!.label?.keyword ?? '-', evidence: ['tax-lines-sum'] };
  } else if (taxChoice) out.tax = taxChoice;
  else if (facts.summaryRows.length > 1 && total !== undefined && summaryRowsTax(facts, total, tol)) {
    out.tax = summaryRowsTax(facts, total, tol);
  } else if (facts.summaryRows.length && total !== undefined) {
    const row = facts.summaryRows.find((r) => eq(r.net + r.tax, total)) ?? facts.summaryRows[facts.summaryRows.length - 1]!;
    const a = row.amounts[row.amounts.length - (row.gross !== undefined ? 2 : 1)];
    const cand = candidates.find((c) => c.amount === a);
    if (cand) out.tax = { value: cents(row.tax), confidence: eq(row.net + row.tax, total) ? 0.8 : 0.45, source: cand, keyword: 'summary', evidence: ['tax-summary'] };
  }
  if (!out.tax && total !== undefined && !opts.wholeCurrency) {
    // "Total (excl. GST) 26.40" and "Total (inc. GST) 27.98": the tax is the difference, at a usual rate
    for (const sc of subtotals) {
      const d = cents(total - sc.amount.value);
      if (d > 0 && sc.amount.moneyLike && plausibleIncludedTax(d, total)) {
        out.tax = { value: d, confidence: 0.6, source: sc, keyword: sc.label?.keyword ?? '-', evidence: ['total-minus-net'] };
        break;
      }
    }
    // a tax summary row whose tax is unreadable: the total less its net, at a usual rate
    for (const r of facts.summaryRows) {
      if (out.tax) break;
      const d = cents(total - r.net);
      const a = r.amounts[0];
      const cand = a && candidates.find((c) => c.amount === a);
      if (d > 0 && cand && plausibleIncludedTax(d, total)) out.tax = { value: d, confidence: 0.55, source: cand, keyword: 'summary', evidence: ['total-minus-summary-net'] };
    }
    // a summary line "SR@6% 103.49 <unreadable>" or "6 3.49 21": net and total give the tax, which the
    // printed rate or the digits left of it confirm
    for (const f of facts.lines) {
      if (out.tax) break;
      const nets = f.amounts.filter((a) => a.moneyLike && !a.percent && a.value > 0 && a.value < total);
      for (const a of nets) {
        const d = cents(total - a.value);
        if (d <= 0 || !plausibleIncludedTax(d, total)) continue;
        const rateOk = f.amounts.some((p) => p.percent && Math.abs(a.value * p.value / 100 - d) <= 0.011);
        const digits = String(Math.round(d * 100));
        const digitsOk = f.amounts.some((b) => b !== a && b.start > a.start && b.text.replace(/\D/g, '') === digits);
        const cand = candidates.find((c) => c.amount === a);
        if ((rateOk || digitsOk) && cand) { out.tax = { value: d, confidence: 0.55, source: cand, keyword: 'summary', evidence: ['total-minus-net-line'] }; break; }
      }
    }
    // a tax line that prints its rate but whose amount did not read ("TAX 8.75% =", "INCL. BTW: 6.00% 21.95 1."):
    // the net just above it that the rate takes to the total (4.05 + 8.75 % = 4.40), or, on the line of the
    // total it is included in, the total's share at that rate
    for (const [i, f] of facts.lines.entries()) {
      if (out.tax) break;
      if (!f.labels.some((l) => l && (l.role === 'tax' || l.role === 'taxIncluded')) && !TAX_NAME.test(f.canon)) continue;
      const rate = printedRate(f);
      if (!rate) continue;
      const monies = f.amounts.filter((a) => a.moneyLike && !a.percent && a.value > 0);
      if (monies.length === 1 && eq(monies[0]!.value, total)) {
        const cand = candidates.find((c) => c.amount === monies[0]);
        if (cand) out.tax = { value: cents(shareAt(total, rate.value)), confidence: 0.5, source: cand, keyword: cand.label?.keyword ?? '-', evidence: ['included-at-printed-rate'] };
        continue;
      }
      if (monies.length) continue; // the line's own amount: weighed above
      for (const above of facts.lines.slice(Math.max(0, i - 3), i).reverse()) {
        const net = above.amounts.find((a) => a.moneyLike && !a.percent && a.value > 0 && a.value < total && Math.abs(a.value * rate.value / 100 - (total - a.value)) <= 0.011);
        const cand = net && candidates.find((c) => c.amount === net);
        if (net && cand) { out.tax = { value: cents(total - net.value), confidence: 0.55, source: cand, keyword: 'rate', evidence: ['net-at-printed-rate'] }; break; }
      }
    }
    // "Total 6% supplies (excl. GST) 26.40" / "(incl. GST) 27.98": a group's tax, when no other tax is printed
    if (!out.tax) {
      const totalsLabelled = by('total').filter((c) => c.amount.moneyLike && !eq(c.amount.value, total));
      for (const sc of subtotals) {
        const inc = totalsLabelled.find((t) => Math.abs(t.lineIndex - sc.lineIndex) <= 3 && t.amount.value > sc.amount.value && plausibleIncludedTax(cents(t.amount.value - sc.amount.value), t.amount.value));
        if (inc && sc.amount.moneyLike) { out.tax = { value: cents(inc.amount.value - sc.amount.value), confidence: 0.55, source: inc, keyword: inc.label?.keyword ?? '-', evidence: ['group-incl-minus-excl'] }; break; }
      }
    }
  }
  // the amount tendered: never below the total (a product line mentioning a card is not a payment)
  const paid = pickConsistent(by('paid').filter((c) => Math.abs(c.amount.value) > 0 && (total === undefined || Math.abs(c.amount.value) + tol >= total)), (v) => Math.abs(v) + tol >= total! && (eq(Math.abs(v), total!) || by('change').some((ch) => eq(Math.abs(v) - Math.abs(ch.amount.value), total!))), 0.5, 0.85);
  if (paid) out.paid = { ...paid, value: Math.abs(paid.value) };
  const change = pickConsistent(by('change').filter((c) => c.amount.value >= 0), (v) => by('paid').some((p) => eq(p.amount.value - v, total!)), 0.5, 0.85);
  if (change) out.change = change;
  const rounding = pickConsistent(roundingCands, (v) => totalLabelled.some((t) => !eq(t.amount.value, total!) && eq(t.amount.value + v, total!)) || subtotals.some((s) => taxes.some((t) => eq(s.amount.value + t.amount.value + v, total!))), 0.5, 0.85);
  if (rounding) out.rounding = rounding;
  const discount = pickConsistent(by('discount').filter((c) => c.amount.value !== 0), () => false, 0.5, 0.8);
  if (discount) out.discount = { ...discount, value: Math.abs(discount.value) };
  const tip = pickConsistent(by('tip').filter((c) => c.amount.value > 0 && (total === undefined || c.amount.value < total)), () => false, 0.55, 0.8);
  if (tip) out.tip = tip;
  return out;
}

/** Values reachable by replacing any one digit (OCR), for values the arithmetic confirms twice. */
function anyDigitVariants(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (!/\d/.test(text[i]!)) continue;
    for (let d = 0; d <= 9; d++) {
      if (String(d) === text[i]) continue;
      const v = Number(text.slice(0, i) + d + text.slice(i + 1));
      if (Number.isFinite(v)) out.push(v);
    }
  }
  return out;
}

/** Several tax summary rows (SR 6 %, ZR 0 %) that together make the total (up to rounding): their taxes add up. */
function summaryRowsTax(facts: MoneyFacts, total: number, tol: number): ChosenAmount | undefined {
  const rows = facts.summaryRows;
  const gross = cents(rows.reduce((a, r) => a + r.net + r.tax, 0));
  if (Math.abs(gross - total) > Math.max(tol, 0.05)) return undefined;
  const tax = cents(rows.reduce((a, r) => a + r.tax, 0));
  const main = rows.reduce((a, r) => (r.tax > a.tax ? r : a), rows[0]!);
  const a = main.amounts[main.amounts.length - (main.gross !== undefined ? 2 : 1)];
  const source = facts.candidates.find((c) => c.amount === a);
  if (!source) return undefined;
  return { value: tax, confidence: 0.75, source, keyword: 'summary', evidence: ['tax-summary-rows'] };
}

/**
 * The tax at the rate printed on its line (0-30 %) of the total: tax = total x rate / (100 + rate), the
 * same whether the tax is added to a net or included in the total (a cent and a half of rounding).
 */
function taxAtPrintedRate(facts: MoneyFacts, lineIndex: number, tax: number, total: number): boolean {
  const f = facts.lines.find((l) => l.line.index === lineIndex);
  const rate = f && printedRate(f);
  return !!rate && Math.abs(tax - shareAt(total, rate.value)) <= 0.015;
}

/** The tax a gross amount holds at a rate in percent: gross x rate / (100 + rate). */
const shareAt = (gross: number, rate: number): number => gross * rate / (100 + rate);

/** A tax printed as "included" is plausible at a common rate of the total (5-25 %). */
function plausibleIncludedTax(tax: number, total: number): boolean {
  if (!(total > 0)) return false;
  const r = tax / (total - tax);
  return [0.05, 0.06, 0.07, 0.08, 0.1, 0.11, 0.12, 0.15, 0.18, 0.19, 0.2, 0.21, 0.22, 0.23, 0.24, 0.25, 0.055, 0.077, 0.09, 0.13, 0.14].some((rate) => Math.abs(r - rate) < 0.004 || Math.abs(tax - cents(total * rate / (1 + rate))) < 0.015);
}

export type { Amount };
