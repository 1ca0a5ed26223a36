import { choiceModel } from '../../src/resolve/combine-model.js';
import { describe, expect, it } from 'vitest';
import { extractFields, taxAtTotal } from '../../src/extract/index.js';
import { capUnsettledOrder, combineReadings, inOneOrder, READERS_DISAGREE_CAP, taxWeighedAgain } from '../../src/read/combine.js';
import { AMBIGUOUS_ORDER_MAX_CONFIDENCE } from '../../src/resolve/dates.js';
import { documentFromText } from '../../src/document/geometry.js';
import { combineTaps } from '../../src/resolve/model.js';
import type { TappedCombine } from '../../src/resolve/model.js';

const ctx = { extractTime: false, extractLineItems: true, now: new Date('2024-06-01T00:00:00Z') };
const read = (lines: string[]) => { const doc = documentFromText(lines.join('\n')); return { doc, fields: extractFields(doc, ctx) }; };
const HEAD = ['CORNER SHOP SDN BHD', 'DATE 12/03/2024'];


/** The rule's choice between two readings (the more confident value), whatever models/combine.json holds. */
const RULE = { choice: () => undefined };

describe('two readings weighed', () => {
  it('agreement: the value stays and its confidence becomes that of either reading being right', () => {
    const a = read([...HEAD, 'TOTAL 10.00', 'CASH 10.00']);
    const b = read([...HEAD, 'TOTAL 10.00', 'CASH 10.00']);
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    const ca = a.fields.totalAmount!.confidence, cb = b.fields.totalAmount!.confidence;
    expect(out.totalAmount?.value).toBe(10);
    expect(out.totalAmount!.confidence).toBeCloseTo(Math.min(0.99, 1 - (1 - ca) * (1 - cb)), 2);
    expect(out.totalAmount!.confidence).toBeGreaterThanOrEqual(Math.max(ca, cb));
    expect(out.evidence?.totalAmount).toContain('second-reader-agrees');
    expect(out.date?.value).toBe(a.fields.date?.value);
  });

  it('disagreement: the more confident value, held below 0.9, on the first document\'s line', () => {
    // the first reading lost the total's label: its total is a weak guess; the second reads it labelled
    const a = read([...HEAD, 'ITEM A 4.00', 'T0TAI 16.00', 'CASH 20.00']);
    const b = read([...HEAD, 'ITEM A 4.00', 'TOTAL 18.00', 'CASH 20.00']);
    expect(b.fields.totalAmount!.confidence).toBeGreaterThan(a.fields.totalAmount?.confidence ?? 0);
    // the rule (no fitted choice: models/combine.json's total is tested below)
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields, 'second-reader', RULE);
    expect(out.totalAmount?.value).toBe(18);
    expect(out.totalAmount!.confidence).toBeLessThanOrEqual(READERS_DISAGREE_CAP);
    expect(out.totalAmount!.lineIndex).toBe(3);
    // the other way round the first, more confident, reading stands, also held below 0.9
    const back = combineReadings(b.doc, b.fields, a.doc, a.fields, 'second-reader', RULE);
    expect(back.totalAmount?.value).toBe(18);
    expect(back.totalAmount!.confidence).toBeLessThanOrEqual(READERS_DISAGREE_CAP);
    expect(back.evidence?.totalAmount).toContain('second-reader-differs');
  });

  it('tells the taps what each reading answered and which stood (the data a learned choice between readings is fitted from)', () => {
    const a = read([...HEAD, 'ITEM A 4.00', 'T0TAI 16.00', 'CASH 20.00']);
    const b = read([...HEAD, 'ITEM A 4.00', 'TOTAL 18.00', 'CASH 20.00']);
    const seen: TappedCombine[] = [];
    const tap = (c: TappedCombine) => { seen.push(c); };
    combineTaps.push(tap);
    try { combineReadings(a.doc, a.fields, b.doc, b.fields); } finally { combineTaps.splice(combineTaps.indexOf(tap), 1); }
    const total = seen.find((c) => c.field === 'totalAmount')!;
    expect(total).toMatchObject({ tag: 'second-reader', chosen: 'second', second: { value: 18, confidence: b.fields.totalAmount!.confidence } });
    expect(total.second!.terms).toEqual(b.fields.evidence?.totalAmount ?? []);
    // each reading's words' mean OCR confidence
    const words = a.doc.lines.flatMap((l) => l.words);
    expect(total.first!.reading).toBeCloseTo(words.reduce((s, w) => s + w.confidence, 0) / words.length, 3);
    expect(total.paper).toBe(false);
    expect(seen.find((c) => c.field === 'date')?.chosen).toBe('both');
    expect(total.support).toBeUndefined();
    // no listener: nothing is built
    expect(combineTaps).toHaveLength(0);
  });

  it('tells how many of the page\'s readings gave each value (the readers\' agreement), and a model may weigh it', () => {
    const a = read([...HEAD, 'ITEM A 4.00', 'T0TAI 16.00', 'CASH 20.00']);
    const b = read([...HEAD, 'ITEM A 4.00', 'TOTAL 18.00', 'CASH 20.00']);
    const pass = read([...HEAD, 'ITEM A 4.00', 'T0TAI 16.00', 'CASH 20.00']);
    const seen: TappedCombine[] = [];
    const tap = (c: TappedCombine) => { seen.push(c); };
    combineTaps.push(tap);
    const readings = [a.fields, b.fields, pass.fields];
    try { combineReadings(a.doc, a.fields, b.doc, b.fields, 'second-reader', { readings }); } finally { combineTaps.splice(combineTaps.indexOf(tap), 1); }
    expect(seen.find((c) => c.field === 'totalAmount')!.support).toEqual([2, 1]);
    // without a model the more confident value stands whatever the agreement; a model that weighs agreement keeps the first
    expect(combineReadings(a.doc, a.fields, b.doc, b.fields, 'second-reader', { readings, ...RULE }).totalAmount?.value).toBe(18);
    const model = { weights: { bias: 0, 'support-difference': 3, 'confidence-difference': 1 } };
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields, 'second-reader', { readings, choice: (k) => (k === 'totalAmount' ? model : undefined) });
    expect(out.totalAmount?.value).toBe(16);
  });

  it('a field only the second reading has is taken as read', () => {
    const a = read(['CORNER SHOP SDN BHD', 'TOTAL 10.00']);
    const b = read(HEAD.concat(['TOTAL 10.00']));
    expect(a.fields.date).toBeUndefined();
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.date?.value).toBe(b.fields.date!.value);
    expect(out.date!.confidence).toBe(b.fields.date!.confidence);
    expect(out.evidence?.date).toContain('second-reader-only');
  });

  it('line items: the second reading\'s when they add up and the first\'s do not', () => {
    const a = read([...HEAD, 'NASI LEMAK 5.00', 'TEH TARIK 2.8O', 'TOTAL 7.50']);
    const b = read([...HEAD, 'NASI LEMAK 5.00', 'TEH TARIK 2.50', 'TOTAL 7.50']);
    expect(b.fields.itemsCheck?.matches).toBe(true);
    expect(a.fields.itemsCheck?.matches).not.toBe(true);
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.lineItems?.map((i) => i.totalPrice.value)).toEqual([5, 2.5]);
    for (const it of out.lineItems ?? []) expect(a.doc.lines[it.lineIndex]).toBeDefined();
    // both adding up: the first reading's items stay
    const same = combineReadings(b.doc, b.fields, a.doc, a.fields);
    expect(same.lineItems).toBe(b.fields.lineItems);
  });

  it('line items: both add up, the first only within the check\'s tolerance (a cent off): the second\'s', () => {
    const a = read([...HEAD, 'KNIFE 7240 15.58', 'SCISSORS K56 7.45', 'TOTAL 23.02']);
    const b = read([...HEAD, 'KNIFE 7240 15.57', 'SCISSORS K56 7.45', 'TOTAL 23.02']);
    expect(a.fields.itemsCheck?.matches).toBe(true);
    expect(b.fields.itemsCheck?.matches).toBe(true);
    expect(combineReadings(a.doc, a.fields, b.doc, b.fields).lineItems?.map((i) => i.totalPrice.value)).toEqual([15.57, 7.45]);
    // the other way round the first is the exact one and stays
    expect(combineReadings(b.doc, b.fields, a.doc, a.fields).lineItems).toBe(b.fields.lineItems);
  });

  it('line items: a name the first reading read doubtfully comes from the second reading\'s item on the same row', () => {
    const doubtful = (lines: string[], row: number, confidence: number) => {
      const doc = documentFromText(lines.join('\n'));
      const line = doc.lines[row]!;
      doc.lines[row] = { ...line, words: line.words.map((w) => ({ ...w, confidence })), confidence };
      return { doc, fields: extractFields(doc, ctx) };
    };
    const rows = (name: string) => [...HEAD, `${name} 7.50`, 'KOPI O 2.50', 'TOTAL 10.00'];
    const b = read(rows('BUTTER SCONE'));
    const low = doubtful(rows('gry 1 nO0'), 2, 0.3);
    expect(low.fields.itemsCheck?.matches).toBe(true);
    const out = combineReadings(low.doc, low.fields, b.doc, b.fields);
    expect(out.lineItems?.map((i) => i.name.value)).toEqual(['BUTTER SCONE', 'KOPI O']);
    expect(out.lineItems?.[0]?.name.lineIndex).toBe(2);
    // read clearly enough the first time: kept
    const clear = doubtful(rows('BUTTER SC0NE'), 2, 0.8);
    expect(combineReadings(clear.doc, clear.fields, b.doc, b.fields).lineItems?.[0]?.name.value).toBe('BUTTER SC0NE');
  });
});

describe('two readings of one date in different day/month orders', () => {
  // the first reading found the Australian business number, the second lost that line: "$" and English read month-first
  const au = read(['BURGER', 'ABN: 83 600 128 738', 'Date: 12/05/2017 12:40', 'Subtotal $17.90', 'Total $17.90']);
  const lost = read(['BURGER', 'AN:8360012873', 'Date: 12/05/2017 12:40', 'Subtotal $17.90', 'Total $17.90']);
  it('the reading that read the country less surely has its date read in the surer one\'s order', () => {
    expect(au.fields.date?.value.slice(0, 10)).toBe('2017-05-12');
    expect(lost.fields.date?.value.slice(0, 10)).toBe('2017-12-05');
    const [a, b] = inOneOrder(au.fields, lost.fields);
    expect(a?.value.slice(0, 10)).toBe('2017-05-12');
    expect(b?.value.slice(0, 10)).toBe('2017-05-12');
    expect(combineReadings(lost.doc, lost.fields, au.doc, au.fields).date?.value.slice(0, 10)).toBe('2017-05-12');
  });
  it('the surer reading\'s order also when it read no date itself', () => {
    // tesseract read the New York address but not the date; PaddleOCR read the date, its address run together
    const us = read(['SUPREME NY', '274 LAFAYETTE STREET', 'NEW YORK, NEW YORK 10012', 'RECEIPT TOTAL: 105.42']);
    const glued = read(['3/1/2018 5:22:49 PM', 'SUPREMENY', 'NEWYORKNEWYORK10012', 'RECEIPT TOTAL 105.42']);
    expect(us.fields.date).toBeUndefined();
    expect(us.fields.dayFirst).toBe(false);
    expect(glued.fields.date?.value.slice(0, 10)).toBe('2018-01-03');
    expect(inOneOrder(us.fields, glued.fields)[1]?.value.slice(0, 10)).toBe('2018-03-01');
    expect(combineReadings(us.doc, us.fields, glued.doc, glued.fields).date?.value.slice(0, 10)).toBe('2018-03-01');
  });
  it('a date only one order allows, or readings in one order, stay as read', () => {
    const late = read(['BURGER', 'AN:8360012873', 'Date: 12/25/2017 12:40', 'Total $17.90']);
    expect(inOneOrder(au.fields, late.fields)[1]?.value).toBe(late.fields.date?.value);
    expect(inOneOrder(au.fields, au.fields)).toEqual([au.fields.date, au.fields.date]);
  });
});

describe('a day/month order nothing settles', () => {
  it('stays below 0.9 when the readings agree on the digits', () => {
    const lines = ['CORNER SHOP', 'Server: Jennifer 04/07/2018 10:00', 'Tea 3.00', 'Total 3.00'];
    const a = read(lines), b = read(lines);
    expect(a.fields.date!.confidence).toBeLessThanOrEqual(AMBIGUOUS_ORDER_MAX_CONFIDENCE);
    expect(a.fields.evidence?.date).toContain('order-unsettled');
    // agreement (and a re-read line, a pass) raise the digits' confidence, not the order's
    const raised = { ...a.fields, date: { ...a.fields.date!, confidence: 0.95 } };
    expect(capUnsettledOrder(raised).date!.confidence).toBe(AMBIGUOUS_ORDER_MAX_CONFIDENCE);
    expect(capUnsettledOrder(combineReadings(a.doc, raised, b.doc, b.fields)).date!.confidence).toBeLessThanOrEqual(AMBIGUOUS_ORDER_MAX_CONFIDENCE);
  });
  it('does not touch a date whose order the page settles', () => {
    const a = read(['CORNER SHOP', 'Date: 24/07/2018 10:00', 'Tea 3.00', 'Total 3.00']);
    expect(a.fields.evidence?.date).not.toContain('order-unsettled');
    const raised = { ...a.fields, date: { ...a.fields.date!, confidence: 0.95 } };
    expect(capUnsettledOrder(raised).date!.confidence).toBe(0.95);
  });
});

describe('the tax weighed against the combined total', () => {
  const taxAt = (d: Parameters<typeof taxAtTotal>[0], total: number) => taxAtTotal(d, ctx, total);
  it('a tax the first reading took from its misread total is found again at the total the readings chose', () => {
    // the first reading read "$43 67" as 43.00: its tax was 43.00 - 41.10; the second reads the total right
    const a = read([...HEAD, 'Polish 41.10', 'Subtotal $41.10', 'Tax 6.25% Tax +$257', 'RECEIPT TOTAL $43 67']);
    const b = read([...HEAD, 'Polish 41.10', 'Subtotal $41.10', 'RECEIPT TOTAL $43.67', 'TOTAL PAID $43.67']);
    expect(a.fields.taxWeighedAt).not.toBe(43.67);
    expect(a.fields.taxAmount?.value).not.toBe(2.57);
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields, 'second-reader', { taxAt });
    expect(out.totalAmount?.value).toBe(43.67);
    expect(out.taxAmount?.value).toBe(2.57);
    expect(out.taxWeighedAt).toBe(43.67);
    expect(out.evidence?.taxAmount).toContain('at-combined-total');
    // without taxAt each reading's tax stays as read
    expect(combineReadings(a.doc, a.fields, b.doc, b.fields).taxAmount?.value).toBe(a.fields.taxAmount?.value);
  });

  it('a total replaced after the reading (a second look) has its tax found again by taxWeighedAgain', () => {
    const a = read([...HEAD, 'Polish 41.10', 'Subtotal $41.10', 'Tax 6.25% Tax +$257', 'RECEIPT TOTAL $43 67']);
    const replaced = { ...a.fields, totalAmount: { ...a.fields.totalAmount!, value: 43.67 } };
    expect(taxWeighedAgain(a.doc, replaced, 43.67, taxAt).taxAmount?.value).toBe(2.57);
    // a tax weighed at the total it has is left as it is
    expect(taxWeighedAgain(a.doc, a.fields, a.fields.taxWeighedAt, taxAt)).toBe(a.fields);
  });
});

describe('the installed choice between readings (models/combine.json)', () => {
  it('holds the date\'s and the total\'s fits, the total weighing each answer\'s support besides its own reading', () => {
    const total = choiceModel('totalAmount');
    expect(total).toBeDefined();
    expect(Object.keys(total!.weights)).toEqual(expect.arrayContaining(['second-support', 'first-support', 'confidence-difference']));
    expect(choiceModel('date')).toBeDefined();
    // the tax's weighings come from one source: no fit of them can be scored held out, the tax keeps the rule
    expect(choiceModel('taxAmount')).toBeUndefined();
  });
});
