/**
 * The fitted ranking (issue 34, src/resolve/field-model.ts): a candidate's rank is the sum of its
 * features' weights, the confidence the terms' log-odds with the rival's, and the installed model file is
 * a well-formed one that the engine uses with `ranking: 'fitted'`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromText } from '../../src/document/geometry.js';
import { extractFields } from '../../src/extract/index.js';
import { findMoney } from '../../src/fields/amounts.js';
import { inferLocale } from '../../src/locale/index.js';
import { FITTED_BY_DEFAULT, NO_RIVAL_MARGIN, checkFieldModels, fieldModel, modelConfidence, modelScore, rankingModel } from '../../src/resolve/field-model.js';
import type { RankModel } from '../../src/resolve/field-model.js';
import { moneyContext } from '../../src/resolve/money/candidates.js';
import { chooseTotal } from '../../src/resolve/money/total.js';
import { pickContext } from '../../src/resolve/money/pick.js';
import { TAX_RULES, chooseTax, taxCandidates } from '../../src/resolve/money/tax.js';
import { nameCandidates } from '../../src/fields/merchant.js';
import { chooseName } from '../../src/resolve/name.js';
import { merchantContext } from '../../src/fields/merchant/context.js';

const SALE = ['SUBTOTAL 12.60', 'TAX 0.76', 'TOTAL 13.36', 'CASH 20.00', 'CHANGE 6.64'];
function ctxOf(lines: string[]) {
  const doc = documentFromText(lines.join('\n'));
  const locale = inferLocale(doc, {});
  return moneyContext(findMoney(doc, locale), { wholeCurrency: locale.wholeCurrency, lineCount: doc.lines.length });
}

describe('modelScore', () => {
  it('sums the weights of the features present, times their measure; unknown features add nothing', () => {
    const m: RankModel = { weights: { a: 2, b: -1, c: 0.5 } };
    expect(modelScore(m, { a: 1, c: 4 })).toBe(4);
    expect(modelScore(m, { b: 1, zz: 9 })).toBe(-1);
    expect(modelScore(m, {})).toBe(0);
  });
});

describe('modelScore with trees', () => {
  // a split on a (at most 0.5 goes left), a leaf under each side; a second tree that always adds 0.25
  const m: RankModel = { weights: { a: 1 }, trees: [[['a', 0.5, 1, 2], [-2], [3]], [[0.25]]] };
  it('adds each tree\'s leaf to the weights\' sum; a missing feature is 0', () => {
    expect(modelScore(m, { a: 1 })).toBe(1 + 3 + 0.25);
    expect(modelScore(m, {})).toBe(-2 + 0.25);
    expect(modelScore(m, { a: 0.5 })).toBe(0.5 - 2 + 0.25);
  });
  it('checkFieldModels refuses a tree whose child points back (a walk that would not end) or a leaf that is not a number', () => {
    expect(() => checkFieldModels({ version: 1, fields: { total: { weights: {}, trees: [[['a', 0, 0, 1], [1]]] } } })).toThrow(/malformed tree node at 0/);
    expect(() => checkFieldModels({ version: 1, fields: { total: { weights: {}, trees: [[['a', 0, 1, 2], [1], ['x']]] } } })).toThrow(/malformed tree node at 2/);
    expect(() => checkFieldModels({ version: 1, fields: { total: { weights: {}, trees: [[['a', 0, 1, 2], [1], [2]]] } } })).not.toThrow();
  });
  it('scores a fitted tree as the fit script does (scripts/fit-boost.mjs treesScore)', async () => {
    const { treesScore } = await import('../../scripts/fit-boost.mjs');
    for (const f of [{ a: 1 }, {}, { a: 0.5, b: 3 }]) expect(modelScore({ weights: {}, trees: m.trees }, f)).toBeCloseTo(treesScore(m.trees, f), 12);
  });
});

describe('fitBoosted (scripts/fit-boost.mjs)', () => {
  it('learns a ranking one weight per feature cannot: a rounding line speaks for a value only where the currency rounds', async () => {
    const { fitBoosted, treesScore } = await import('../../scripts/fit-boost.mjs');
    // two candidates a list: the value before a rounding line and the value after it; which one is right
    // depends on a page feature (rounds) that both candidates carry, so no linear weight separates them
    // (three pages in four round: greedy trees, as XGBoost's, find no first split in a perfectly balanced XOR)
    const groups = Array.from({ length: 200 }, (_, i) => {
      const rounds = i % 4 ? 1 : 0;
      return { file: `r${i}`, cands: [{ f: { after: 1, rounds }, y: rounds }, { f: { before: 1, rounds }, y: 1 - rounds }] };
    });
    const { trees } = fitBoosted(groups, ['after', 'before', 'rounds'], { rounds: 60, depth: 2, eta: 0.3, minFiles: 10 });
    const top = (rounds: number) => (treesScore(trees, { after: 1, rounds }) > treesScore(trees, { before: 1, rounds }) ? 'after' : 'before');
    expect(top(1)).toBe('after');
    expect(top(0)).toBe('before');
    // a linear score w_after + w_rounds*r vs w_before + w_rounds*r ranks both pages alike
  });
  it('does not split on what fewer than minFiles receipts show, however many candidates they hold', async () => {
    const { fitBoosted } = await import('../../scripts/fit-boost.mjs');
    // 40 receipts; the rare feature is on 5 of them, each with 20 candidate lists (100 candidates in all)
    const groups = Array.from({ length: 40 }, (_, i) => Array.from({ length: i < 5 ? 20 : 1 }, () => ({
      file: `r${i}`, weightDiv: i < 5 ? 20 : 1, cands: [{ f: { rare: i < 5 ? 1 : 0, common: 1 }, y: i < 5 ? 0 : 1 }, { f: { common: 0 }, y: i < 5 ? 1 : 0 }],
    }))).flat();
    const split = (minFiles: number) => fitBoosted(groups, ['rare', 'common'], { rounds: 5, depth: 2, minFiles }).trees.flat().some((n: unknown[]) => n[0] === 'rare');
    expect(split(3)).toBe(true);
    expect(split(10)).toBe(false);
  });
});

describe('chooseTotal with a model', () => {
  it('ranks by the model, not by the hand-set scores: a model that prefers paid amounts picks the cash tendered', () => {
    const perverse: RankModel = { weights: { 'labelled-other-role:paid': 10 } };
    expect(chooseTotal(ctxOf(SALE))!.value).toBe(13.36);
    const t = chooseTotal(ctxOf(SALE), undefined, perverse)!;
    expect(t.value).toBe(20);
    expect(t.evidence.at(-1)).toBe('rule:fitted-model');
  });
  it('the confidence is the top\'s terms\' log-odds with its rival\'s, the margin in the model\'s units', () => {
    const hand = chooseTotal(ctxOf(SALE))!;
    const clear = chooseTotal(ctxOf(SALE), undefined, { weights: { 'label-role:total': 5 } })!;
    const close = chooseTotal(ctxOf(SALE), undefined, { weights: { 'label-role:total': 0.1 } })!;
    expect(clear.value).toBe(hand.value);
    expect(close.value).toBe(hand.value);
    expect(close.evidence).toContain('close-rival(-1.8)');
    expect(clear.evidence).not.toContain('close-rival(-1.8)');
    expect(close.confidence).toBeLessThan(clear.confidence);
  });
  it('with a confidence map, the confidence is the model\'s: the logistic of its score and its capped margin', () => {
    const weights = { 'label-role:total': 3 };
    const confidence = { a: 0.5, b: 0.4, c: -1, marginCap: 2 };
    const t = chooseTotal(ctxOf(SALE), undefined, { weights, confidence })!;
    expect(t.value).toBe(13.36);
    // the top scores 3, every rival 0: the margin 3 is capped at 2
    expect(t.confidence).toBe(Math.round(100 / (1 + Math.exp(-(0.5 * 3 + 0.4 * 2 - 1)))) / 100);
    expect(modelConfidence({ weights, confidence }, 3, undefined)).toBeCloseTo(1 / (1 + Math.exp(-(1.5 + 0.4 * Math.min(2, NO_RIVAL_MARGIN) - 1))), 12);
    expect(modelConfidence({ weights }, 3, 0)).toBeUndefined();
    // a larger margin is more confident while under the cap
    expect(modelConfidence({ weights, confidence }, 3, 2.5)!).toBeLessThan(modelConfidence({ weights, confidence }, 3, 1.5)!);
  });
  it('checkFieldModels refuses a confidence map that is not four numbers', () => {
    expect(() => checkFieldModels({ version: 1, fields: { total: { weights: {}, confidence: { a: 1, b: 1, c: 'x', marginCap: 6 } } } })).toThrow(/total.confidence/);
    expect(() => checkFieldModels({ version: 1, fields: { total: { weights: {}, confidence: { a: 1, b: 1, c: 0, marginCap: 6 } } } })).not.toThrow();
  });
});

describe('the tax\'s candidates as features', () => {
  // two tax lines: the 6 % one agrees with the subtotal and the total, the service tax line does not
  const TAXES = ['SUBTOTAL 100.00', 'SST 6% 6.00', 'SERVICE TAX 2.50', 'TOTAL 106.00'];
  const pcOf = (lines: string[]) => { const ctx = ctxOf(lines); return pickContext(ctx, chooseTotal(ctx)!.value); };
  it('lists every rule\'s value and every tax line\'s reading; the rules\' order is the score, so its top is the first rule\'s value', () => {
    const cands = taxCandidates(pcOf(TAXES));
    const six = cands.find((c) => c.value === 6)!;
    const other = cands.find((c) => c.value === 2.5)!;
    expect(six.features).toMatchObject({ 'rule:tax-consistent': 1, consistent: 1, printed: 1 });
    expect(other.features['rule:tax-consistent']).toBeUndefined();
    expect(other.features).toMatchObject({ printed: 1, 'last-printed': 1 });
    expect(six.score).toBeGreaterThan(other.score);
    const top = cands.reduce((a, c) => (c.score > a.score ? c : a));
    expect(top.value).toBe(chooseTax(pcOf(TAXES))!.value);
    expect(six.score).toBe(TAX_RULES.length - TAX_RULES.findIndex((r) => r.name === 'tax-consistent'));
  });
  it('chooseTax ranks by the model when given one, keeping the deciding rule last in the evidence', () => {
    expect(chooseTax(pcOf(TAXES))!.value).toBe(6);
    const lastLine = chooseTax(pcOf(TAXES), { weights: { 'last-printed': 3 } })!;
    expect(lastLine.value).toBe(2.5);
    expect(lastLine.evidence.at(-1)).toBe('rule:printed-tax-line');
    expect(lastLine.evidence[0]).toBe('model=3.00');
    const same = chooseTax(pcOf(TAXES), { weights: { consistent: 2 } })!;
    expect(same.value).toBe(6);
    expect(same.confidence).toBe(chooseTax(pcOf(TAXES))!.confidence);
  });
});

const NAME_PAGE = ['Thank you for visiting', 'KEDAI RUNCIT MAJU', 'No 12 Jalan Besar', '43000 Kajang', 'TOTAL RM 12.00'];
function nameCandidatesOf(lines: string[]) {
  const doc = documentFromText(lines.join('\n'));
  const ctx = merchantContext(doc, inferLocale(doc, {}), {})!;
  return { ctx, cands: nameCandidates(ctx) };
}

describe('the name\'s candidates as features', () => {
  it('every candidate\'s hand-set score is its features times the rules\' numbers (the fit\'s prior is exact)', () => {
    const HAND: Record<string, number> = {
      'company-suffix': 3, 'shop-word': 1, 'merchant-label': 4, sentence: -2, 'customer-block': -5, 'not-a-name': -3, 'address-like': -2.5,
      'brand-in-header': 2, 'brand-below-header': 1, parenthesised: -2, header: 1.5, 'header-line-order': -0.3, 'below-header': -1.5, 'large-text': 2.5,
      'ocr-confidence': 5, 'no-words': -2, short: -1, 'lower-case': -1, 'domain-match': 2.5, 'picture-text': -4, repeated: 1, 'brand-seen': 2,
    };
    const { cands } = nameCandidatesOf(NAME_PAGE);
    expect(cands.length).toBeGreaterThan(2);
    for (const c of cands) expect(modelScore({ weights: HAND }, c.features)).toBeCloseTo(c.score, 9);
    expect(cands.find((c) => c.value === 'No 12 Jalan Besar')!.features['address-like']).toBe(1);
  });
  it('chooseName ranks by the model when given one: a model that prefers the first line picks it', () => {
    const { ctx, cands } = nameCandidatesOf(NAME_PAGE);
    expect(chooseName(ctx, [...cands])!.name.value).toBe('KEDAI RUNCIT MAJU');
    const firstLine = chooseName(ctx, [...cands], { weights: { 'first-line': 10 } })!;
    expect(firstLine.name.value).toBe('Thank you for visiting');
    expect(firstLine.evidence).toContain('model=10.00');
  });
});

describe('the installed model', () => {
  it('models/fields.json has a fitted name and date too, with the directions the fit was held to', () => {
    const name = fieldModel('name')!, date = fieldModel('date')!;
    expect(name.weights['company-suffix']).toBeGreaterThan(0);
    expect(name.weights['address-like']).toBeLessThan(0);
    expect(date.weights['time+']).toBeGreaterThan(0);
    expect(date.weights['window-']).toBeLessThan(0);
  });
  it('models/fields.json has a fitted tax that ranks a tax line agreeing with the total first, as the rules do; the tax is ranked by the rules by default', () => {
    const tax = fieldModel('tax')!;
    expect(tax.weights['rule:tax-consistent']).toBeGreaterThan(0);
    expect(rankingModel('tax', undefined)).toBeUndefined();
    expect(rankingModel('tax', 'fitted')).toBe(tax);
    const ctx = ctxOf(['SUBTOTAL 100.00', 'SST 6% 6.00', 'SERVICE TAX 2.50', 'TOTAL 106.00']);
    const pc = pickContext(ctx, chooseTotal(ctx)!.value);
    expect(chooseTax(pc, tax)!.value).toBe(chooseTax(pc)!.value);
  });
  it('models/fields.json is a checked version 1 model with a fitted total', () => {
    const raw = JSON.parse(readFileSync(new URL('../../models/fields.json', import.meta.url), 'utf8'));
    expect(() => checkFieldModels(raw)).not.toThrow();
    const m = fieldModel('total')!;
    expect(Object.keys(m.weights).length).toBeGreaterThan(5);
    // the directions the fit was held to: arithmetic speaks for a value, a label of another role against it
    expect(m.weights['arithmetic:paid-change']).toBeGreaterThan(0);
    expect(m.weights['labelled-other-role']).toBeLessThan(0);
  });
  it('refuses a malformed model', () => {
    expect(() => checkFieldModels({ version: 2, fields: {} })).toThrow(/version 1/);
    expect(() => checkFieldModels({ version: 1, fields: { total: { weights: { a: 'x' } } } })).toThrow(/total\.a/);
  });
  it("extractFields ranks the name by its fitted model by default, and by the hand-set scores with ranking: 'hand-set'", () => {
    const doc = documentFromText(['KEDAI RUNCIT MAJU', 'No 12 Jalan Besar', '43000 Kajang', 'TOTAL RM 12.00'].join('\n'));
    const base = { extractTime: false, extractLineItems: false, now: new Date('2024-06-01T00:00:00Z') };
    expect(FITTED_BY_DEFAULT.has('name')).toBe(true);
    expect(FITTED_BY_DEFAULT.has('total')).toBe(false);
    const byDefault = extractFields(doc, base);
    const hand = extractFields(doc, { ...base, ranking: 'hand-set' });
    expect(byDefault.merchantName?.value).toBe('KEDAI RUNCIT MAJU');
    expect(hand.merchantName?.value).toBe('KEDAI RUNCIT MAJU');
    // the evidence names the candidate rule last either way; the fitted rank is listed as model=
    expect(byDefault.evidence?.merchantName?.at(-1)).toBe('rule:header-line');
    expect(hand.evidence?.merchantName?.at(-1)).toBe('rule:header-line');
    expect(byDefault.evidence?.merchantName?.some((e) => e.startsWith('model='))).toBe(true);
    expect(hand.evidence?.merchantName?.some((e) => e.startsWith('model='))).toBe(false);
    expect(rankingModel('name', undefined)).toBe(fieldModel('name'));
    expect(rankingModel('name', 'hand-set')).toBeUndefined();
    expect(rankingModel('total', undefined)).toBeUndefined();
    expect(rankingModel('date', 'fitted')).toBe(fieldModel('date'));
  });
  it("extractFields ranks the total by the hand-set scores by default and by the model with ranking: 'fitted'", () => {
    const doc = documentFromText(['KEDAI MAKAN SDN BHD', 'SUBTOTAL RM 79.50', 'SST 6% 4.77', 'TOTAL RM 84.27', 'CASH 100.00', 'CHANGE 15.73'].join('\n'));
    const base = { extractTime: false, extractLineItems: false, now: new Date('2024-06-01T00:00:00Z') };
    const fitted = extractFields(doc, { ...base, ranking: 'fitted' });
    const hand = extractFields(doc, base);
    expect(fitted.totalAmount?.value).toBe(84.27);
    expect(hand.totalAmount?.value).toBe(84.27);
    expect(fitted.evidence?.totalAmount?.at(-1)).toBe('rule:fitted-model');
    expect(hand.evidence?.totalAmount?.at(-1)).not.toBe('rule:fitted-model');
  });
});
