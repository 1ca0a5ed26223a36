import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { documentFromText } from '../../src/document/geometry.js';
import type { FieldContext } from '../../src/fields/types.js';

const ctx = (): FieldContext => ({ extractTime: false, now: new Date('2024-06-01T00:00:00Z') });
const fields = (lines: string[]) => extractFields(documentFromText(lines.join('\n')), ctx());

describe('tax lines read with OCR slips', () => {
  it('takes a tax that lost its decimal point when subtotal + tax make the total ("Tax 6.25% +$257")', () => {
    const r = fields(['BEAUTY SUPPLY', 'Polish 41.10', 'Subtotal $41.10', 'Tax 6.25% Tax +$257', 'RECEIPT TOTAL $43.67']);
    expect(r.taxAmount?.value).toBe(2.57);
  });
  it('takes a tax that lost its decimal point at the rate printed on its line, with no subtotal', () => {
    const r = fields(['THE CORNER PUB', 'Item Total £ 151.95', 'Total £ 136.95', 'Inol.of VAT (20.00%) 3 2282', 'Total Paid £ 136.95']);
    expect(r.taxAmount?.value).toBe(22.82);
  });
  it('does not take a tax that matches neither the printed rate nor a subtotal', () => {
    const r = fields(['THE CORNER PUB', 'Total £ 136.95', 'VAT (20.00%) 1990', 'Total Paid £ 136.95']);
    expect(r.taxAmount?.value).not.toBe(19.9);
  });
  it('reads "VAT <word> in total" as the included tax, not a total (an OCR-broken "included")', () => {
    const r = fields(['CAFE NERO', 'Latte 2.99', 'Panini 15.00', 'TOTAL £17.99', 'VAT fricluded in total: £2.72']);
    expect(r.totalAmount?.value).toBe(17.99);
    expect(r.taxAmount?.value).toBe(2.72);
  });
  it('takes a tax printed above a subtotal that already equals the total, at a usual rate', () => {
    const r = fields(['IRISH PUB', 'Guinness 23.00', 'Tax: 1 87', 'Sub-total: 23.00', 'Total Due: 23.00']);
    expect(r.taxAmount?.value).toBe(1.87);
  });
});

describe('tax lines as tills print them', () => {
  it('total less net is the tax less the service charge printed between them', () => {
    const r = fields(['THE BLUE GINGER', '1 Fish Head $29.30', 'SUBTOTAL $87.30', 'SV CHG 10% $8.73', 'BST TL $6.72', 'TOTAL $102.75']);
    expect(r.taxAmount?.value).toBe(6.72);
    expect(r.evidence?.taxAmount).toContain('total-minus-net-and-service');
  });
  it('with no service charge total less net stays the tax', () => {
    const r = fields(['CAFE', 'Food 28.95', 'Amt Due €28.95', 'NET TTL 27.31', 'SERVICE NOT INCLUDED']);
    expect(r.taxAmount?.value).toBe(1.64);
  });
  it('reads an amount printed before its tax label ("R35.42 V.A.T Included @ 14%")', () => {
    const r = fields(['MIMMOS', '1 Chicken Alfredo R89.90', 'Total : R288.40', 'R35.42 V.A.T Included @ 14%', 'R252.98 Total Excl']);
    expect(r.taxAmount?.value).toBe(35.42);
    expect(r.subtotalAmount?.value).toBe(252.98);
  });
  it('a line starting with its price takes a tax label only close after it', () => {
    expect(fields(['SHOP', '0.50 VAT', 'TOTAL 10.50']).taxAmount?.value).toBe(0.5);
    expect(fields(['SHOP', '0.50 PAPER BAG FEE WITH VAT', 'TOTAL 10.50']).taxAmount).toBeUndefined();
  });
});

describe('tax summary tables', () => {
  const table = ['PASTA DIVINA', '1 Caprese 12.50', 'Tot Euro 122.10', 'TVA% Total HT Tva', '21% 33.00 27.27 5.73', '12% 89.10 79.55 9.55'];
  it('the rows add up to the total: their taxes are the tax', () => {
    const r = fields([...table, 'Tot 122.10 106.82 15.28']);
    expect(r.taxAmount?.value).toBe(15.28);
  });
  it('a row whose amounts ran together ("124 122.10": 124,122.10) is no row: its gross would be below its net', () => {
    const r = fields([...table, '124 122.10 106.82 15.28']);
    expect(r.taxAmount?.value).toBe(15.28);
  });
  it('two amounts too far apart for a tax are not a net and its tax', () => {
    const r = fields(['SHOP', 'ITEM 10.00', 'TOTAL 10.00', 'GST SUMMARY', 'TOTAL 10.00 NET 5.00']);
    expect(r.taxAmount).toBeUndefined();
  });
});
