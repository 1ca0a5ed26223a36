/**
 * The rule lists of the long finders (issue 26): findMoney (src/fields/amounts.ts), findAddress
 * (src/fields/address.ts) and the items' itemsFrom (src/fields/items.ts). Rule names are unique in each
 * list, and rules are checked one at a time on small hand-made receipts, with the name of the rule that
 * decided where the finder keeps it (a summary row, a line of the address block, a found item).
 */
import { describe, expect, it } from 'vitest';
import { documentFromText } from '../../src/document/geometry.js';
import type { Document } from '../../src/document/types.js';
import {
  ADDRESS_EVIDENCE_RULES, BLOCK_LINE_RULES, CITY_RULES, POSTCODE_RULES, STATE_RULES, addressBlock,
} from '../../src/fields/address.js';
import type { SplitContext } from '../../src/fields/address.js';
import { NOT_ITEM_RULES, RATE_ROW_READINGS, SUMMARY_ROLE_RULES, SUMMARY_ROW_RULES, findMoney } from '../../src/fields/amounts.js';
import {
  ITEM_CONFIDENCE_RULES, MERGE_RULES, NAME_RULES, OTHER_ROW_RULES, RECOVERY_RULES, SUM_TARGETS, classifyRow, descriptionsBelow, pairRows,
} from '../../src/fields/items.js';
import { analyseLines } from '../../src/fields/lines.js';
import { inferLocale } from '../../src/locale/index.js';
import type { MoneyResolution } from '../../src/resolve/money.js';

const docOf = (lines: string[]): Document => documentFromText(lines.join('\n'));
const money = (lines: string[]) => { const doc = docOf(lines); return findMoney(doc, inferLocale(doc, {})); };

describe('rule names', () => {
  it('are unique in every list', () => {
    const lists: Array<ReadonlyArray<{ name?: string; against?: string }>> = [
      SUMMARY_ROW_RULES, RATE_ROW_READINGS, SUMMARY_ROLE_RULES, NOT_ITEM_RULES,
      BLOCK_LINE_RULES, POSTCODE_RULES, ADDRESS_EVIDENCE_RULES, STATE_RULES, CITY_RULES,
      OTHER_ROW_RULES, NAME_RULES, MERGE_RULES, RECOVERY_RULES, ITEM_CONFIDENCE_RULES,
    ];
    for (const list of lists) {
      const names = list.map((r) => r.name ?? r.against);
      expect(new Set(names).size).toBe(names.length);
    }
    const against = SUM_TARGETS.map((t) => t.against);
    expect(new Set(against).size).toBe(against.length);
  });
});

describe('findMoney rules', () => {
  it('header-table: the rows under a summary header, net/tax/gross in whatever order they add up', () => {
    const f = money(['ITEM A 100.00', 'TOTAL 106.00', 'GST SUMMARY AMOUNT TAX', 'SR 6% 100.00 6.00']);
    expect(f.summaryRows.map((r) => [r.net, r.tax, r.rule])).toEqual([[100, 6, 'header-table']]);
    expect(f.candidates.filter((c) => c.lineIndex === 3).map((c) => c.role)).toEqual(['summary', 'summary']);
  });

  it('rate-row: a row that proves itself by its rate needs no header; each reading in turn', () => {
    expect(money(['ITEM 10.00', 'TAX 10% 10.00 1.00']).summaryRows.map((r) => [r.net, r.tax, r.gross, r.rule])).toEqual([[10, 1, undefined, 'rate-row']]);
    // rate-gross-tax: the tax included in the gross
    expect(money(['INCL. BTW 6.00% 21.95 1.24']).summaryRows.map((r) => [r.net, r.tax, r.gross])).toEqual([[20.71, 1.24, 21.95]]);
    // rate-any-order: tax, net, gross
    expect(money(['A 7% 0,16 2,33 2,49']).summaryRows.map((r) => [r.net, r.tax, r.gross])).toEqual([[2.33, 0.16, 2.49]]);
  });

  it('NOT_ITEM_RULES: an item count line is no item line; a priced line above the totals is', () => {
    const f = money(['SHOP', 'HEADER LINE', 'BREAD 2.50', 'MILK 3.10', 'TOTAL QTY 2', 'TOTAL 5.60']);
    expect(f.items.map((c) => c.amount.value)).toEqual([2.5, 3.1]);
    const ctx = { f: f.lines[4]!, i: 4, a: f.lines[4]!.amounts[0], label: f.lines[4]!.labels[0], inSummary: new Set<number>() };
    expect(NOT_ITEM_RULES.filter((r) => r.rejects(ctx)).map((r) => r.name)).toContain('labelled');
  });
});

describe('findAddress rules', () => {
  const page = (lines: string[]) => ({ lines: docOf(lines).lines, pdf: false, ctx: { customer: new Set(), gap: 8 } });

  it('BLOCK_LINE_RULES: each line of the block keeps the rule that took it; a phone line ends it', () => {
    const block = addressBlock(page(['KEDAI RUNCIT', 'LOT 12, JALAN MERDEKA', 'TAMAN SRI', '43300 SERI KEMBANGAN', 'SELANGOR', 'TEL 03-1234 5678']), 1);
    expect(block.map((b) => [b.text, b.rule])).toEqual([
      ['LOT 12, JALAN MERDEKA', 'address-like'], ['TAMAN SRI', 'address-like'], ['43300 SERI KEMBANGAN', 'address-like'], ['SELANGOR', 'address-like'],
    ]);
    const after = addressBlock(page(['SHOP', '12 High Street', 'Springfield 62704', 'Greenvale', 'TEL 123']), 1);
    expect(after.map((b) => b.rule)).toEqual(['address-like', 'address-like', 'after-postcode']);
  });

  it('BLOCK_LINE_RULES: a registration line is passed over before the block', () => {
    const block = addressBlock(page(['SHOP SDN BHD', '(123456-X)', 'JALAN AMPANG', 'TOTAL 4.00']), 1);
    expect(block.map((b) => b.text)).toEqual(['JALAN AMPANG']);
  });

  it('POSTCODE_RULES: five digits beside a place first, then any five digits, then other forms', () => {
    const pc = (texts: string[], up = texts.join(', ').toUpperCase()) => {
      const block = texts.map((text) => ({ seg: undefined as never, text, rule: '' }));
      for (const r of POSTCODE_RULES) { const v = r.find({ block, up }); if (v) return [r.name, v.value, v.five]; }
      return undefined;
    };
    expect(pc(['NO 12345', '43300 SERI KEMBANGAN'])).toEqual(['five-digit-with-place', '43300', true]);
    expect(pc(['LOT #12345'])).toEqual(['five-digit', '12345', true]);
    expect(pc(['Damrak 1', '1012 LG Amsterdam'])).toEqual(['other-form', '1012 LG', false]);
  });

  it('STATE_RULES and CITY_RULES one at a time', () => {
    const ctx = (up: string, postcode: string, five: boolean, country?: string): SplitContext => ({ up, postcode: { value: postcode, five }, country, stateList: [] });
    const find = (rules: typeof CITY_RULES, name: string, c: SplitContext) => rules.find((r) => r.name === name)!.find(c);
    expect(find(STATE_RULES, 'us-state-zip', ctx('1234 MAIN ST, SPRINGFIELD, IL 62704', '62704', true, 'US'))).toBe('IL');
    expect(find(CITY_RULES, 'after-postcode', ctx('JALAN X, 43300 SERI KEMBANGAN, SELANGOR', '43300', true))).toBe('SERI KEMBANGAN');
    expect(find(CITY_RULES, 'after-postcode', ctx('1234 MAIN ST, SPRINGFIELD, IL 62704', '62704', true))).toBeUndefined();
    expect(find(CITY_RULES, 'before-postcode', ctx('1234 MAIN ST, SPRINGFIELD, IL 62704', '62704', true))).toBe('SPRINGFIELD');
    expect(find(CITY_RULES, 'after-other-postcode', ctx('DAMRAK 1, 1012 LG AMSTERDAM', '1012 LG', false))).toBe('AMSTERDAM');
  });
});

describe('itemsFrom rules', () => {
  const found = (lines: string[]) => {
    const doc = docOf(lines);
    const locale = inferLocale(doc, {});
    const rows = analyseLines(doc, locale).map((f) => classifyRow(f, false, locale));
    return pairRows(rows, descriptionsBelow(rows), locale);
  };

  it('NAME_RULES: an item row names itself; a row of numbers takes the text above', () => {
    expect(found(['WHITE LOAF 2.13 3 6.39']).map((x) => x.nameRule)).toEqual(['own-name']);
    const above = found(['CHICKEN RICE SET', '2 x 5.50 11.00', 'ICED TEA', '1 x 2.00 2.00']);
    expect(above.map((x) => [x.nameRow.line.text, x.nameRule])).toEqual([['CHICKEN RICE SET', 'text-above'], ['ICED TEA', 'text-above']]);
  });

  it('MERGE_RULES: a discount line is taken off the item above; a running total is dropped; a breakdown line joins its item', () => {
    const disc = found(['GDN KTCH LILY500ML 6.90', 'PROMO DISC -2.07', 'HK BX TISSUE 13.76']);
    expect(disc.map((x) => [x.row.line.text, x.reading.total, x.nameLines.length])).toEqual([['GDN KTCH LILY500ML 6.90', 4.83, 2], ['HK BX TISSUE 13.76', 13.76, 1]]);
    expect(found(['BREAD 2.50', 'MILK 5.00', 'Bty 7.50']).map((x) => x.reading.total)).toEqual([2.5, 5]);
    const breakdown = found(['Amazon S3 $0.50', 'Amazon Glacier $1.87', 'Charges $1.87']);
    expect(breakdown.map((x) => x.nameLines.map((r) => r.line.text))).toEqual([['Amazon S3 $0.50'], ['Amazon Glacier $1.87', 'Charges $1.87']]);
  });

  it('SUM_TARGETS: what the money fields give, in order', () => {
    const amt = (value: number) => ({ value, confidence: 0.9, keyword: '-', evidence: [] });
    const m: MoneyResolution = { subtotal: amt(100), total: amt(106.05), tax: amt(6), rounding: amt(0.05), discount: amt(-2) };
    const targets = SUM_TARGETS.map((t) => [t.against, t.value(m)]);
    expect(targets.map(([a]) => a)).toEqual(['subtotal', 'total', 'total-rounding', 'total-tax', 'total+discount', 'total-tax-rounding']);
    expect(targets.map(([, v]) => Math.round((v as number) * 100) / 100)).toEqual([100, 106.05, 106, 100.05, 108.05, 100]);
    expect(SUM_TARGETS.map((t) => t.value({ total: amt(5) })).filter((v) => v !== undefined)).toEqual([5]);
  });

  it('RECOVERY_RULES: a reading the row supports, else the remainder of a garbled amount', () => {
    const num = (value: number, readings = [value]) => ({ tok: { text: String(value), start: 0, end: 1 }, value, readings, money: true, qtyMark: false, unit: false, percent: false, negative: false, bare: false });
    const [rowReading, garbled] = RECOVERY_RULES;
    expect(rowReading!.fix({ nums: [num(1440, [1440, 14.4])], need: 14.4, tol: 0.011, garbled: false })).toEqual({});
    expect(rowReading!.fix({ nums: [num(3), num(2.5)], need: 7.5, tol: 0.011, garbled: false })).toMatchObject({ quantity: 3, unitPrice: 2.5 });
    expect(rowReading!.fix({ nums: [num(9.99)], need: 7.5, tol: 0.011, garbled: true })).toBeUndefined();
    expect(garbled!.fix({ nums: [], need: 7.5, tol: 0.011, garbled: true })).toEqual({});
  });
});
