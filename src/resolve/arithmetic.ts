/**
 * Receipt arithmetic: the values a total can be derived from (paid - change, subtotal + tax + service
 * + rounding - discount, the item lines, the tax summary), used as independent evidence for the total
 * and the other money fields.
 */
import { cents } from '../locale/numbers.js';

/** Equal within half a cent (or half a unit for whole currencies when `tol` is given). */
export function same(a: number, b: number, tol = 0.005): boolean {
  return Math.abs(a - b) < tol;
}

/** A value with where it came from; `repaired` when an OCR alternative reading was needed. */
export interface Reading { value: number; repaired: boolean; lineIndex: number }

export interface Derivation {
  value: number;
  kind: 'paid-change' | 'paid-exact' | 'subtotal-sum' | 'items' | 'summary' | 'rounded' | 'partials';
  /** Used an alternative (repaired) reading of an addend. */
  repaired: boolean;
  /** Lines that took part. */
  lines: number[];
  /** Human-readable formula, e.g. `51.42+3.08`. */
  formula: string;
}

/** Every combination of optional addends (each list: pick none or one), bounded. */
function* combos(lists: Reading[][], limit = 400): Generator<Reading[]> {
  let count = 0;
  const pick: Reading[] = [];
  function* rec(i: number): Generator<Reading[]> {
    if (count >= limit) return;
    if (i === lists.length) { count++; yield [...pick]; return; }
    yield* rec(i + 1);
    for (const r of lists[i]!) {
      pick.push(r);
      yield* rec(i + 1);
      pick.pop();
    }
  }
  yield* rec(0);
}

export interface ArithmeticInput {
  paid: Reading[];
  change: Reading[];
  subtotal: Reading[];
  taxBase: Reading[];
  tax: Reading[];
  service: Reading[];
  discount: Reading[];
  rounding: Reading[];
  items: Reading[];
  summary: Array<{ net: number; tax: number; gross?: number; lineIndex: number }>;
  /** Whole-unit currency: compare within half a unit. */
  wholeCurrency: boolean;
}

/** Values the receipt's arithmetic produces, each with its derivation. */
export function derivations(input: ArithmeticInput): Derivation[] {
  const out: Derivation[] = [];
  const push = (d: Derivation) => { if (d.value > 0) out.push({ ...d, value: cents(d.value) }); };
  // paid - change
  for (const p of input.paid) {
    for (const c of input.change) {
      if (c.lineIndex === p.lineIndex && c.value === p.value) continue;
      if (c.value < 0 || c.value >= p.value) continue;
      push({ value: p.value - c.value, kind: c.value === 0 ? 'paid-exact' : 'paid-change', repaired: p.repaired || c.repaired, lines: [p.lineIndex, c.lineIndex], formula: `${p.value}-${c.value}` });
    }
  }
  // subtotal (+ tax)(+ service)(+ rounding)(- discount)
  const bases = [...input.subtotal, ...input.taxBase].slice(0, 5);
  const taxes = input.tax.slice(0, 4);
  const taxLists: Reading[][] = [taxes];
  if (taxes.length > 1) {
    const sum = taxes.reduce((s, t) => s + t.value, 0);
    taxLists[0] = [...taxes, { value: sum, repaired: taxes.some((t) => t.repaired), lineIndex: taxes[0]!.lineIndex }];
  }
  const discounts = input.discount.slice(0, 3).map((d) => ({ ...d, value: -Math.abs(d.value) }));
  for (const s of bases) {
    // a rounding or discount line above the base was applied before it ("LESS 30% -2.37 / SUBTOTAL 41.43 / ROUNDING 0.02 / SUBTOTAL 41.45")
    const below = (list: Reading[]) => list.filter((r) => r.lineIndex > s.lineIndex);
    for (const pick of combos([taxLists[0]!, input.service.slice(0, 2), below(input.rounding.slice(0, 2)), below(discounts)])) {
      if (!pick.length || pick.every((r) => r.value === 0)) continue;
      const v = s.value + pick.reduce((a, r) => a + r.value, 0);
      push({ value: v, kind: 'subtotal-sum', repaired: s.repaired || pick.some((r) => r.repaired), lines: [s.lineIndex, ...pick.map((r) => r.lineIndex)], formula: [s.value, ...pick.map((r) => r.value)].join('+') });
    }
  }
  // item lines
  if (input.items.length >= 2) {
    const sum = input.items.reduce((a, r) => a + r.value, 0);
    const repaired = input.items.some((r) => r.repaired);
    const lines = input.items.map((r) => r.lineIndex);
    push({ value: sum, kind: 'items', repaired, lines, formula: `items(${input.items.length})` });
    for (const pick of combos([taxLists[0] ?? [], input.service.slice(0, 2), input.rounding.slice(0, 2), discounts], 120)) {
      if (!pick.length || pick.every((r) => r.value === 0)) continue;
      push({ value: sum + pick.reduce((a, r) => a + r.value, 0), kind: 'items', repaired: repaired || pick.some((r) => r.repaired), lines: [...lines, ...pick.map((r) => r.lineIndex)], formula: `items(${input.items.length})+${pick.map((r) => r.value).join('+')}` });
    }
  }
  // tax summary rows
  if (input.summary.length) {
    for (const row of input.summary) {
      push({ value: row.net + row.tax, kind: 'summary', repaired: false, lines: [row.lineIndex], formula: `${row.net}+${row.tax}` });
      if (row.gross !== undefined && same(row.net + row.tax, row.gross, 0.015)) push({ value: row.gross, kind: 'summary', repaired: false, lines: [row.lineIndex], formula: `gross ${row.gross}` });
    }
    if (input.summary.length > 1) {
      const net = input.summary.reduce((a, r) => a + r.net, 0), tax = input.summary.reduce((a, r) => a + r.tax, 0);
      push({ value: net + tax, kind: 'summary', repaired: false, lines: input.summary.map((r) => r.lineIndex), formula: 'summary-rows' });
    }
  }
  return out;
}
