/**
 * What the rules of the other money fields (subtotal, tax, paid, change, rounding, discount, tip) share:
 * the chosen total, the tax and subtotal lines sized to it, and the pick "consistent with the total,
 * else the last printed". A field's rules are an ordered list; the first that gives a value decides.
 */
import type { MoneyCandidate } from '../../fields/amounts.js';
import { cents } from '../../locale/numbers.js';
import { roundConfidence } from '../../fields/confidence.js';
import type { ChosenAmount } from '../../fields/amounts.js';
import type { MoneyContext } from './types.js';

/** What the field rules read: the money context, the chosen total and the lines sized to it. */
export interface PickContext {
  ctx: MoneyContext;
  total?: number;
  /** Tax lines, a too-large one as its repaired reading ("Tax 6.25% +$257"). */
  taxes: MoneyCandidate[];
  /** Subtotal and tax-base lines up to 1.5 times the total. */
  subtotals: MoneyCandidate[];
  /** The parts, with or without one rounding line, less one discount and plus one service charge, make the total. */
  sumsTo: (parts: number[]) => boolean;
  /** The service charges printed ("SVC CHG 10% 8.73"), positive, below the total. */
  services: number[];
  /** Filled by the tax rules: the tax line consistent with the total (computed once). */
  taxPick?: { chosen?: ChosenAmount };
}

/** A named rule of a money field: gives its value, or nothing to let the next rule try. */
export interface AmountRule { name: string; pick: (pc: PickContext) => ChosenAmount | undefined }

/** The evidence of an amount consistent with the total. */
export const CONSISTENT = 'consistent-with-total';

/** The lines the field rules weigh against the total `total`. */
export function pickContext(ctx: MoneyContext, total: number | undefined): PickContext {
  const { by, tol, eq } = ctx;
  // a tax amount too large for the total may have lost its decimal point ("Tax 6.25% +$257"): its repaired reading
  const taxSized = (v: number) => v >= 0 && (total === undefined || v < total * 0.5 + tol);
  const taxes = by('tax', 'taxIncluded').flatMap((c): MoneyCandidate[] => {
    if (taxSized(c.amount.value)) return [c];
    const alt = c.amount.alternatives.find(taxSized);
    // only as an alternative: taken when it agrees with the total, never as a fallback
    return alt !== undefined ? [{ ...c, amount: { ...c.amount, value: alt, moneyLike: false, alternatives: [alt] } }] : [];
  });
  const subtotals = by('subtotal', 'taxBase').filter((c) => c.amount.value > 0 && (total === undefined || c.amount.value <= total * 1.5));
  const roundV = ctx.roundingCands.map((r) => r.amount.value);
  const discV = by('discount').map((d) => Math.abs(d.amount.value));
  const services = [...new Set(by('service').filter((c) => c.amount.moneyLike && c.amount.value > 0 && (total === undefined || c.amount.value < total)).map((c) => c.amount.value))];
  const sumsTo = (parts: number[]) => total !== undefined && [0, ...roundV].some((r) => [0, ...discV].some((d) => [0, ...services].some((s) => eq(parts.reduce((a, b) => a + b, 0) + r - d + s, total))));
  return { ctx, ...(total !== undefined ? { total } : {}), taxes, subtotals, sumsTo, services };
}

/** The first reading of the list that `test` finds consistent with the total, else the last printed amount. */
export function pickConsistent(pc: PickContext, list: MoneyCandidate[], test: (v: number, c: MoneyCandidate) => boolean, baseConf: number, okConf: number): ChosenAmount | undefined {
  const usable = list.filter((c) => c.amount.moneyLike || c.amount.alternatives.length);
  const hits: Array<{ c: MoneyCandidate; v: number; ok: boolean }> = [];
  for (const c of usable) {
    const vals = c.amount.moneyLike ? [c.amount.value, ...c.amount.alternatives] : c.amount.alternatives;
    for (const v of vals) hits.push({ c, v, ok: pc.total !== undefined && test(v, c) });
  }
  const ok = hits.find((h) => h.ok);
  const chosen = ok ?? hits.filter((h) => h.c.amount.moneyLike && h.v === h.c.amount.value).pop();
  if (!chosen) return undefined;
  return { value: cents(chosen.v), confidence: roundConfidence(ok ? okConf : baseConf), source: chosen.c, keyword: chosen.c.label?.keyword ?? '-', evidence: ok ? [CONSISTENT] : [], ...(ok ? { consistent: true as const } : {}) };
}

/** The value of the first rule that gives one, its evidence ending with `rule:<name>`. */
export function firstHit(rules: readonly AmountRule[], pc: PickContext): ChosenAmount | undefined {
  for (const rule of rules) {
    const hit = rule.pick(pc);
    if (hit) return { ...hit, evidence: [...hit.evidence, `rule:${rule.name}`] };
  }
  return undefined;
}
