/**
 * The candidate-building steps of the money resolution, in the order they run: the rounding lines, the
 * arithmetic's derivations (with partial totals and rounding applied), then the total's candidate
 * values (printed, OCR-repaired, derived only). `moneyContext` runs them and holds what the rules read.
 */
import type { MoneyCandidate, MoneyFacts } from '../../fields/amounts.js';
import { cents, confusedVariants } from '../../locale/numbers.js';
import { derivations, same } from '../arithmetic.js';
import type { ArithmeticInput, Derivation, Reading } from '../arithmetic.js';
import type { MoneyContext, MoneyOptions, RoundingApplied, ValueCandidate } from './types.js';

/** Roles whose amounts are not the size of a total's rivals (payments, change, points, ...). */
const NOT_RIVALS = ['paid', 'change', 'balance', 'points', 'deposit', 'info', 'quantity'];

/** Runs the candidate-building steps in order and returns the context the rules read. */
export function moneyContext(read: MoneyFacts, opts: MoneyOptions): MoneyContext {
  const tol = opts.wholeCurrency ? 0.5 : 0.005;
  const eq = (a: number, b: number) => same(a, b, tol);
  const facts: MoneyFacts = { ...read, candidates: tenderedUnlabelled(read.candidates, eq) };
  const by = (...roles: string[]) => facts.candidates.filter((c) => roles.includes(c.role));
  const smallRounding = opts.wholeCurrency ? 100 : 0.1;
  const roundingCands = roundingCandidates(by('rounding'), opts);
  const roundingAsTotal = roundedTotals(by('rounding'), smallRounding);
  const derived = derivations(arithmeticInput(facts, by, roundingCands, opts));
  derived.push(...partialTotals(by('total'), eq));
  derived.push(...preTaxTotals(by('total'), by('tax'), facts.candidates, eq));
  const afterTotals = roundingAfterTotals([...by('total'), ...roundingAsTotal], roundingCands, eq);
  derived.push(...afterTotals.derived);
  const afterDerived = roundingAfterDerived(derived, roundingCands);
  derived.push(...afterDerived.derived);
  const keyOf = (v: number) => (opts.wholeCurrency ? String(Math.round(v)) : cents(v).toFixed(2));
  const derivedByKey = new Map<string, Derivation[]>();
  for (const d of derived) { const k = keyOf(d.value); const l = derivedByKey.get(k); if (l) l.push(d); else derivedByKey.set(k, [d]); }
  const printedLines = new Map<string, Set<number>>();
  const paidKeys = new Set<string>();
  for (const c of facts.candidates) {
    if (c.amount.moneyLike) { const k = keyOf(c.amount.value); (printedLines.get(k) ?? printedLines.set(k, new Set()).get(k)!).add(c.lineIndex); }
    if (c.role === 'paid') paidKeys.add(keyOf(Math.abs(c.amount.value)));
  }
  const totalLabelled = [...by('total'), ...roundingAsTotal, ...by('balance')];
  const ctx: MoneyContext = {
    facts, opts, tol, eq, by, smallRounding, roundingCands, roundingAsTotal, derived,
    roundingApplied: [...afterTotals.applied, ...afterDerived.applied],
    keyOf, derivedByKey, derivedAt: (v) => derivedByKey.get(keyOf(v)) ?? [], printedLines, paidKeys, totalLabelled,
    values: new Map(), maxOther: 0, rivalKeys: [], medianLineHeight: 0, finalTotals: [],
  };
  printedValues(ctx);
  repairedValues(ctx);
  derivedValues(ctx);
  const moneyPrinted = facts.candidates.filter((c) => c.amount.moneyLike && c.amount.value > 0);
  const rivals = moneyPrinted.filter((c) => !NOT_RIVALS.includes(c.role)).map((c) => c.amount.value);
  ctx.maxOther = Math.max(0, ...rivals);
  ctx.rivalKeys = [...new Set([...rivals].sort((a, b) => b - a).map(keyOf))];
  const heights = facts.lines.map((l) => l.line.box.y1 - l.line.box.y0).filter((h) => h > 0).sort((a, b) => a - b);
  ctx.medianLineHeight = heights.length ? heights[heights.length >> 1]! : 0;
  ctx.finalTotals = totalLabelled.filter((c) => c.label?.final && (c.amount.moneyLike || c.amount.decimals >= 1 || c.amount.alternatives.length > 0) && c.amount.value > 0);
  return ctx;
}

/** Lines above a labelled change within which an unlabelled amount may be the amount tendered (tenderedUnlabelled). */
const TENDERED_LINES_ABOVE_CHANGE = 2;

/**
 * The amount tendered whose label was misread ("lien mat 200.000d" for "Tien mat", then "Tra lai khach
 * 60.000d"): on a receipt with a labelled change and no labelled payment, an unlabelled amount on one of
 * the lines just above the change, larger than it, from which the change leaves an amount printed on an
 * earlier line (200000 - 60000 = 140000, printed above), takes the role 'paid': the arithmetic then
 * derives the total from it, and the total is not taken to be it.
 */
export function tenderedUnlabelled(candidates: MoneyCandidate[], eq: (a: number, b: number) => boolean): MoneyCandidate[] {
  const changes = candidates.filter((c) => c.role === 'change' && c.amount.moneyLike && c.amount.value > 0);
  if (!changes.length || candidates.some((c) => c.role === 'paid')) return candidates;
  const printedBefore = (line: number, v: number) => candidates.some((t) => t.lineIndex < line && t.amount.moneyLike && eq(t.amount.value, v));
  return candidates.map((c) => {
    if (c.role !== 'none' || !c.amount.moneyLike || !(c.amount.value > 0)) return c;
    const tendered = changes.some((ch) => ch.lineIndex > c.lineIndex && ch.lineIndex - c.lineIndex <= TENDERED_LINES_ABOVE_CHANGE
      && ch.amount.value < c.amount.value && printedBefore(c.lineIndex, c.amount.value - ch.amount.value));
    return tendered ? { ...c, role: 'paid' as const } : c;
  });
}

/** Rounding lines: the printed value when small, or a small repaired reading ("2" for 0.02, of either sign). */
export function roundingCandidates(lines: MoneyCandidate[], opts: MoneyOptions): MoneyCandidate[] {
  const smallRounding = opts.wholeCurrency ? 100 : 0.1;
  return lines.flatMap((c): MoneyCandidate[] => {
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
}

/** Rounding-labelled amounts too large to be a rounding: rounded totals ("Rounded Total 71.00"). */
export function roundedTotals(lines: MoneyCandidate[], smallRounding: number): MoneyCandidate[] {
  return lines.filter((c) => c.amount.value >= smallRounding * 2 && c.amount.moneyLike);
}

/** A candidate's readings for the arithmetic: its printed value when money-like, then its OCR alternatives. */
function readingsOf(c: MoneyCandidate, withAlternatives = true): Reading[] {
  const out: Reading[] = [];
  // a number without the currency's decimals takes part in the arithmetic only through its repaired readings
  if (c.amount.moneyLike || (c.amount.value === 0 && c.role !== 'none')) out.push({ value: c.amount.value, repaired: false, lineIndex: c.lineIndex });
  if (withAlternatives) for (const v of c.amount.alternatives) out.push({ value: v, repaired: true, lineIndex: c.lineIndex });
  return out;
}

/** The labelled readings the receipt's arithmetic adds up (paid, change, subtotal, tax, ..., the item lines). */
export function arithmeticInput(facts: MoneyFacts, by: MoneyContext['by'], roundingCands: MoneyCandidate[], opts: MoneyOptions): ArithmeticInput {
  const rd = (list: MoneyCandidate[], alt = true) => list.flatMap((c) => readingsOf(c, alt));
  const positive = (list: Reading[]) => list.filter((r) => r.value > 0);
  // a tendered amount or change is never negative: a leading "-" there is OCR noise
  const absolute = (list: Reading[]) => list.map((r) => ({ ...r, value: Math.abs(r.value) }));
  return {
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
}

/** Partial totals that add up ("Total 0% supplies" + "Total 6% supplies"): each pair's sum (of the first 8). */
export function partialTotals(totals: MoneyCandidate[], eq: MoneyContext['eq']): Derivation[] {
  const out: Derivation[] = [];
  const partials = totals.filter((c) => c.amount.moneyLike && c.amount.value > 0).slice(0, 8);
  for (let i = 0; i < partials.length; i++) for (let j = i + 1; j < partials.length; j++) {
    const a = partials[i]!, b = partials[j]!;
    if (a.lineIndex === b.lineIndex || eq(a.amount.value, b.amount.value)) continue;
    out.push({ value: cents(a.amount.value + b.amount.value), kind: 'partials', repaired: false, lines: [a.lineIndex, b.lineIndex], formula: `${a.amount.value}+${b.amount.value}` });
  }
  return out;
}

/**
 * A "total" printed before the tax ("Gross Amount 5500.00", "Ser TAX 15% 825.00", "Net Amount
 * 6325.00"): when a money amount printed below a tax line is that total plus the tax, the sum is
 * derived as subtotal + tax (`subtotal-sum`), whatever label the lines carry. Only a sum printed below
 * the tax counts, so a total that already includes its tax is not pushed up by an unprinted sum.
 */
export function preTaxTotals(totals: MoneyCandidate[], taxes: MoneyCandidate[], all: MoneyCandidate[], eq: MoneyContext['eq']): Derivation[] {
  const out: Derivation[] = [];
  for (const t of totals.filter((c) => c.amount.moneyLike && c.amount.value > 0).slice(0, 6)) {
    for (const x of taxes) {
      if (x.lineIndex <= t.lineIndex || !x.amount.moneyLike || x.amount.value <= 0 || x.amount.percent) continue;
      const v = cents(t.amount.value + x.amount.value);
      if (!all.some((c) => c.lineIndex > x.lineIndex && c.amount.moneyLike && eq(c.amount.value, v))) continue;
      out.push({ value: v, kind: 'subtotal-sum', repaired: false, lines: [t.lineIndex, x.lineIndex], formula: `${t.amount.value}+${x.amount.value}` });
    }
  }
  return out;
}

/** A printed total followed by a rounding line: the rounded value is what is paid. */
export function roundingAfterTotals(totals: MoneyCandidate[], roundingCands: MoneyCandidate[], eq: MoneyContext['eq']): { applied: RoundingApplied[]; derived: Derivation[] } {
  const applied: RoundingApplied[] = [], derived: Derivation[] = [];
  for (const w of totals) {
    if (!w.amount.moneyLike || w.amount.value <= 0) continue;
    for (const r of roundingCands) {
      if (r.amount.value === 0 || r.lineIndex < w.lineIndex) continue;
      const v = cents(w.amount.value + r.amount.value);
      const printedAfter = totals.some((o) => o.lineIndex > r.lineIndex && eq(o.amount.value, v));
      applied.push({ pre: w, value: v, printedAfter, repaired: r.amount.repaired });
      derived.push({ value: v, kind: 'rounded', repaired: r.amount.repaired, lines: [w.lineIndex, r.lineIndex], formula: `${w.amount.value}+${r.amount.value}` });
    }
  }
  return { applied, derived };
}

/** A derived pre-rounding total (subtotal + tax, tax summary) followed by a rounding line: the rounded value. */
export function roundingAfterDerived(derived: Derivation[], roundingCands: MoneyCandidate[]): { applied: RoundingApplied[]; derived: Derivation[] } {
  const applied: RoundingApplied[] = [], out: Derivation[] = [];
  for (const d of derived.filter((x) => (x.kind === 'summary' || x.kind === 'subtotal-sum') && !x.repaired)) {
    for (const r of roundingCands) {
      if (r.amount.value === 0 || r.amount.repaired || d.lines.includes(r.lineIndex) || (d.kind === 'subtotal-sum' && d.lines.some((l) => l > r.lineIndex))) continue;
      const v = cents(d.value + r.amount.value);
      out.push({ value: v, kind: 'rounded', repaired: false, lines: [...d.lines, r.lineIndex], formula: `${d.formula}+${r.amount.value}` });
      applied.push({ value: v, printedAfter: false, repaired: false });
    }
  }
  return { applied, derived: out };
}

/** The candidate value of `v`, created (unscored) when it is new. */
export function valueAt(ctx: MoneyContext, v: number): ValueCandidate {
  const k = ctx.keyOf(v);
  let vc = ctx.values.get(k);
  if (!vc) { vc = { value: ctx.opts.wholeCurrency ? Math.round(v) : cents(v), printed: [], repairedFrom: [], score: 0, terms: [], support: [], keyword: '-' }; ctx.values.set(k, vc); }
  return vc;
}

/** Every positive money amount printed, and every positive total-labelled number, is a candidate value. */
export function printedValues(ctx: MoneyContext): void {
  for (const c of ctx.facts.candidates) {
    if (c.amount.value <= 0) continue;
    if (c.amount.moneyLike || c.role === 'total') valueAt(ctx, c.amount.value).printed.push(c);
  }
}

/** OCR repairs of labelled totals (a lost decimal point, a lost last digit, a confused digit), kept only with arithmetic support. */
export function repairedValues(ctx: MoneyContext): void {
  const { derivedAt, opts } = ctx;
  const strongDerived = (v: number) => new Set(derivedAt(v).filter((d) => !d.repaired && d.kind !== 'rounded').map((d) => d.kind)).size >= 2;
  for (const c of ctx.totalLabelled) {
    const text = c.amount.value.toFixed(opts.wholeCurrency ? 0 : 2);
    const reps = [...c.amount.alternatives, ...(c.amount.moneyLike ? confusedVariants(text) : [])];
    // "34.2" printed for 34.21: the last digit lost
    if (!opts.wholeCurrency && c.amount.decimals === 1) for (let k = 1; k <= 9; k++) reps.push(cents(c.amount.value + k / 100));
    for (const v of reps) if (v > 0 && derivedAt(v).length) valueAt(ctx, v).repairedFrom.push(c);
    // any one digit, when the arithmetic says so twice, or when paid - change says so and nothing supports the printed value
    const printedSupported = derivedAt(c.amount.value).length > 0 || [...(ctx.printedLines.get(ctx.keyOf(c.amount.value)) ?? [])].some((l) => l !== c.lineIndex);
    const paidChange = (v: number) => derivedAt(v).some((d) => d.kind === 'paid-change' && !d.repaired);
    if (c.amount.moneyLike) for (const v of anyDigitVariants(text)) if (v > 0 && (strongDerived(v) || (!printedSupported && paidChange(v))) && !reps.includes(v)) valueAt(ctx, v).repairedFrom.push(c);
  }
}

/** Values only the arithmetic shows: two kinds of derivation agree, or paid - change of the size of a total. */
export function derivedValues(ctx: MoneyContext): void {
  const maxPrinted = Math.max(0, ...ctx.facts.candidates.filter((c) => c.amount.moneyLike && !NOT_RIVALS.includes(c.role)).map((c) => c.amount.value));
  for (const list of ctx.derivedByKey.values()) {
    // paid - change alone is also a candidate (two labelled numbers and a subtraction) when it is of the size of a total
    const paidChangeOnly = list.some((e) => e.kind === 'paid-change' && !e.repaired) && list[0]!.value >= 0.3 * maxPrinted;
    if (new Set(list.map((e) => e.kind)).size >= 2 || paidChangeOnly) valueAt(ctx, list[0]!.value);
  }
}

/** Values reachable by replacing any one digit (OCR), for values the arithmetic confirms twice. */
export function anyDigitVariants(text: string): number[] {
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
