/**
 * The benchmark's scoring (bench/score.mjs) against hand-made predictions and labels: one test per rule of
 * ../shared/corpus/SCORING.md. No OCR, no corpus files.
 */
import { describe, it, expect } from 'vitest';
import {
  normalizeName, levenshtein, levenshteinSimilarity, nameMatches, goldFor, predictionFor, scoreField, scoreLineItems,
  scoreItem, summarize, percentile, flattenLineItems, halfOf, HALVES, reliabilityGroups, CONFIDENCE_GROUPS,
} from '../bench/score.mjs';
import type { Gold } from '../bench/score.mjs';

/** A verbose-shaped field. */
const f = (data: unknown, confidenceLevel = 0.95) => ({ data, confidenceLevel });
/** A verbose-shaped line item. */
const li = (name: string, totalPrice: number) => ({ confidenceLevel: 0.9, data: { name: { data: name }, totalPrice: { data: totalPrice } } });
/** A fake verbose result with only the given fields. */
const result = (o: Record<string, unknown> = {}, entities: Record<string, unknown> = {}) => ({ ...o, entities: { productLineItems: [], ...entities } });

describe('normalizeName / levenshteinSimilarity', () => {
  it('upper-cases and turns every run of other characters into one space, keeping &', () => {
    expect(normalizeName('Mr. D.I.Y. (Johor) Sdn  Bhd')).toBe('MR D I Y JOHOR SDN BHD');
    expect(normalizeName('  A&W  restaurant!! ')).toBe('A&W RESTAURANT');
    expect(normalizeName('Café-Crème 12')).toBe('CAFE CREME 12'); // accents dropped (NFD), the base letter kept
    expect(normalizeName('Cửa hàng Đồng Khánh')).toBe('CUA HANG DONG KHANH'); // đ as D
    expect(normalizeName(undefined)).toBe('');
    expect(normalizeName(42)).toBe('42');
  });
  it('is 1 - distance / longer length', () => {
    expect(levenshtein('KITTEN', 'SITTING')).toBe(3);
    expect(levenshteinSimilarity('KITTEN', 'SITTING')).toBeCloseTo(1 - 3 / 7, 10);
    expect(levenshteinSimilarity('ABC', 'ABC')).toBe(1);
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('ABC', '')).toBe(0);
    expect(levenshteinSimilarity('ABCDE', 'ABCDX')).toBeCloseTo(0.8, 10);
  });
});

describe('halfOf (tune and check halves)', () => {
  it('puts an id in the same half every time, and splits a set into two halves of similar size', () => {
    expect(halfOf('X51005268400')).toBe(halfOf('X51005268400'));
    const ids = Array.from({ length: 400 }, (_, i) => `id${i}`);
    const tune = ids.filter((id) => halfOf(id) === 'tune').length;
    expect(tune).toBeGreaterThan(160);
    expect(tune).toBeLessThan(240);
    expect(new Set(ids.map(halfOf))).toEqual(new Set(HALVES));
  });
});

describe('totalAmount', () => {
  const gold: Gold = { totalAmount: 33.9 };
  it('is correct within 0.005 (inclusive) and wrong beyond', () => {
    expect(scoreField('totalAmount', result({ totalAmount: f(33.9) }), gold)!.correct).toBe(true);
    expect(scoreField('totalAmount', result({ totalAmount: f(33.904) }), gold)!.correct).toBe(true);
    expect(scoreField('totalAmount', result({ totalAmount: f(33.895) }), gold)!.correct).toBe(true); // exactly 0.005 off
    expect(scoreField('totalAmount', result({ totalAmount: f(1.005) }), { totalAmount: 1 })!.correct).toBe(true);
    expect(scoreField('totalAmount', result({ totalAmount: f(33.906) }), gold)!.correct).toBe(false);
    expect(scoreField('totalAmount', result({ totalAmount: f(3.39) }), gold)!.correct).toBe(false);
  });
  it('counts a missing field, confidence 0, a non-number and an error as wrong', () => {
    expect(scoreField('totalAmount', result({}), gold)!.correct).toBe(false);
    expect(scoreField('totalAmount', result({ totalAmount: { confidenceLevel: 0 } }), gold)!.correct).toBe(false);
    expect(scoreField('totalAmount', result({ totalAmount: f(33.9, 0) }), gold)!.correct).toBe(false); // data but confidence 0
    expect(scoreField('totalAmount', result({ totalAmount: f('33.90') }), gold)!.correct).toBe(false);
    expect(scoreField('totalAmount', null, gold)!.correct).toBe(false);
    expect(scoreField('totalAmount', result({ totalAmount: f(33.9) }), gold, { error: true })!.correct).toBe(false);
  });
  it('is not scored when the label lacks it', () => {
    expect(scoreField('totalAmount', result({ totalAmount: f(1) }), {})).toBeNull();
    expect(scoreItem(result({ totalAmount: f(1) }), { date: '2020-01-01' }).fields.totalAmount).toBeUndefined();
  });
});

describe('taxAmount', () => {
  it('is compared within 0.005', () => {
    expect(scoreField('taxAmount', result({ taxAmount: f(4.25) }), { taxAmount: 4.25 })!.correct).toBe(true);
    expect(scoreField('taxAmount', result({ taxAmount: f(4.26) }), { taxAmount: 4.25 })!.correct).toBe(false);
    expect(scoreField('taxAmount', result({}), { taxAmount: 4.25 })!.correct).toBe(false);
  });
  it('a label of 0 is met by an absent tax, by confidence 0, and by 0.00 — but not by an error or another value', () => {
    const gold: Gold = { taxAmount: 0 };
    expect(scoreField('taxAmount', result({}), gold)!.correct).toBe(true);
    expect(scoreField('taxAmount', result({ taxAmount: { confidenceLevel: 0 } }), gold)!.correct).toBe(true);
    expect(scoreField('taxAmount', result({ taxAmount: f(0) }), gold)!.correct).toBe(true);
    expect(scoreField('taxAmount', result({ taxAmount: f(0.5) }), gold)!.correct).toBe(false);
    expect(scoreField('taxAmount', null, gold)!.correct).toBe(false);
    // absent tax is right, but there is no prediction to be "high confidence"
    expect(scoreField('taxAmount', result({}), gold)!.hiConf).toBe(false);
  });
  it('takes the label from labels/, else from lineitems/', () => {
    expect(goldFor({ totalAmount: 75 }, { taxAmount: 4.25, lineItems: [] }).taxAmount).toBe(4.25);
    expect(goldFor({ totalAmount: 75, taxAmount: 1 }, { taxAmount: 4.25 }).taxAmount).toBe(1);
    expect(goldFor({ totalAmount: 75 }, { lineItems: [] }).taxAmount).toBeUndefined(); // no tax line printed: not scored
    expect(goldFor({ totalAmount: 75 }, null).taxAmount).toBeUndefined();
    expect(goldFor({ totalAmount: 75 }, { taxAmount: 0 }).taxAmount).toBe(0);
  });
});

describe('date', () => {
  it('compares the first 10 characters with the label', () => {
    const gold: Gold = { date: '2019-01-12' };
    expect(scoreField('date', result({ date: f('2019-01-12T12:00:00.000Z') }), gold)!.correct).toBe(true);
    expect(scoreField('date', result({ date: f('2019-01-12T14:35:00.000Z') }), gold)!.correct).toBe(true);
    expect(scoreField('date', result({ date: f('2019-12-01T12:00:00.000Z') }), gold)!.correct).toBe(false);
    expect(scoreField('date', result({ date: f('12/01/2019') }), gold)!.correct).toBe(false);
    expect(scoreField('date', result({}), gold)!.correct).toBe(false);
  });
});

describe('merchantName', () => {
  const gold: Gold = { merchantName: 'MR D.I.Y. (JOHOR) SDN BHD' };
  it('accepts Levenshtein similarity >= 0.8 after normalising', () => {
    expect(scoreField('merchantName', result({ merchantName: f('MR D.I.Y. (JOHOR) SDN BHD') }), gold)).toMatchObject({ correct: true, exact: true });
    expect(scoreField('merchantName', result({ merchantName: f('mr diy (johor) sdn bhd') }), gold)).toMatchObject({ correct: true, exact: false });
    expect(scoreField('merchantName', result({ merchantName: f('MR D 1 Y JOHOR SDN BHO') }), gold)).toMatchObject({ correct: true, exact: false });
    expect(nameMatches('ABCDE', 'ABCDX')).toBe(true); // exactly 0.8
    expect(nameMatches('ABCDE', 'ABCXY')).toBe(false); // 0.6
  });
  it('accepts containment when the shorter has >= 4 characters', () => {
    expect(scoreField('merchantName', result({ merchantName: f('MR D.I.Y.') }), gold)!.correct).toBe(true); // "MR D I Y" in label
    expect(nameMatches('FREE SAS', 'Free')).toBe(true); // label contained in prediction, 4 chars
    expect(nameMatches('OYO ROOMS', 'OYO')).toBe(false); // 3 chars: too short to count
    expect(nameMatches('SDN', 'KEDAI SDN BHD')).toBe(false);
  });
  it('is wrong for other names, empty names, confidence 0', () => {
    expect(scoreField('merchantName', result({ merchantName: f('TESCO EXTRA') }), gold)!.correct).toBe(false);
    expect(scoreField('merchantName', result({ merchantName: f('...') }), gold)).toMatchObject({ correct: false, exact: false });
    expect(scoreField('merchantName', result({ merchantName: f('MR D.I.Y. (JOHOR) SDN BHD', 0) }), gold)).toMatchObject({ correct: false, exact: false });
  });
});

describe('merchantAddress', () => {
  const gold: Gold = { merchantAddress: 'NO 12, JALAN MAWAR 3, TAMAN BUNGA, 43300 SERI KEMBANGAN, SELANGOR' };
  it('needs normalised similarity >= 0.8; exact = equal after normalising', () => {
    expect(scoreField('merchantAddress', result({ merchantAddress: f('No 12 Jalan Mawar 3 Taman Bunga 43300 Seri Kembangan Selangor') }), gold)).toMatchObject({ correct: true, exact: true });
    expect(scoreField('merchantAddress', result({ merchantAddress: f('NO 12, JALAN MAWAR 3, TAMAN BUNGA, 43300 SERI KEMBANGAN') }), gold)).toMatchObject({ correct: true, exact: false });
  });
  it('gives no credit for containment alone', () => {
    expect(scoreField('merchantAddress', result({ merchantAddress: f('43300 SERI KEMBANGAN, SELANGOR') }), gold)!.correct).toBe(false);
  });
});

describe('invoiceNumber', () => {
  const gold: Gold = { invoiceNumber: 'INV/2023/03/0008' };
  it('compares after normalising and removing spaces', () => {
    expect(scoreField('invoiceNumber', result({}, { invoiceNumber: f('INV 2023 03 0008') }), gold)!.correct).toBe(true);
    expect(scoreField('invoiceNumber', result({}, { invoiceNumber: f('inv/2023/03/0008') }), gold)!.correct).toBe(true);
    expect(scoreField('invoiceNumber', result({}, { invoiceNumber: f('INV/2023/03/0009') }), gold)!.correct).toBe(false);
  });
  it('reads entities.receiptNumber when there is no invoiceNumber', () => {
    expect(scoreField('invoiceNumber', result({}, { receiptNumber: f('INV-2023-03-0008') }), gold)!.correct).toBe(true);
    expect(scoreField('invoiceNumber', result({}, { invoiceNumber: { confidenceLevel: 0 }, receiptNumber: f('INV-2023-03-0008') }), gold)!.correct).toBe(true);
    // an invoice number that is there wins over the receipt number
    expect(scoreField('invoiceNumber', result({}, { invoiceNumber: f('X1'), receiptNumber: f('INV-2023-03-0008') }), gold)!.correct).toBe(false);
    expect(predictionFor('invoiceNumber', result({}, { invoiceNumber: f('A1', 0.5), receiptNumber: f('B2', 0.9) }))).toEqual({ value: 'A1', confidence: 0.5 });
    expect(scoreField('invoiceNumber', result({}), gold)!.correct).toBe(false);
  });
});

describe('currencyCode', () => {
  it('takes the label\'s `currency` and compares it with the root currencyCode, case ignored', () => {
    const gold = goldFor({ currency: 'MYR', totalAmount: 9.5 });
    expect(gold.currencyCode).toBe('MYR');
    expect(scoreField('currencyCode', result({ currencyCode: f('MYR') }), gold)!.correct).toBe(true);
    expect(scoreField('currencyCode', result({ currencyCode: f('myr') }), gold)!.correct).toBe(true);
    expect(scoreField('currencyCode', result({ currencyCode: f('USD') }), gold)!.correct).toBe(false);
    expect(scoreField('currencyCode', result({ currencyCode: f('MYR', 0) }), gold)!.correct).toBe(false);
    expect(scoreField('currencyCode', result({}), gold)!.correct).toBe(false);
    expect(scoreField('currencyCode', null, gold, { error: true })!.correct).toBe(false);
  });
  it('is not scored when the label has no currency', () => {
    expect(scoreField('currencyCode', result({ currencyCode: f('MYR') }), goldFor({ totalAmount: 1 }))).toBeNull();
  });
});

describe('confidence', () => {
  it('marks predictions with confidence >= 0.9 as high-confidence', () => {
    const gold: Gold = { totalAmount: 10 };
    expect(scoreField('totalAmount', result({ totalAmount: f(10, 0.9) }), gold)!.hiConf).toBe(true);
    expect(scoreField('totalAmount', result({ totalAmount: f(10, 0.89) }), gold)!.hiConf).toBe(false);
    expect(scoreField('totalAmount', result({ totalAmount: f(11, 0.99) }), gold)).toMatchObject({ hiConf: true, correct: false, confidence: 0.99, value: 11 });
  });
});

describe('line items', () => {
  const gold = [
    { name: 'NASI LEMAK AYAM', totalPrice: 17 },
    { name: 'TEH TARIK', totalPrice: 5.6 },
    { name: 'TEH TARIK', totalPrice: 5.6 },
  ];
  it('finds a gold item by totalPrice within 0.005 and name similarity >= 0.6', () => {
    const r = scoreLineItems(result({}, { productLineItems: [li('NASI LEMAK AYAM', 17.004), li('TEH TARIK', 5.6), li('TEH TAR1K', 5.6)] }), gold);
    expect(r).toMatchObject({ gold: 3, predicted: 3, found: 3, allExact: true });
  });
  it('does not reuse a predicted item, and counts extras against precision', () => {
    const r = scoreLineItems(result({}, { productLineItems: [li('TEH TARIK', 5.6), li('NASI LEMAK AYAM', 17), li('PLASTIC BAG', 0.2)] }), gold);
    expect(r).toMatchObject({ gold: 3, predicted: 3, found: 2, allExact: false });
  });
  it('rejects a wrong price or a name below 0.6 similarity; 0.6 itself passes', () => {
    expect(scoreLineItems([li('NASI LEMAK AYAM', 17.01)], [gold[0]!]).found).toBe(0);
    expect(scoreLineItems([li('ABCXY', 1)], [{ name: 'ABCDE', totalPrice: 1 }]).found).toBe(1); // 0.6
    expect(scoreLineItems([li('ABXYZ', 1)], [{ name: 'ABCDE', totalPrice: 1 }]).found).toBe(0); // 0.4
    expect(scoreLineItems([li('nasi-lemak ayam', 17)], [gold[0]!]).found).toBe(1); // names are normalised
  });
  it('greedy: each gold item takes the most similar qualifying unused prediction', () => {
    const r = scoreLineItems([li('TEH TARIX', 5.6), li('TEH TARIK', 5.6)], [{ name: 'TEH TARIK', totalPrice: 5.6 }]);
    expect(r.matches).toEqual([[0, 1]]);
  });
  it('accepts plain { name, totalPrice } items and tolerates malformed ones', () => {
    expect(flattenLineItems([{ name: 'A', totalPrice: 1 }, { data: { name: { data: 'B' }, totalPrice: { data: 'x' } } }, null]))
      .toEqual([{ name: 'A', totalPrice: 1 }, { name: 'B', totalPrice: undefined }, { name: '', totalPrice: undefined }]);
    expect(scoreLineItems(null, gold)).toMatchObject({ predicted: 0, found: 0, allExact: false });
    expect(scoreLineItems([], [])).toMatchObject({ allExact: true });
  });
  it('uses lineitems/ first, else the label\'s own lineItems', () => {
    expect(goldFor({ lineItems: [{ name: 'A', totalPrice: 1 }] }, { lineItems: [{ name: 'B', totalPrice: 2 }] }).lineItems).toEqual([{ name: 'B', totalPrice: 2 }]);
    expect(goldFor({ lineItems: [{ name: 'A', totalPrice: 1 }] }, null).lineItems).toEqual([{ name: 'A', totalPrice: 1 }]);
    expect(goldFor({ totalAmount: 1 }, null).lineItems).toBeUndefined();
  });
  it('an error scores every gold item as missed', () => {
    expect(scoreItem(null, { lineItems: gold }, { error: true }).lineItems).toMatchObject({ gold: 3, predicted: 0, found: 0, allExact: false });
  });
});

describe('summarize', () => {
  it('aggregates accuracy, exact, high-confidence precision and share, line items (summed), errors and speed', () => {
    const gold1: Gold = { totalAmount: 10, merchantName: 'ALPHA STORE', lineItems: [{ name: 'A', totalPrice: 1 }, { name: 'B', totalPrice: 2 }] };
    const gold2: Gold = { totalAmount: 20, merchantName: 'BETA MART', lineItems: [{ name: 'C', totalPrice: 3 }] };
    const gold3: Gold = { totalAmount: 30, merchantName: 'GAMMA' };
    const items = [
      { ...scoreItem(result({ totalAmount: f(10, 0.95), merchantName: f('ALPHA STORE', 0.95) }, { productLineItems: [li('A', 1), li('B', 2)] }), gold1), ms: 100, error: null },
      { ...scoreItem(result({ totalAmount: f(21, 0.95), merchantName: f('BETA MART SDN BHD', 0.5) }, { productLineItems: [li('C', 3), li('D', 4)] }), gold2), ms: 300, error: null },
      { ...scoreItem(null, gold3, { error: true }), ms: 50, error: 'UNREADABLE_FILE' },
    ];
    const s = summarize(items);
    expect(s.n).toBe(3);
    expect(s.errors).toBe(1);
    expect(s.errorCodes).toEqual({ UNREADABLE_FILE: 1 });
    expect(s.fields.totalAmount).toMatchObject({ n: 3, correct: 1, hiConfN: 2, hiConfCorrect: 1, hiConfPrecision: 0.5 });
    expect(s.fields.totalAmount!.accuracy).toBeCloseTo(1 / 3);
    expect(s.fields.totalAmount!.hiConfShare).toBeCloseTo(2 / 3);
    expect(s.fields.merchantName).toMatchObject({ n: 3, correct: 2, exact: 1, hiConfN: 1, hiConfPrecision: 1 });
    expect(s.fields.taxAmount).toBeUndefined();
    // gold 3, predicted 4, found 3 => P 0.75, R 1
    expect(s.lineItems).toMatchObject({ receipts: 2, gold: 3, predicted: 4, found: 3, precision: 0.75, recall: 1, allExact: 1 });
    expect(s.lineItems!.f1).toBeCloseTo((2 * 0.75) / 1.75);
    expect(s.speed).toMatchObject({ p50: 100, p95: 300, max: 300 });
  });
  it('percentile is nearest-rank', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([4, 1, 3, 2], 50)).toBe(2);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 95)).toBe(95);
  });
});

describe('reliabilityGroups (bench/reliability.mjs)', () => {
  it('groups the values given by confidence, counting the right ones and their mean confidence', () => {
    const items = [
      { ok: { totalAmount: true }, pred: { totalAmount: 10 }, conf: { totalAmount: 0.97 } },
      { ok: { totalAmount: false }, pred: { totalAmount: 11 }, conf: { totalAmount: 0.95 } },
      { ok: { totalAmount: true }, pred: { totalAmount: 12 }, conf: { totalAmount: 1 } },
      { ok: { totalAmount: false }, pred: { totalAmount: 13 }, conf: { totalAmount: 0.3 } },
      // no value given: not in any group; a field not scored: not either
      { ok: { totalAmount: false }, pred: {}, conf: { totalAmount: 0 } },
      { ok: {}, pred: { totalAmount: 14 }, conf: { totalAmount: 0.99 } },
    ];
    const g = reliabilityGroups(items, 'totalAmount');
    expect(g).toHaveLength(CONFIDENCE_GROUPS.length);
    expect(g[0]).toMatchObject({ from: 0, to: 0.5, n: 1, right: 0, meanConfidence: 0.3 });
    expect(g[5]).toMatchObject({ from: 0.95, to: 1, n: 3, right: 2 });
    expect(g[5]!.meanConfidence).toBeCloseTo((0.97 + 0.95 + 1) / 3, 10);
    expect(g[3]).toMatchObject({ n: 0, right: 0, meanConfidence: null });
  });
});
