/**
 * The tax: TAX_RULES, tried in order, the first that gives a value decides. The first five weigh the
 * printed tax lines and summary rows; the rest, for decimal currencies only, find a tax that is not
 * printed readably from the total and a net (or a printed rate). For fitting (issue 34), taxCandidates
 * lists every value any rule gives and every tax line's reading, with the rules that give it as features;
 * chooseTax ranks them by a fitted model when asked (engine option `ranking: 'fitted'`).
 */
import { printedRate } from '../../fields/amounts.js';
import type { MoneyCandidate, MoneyFacts } from '../../fields/amounts.js';
import { TAX_NAME } from '../../locale/keywords.js';
import { cents } from '../../locale/numbers.js';
import { roundConfidence } from '../../fields/confidence.js';
import type { RankModel } from '../field-model.js';
import { modelScore } from '../field-model.js';
import { firstHit, pickConsistent } from './pick.js';
import type { AmountRule, PickContext } from './pick.js';
import type { ChosenAmount } from '../../fields/amounts.js';

/** The tax a gross amount holds at a rate in percent: gross x rate / (100 + rate). */
export const shareAt = (gross: number, rate: number): number => gross * rate / (100 + rate);

/** A tax printed as "included" is plausible at a common rate of the total (5-25 %). */
export function plausibleIncludedTax(tax: number, total: number): boolean {
  if (!(total > 0)) return false;
  const r = tax / (total - tax);
  return [0.05, 0.06, 0.07, 0.08, 0.1, 0.11, 0.12, 0.15, 0.18, 0.19, 0.2, 0.21, 0.22, 0.23, 0.24, 0.25, 0.055, 0.077, 0.09, 0.13, 0.14].some((rate) => Math.abs(r - rate) < 0.004 || Math.abs(tax - cents(total * rate / (1 + rate))) < 0.015);
}

/**
 * The tax at the rate printed on its line (0-30 %) of the total: tax = total x rate / (100 + rate), the
 * same whether the tax is added to a net or included in the total (a cent and a half of rounding).
 */
export function taxAtPrintedRate(facts: MoneyFacts, lineIndex: number, tax: number, total: number): boolean {
  const f = facts.lines.find((l) => l.line.index === lineIndex);
  const rate = f && printedRate(f);
  return !!rate && Math.abs(tax - shareAt(total, rate.value)) <= 0.015;
}

/** A tax reading consistent with the total: with a subtotal, a summary row, as included, at its printed rate. */
function consistentTax(pc: PickContext, v: number, c: MoneyCandidate): boolean {
  const { ctx, subtotals, sumsTo, taxes } = pc;
  const { eq, facts, opts } = ctx;
  const total = pc.total!;
  return subtotals.some((s) => sumsTo([s.amount.value, v])) || facts.summaryRows.some((r) => eq(r.tax, v) && pc.total !== undefined && eq(r.net + r.tax, total)) || (taxes.find((t) => t.role === 'taxIncluded' && eq(t.amount.value, v)) !== undefined && plausibleIncludedTax(v, total))
    // the rate printed on the tax line gives it from the total ("VAT (20.00%) 22.82" of 136.95, "Tax 6.25% 2.57" of 43.67)
    || (!opts.wholeCurrency && v > 0 && taxAtPrintedRate(facts, c.lineIndex, v, total))
    // a subtotal that is already the total: the tax printed above it is included, at a usual rate
    || (v > 0 && subtotals.some((s) => sumsTo([s.amount.value])) && plausibleIncludedTax(v, total));
}

/** The tax line consistent with the total, else the last printed one (picked once per resolution). */
export function taxChoice(pc: PickContext): ChosenAmount | undefined {
  pc.taxPick ??= { chosen: pickConsistent(pc, pc.taxes, (v, c) => consistentTax(pc, v, c), 0.5, 0.88) };
  return pc.taxPick.chosen;
}

/** Several tax lines (CGST + SGST, 7 % + 19 %) whose sum closes subtotal + tax = total when no single line does. */
function taxLinesSum(pc: PickContext): ChosenAmount | undefined {
  const { subtotals, sumsTo } = pc;
  const taxLines = pc.taxes.filter((t) => t.amount.moneyLike && t.amount.value > 0);
  const taxSum = cents(taxLines.reduce((a, t) => a + t.amount.value, 0));
  const chosen = taxChoice(pc);
  if (taxLines.length < 2 || new Set(taxLines.map((t) => t.lineIndex)).size < 2 || !subtotals.some((sc) => sumsTo([sc.amount.value, taxSum]))) return undefined;
  if (chosen && subtotals.some((sc) => sumsTo([sc.amount.value, chosen.value]))) return undefined;
  return { value: taxSum, confidence: 0.88, source: taxLines[taxLines.length - 1]!, keyword: taxLines[0]!.label?.keyword ?? '-', evidence: ['tax-lines-sum'] };
}

/** The tax line that agrees with the total (subtotal + tax, a summary row, included, at its printed rate). */
function taxConsistent(pc: PickContext): ChosenAmount | undefined {
  const chosen = taxChoice(pc);
  return chosen?.consistent ? chosen : undefined;
}

/** The last printed tax line, when none agrees with the total. */
function taxLine(pc: PickContext): ChosenAmount | undefined {
  const chosen = taxChoice(pc);
  return chosen && !chosen.consistent ? chosen : undefined;
}

/** Several tax summary rows (SR 6 %, ZR 0 %) that together make the total (up to rounding): their taxes add up. */
function taxSummaryRows(pc: PickContext): ChosenAmount | undefined {
  const { facts, tol } = pc.ctx;
  const rows = facts.summaryRows, total = pc.total;
  if (rows.length <= 1 || total === undefined) return undefined;
  const gross = cents(rows.reduce((a, r) => a + r.net + r.tax, 0));
  if (Math.abs(gross - total) > Math.max(tol, 0.05)) return undefined;
  const tax = cents(rows.reduce((a, r) => a + r.tax, 0));
  const main = rows.reduce((a, r) => (r.tax > a.tax ? r : a), rows[0]!);
  const a = main.amounts[main.amounts.length - (main.gross !== undefined ? 2 : 1)];
  const source = facts.candidates.find((c) => c.amount === a);
  if (!source) return undefined;
  return { value: tax, confidence: 0.75, source, keyword: 'summary', evidence: ['tax-summary-rows'] };
}

/** The tax of the summary row that makes the total, else of the last row (less confident). */
function taxSummary(pc: PickContext): ChosenAmount | undefined {
  const { facts, eq } = pc.ctx;
  const total = pc.total;
  if (!facts.summaryRows.length || total === undefined) return undefined;
  const row = facts.summaryRows.find((r) => eq(r.net + r.tax, total)) ?? facts.summaryRows[facts.summaryRows.length - 1]!;
  const a = row.amounts[row.amounts.length - (row.gross !== undefined ? 2 : 1)];
  const cand = facts.candidates.find((c) => c.amount === a);
  if (!cand) return undefined;
  return { value: cents(row.tax), confidence: eq(row.net + row.tax, total) ? 0.8 : 0.45, source: cand, keyword: 'summary', evidence: ['tax-summary'] };
}

/** The total of a decimal currency, for the rules that take the tax from it (none for whole currencies). */
const decimalTotal = (pc: PickContext): number | undefined => (pc.ctx.opts.wholeCurrency ? undefined : pc.total);

/** "Total (excl. GST) 26.40" and "Total (inc. GST) 27.98": the tax is the difference (less a service charge), at a usual rate. */
function totalMinusNet(pc: PickContext): ChosenAmount | undefined {
  const total = decimalTotal(pc);
  if (total === undefined) return undefined;
  for (const sc of pc.subtotals) {
    // a service charge printed between net and total first ("SUBTOTAL 87.30 / SV CHG 10% 8.73 / TOTAL
    // 102.75": 6.72, not the 15.45 of service and tax together)
    for (const s of [...pc.services, 0]) {
      const d = cents(total - sc.amount.value - s);
      if (d > 0 && sc.amount.moneyLike && plausibleIncludedTax(d, total - s)) return { value: d, confidence: 0.6, source: sc, keyword: sc.label?.keyword ?? '-', evidence: [s ? 'total-minus-net-and-service' : 'total-minus-net'] };
    }
  }
  return undefined;
}

/** A summary line "SR@6% 103.49 <unreadable>" or "6 3.49 21": net and total give the tax, confirmed by the printed rate or the digits right of the net. */
function totalMinusNetLine(pc: PickContext): ChosenAmount | undefined {
  const total = decimalTotal(pc);
  if (total === undefined) return undefined;
  for (const f of pc.ctx.facts.lines) {
    const nets = f.amounts.filter((a) => a.moneyLike && !a.percent && a.value > 0 && a.value < total);
    for (const a of nets) {
      const d = cents(total - a.value);
      if (d <= 0 || !plausibleIncludedTax(d, total)) continue;
      const rateOk = f.amounts.some((p) => p.percent && Math.abs(a.value * p.value / 100 - d) <= 0.011);
      const digits = String(Math.round(d * 100));
      const digitsOk = f.amounts.some((b) => b !== a && b.start > a.start && b.text.replace(/\D/g, '') === digits);
      const cand = pc.ctx.facts.candidates.find((c) => c.amount === a);
      if ((rateOk || digitsOk) && cand) return { value: d, confidence: 0.55, source: cand, keyword: 'summary', evidence: ['total-minus-net-line'] };
    }
  }
  return undefined;
}

/** A tax line that prints its rate but whose amount did not read: the total's share at that rate, or the net above that the rate takes to the total. */
function taxAtRate(pc: PickContext): ChosenAmount | undefined {
  const total = decimalTotal(pc);
  if (total === undefined) return undefined;
  const { facts, eq } = pc.ctx;
  // "TAX 8.75% =", "INCL. BTW: 6.00% 21.95 1.": on the line of the total it is included in, the total's
  // share at that rate; else the net just above it that the rate takes to the total (4.05 + 8.75 % = 4.40).
  // The first such line decides.
  for (const [i, f] of facts.lines.entries()) {
    if (!f.labels.some((l) => l && (l.role === 'tax' || l.role === 'taxIncluded')) && !TAX_NAME.test(f.canon)) continue;
    const rate = printedRate(f);
    if (!rate) continue;
    const monies = f.amounts.filter((a) => a.moneyLike && !a.percent && a.value > 0);
    if (monies.length === 1 && eq(monies[0]!.value, total)) {
      const cand = facts.candidates.find((c) => c.amount === monies[0]);
      if (cand) return { value: cents(shareAt(total, rate.value)), confidence: 0.5, source: cand, keyword: cand.label?.keyword ?? '-', evidence: ['included-at-printed-rate'] };
      continue;
    }
    if (monies.length) continue; // the line's own amount: weighed by the rules above
    for (const above of facts.lines.slice(Math.max(0, i - 3), i).reverse()) {
      const net = above.amounts.find((a) => a.moneyLike && !a.percent && a.value > 0 && a.value < total && Math.abs(a.value * rate.value / 100 - (total - a.value)) <= 0.011);
      const cand = net && facts.candidates.find((c) => c.amount === net);
      if (net && cand) return { value: cents(total - net.value), confidence: 0.55, source: cand, keyword: 'rate', evidence: ['net-at-printed-rate'] };
    }
  }
  return undefined;
}

/** "Total 6% supplies (excl. GST) 26.40" / "(incl. GST) 27.98": a group's tax, when no other tax is printed. */
function groupInclMinusExcl(pc: PickContext): ChosenAmount | undefined {
  const total = decimalTotal(pc);
  if (total === undefined) return undefined;
  const totalsLabelled = pc.ctx.by('total').filter((c) => c.amount.moneyLike && !pc.ctx.eq(c.amount.value, total));
  for (const sc of pc.subtotals) {
    const inc = totalsLabelled.find((t) => Math.abs(t.lineIndex - sc.lineIndex) <= 3 && t.amount.value > sc.amount.value && plausibleIncludedTax(cents(t.amount.value - sc.amount.value), t.amount.value));
    if (inc && sc.amount.moneyLike) return { value: cents(inc.amount.value - sc.amount.value), confidence: 0.55, source: inc, keyword: inc.label?.keyword ?? '-', evidence: ['group-incl-minus-excl'] };
  }
  return undefined;
}

/** The tax's rules, in the order they are tried. */
export const TAX_RULES: readonly AmountRule[] = [
  { name: 'tax-lines-sum', pick: taxLinesSum },
  { name: 'tax-consistent', pick: taxConsistent },
  { name: 'tax-line', pick: taxLine },
  { name: 'tax-summary-rows', pick: taxSummaryRows },
  { name: 'tax-summary', pick: taxSummary },
  { name: 'total-minus-net', pick: totalMinusNet },
  { name: 'total-minus-net-line', pick: totalMinusNetLine },
  { name: 'tax-at-printed-rate', pick: taxAtRate },
  { name: 'group-incl-minus-excl', pick: groupInclMinusExcl },
];

/** A tax value weighed: its features, the rules' rank score (the first rule's place, first-match order), and what it would answer. */
export interface TaxCandidate { value: number; features: Record<string, number>; score: number; hit: ChosenAmount }

/** A printed tax line that no rule chose is a candidate below every rule's value... */
const PRINTED_ONLY_SCORE = -1;
/** ...and, if a fitted model chooses it, given at this confidence (below a rule's last-printed line, 0.5). */
const PRINTED_ONLY_CONFIDENCE = 0.4;

/**
 * Every tax value the rules give (each rule's own value, not only the first rule's) and every tax line's
 * reading. Features: `rule:<name>` for each rule that gives the value, `consistent` (a rule found it
 * agrees with the total), `printed` (a tax line reads it), `last-printed` (the last such line). The tax
 * label's strength was one too, held at 0 by the fit and removed. The score is the first-match order: the
 * rule list's length less the first giving rule's place, -1 for a printed value no rule gives.
 */
export function taxCandidates(pc: PickContext): TaxCandidate[] {
  const byValue = new Map<number, TaxCandidate>();
  const entry = (value: number, hit: ChosenAmount, score: number): TaxCandidate => {
    let e = byValue.get(value);
    if (!e) byValue.set(value, (e = { value, features: {}, score, hit }));
    return e;
  };
  TAX_RULES.forEach((rule, place) => {
    const hit = rule.pick(pc);
    if (!hit) return;
    const e = entry(hit.value, { ...hit, evidence: [...hit.evidence, `rule:${rule.name}`] }, TAX_RULES.length - place);
    e.features[`rule:${rule.name}`] = 1;
    if (hit.consistent) e.features.consistent = 1;
  });
  const printed = pc.taxes.filter((c) => c.amount.moneyLike);
  printed.forEach((c, k) => {
    const value = cents(c.amount.value);
    const e = entry(value, { value, confidence: roundConfidence(PRINTED_ONLY_CONFIDENCE), source: c, keyword: c.label?.keyword ?? '-', evidence: ['rule:printed-tax-line'] }, PRINTED_ONLY_SCORE);
    e.features.printed = 1;
    if (k === printed.length - 1) e.features['last-printed'] = 1;
  });
  return [...byValue.values()];
}

/** The tax: by the fitted model's ranking of taxCandidates when one is given (ties to the rules' order), else the first rule's value. */
export function chooseTax(pc: PickContext, model?: RankModel): ChosenAmount | undefined {
  if (!model) return firstHit(TAX_RULES, pc);
  const cands = taxCandidates(pc);
  let best: TaxCandidate | undefined, bestScore = -Infinity;
  for (const c of cands) {
    const s = modelScore(model, c.features);
    if (s > bestScore || (s === bestScore && best && c.score > best.score)) { best = c; bestScore = s; }
  }
  // the evidence keeps the deciding rule last ("rule:<name>")
  return best && { ...best.hit, evidence: [`model=${bestScore.toFixed(2)}`, ...best.hit.evidence] };
}
