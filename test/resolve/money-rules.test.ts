/**
 * The money rules one by one (src/resolve/money/): each candidate-building step, each scoring term of
 * the total (run on one value after the terms before it, as resolveMoney runs them) and each rule of the
 * other fields (through resolveMoney, whose evidence ends with the rule that decided), on small receipts.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromText } from '../../src/document/geometry.js';
import { findMoney } from '../../src/fields/amounts.js';
import type { MoneyFacts } from '../../src/fields/amounts.js';
import { inferLocale } from '../../src/locale/index.js';
import { resolveMoney } from '../../src/resolve/money.js';
import type { ChosenAmount } from '../../src/resolve/money.js';
import { anyDigitVariants, arithmeticInput, moneyContext, partialTotals, preTaxTotals, roundedTotals, roundingAfterDerived, roundingAfterTotals, roundingCandidates } from '../../src/resolve/money/candidates.js';
import { FIELD_RULES } from '../../src/resolve/money/fields.js';
import { pickContext } from '../../src/resolve/money/pick.js';
import { TAX_RULES } from '../../src/resolve/money/tax.js';
import { TOTAL_TERMS, chooseTotal, scoreState } from '../../src/resolve/money/total.js';
import type { MoneyOptions } from '../../src/resolve/money/types.js';

interface Read { facts: MoneyFacts; opts: MoneyOptions }

/** The money facts of a receipt typed as lines. */
function read(lines: string[]): Read {
  const doc = documentFromText(lines.join('\n'));
  const locale = inferLocale(doc, {});
  return { facts: findMoney(doc, locale), opts: { wholeCurrency: locale.wholeCurrency, lineCount: doc.lines.length } };
}
const resolved = (r: string[] | Read) => { const { facts, opts } = Array.isArray(r) ? read(r) : r; return resolveMoney(facts, opts); };
const ruleOf = (c: ChosenAmount | undefined) => c?.evidence[c.evidence.length - 1];
const eq2 = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);

/** Runs the total's terms before `name` on the value `v`, then `name`: what it added to the score and the terms. */
function termEffect(r: string[] | Read, v: number, name: string) {
  const { facts, opts } = Array.isArray(r) ? read(r) : r;
  const ctx = moneyContext(facts, opts);
  const vc = ctx.values.get(ctx.keyOf(v));
  expect(vc, `no candidate value ${v}`).toBeDefined();
  const s = scoreState(vc!, ctx);
  const i = TOTAL_TERMS.findIndex((t) => t.name === name);
  expect(i, `no term ${name}`).toBeGreaterThanOrEqual(0);
  for (const t of TOTAL_TERMS.slice(0, i)) t.apply(s, ctx);
  const before = s.score, n = s.terms.length;
  TOTAL_TERMS[i]!.apply(s, ctx);
  return { gain: s.score - before, terms: s.terms.slice(n).map((t) => `${t.name}(${t.weight})`), s, vc: vc! };
}

const SALE = ['SUBTOTAL 12.60', 'GST 0.76', 'TOTAL 13.36'];
const ROUNDED_PAID = ['Total Amount (incl. GST) 31.47', 'Rounding -0.02', 'CASH 50.00', 'CHANGE 18.55'];
const DERIVED_ROUNDED = ['SUBTOTAL 29.69', 'GST 1.78', 'ROUNDING -0.02', 'CASH 50.00', 'CHANGE 18.55'];

describe('the rule lists', () => {
  const lists: Array<[string, string[]]> = [
    ['TOTAL_TERMS', TOTAL_TERMS.map((t) => t.name)],
    ['FIELD_RULES (TAX_RULES among them)', FIELD_RULES.flatMap((f) => f.rules.map((r) => r.name))],
  ];
  it('have unique names, within and across the lists', () => {
    for (const [, names] of lists) expect(new Set(names).size).toBe(names.length);
    const all = lists.flatMap(([, names]) => [...new Set(names)]);
    expect(new Set(all).size).toBe(all.length);
  });
  it('keep the order the total was scored in', () => {
    expect(TOTAL_TERMS.map((t) => t.name)).toEqual([
      'labelled-total', 'ocr-repaired', 'keyword', 'keyword-ocr-variant', 'final-label', 'arithmetic', 'repeated', 'largest',
      'paid-equal', 'items-are-paid', 'labelled-other-role', 'unlabelled-unsupported', 'derived-only', 'superseded-by-final', 'after-rounding', 'rounded-is-paid',
      'before-rounding', 'small-for-total', 'below-subtotal', 'ocr-quality', 'page-features',
    ]);
    expect(TAX_RULES.map((t) => t.name)).toEqual([
      'tax-lines-sum', 'tax-consistent', 'tax-line', 'tax-summary-rows', 'tax-summary', 'total-minus-net', 'total-minus-net-line', 'tax-at-printed-rate', 'group-incl-minus-excl',
    ]);
    expect(FIELD_RULES.map((f) => f.field)).toEqual(['subtotal', 'tax', 'paid', 'change', 'rounding', 'discount', 'tip']);
  });
  it('each rule is one function with a one-line doc comment', () => {
    const src = ['total', 'tax', 'fields'].map((f) => fs.readFileSync(new URL(`../../src/resolve/money/${f}.ts`, import.meta.url), 'utf8')).join('\n');
    const fns = [...TOTAL_TERMS.map((t) => t.apply), ...FIELD_RULES.flatMap((f) => f.rules.map((r) => r.pick))];
    for (const fn of fns) expect(src, fn.name).toMatch(new RegExp(String.raw`\n/\*\* [^\n]+ \*/\n(?:export )?function ${fn.name}\(`));
  });
  it('every chosen amount ends its evidence with the one rule that decided it', () => {
    const r = resolved([...SALE, 'CASH 20.00', 'CHANGE 6.64', 'DISCOUNT 1.00', 'TIP 2.00', 'ROUNDING 0.00']);
    expect(Object.keys(r).length).toBeGreaterThanOrEqual(6);
    for (const c of Object.values(r) as ChosenAmount[]) {
      expect(c.evidence.filter((e) => e.startsWith('rule:'))).toHaveLength(1);
      expect(ruleOf(c)).toMatch(/^rule:[a-z-]+$/);
    }
  });
});

describe('candidate-building steps', () => {
  it('roundingCandidates: a small printed rounding, a lost "0.0" of either sign, never a large amount', () => {
    const opts = { wholeCurrency: false, lineCount: 3 };
    expect(roundingCandidates(read(['Rounding Adj: -0.02']).facts.candidates.filter((c) => c.role === 'rounding'), opts).map((c) => c.amount.value)).toEqual([-0.02]);
    const bare = roundingCandidates(read(['ROUNDING 2', 'TOTAL 10.00']).facts.candidates.filter((c) => c.role === 'rounding'), opts);
    expect(bare.map((c) => c.amount.value)).toEqual([0.02, -0.02]);
    expect(bare.every((c) => c.amount.repaired && c.amount.moneyLike)).toBe(true);
    expect(roundingCandidates(read(['ROUNDING 71.00']).facts.candidates.filter((c) => c.role === 'rounding'), opts)).toEqual([]);
  });
  it('roundedTotals: a rounding-labelled amount of a total\'s size is a rounded total', () => {
    const rounding = read(['ROUNDING 71.00', 'ROUNDING -0.02']).facts.candidates.filter((c) => c.role === 'rounding');
    expect(roundedTotals(rounding, 0.1).map((c) => c.amount.value)).toEqual([71]);
  });
  it('arithmeticInput: a tendered amount read with a minus is positive; tax, subtotal and items are there', () => {
    const { facts, opts } = read(['COFFEE 4.00', 'TEA 3.00', 'SUBTOTAL 7.00', 'TAX 0.70', 'TOTAL 7.70', 'CASH -10.00', 'CHANGE 2.30']);
    const by = (...roles: string[]) => facts.candidates.filter((c) => roles.includes(c.role));
    const a = arithmeticInput(facts, by, [], opts);
    expect(a.paid.map((r) => r.value)).toEqual([10]);
    expect(a.change.map((r) => r.value)).toEqual([2.3]);
    expect(a.subtotal.map((r) => r.value)).toEqual([7]);
    expect(a.tax.map((r) => r.value)).toEqual([0.7]);
    expect(a.items.map((r) => r.value)).toEqual([4, 3]);
  });
  it('partialTotals: two partial totals on two lines add up', () => {
    const totals = read(['TOTAL 0% SUPPLIES 10.00', 'TOTAL 6% SUPPLIES 27.98']).facts.candidates.filter((c) => c.role === 'total');
    expect(partialTotals(totals, (a, b) => Math.abs(a - b) < 0.005)).toMatchObject([{ value: 37.98, kind: 'partials', lines: [0, 1] }]);
  });
  it('preTaxTotals: a total, a tax below it and their sum printed below the tax make the sum a subtotal + tax', () => {
    const eq = (a: number, b: number) => Math.abs(a - b) < 0.005;
    const { facts } = read(['Gross Amount : 5500.00', 'Ser TAX 15% : 825.00', 'Net Amount 6325.00']);
    const by = (role: string) => facts.candidates.filter((c) => c.role === role);
    expect(preTaxTotals(by('total'), by('tax'), facts.candidates, eq)).toMatchObject([{ value: 6325, kind: 'subtotal-sum', lines: [0, 1] }]);
    expect(resolved(['Gross Amount : 5500.00', 'Ser TAX 15% : 825.00', 'Net Amount 6325.00']).total?.value).toBe(6325);
    // the sum not printed below the tax: nothing derived (a total that includes its tax stays)
    const incl = read(['TOTAL 106.00', 'GST 6% 6.00']);
    const byI = (role: string) => incl.facts.candidates.filter((c) => c.role === role);
    expect(preTaxTotals(byI('total'), byI('tax'), incl.facts.candidates, eq)).toEqual([]);
  });
  it('roundingAfterTotals: a total and the rounding line below it give the rounded value', () => {
    const { facts } = read(['TOTAL 31.47', 'ROUNDING -0.02', 'TOTAL ROUNDED 31.45']);
    const totals = facts.candidates.filter((c) => c.role === 'total');
    const rounding = roundingCandidates(facts.candidates.filter((c) => c.role === 'rounding'), { wholeCurrency: false, lineCount: 3 });
    const out = roundingAfterTotals(totals, rounding, (a, b) => Math.abs(a - b) < 0.005);
    expect(out.derived).toMatchObject([{ value: 31.45, kind: 'rounded', lines: [0, 1] }]);
    expect(out.applied).toMatchObject([{ value: 31.45, printedAfter: true, repaired: false }]);
    expect(out.applied[0]!.pre?.amount.value).toBe(31.47);
  });
  it('roundingAfterDerived: subtotal + tax and a rounding line below give the rounded value', () => {
    const ctx = moneyContext(read(DERIVED_ROUNDED).facts, { wholeCurrency: false, lineCount: 5 });
    const out = roundingAfterDerived(ctx.derived.filter((d) => d.kind !== 'rounded'), ctx.roundingCands);
    expect(out.derived.map((d) => d.value)).toContain(31.45);
    expect(out.applied.find((a) => a.value === 31.45)?.pre).toBeUndefined();
  });
  it('printedValues: every printed positive amount is a candidate value', () => {
    const ctx = moneyContext(read(SALE).facts, { wholeCurrency: false, lineCount: 3 });
    expect([...ctx.values.keys()]).toEqual(['12.60', '0.76', '13.36']);
    expect(ctx.values.get('13.36')!.printed.map((c) => c.role)).toEqual(['total']);
  });
  it('repairedValues: a total that lost its decimal point is repaired when the arithmetic gives it', () => {
    const ctx = moneyContext(read(['SUBTOTAL 12.60', 'GST 0.76', 'TOTAL 1336']).facts, { wholeCurrency: false, lineCount: 3 });
    const vc = ctx.values.get('13.36')!;
    expect(vc.printed).toEqual([]);
    expect(vc.repairedFrom.map((c) => c.amount.value)).toEqual([1336]);
  });
  it('derivedValues: a value only the arithmetic shows, two ways, is a candidate', () => {
    const ctx = moneyContext(read(DERIVED_ROUNDED).facts, { wholeCurrency: false, lineCount: 5 });
    const vc = ctx.values.get('31.45')!;
    expect(vc.printed).toEqual([]);
    expect(new Set(ctx.derivedAt(31.45).map((d) => d.kind))).toEqual(new Set(['paid-change', 'subtotal-sum', 'rounded']));
    // one kind alone is not enough (subtotal + tax without the rounding line)
    expect(ctx.values.has('31.47')).toBe(false);
  });
  it('anyDigitVariants: every one-digit change', () => {
    const v = anyDigitVariants('1.5');
    expect(v).toHaveLength(18);
    expect(v).toContain(7.5);
    expect(v).toContain(1.9);
  });
});

describe('the total\'s terms', () => {
  it('labelled-total: the value\'s total label, strength plus its place', () => {
    const e = termEffect(SALE, 13.36, 'labelled-total');
    expect(e.s.best?.label?.keyword).toBe('TOTAL');
    eq2(e.s.kw, 2.2 + 0.4 * (2 / 3));
    expect(e.gain).toBe(0);
    expect(termEffect(SALE, 12.6, 'labelled-total').s.best).toBeUndefined();
  });
  it('ocr-repaired: a total read without its decimal point lends its label, weaker', () => {
    const e = termEffect(['SUBTOTAL 12.60', 'GST 0.76', 'TOTAL 1336'], 13.36, 'ocr-repaired');
    expect(e.terms).toEqual(['ocr-repaired(-0.5)']);
    expect(e.s.best?.amount.value).toBe(1336);
    eq2(e.s.kw, 2.2 - 1.2);
  });
  it('keyword: the label scores the value and names its keyword and source', () => {
    const e = termEffect(SALE, 13.36, 'keyword');
    eq2(e.gain, 2.2 + 0.4 * (2 / 3));
    expect(e.terms).toEqual(['keyword:TOTAL(0.8)']);
    expect(e.vc.keyword).toBe('TOTAL');
    expect(e.vc.source?.lineIndex).toBe(2);
    expect(termEffect(['GRAND TOTAL 13.36'], 13.36, 'keyword').terms).toEqual(['keyword:GRAND TOTAL(1.8)']);
  });
  it('keyword-ocr-variant: a label read through an OCR variant ("T0TAL")', () => {
    expect(termEffect(['SUBTOTAL 12.60', 'GST 0.76', 'T0TAL 13.36'], 13.36, 'keyword-ocr-variant').terms).toEqual(['keyword-ocr-variant(-0.3)']);
    expect(termEffect(SALE, 13.36, 'keyword-ocr-variant').terms).toEqual([]);
  });
  it('final-label: a final total ("GRAND TOTAL") ranks higher', () => {
    eq2(termEffect(['GRAND TOTAL 13.36'], 13.36, 'final-label').gain, 0.6);
    expect(termEffect(SALE, 13.36, 'final-label').gain).toBe(0);
  });
  it('arithmetic: subtotal + tax, paid - change', () => {
    const e = termEffect(SALE, 13.36, 'arithmetic');
    expect(e.terms).toEqual(['subtotal-sum(1)']);
    eq2(e.gain, 2);
    const p = termEffect([...SALE, 'CASH 20.00', 'CHANGE 6.64'], 13.36, 'arithmetic');
    expect(p.terms).toEqual(['paid-change(2)', 'subtotal-sum(1)']);
    eq2(p.gain, 4.5);
  });
  it('repeated: the value printed on two lines', () => {
    const e = termEffect(['TOTAL 13.36', 'VISA 13.36'], 13.36, 'repeated');
    expect(e.terms).toEqual(['repeated:2(1)']);
    eq2(e.gain, 0.3);
  });
  it('largest: the largest amount that is not a payment', () => {
    const e = termEffect(['COFFEE 5.00', 'TOTAL 13.36', 'CASH 20.00'], 13.36, 'largest');
    expect(e.terms).toEqual(['largest(0.8)']);
    eq2(e.gain, 0.8);
    expect(termEffect(['COFFEE 5.00', 'TOTAL 13.36'], 5, 'largest').gain).toBe(0);
  });
  it('paid-equal: printed equal to the amount paid, no change printed', () => {
    const e = termEffect(['TOTAL 13.36', 'CASH 13.36'], 13.36, 'paid-equal');
    expect(e.terms).toEqual(['paid-equal(1)']);
    eq2(e.gain, 0.5);
  });
  it('labelled-other-role: a value printed only as a subtotal', () => {
    const e = termEffect(SALE, 12.6, 'labelled-other-role');
    expect(e.terms).toEqual(['labelled-subtotal(-1.5)']);
    eq2(e.gain, -2.5);
    // other lines that add up to a "subtotal" make it a total
    expect(termEffect(['COFFEE 4.00', 'TAX 0.40', 'SUBTOTAL 4.40', 'CASH 5.00', 'CHANGE 0.60'], 4.4, 'labelled-other-role').gain).toBe(0);
  });
  it('labelled-other-role: a subtotal on a page whose total labels read no amount is not ruled out', () => {
    const page = ['FISH OIL 300.00 SR', 'ALPHA LIPID 330 SR', 'OINTMENT 5.00 ZR', 'SubTotal: 635.00', 'Rounding Adj : 0.00', 'Thank you'];
    const e = termEffect(page, 635, 'labelled-other-role');
    expect(e.terms).toEqual(['subtotal-no-total(-0.8)']);
    expect(e.gain).toBe(0);
    expect(e.s.f['subtotal-no-total']).toBe(1);
    expect(resolved(page).total?.value).toBe(635);
    // with a total line, the subtotal is penalised as before
    expect(termEffect([...page.slice(0, 4), 'TOTAL 650.00'], 635, 'labelled-other-role').terms).toEqual(['labelled-subtotal(-1.5)']);
  });
  it('unlabelled-unsupported: a bare number no arithmetic gives', () => {
    eq2(termEffect(['COFFEE 4.05', 'TOTAL 13.36'], 4.05, 'unlabelled-unsupported').gain, -0.5);
    expect(termEffect(['COFFEE 4.05', 'TOTAL 13.36'], 13.36, 'unlabelled-unsupported').gain).toBe(0);
  });
  it('derived-only: a value not printed at all', () => {
    const e = termEffect(DERIVED_ROUNDED, 31.45, 'derived-only');
    expect(e.terms).toEqual(['derived-only(-1.5)']);
    eq2(e.gain, -1);
  });
  it('superseded-by-final: a plain total above a final total of another value', () => {
    const e = termEffect(['TOTAL 31.47', 'ROUNDING -0.02', 'TOTAL ROUNDED 31.45'], 31.47, 'superseded-by-final');
    expect(e.terms).toEqual(['superseded-by-final(-0.8)']);
    eq2(e.gain, -1.2);
  });
  it('after-rounding: the value a rounding line makes of a total', () => {
    const e = termEffect(ROUNDED_PAID, 31.45, 'after-rounding');
    expect(e.terms).toEqual(['after-rounding(0.6)']);
    eq2(e.gain, 2);
  });
  it('rounded-is-paid: the rounded value is what paid - change gives', () => {
    const e = termEffect(ROUNDED_PAID, 31.45, 'rounded-is-paid');
    expect(e.terms).toEqual(['rounded-is-paid(0.5)']);
    eq2(e.gain, 1.5);
    expect(termEffect(['TOTAL 31.47', 'ROUNDING -0.02', 'TOTAL ROUNDED 31.45'], 31.45, 'rounded-is-paid').gain).toBe(0);
  });
  it('before-rounding: a printed total that the rounding line below changes, more so when the rounded value was paid', () => {
    const e = termEffect(ROUNDED_PAID, 31.47, 'before-rounding');
    expect(e.terms).toEqual(['before-rounding(-1)']);
    eq2(e.gain, -2.5);
    eq2(termEffect(['TOTAL 31.47', 'ROUNDING -0.02', 'TOTAL ROUNDED 31.45'], 31.47, 'before-rounding').gain, -1.5);
  });
  it('small-for-total: a labelled total under half the largest, with a labelled total twice its size', () => {
    const e = termEffect(['TOTAL 5.00', 'COFFEE 20.00', 'TOTAL 40.00'], 5, 'small-for-total');
    expect(e.terms).toEqual(['small-for-total(-0.6)']);
    eq2(e.gain, -0.8);
  });
  it('below-subtotal: a labelled total below a printed subtotal, no discount', () => {
    const e = termEffect(['SUBTOTAL 20.00', 'TOTAL 15.00'], 15, 'below-subtotal');
    expect(e.terms).toEqual(['below-subtotal(-0.6)']);
    eq2(e.gain, -0.8);
    expect(termEffect(['SUBTOTAL 20.00', 'DISCOUNT 5.00', 'TOTAL 15.00'], 15, 'below-subtotal').terms).toEqual([]);
  });
  it('ocr-quality: low or middling OCR confidence of the digits', () => {
    const at = (conf: number) => {
      const r = read(SALE);
      r.facts.candidates.find((c) => c.role === 'total')!.amount.ocrConfidence = conf;
      return termEffect(r, 13.36, 'ocr-quality').terms;
    };
    expect(at(0.4)).toEqual(['low-ocr(-1.5)']);
    expect(at(0.6)).toEqual(['mid-ocr(-1)']);
    expect(at(0.95)).toEqual([]);
  });
  it('chooseTotal: the best-scored value, its evidence naming the term that added most', () => {
    const ctx = moneyContext(read(SALE).facts, { wholeCurrency: false, lineCount: 3 });
    const t = chooseTotal(ctx)!;
    expect(t.value).toBe(13.36);
    expect(t.evidence).toEqual(['keyword:TOTAL(0.8)', 'subtotal-sum(1)', 'largest(0.8)', 'score=5.27', 'alt=12.6@-2.50', 'alt=0.76@-2.50', 'rule:keyword']);
    expect(ruleOf(resolved([...SALE, 'CASH 20.00', 'CHANGE 6.64']).total)).toBe('rule:arithmetic');
    // with no term, the value still wins on its printed occurrence
    expect(ruleOf(chooseTotal(moneyContext(read(SALE).facts, { wholeCurrency: false, lineCount: 3 }), []))).toBe('rule:total-score');
  });
});

describe('the tax\'s rules, first hit wins', () => {
  const tax = (lines: string[] | Read) => resolved(lines).tax;
  it('tax-lines-sum: CGST + SGST close subtotal + tax = total', () => {
    const t = tax(['SUBTOTAL 100.00', 'CGST 2.50', 'SGST 2.50', 'TOTAL 105.00']);
    expect(t?.value).toBe(5);
    expect(t?.evidence).toEqual(['tax-lines-sum', 'rule:tax-lines-sum']);
  });
  it('tax-consistent: the tax line that closes subtotal + tax = total', () => {
    const t = tax(SALE);
    expect(t?.value).toBe(0.76);
    expect(t?.confidence).toBe(0.88);
    expect(t?.evidence).toEqual(['consistent-with-total', 'rule:tax-consistent']);
    // one tax line of two that closes it: not the sum of both
    expect(ruleOf(tax(['SUBTOTAL 100.00', 'VAT 5.00', 'TAX 1.00', 'TOTAL 105.00']))).toBe('rule:tax-consistent');
    // no subtotal: the rate printed on the tax line gives it from the total (136.95 x 20 / 120)
    expect(tax(['TOTAL 136.95', 'VAT (20.00%) 22.82'])?.evidence).toEqual(['consistent-with-total', 'rule:tax-consistent']);
  });
  it('tax-line: the last tax line, when none agrees with the total', () => {
    const t = tax(['TOTAL 10.00', 'TAX 3.00']);
    expect(t?.value).toBe(3);
    expect(t?.confidence).toBe(0.5);
    expect(t?.evidence).toEqual(['rule:tax-line']);
  });
  it('tax-summary-rows: several summary rows that make the total add their taxes', () => {
    const t = tax(['GST SUMMARY AMOUNT TAX', 'SR 6% 100.00 6.00', 'ZR 0% 20.00 0.00', 'TOTAL 126.00']);
    expect(t?.value).toBe(6);
    expect(t?.evidence).toEqual(['tax-summary-rows', 'rule:tax-summary-rows']);
  });
  it('tax-summary: the summary row that makes the total', () => {
    const t = tax(['GST SUMMARY AMOUNT TAX', 'SR 6% 100.00 6.00', 'TOTAL 106.00']);
    expect(t?.value).toBe(6);
    expect(t?.confidence).toBe(0.8);
    expect(t?.evidence).toEqual(['tax-summary', 'rule:tax-summary']);
  });
  it('total-minus-net: the total less a net at a usual rate', () => {
    const t = tax(['SUBTOTAL 100.00', 'TOTAL 106.00']);
    expect(t?.value).toBe(6);
    expect(t?.evidence).toEqual(['total-minus-net', 'rule:total-minus-net']);
    // not for a whole currency
    const r = read(['SUBTOTAL 100.00', 'TOTAL 106.00']);
    expect(resolveMoney(r.facts, { ...r.opts, wholeCurrency: true }).tax).toBeUndefined();
  });
  it('a summary row whose tax did not read: the total less its net, at the row\'s printed rate (total-minus-net-line)', () => {
    const r = read(['GST SUMMARY AMOUNT TAX', 'SR 6% 100.00 6.00', 'TOTAL 106.00']);
    // the row's tax amount is not among the candidates (hand-made facts: tax-summary cannot take it)
    const row = r.facts.summaryRows[0]!;
    r.facts.candidates = r.facts.candidates.filter((c) => c.amount !== row.amounts[1]);
    const t = tax(r);
    expect(t?.value).toBe(6);
    expect(t?.source?.amount).toBe(row.amounts[0]);
    expect(t?.evidence).toEqual(['total-minus-net-line', 'rule:total-minus-net-line']);
  });
  it('total-minus-net-line: a line with its rate and a net the total is 6 % above', () => {
    const t = tax(['ITEM 103.49', 'TOTAL 109.70', 'SR @ 6% 103.49 ###']);
    expect(t?.value).toBe(6.21);
    expect(t?.source?.lineIndex).toBe(2);
    expect(t?.evidence).toEqual(['total-minus-net-line', 'rule:total-minus-net-line']);
  });
  it('tax-at-printed-rate: the total\'s share at the rate printed on its line, or the net above a rate line', () => {
    const included = tax(['TOTAL 21.95', 'INCL. BTW 6.00% 21.95']);
    expect(included?.value).toBe(1.24);
    expect(included?.evidence).toEqual(['included-at-printed-rate', 'rule:tax-at-printed-rate']);
    const net = tax(['COFFEE 4.05', 'TAX 8.75%', 'TOTAL 4.40']);
    expect(net?.value).toBe(0.35);
    expect(net?.evidence).toEqual(['net-at-printed-rate', 'rule:tax-at-printed-rate']);
  });
  it('group-incl-minus-excl: a group\'s total with and without its tax', () => {
    const t = tax(['SUBTOTAL EXCL GST 26.40', 'TOTAL INCL GST 27.98', 'ZERO RATED 10.00', 'TOTAL DUE 37.98']);
    expect(t?.value).toBe(1.58);
    expect(t?.evidence).toEqual(['group-incl-minus-excl', 'rule:group-incl-minus-excl']);
  });
  it('no total, no derived tax: only a printed tax line', () => {
    const ctx = moneyContext(read(['SUBTOTAL 100.00', 'TAX 6.00']).facts, { wholeCurrency: false, lineCount: 2 });
    const pc = pickContext(ctx, undefined);
    expect(TAX_RULES.map((r) => r.pick(pc)?.value)).toEqual([undefined, undefined, 6, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('the other fields\' rules', () => {
  const r = resolved([...SALE, 'CASH 20.00', 'CHANGE 6.64']);
  it('subtotal-line: the subtotal that closes subtotal + tax = total', () => {
    expect(r.subtotal?.value).toBe(12.6);
    expect(r.subtotal?.evidence).toEqual(['consistent-with-total', 'rule:subtotal-line']);
    expect(resolved(['SUBTOTAL 20.00', 'TOTAL 15.00']).subtotal?.evidence).toEqual(['rule:subtotal-line']);
  });
  it('paid-line: the amount tendered, positive, never below the total', () => {
    expect(r.paid?.value).toBe(20);
    expect(r.paid?.evidence).toEqual(['consistent-with-total', 'rule:paid-line']);
    const minus = resolved(['TOTAL 13.36', 'CASH -20.00', 'CHANGE 6.64']).paid;
    expect(minus?.value).toBe(20);
    expect(resolved(['VISA CARD HOLDER 5.00', 'TOTAL 13.36']).paid).toBeUndefined();
  });
  it('change-line: the change that paid less it makes the total', () => {
    expect(r.change?.value).toBe(6.64);
    expect(r.change?.evidence).toEqual(['consistent-with-total', 'rule:change-line']);
  });
  it('rounding-line: the rounding that takes a total to the total', () => {
    const t = resolved(['TOTAL 31.47', 'ROUNDING -0.02', 'TOTAL ROUNDED 31.45']);
    expect(t.rounding?.value).toBe(-0.02);
    expect(t.rounding?.evidence).toEqual(['consistent-with-total', 'rule:rounding-line']);
  });
  it('discount-line: the last discount, positive', () => {
    const t = resolved(['TOTAL 13.36', 'DISCOUNT -2.00']);
    expect(t.discount?.value).toBe(2);
    expect(t.discount?.evidence).toEqual(['rule:discount-line']);
  });
  it('tip-line: the last tip below the total', () => {
    expect(resolved(['TOTAL 13.36', 'TIP 3.00']).tip?.evidence).toEqual(['rule:tip-line']);
    expect(resolved(['TOTAL 13.36', 'TIP 3.00']).tip?.value).toBe(3);
    expect(resolved(['TOTAL 13.36', 'TIP 30.00']).tip).toBeUndefined();
  });
});

describe('labels and amounts as OCR prints them (issue 34: the right value read, the wrong one chosen)', () => {
  it('a "TOTAL INCL. GST@6%" line is a total, not a unit price; "2@3.50" still is', () => {
    const r = resolved(['BASKET W/HOOK 1 X 3.50 3.50', 'TOILET PAPER HOLDER 1 X 17.50 17.50', 'TOTAL INCL. GST@6% RM 21.00', 'CASH RM 21.00', 'GST @6% included in total RM 1.19']);
    expect(r.total?.value).toBe(21);
    expect(r.total?.keyword).toBe('TOTAL INCL GST');
    const facts = read(['COFFEE 2@3.50 7.00', 'TOTAL 7.00']).facts;
    expect(facts.candidates.some((c) => c.role === 'unitPrice' && c.amount.value === 3.5)).toBe(true);
  });
  it('a quantity before a price with its glued sign ("1 RM12.60") is two amounts, and the items add up to what was paid', () => {
    const facts = read(['NADEJE SDN BHD', 'DoubleCoco Slice 1 RM12.60', 'Mothers Slices 1 RM13.50', 'Tiramisu Slice 1 RM12.60', 'Cheese Slice 1 RM12.60']).facts;
    const line = facts.lines[1]!;
    expect(line.amounts.map((a) => [a.value, a.currency ?? null])).toEqual([[1, null], [12.6, 'MYR']]);
    expect(facts.items.map((i) => i.amount.value)).toEqual([12.6, 13.5, 12.6, 12.6]);
  });
  it('a strong total label whose amount OCR lost starts the totals block', () => {
    const page = ['NADEJE SDN BHD', 'DoubleCoco Slice 1 RM12.60', 'Mothers Slices 1 RM13.50', 'Tiramisu Slice 1 RM12.60', 'Cheese Slice 1 RM12.60',
      'Grand Total el .30', '(Bill Inclusive of 6% GST : RM2.90)', 'Cash RM51.30'];
    const { facts } = read(page);
    expect(facts.items.map((i) => i.amount.value)).toEqual([12.6, 13.5, 12.6, 12.6]);
    expect(resolved(page).total?.value).toBe(51.3);
  });
  it('a rounding or discount line above a subtotal is already in it: not added again', () => {
    const page = ['CUT SCISSORS 18.00', 'TEMPO TWEEZER 17.90', 'BABY WIPES 7.90', 'LESS 30% -2.37', 'SUBTOTAL (QTY 4) RM41.43', 'ROUNDING RM0.02', 'SUBTOTAL (QTY 4) RM41.45'];
    const { facts, opts } = read(page);
    const ctx = moneyContext(facts, opts);
    const formulas = ctx.derived.filter((d) => d.kind === 'subtotal-sum' || d.kind === 'rounded').map((d) => d.formula);
    expect(formulas).toContain('41.43+0.02');
    // the second subtotal already has the rounding (above it) and the discount (above both)
    expect(formulas).not.toContain('41.45+0.02');
    expect(formulas.some((f) => f.includes('-2.37'))).toBe(false);
    // a rounding line is applied once to a derivation that already used it
    expect(ctx.derived.some((d) => d.kind === 'rounded' && d.formula.split('+0.02').length > 2)).toBe(false);
    expect(resolved(page).total?.value).toBe(41.45);
  });
  it('items that add up to exactly what was paid outweigh a total label whose amount OCR garbled', () => {
    const page = ['NADEJE SDN BHD', 'DoubleCoco Slice 1 RM12.60', 'Mothers Slices 1 RM13.50', 'Tiramisu Slice 1 RM12.60', 'Cheese Slice 1 RM12.60',
      'GRAND TOTAL 30', '(Bill Inclusive of 6% GST : RM2.90)', 'Cash RM51.30'];
    expect(termEffect(page, 51.3, 'items-are-paid').terms).toEqual(['items-are-paid(1)']);
    expect(termEffect(page, 30, 'items-are-paid').terms).toEqual([]);
    expect(resolved(page).total?.value).toBe(51.3);
    // paid with change: the items are not what was paid, the label stands
    const change = ['NADEJE SDN BHD', 'Slice 1 RM12.60', 'Slices 1 RM13.50', 'TOTAL RM26.10', 'Cash RM30.00', 'Change RM3.90'];
    expect(termEffect(change, 26.1, 'items-are-paid').terms).toEqual([]);
  });
});
