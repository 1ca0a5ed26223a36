// The cascade's stop lines (src/read/cascade.ts) and their held-out fit (scripts/fit-cascade.mjs).
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/read/index.js';
import { READING_PASSES, runPasses } from '../../src/read/passes.js';
import { HORIZONTAL, INPUT, RECEIPT, ctx, lineWords, readers, words } from '../helpers/scripted-readers.js';
import { canStop, cascadeModel, checkCascadeModel, stopsAt } from '../../src/read/cascade.js';
import type { FieldResults } from '../../src/fields/types.js';
// @ts-expect-error a plain .mjs script without types
import { fitLines, rightness, stopLine, stops } from '../../scripts/fit-cascade.mjs';

const located = <T>(value: T, confidence: number) => ({ value, confidence, lines: [], boxes: [] });
const fields = (c: { total?: number; date?: number; name?: number; currency?: number }): FieldResults => ({
  ...(c.total !== undefined ? { totalAmount: located(12.5, c.total) } : {}),
  ...(c.date !== undefined ? { date: located('2024-05-01', c.date) } : {}),
  ...(c.name !== undefined ? { merchantName: located('Shop', c.name) } : {}),
  ...(c.currency !== undefined ? { currencyCode: located('EUR', c.currency) } : {}),
} as unknown as FieldResults);

describe('stopsAt', () => {
  const lines = { total: 0.9, date: 0.8, name: 0.7, currency: 0.6 };
  it('stops only when every core field is found at or above its line', () => {
    expect(stopsAt(fields({ total: 0.9, date: 0.8, name: 0.7, currency: 0.6 }), lines)).toBe(true);
    expect(stopsAt(fields({ total: 0.89, date: 0.99, name: 0.99, currency: 0.99 }), lines)).toBe(false);
    expect(stopsAt(fields({ total: 0.99, date: 0.99, name: 0.99 }), lines)).toBe(false); // no currency found
  });
  it('never stops at a stage without lines, or at a field whose line is null (no line held 99 %)', () => {
    const sure = fields({ total: 1, date: 1, name: 1, currency: 1 });
    expect(stopsAt(sure, undefined)).toBe(false);
    expect(stopsAt(sure, { ...lines, name: null })).toBe(false);
  });
});

describe('checkCascadeModel', () => {
  it('takes version 1 with lines in [0, 1] or null, and refuses the rest', () => {
    expect(checkCascadeModel({ version: 1, stages: { tesseract: { total: 0.9, name: null } } }).stages.tesseract?.total).toBe(0.9);
    expect(() => checkCascadeModel({ version: 2, stages: {} })).toThrow(/version 1/);
    expect(() => checkCascadeModel({ version: 1, stages: { tesseract: { total: 1.5 } } })).toThrow(/tesseract.total/);
    expect(() => checkCascadeModel({ version: 1, stages: { paddle: {} } })).toThrow(/unknown stage/);
  });
});

describe('fit-cascade', () => {
  it('places the line at the lowest confidence from which the answers are right often enough, with enough of them', () => {
    // 10 answers: the 8 most confident right, then two wrong
    const rows = [0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.9].map((conf, i) => ({ conf, right: i < 8 }));
    expect(stopLine(rows, 1, 5)).toBe(0.92);
    expect(stopLine(rows, 0.8, 5)).toBe(0.9);
    expect(stopLine(rows, 1, 9)).toBe(Infinity); // fewer than 9 answers are all right
    // a line never falls between two equal confidences
    expect(stopLine([{ conf: 0.9, right: true }, { conf: 0.9, right: false }], 1, 1)).toBe(Infinity);
  });

  it('scores an answer against the gold, and stops a record only where each core field clears its line', () => {
    const gold = { totalAmount: 12.5, date: '2024-05-01', merchantName: 'Shop', currencyCode: 'EUR' };
    expect(rightness('totalAmount', [12.5, 0.9], gold)).toBe(true);
    expect(rightness('totalAmount', [12.6, 0.9], gold)).toBe(false);
    expect(rightness('taxAmount', [1, 0.9], gold)).toBeNull();
    const rec = (total: number, conf: number) => ({ ds: 'a', gold, stages: { tesseract: { total: [total, conf], date: ['2024-05-01', 0.95], name: ['Shop', 0.95], currency: ['EUR', 0.95] } } });
    const records = Array.from({ length: 6 }, (_, i) => rec(i < 5 ? 12.5 : 99, 0.99 - i * 0.01));
    const lines = fitLines(records, 'tesseract', 1, 3);
    expect(lines.total).toBeCloseTo(0.95, 6);
    expect(stops(records[0], 'tesseract', lines)).toBe(true);
    expect(stops(records[5], 'tesseract', lines)).toBe(false);
    expect(stops(records[0], 'both', lines)).toBe(false); // no such stage recorded
  });
});

describe('the cascade in the reading stage', () => {
  // a receipt both readers read alike, in a currency its total shows
  const pages = { yes: lineWords([...RECEIPT.slice(0, 5), 'TOTAL £6.10', 'CARD £6.10'], 0.95), no: words(['~ ., ;'], 0.15) };
  const read = async (reading: 'cascade' | 'thorough', lines: Record<string, number | null>) => {
    const { readers: r, asked } = readers(() => true, HORIZONTAL, pages);
    const out = await readDocument(INPUT, r, { ...ctx(), reading, cascade: { version: 1, stages: { tesseract: lines } } });
    return { out, readersAsked: asked.map((a) => a.reader) };
  };

  it('a first reading sure of the total, date, name and currency is not read by the second reader', async () => {
    const { out, readersAsked } = await read('cascade', { total: 0, date: 0, name: 0, currency: 0 });
    expect(readersAsked).toEqual(['tesseract']);
    expect(out.fields.totalAmount?.value).toBe(6.1);
    expect(out.fields.currencyCode?.value).toBe('GBP');
  });

  it('a field under its line (or the thorough reading) has the page read by the second reader as well', async () => {
    expect((await read('cascade', { total: 0, date: 0, name: null, currency: 0 })).readersAsked).toContain('paddle');
    expect((await read('thorough', { total: 0, date: 0, name: 0, currency: 0 })).readersAsked).toContain('paddle');
  });
});

describe('the reading as a list of passes', () => {
  it('declares the passes in the order the reading runs them', () => {
    expect(READING_PASSES.map((p) => p.name)).toEqual(['second-reader', 'script', 'own-language', 'other-axis', 'stop', 'alternates', 'second-look:date', 'second-look:total', 'second-look:items', 'confirming-passes', 'weigh-second', 'tax-again']);
  });
  it('runs each pass in order where its condition holds, and no other', async () => {
    const ran: string[] = [];
    const pass = (name: string, when: boolean) => ({ name, when: () => when, run: () => { ran.push(name); } });
    await runPasses({} as never, [pass('a', true), pass('b', false), pass('c', true)]);
    expect(ran).toEqual(['a', 'c']);
  });
});

describe('canStop', () => {
  it('a stage stops only when every core field has a line', () => {
    expect(canStop({ total: 0.9, date: 0.9, name: 0.9, currency: 0.5 })).toBe(true);
    expect(canStop({ total: 0.9, date: null, name: 0.9, currency: 0.5 })).toBe(false);
    expect(canStop(undefined)).toBe(false);
  });
});

describe('the installed stop lines (models/cascade.json)', () => {
  it('are a valid model whose second stop can stop the total and the date', () => {
    const m = cascadeModel();
    expect(m?.version).toBe(1);
    expect(m?.stages.both?.total).toBeGreaterThan(0.5);
    expect(m?.stages.both?.date).toBeGreaterThan(0.5);
  });
});
