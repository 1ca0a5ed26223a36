import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { countersOnly } from '../../src/fields/merchant.js';
import { documentFromText, buildDocument, lineFromWords } from '../../src/document/geometry.js';
import type { FieldContext } from '../../src/fields/types.js';
import type { Word } from '../../src/document/types.js';

const ctx = (): FieldContext => ({ extractTime: false, now: new Date('2024-06-01T00:00:00Z') });
const fields = (text: string) => extractFields(documentFromText(text), ctx());

describe('header lines that never name the merchant', () => {
  it('a line of numbered things (store, table, seat numbers, the service type) is no name', () => {
    expect(countersOnly('Store # 176')).toBe(true);
    expect(countersOnly('Tab #12 x')).toBe(true);
    expect(countersOnly('SEAT NUMBER 1')).toBe(true);
    expect(countersOnly('Dining')).toBe(true);
    expect(countersOnly('MICHAELS STORE #9416')).toBe(false);
    expect(countersOnly('THE STORE')).toBe(false);
    const r = fields(['Store # 176', 'GOLDEN GATE DINER', '12 Main Street', 'Springfield, IL 62701', 'Burger 9.50', 'TOTAL 9.50'].join('\n'));
    expect(r.merchantName?.value).toBe('GOLDEN GATE DINER');
  });

  it('a line with a price or an amount of money is no name (an item, a card payment, a promotion)', () => {
    const r = fields(['Win 1 of 5 prizes of £200', 'Harbour Fish Bar', 'Total 12.40'].join('\n'));
    expect(r.merchantName?.value).toBe('Harbour Fish Bar');
    const r2 = fields(['KAART 53.78', 'Tankstation De Vries', 'Totaal 53.78'].join('\n'));
    expect(r2.merchantName?.value).toBe('Tankstation De Vries');
  });

  it('reads "mbH" as a company form, and a short form in lower case as a word', () => {
    const r = fields(['Ne S', 'Kasse 3', 'Summe 12,00', 'Elektro Handelsgesellschaft mbH'].join('\n'));
    expect(r.merchantName?.value).toBe('Elektro Handelsgesellschaft mbH');
    const r2 = fields(['Loko Bidnd as', 'RIVERSIDE TAVERN LLC', 'Total 5.00'].join('\n'));
    expect(r2.merchantName?.value).toBe('RIVERSIDE TAVERN LLC');
  });

  it('drops trailing words read at next to no confidence from the name', () => {
    const words = (spec: Array<[string, number]>, y: number): Word[] => spec.map(([text, confidence], i) => ({ text, confidence, box: { x0: i * 90, y0: y, x1: i * 90 + 80, y1: y + 20 } }));
    const doc = buildDocument([{ index: 0, source: 'ocr', width: 800, height: 600, originalWidth: 800, originalHeight: 600, rotation: 0, lines: [
      lineFromWords(words([['NORTH', 0.9], ['STAR', 0.95], ['FUEL', 0.92], ['YEEN-eem', 0.0], ['eee.', 0.0]], 0)),
      lineFromWords(words([['Balkenweg', 0.9], ['2', 0.9]], 40)),
      lineFromWords(words([['TOTAL', 0.95], ['53.78', 0.95]], 80)),
    ] }]);
    expect(extractFields(doc, ctx()).merchantName?.value).toBe('NORTH STAR FUEL');
  });

  it('does not take a sentence that names a company (legal small print) over the header\'s name', () => {
    const r = fields(['Westfalen Tankstelle', 'Verkauf im Namen und auf Rechnung der Autogas Handel GmbH', 'Diesel 45,00 A', 'SUMME EUR 45,00'].join('\n'));
    expect(r.merchantName?.value).toBe('Westfalen Tankstelle');
  });
});
