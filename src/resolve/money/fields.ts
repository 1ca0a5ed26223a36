/**
 * The money fields other than the total, each an ordered list of named rules (the first that gives a
 * value decides), in the order they are resolved: subtotal, tax, paid, change, rounding, discount, tip.
 */
import { pickConsistent } from './pick.js';
import type { AmountRule, PickContext } from './pick.js';
import { TAX_RULES } from './tax.js';
import type { ChosenAmount, MoneyResolution } from '../../fields/amounts.js';

/** The subtotal line that closes subtotal + tax = total (or is the total, with a tax included), else the last printed. */
function subtotalLine(pc: PickContext): ChosenAmount | undefined {
  const { taxes, sumsTo } = pc;
  return pickConsistent(pc, pc.subtotals, (v) => taxes.some((t) => sumsTo([v, t.amount.value])) || (sumsTo([v]) && taxes.some((t) => t.role === 'taxIncluded')), 0.55, 0.9);
}

/** The amount tendered, never below the total (a product line mentioning a card is not a payment): the total, or the total plus the change. */
function paidLine(pc: PickContext): ChosenAmount | undefined {
  const { by, tol, eq } = pc.ctx;
  const total = pc.total;
  const paid = pickConsistent(pc, by('paid').filter((c) => Math.abs(c.amount.value) > 0 && (total === undefined || Math.abs(c.amount.value) + tol >= total)), (v) => Math.abs(v) + tol >= total! && (eq(Math.abs(v), total!) || by('change').some((ch) => eq(Math.abs(v) - Math.abs(ch.amount.value), total!))), 0.5, 0.85);
  return paid && { ...paid, value: Math.abs(paid.value) };
}

/** The change that a paid amount less it makes the total, else the last printed. */
function changeLine(pc: PickContext): ChosenAmount | undefined {
  const { by, eq } = pc.ctx;
  return pickConsistent(pc, by('change').filter((c) => c.amount.value >= 0), (v) => by('paid').some((p) => eq(p.amount.value - v, pc.total!)), 0.5, 0.85);
}

/** The rounding that takes another labelled total, or subtotal + tax, to the total, else the last printed. */
function roundingLine(pc: PickContext): ChosenAmount | undefined {
  const { eq, totalLabelled, roundingCands } = pc.ctx;
  const total = pc.total!;
  return pickConsistent(pc, roundingCands, (v) => totalLabelled.some((t) => !eq(t.amount.value, total) && eq(t.amount.value + v, total)) || pc.subtotals.some((s) => pc.taxes.some((t) => eq(s.amount.value + t.amount.value + v, total))), 0.5, 0.85);
}

/** The last printed discount, as a positive amount. */
function discountLine(pc: PickContext): ChosenAmount | undefined {
  const discount = pickConsistent(pc, pc.ctx.by('discount').filter((c) => c.amount.value !== 0), () => false, 0.5, 0.8);
  return discount && { ...discount, value: Math.abs(discount.value) };
}

/** The last printed tip below the total. */
function tipLine(pc: PickContext): ChosenAmount | undefined {
  const total = pc.total;
  return pickConsistent(pc, pc.ctx.by('tip').filter((c) => c.amount.value > 0 && (total === undefined || c.amount.value < total)), () => false, 0.55, 0.8);
}

/** Each money field but the total with its rules, in the order they are resolved. */
export const FIELD_RULES: ReadonlyArray<{ field: Exclude<keyof MoneyResolution, 'total'>; rules: readonly AmountRule[] }> = [
  { field: 'subtotal', rules: [{ name: 'subtotal-line', pick: subtotalLine }] },
  { field: 'tax', rules: TAX_RULES },
  { field: 'paid', rules: [{ name: 'paid-line', pick: paidLine }] },
  { field: 'change', rules: [{ name: 'change-line', pick: changeLine }] },
  { field: 'rounding', rules: [{ name: 'rounding-line', pick: roundingLine }] },
  { field: 'discount', rules: [{ name: 'discount-line', pick: discountLine }] },
  { field: 'tip', rules: [{ name: 'tip-line', pick: tipLine }] },
];
