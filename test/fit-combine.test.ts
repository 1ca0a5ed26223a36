// The choice between two readings: its features (src/resolve/combine-model.ts), its fit and its
// leave-one-source-out score (scripts/fit-combine.mjs).
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { choiceArgs, choiceOptions, choiceRows, fitChoice, losoChoice, choiceScore } from '../scripts/fit-combine.mjs';
import { checkChoiceModels, choiceFeatures, preferSecond } from '../src/resolve/combine-model.js';

const rec = (ds: string, id: string, gold: number, a: [number, number], b: [number, number], chosen: string, terms: [string[], string[]] = [['label:TOTAL'], ['label:TOTAL', 'arithmetic:items(1)']]) => ({
  ds, id, gold: { totalAmount: gold }, combines: [{ tag: 'second-reader', field: 'totalAmount', a: [...a, terms[0]], b: [...b, terms[1]], chosen }],
});

describe('choiceFeatures', () => {
  it('gives the confidences, the pair of readings and the terms only one answer has, signed toward the second', () => {
    const f = choiceFeatures('own-language', { confidence: 0.8, terms: ['label:TOTAL(0.9)', 'paid-change'] }, { confidence: 0.6, terms: ['label:GRAND TOTAL', 'arithmetic:items'] });
    expect(f).toEqual({ bias: 1, 'confidence-difference': expect.closeTo(-0.2, 6), 'first-confidence': 0.8, 'second-confidence': 0.6, 'tag:own-language': 1, 'term:paid-change': -1, 'term:arithmetic': 1 });
    // how well each reader read the page, and a photo whose paper was found
    const g = choiceFeatures('second-reader', { confidence: 0.8, terms: [], reading: 0.7 }, { confidence: 0.6, terms: [], reading: 0.9 }, { paper: true });
    expect(g).toMatchObject({ 'first-reading': 0.7, 'second-reading': 0.9, 'reading-difference': expect.closeTo(0.2, 6), 'paper-found': 1 });
    expect(choiceFeatures('second-reader', { confidence: 0.8, terms: [] }, { confidence: 0.6, terms: [] }, { paper: false })).not.toHaveProperty('paper-found');
    // the readers' agreement: how many more of the page's readings gave the second value
    expect(choiceFeatures('second-reader', { confidence: 0.8, terms: [] }, { confidence: 0.6, terms: [] }, { support: [3, 1] })['support-difference']).toBe(-2);
    expect(choiceFeatures('second-reader', { confidence: 0.8, terms: [] }, { confidence: 0.6, terms: [] }, { support: [1, 1] })).not.toHaveProperty('support-difference');
    // each answer's support besides its own reading: PaddleOCR's value read by two of tesseract's readings too
    const s = choiceFeatures('second-reader', { confidence: 0.8, terms: [] }, { confidence: 0.6, terms: [] }, { support: [1, 3] });
    expect([s['second-support'], s['first-support']]).toEqual([2, undefined]);
    expect(choiceFeatures('second-reader', { confidence: 0.8, terms: [] }, { confidence: 0.6, terms: [] }, { support: [4, 1] })['first-support']).toBe(3);
  });

  it('without a model the more confident answer stands; with one its log-odds decide', () => {
    const first = { confidence: 0.9, terms: [] }, second = { confidence: 0.5, terms: ['arithmetic:items'] };
    expect(preferSecond(undefined, 'second-reader', first, second)).toBe(false);
    expect(preferSecond({ weights: { bias: -0.1, 'term:arithmetic': 2 } }, 'second-reader', first, second)).toBe(true);
    expect(preferSecond({ weights: { bias: -0.1, 'term:arithmetic': 2, 'confidence-difference': 10 } }, 'second-reader', first, second)).toBe(false);
  });

  it('a malformed model file is refused', () => {
    expect(() => checkChoiceModels({ version: 2, fields: {} })).toThrow(/version 1/);
    expect(() => checkChoiceModels({ version: 1, fields: { date: { weights: { bias: 'x' } } } })).toThrow(/date\.bias/);
    expect(checkChoiceModels({ version: 1, fields: { date: { weights: { bias: 0.5 } } } }).fields.date!.weights.bias).toBe(0.5);
  });
});

describe('fitting the choice', () => {
  const records = [
    // the second reading right and more confident: the rule takes it
    ...Array.from({ length: 6 }, (_, i) => rec('x', `x${i}`, 10, [18, 0.4], [10, 0.9], 'second')),
    // the first right and more confident: the rule keeps it
    ...Array.from({ length: 6 }, (_, i) => rec('y', `y${i}`, 10, [10, 0.9], [16, 0.3], 'first')),
    // the first more confident but wrong: the rule is wrong
    rec('y', 'y-wrong', 10, [19, 0.8], [10, 0.7], 'first'),
    // both wrong: not a decision; both alike: not a decision
    rec('y', 'y-none', 10, [11, 0.8], [12, 0.7], 'first'),
    { ds: 'y', id: 'y-both', gold: { totalAmount: 10 }, combines: [{ tag: 'second-reader', field: 'totalAmount', a: [10, 0.9, []], b: [10, 0.9, []], chosen: 'both' }] },
  ];

  it('rows are the weighings where exactly one value is right; a date in the other day/month order is left out', () => {
    const rows = choiceRows(records, 'total', choiceFeatures);
    expect(rows).toHaveLength(13);
    expect(rows.filter((r: { second: boolean }) => r.second)).toHaveLength(7);
    const dates = [{ ds: 'x', id: 'd', gold: { date: '2024-03-05' }, combines: [
      { tag: 'second-reader', field: 'date', a: ['2024-05-03', 0.9, []], b: ['2024-03-05', 0.8, []], chosen: 'first' },
      { tag: 'second-reader', field: 'date', a: ['2024-03-08', 0.9, []], b: ['2024-03-05T10:00:00', 0.8, []], chosen: 'first' },
    ] }];
    expect(choiceRows(dates, 'date', choiceFeatures).map((r: { second: boolean }) => r.second)).toEqual([true]);
  });

  it('fits weights the library reads: a term that marks the right value gets a positive weight, a rare one none', () => {
    // the second reading is right exactly when only it shows the arithmetic, whatever the confidences
    const rs = Array.from({ length: 40 }, (_, i) => rec('z', `z${i}`, 10, i % 2 ? [10, 0.9] : [17, 0.9], i % 2 ? [12, 0.95] : [10, 0.6], 'first', i % 2 ? [['arithmetic:items'], []] : [[], ['arithmetic:items']]));
    rs.push(rec('z', 'rare', 10, [13, 0.5], [10, 0.5], 'first', [[], ['rare-term']]));
    const m = fitChoice(choiceRows(rs, 'total', choiceFeatures), { lambda: 1, minRows: 20 });
    expect(m.weights['term:arithmetic']).toBeGreaterThan(1);
    expect(m.weights['term:rare-term']).toBeUndefined();
    expect(checkChoiceModels({ version: 1, fields: { totalAmount: m } })).toBeTruthy();
    // the library's choice and the script's score agree
    const first = { confidence: 0.9, terms: [] }, second = { confidence: 0.6, terms: ['arithmetic:items'] };
    expect(preferSecond(m, 'second-reader', first, second)).toBe(choiceScore(m, choiceFeatures('second-reader', first, second)) > 0);
    expect(preferSecond(m, 'second-reader', first, second)).toBe(true);
  });

  it('fits only the features named, and without an intercept when asked; the options come from the command line per field', () => {
    const rs = Array.from({ length: 40 }, (_, i) => rec('z', `z${i}`, 10, i % 2 ? [10, 0.9] : [17, 0.9], i % 2 ? [12, 0.95] : [10, 0.6], 'first', i % 2 ? [['arithmetic:items'], []] : [[], ['arithmetic:items']]));
    const rows = choiceRows(rs, 'total', choiceFeatures);
    const only = fitChoice(rows, { lambda: 1, minRows: 20, features: ['confidence-difference'] });
    expect(Object.keys(only.weights).sort()).toEqual(['bias', 'confidence-difference']);
    const bare = fitChoice(rows, { lambda: 1, minRows: 20, features: ['confidence-difference', 'term:arithmetic'], bias: false });
    expect(Object.keys(bare.weights).sort()).toEqual(['confidence-difference', 'term:arithmetic']);
    expect(bare.weights['term:arithmetic']).toBeGreaterThan(1);
    const argv = ['--fields', 'total,date', '--features-total', 'confidence-difference,support-difference', '--no-bias-total', '--lambda', '1'];
    expect(choiceOptions(argv, 'total')).toEqual({ features: ['confidence-difference', 'support-difference'], bias: false });
    expect(choiceOptions(argv, 'date')).toEqual({});
    expect(choiceArgs(argv)).toEqual(['--features-total', 'confidence-difference,support-difference', '--no-bias-total']);
  });

  it('scores each source by a choice fitted on the others', () => {
    const res = losoChoice(records, 'total', choiceFeatures, { minRows: 1 });
    expect(res.decisions).toBe(13);
    expect(res.perSource.x).toMatchObject({ decisions: 6, rule: 6 });
    expect(res.perSource.y).toMatchObject({ decisions: 7, rule: 6 });
    // fitted on x alone (the second always right) it takes the second reading on y: right once of 7
    expect(res.perSource.y.learned).toBe(1);
    // no other source weighed the field: nothing to fit on
    expect(losoChoice(records.filter((r) => r.ds === 'y'), 'total', choiceFeatures).perSource.y.learned).toBeNull();
  });
});
