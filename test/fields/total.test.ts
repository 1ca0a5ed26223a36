import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { documentFromText } from '../../src/document/geometry.js';
import type { FieldContext } from '../../src/fields/types.js';

const ctx = (extra: Partial<FieldContext> = {}): FieldContext => ({ extractTime: false, now: new Date('2024-06-01T00:00:00Z'), ...extra });
const fields = (text: string, extra: Partial<FieldContext> = {}) => extractFields(documentFromText(text), ctx(extra));

describe('total vs its look-alikes', () => {
  it('picks the total, not subtotal, tax, cash or change', () => {
    const r = fields([
      'KEDAI MAKAN SDN BHD',
      'NASI LEMAK        2   10.00',
      'TEH TARIK         1    2.60',
      'SUBTOTAL              12.60',
      'GST 6%                 0.76',
      'TOTAL                 13.36',
      'CASH                  20.00',
      'CHANGE                 6.64',
    ].join('\n'));
    expect(r.totalAmount?.value).toBe(13.36);
    expect(r.subtotalAmount?.value).toBe(12.6);
    expect(r.taxAmount?.value).toBe(0.76);
    expect(r.paidAmount?.value).toBe(20);
    expect(r.totalAmount?.keyword).toBe('TOTAL');
  });

  it('reads a tax name run into its rate ("GST7%", as PaddleOCR prints it) as the tax line; a word that only begins like one is not', () => {
    const r = fields(['The Blue Ginger', 'SUBTOTAL $87.30', 'SV CHG 10% $8.73', 'GST7% $6.72', 'TOTAL $102.75'].join('\n'));
    expect(r.totalAmount?.value).toBe(102.75);
    expect(r.taxAmount?.value).toBe(6.72);
    // "VAT20" without its "%" (a code, a table number) is no tax name
    const code = fields(['CAFE', 'ITEM VAT20 4.50', 'SUBTOTAL 4.50', 'TOTAL 4.50'].join('\n'));
    expect(code.taxAmount?.value).not.toBe(4.5);
  });

  it('takes an unlabelled amount above the change, that less the change is an amount printed above, as the amount tendered', () => {
    // "Tien mat" (cash) misread as "lien mat": its 200.000 less the change 60.000 is the total 140.000
    const lines = ['HOA DON THANH TOAN', 'Sua chua 35.000', 'Banh 105.000', 'Tong thanitoausy El 140.000d', 'lien mat 200.000d', 'Tra lai khach 60.000d'];
    const r = fields(lines.join('\n'));
    expect(r.totalAmount?.value).toBe(140000);
    expect(r.paidAmount?.value).toBe(200000);
    // the change does not lead back to an amount printed above: the unlabelled amount keeps no role
    const other = fields(['Item 35.000', 'Tong 140.000', 'foo 200.000', 'Tra lai khach 50.000'].join('\n'));
    expect(other.paidAmount).toBeUndefined();
  });

  it('ignores total quantity, savings and points', () => {
    const r = fields([
      'ITEM A 3.50',
      'ITEM B 4.20',
      'TOTAL QTY: 2',
      'YOU SAVED 1.00',
      'TOTAL 7.70',
      'POINTS BALANCE 120.00',
    ].join('\n'));
    expect(r.totalAmount?.value).toBe(7.7);
  });

  it('takes the rounded total after a rounding adjustment', () => {
    const r = fields([
      'Total (Excluding GST): 67.00',
      'GST Payable: 4.02',
      'Total (Inclusive of GST): 71.02',
      'Rounding Adj: -0.02',
      'TOTAL: 71.00',
      'CASH : 71.00',
    ].join('\n'));
    expect(r.totalAmount?.value).toBe(71);
    expect(r.roundingAmount?.value).toBe(-0.02);
  });

  it('applies a rounding line when the rounded total is not printed but was paid', () => {
    const r = fields(['Total Amount (incl. GST) 31.47', 'Rounding -0.02', 'CASH 50.00', 'CHANGE 18.55'].join('\n'));
    expect(r.totalAmount?.value).toBe(31.45);
  });

  it('does not take a tax printed as "included in total" for the total', () => {
    const r = fields(['TOTAL RM 21.00', 'GST @6% included in total RM 1.19', 'CASH 50.00'].join('\n'));
    expect(r.totalAmount?.value).toBe(21);
    expect(r.taxAmount?.value).toBe(1.19);
  });

  it('reads a value printed on the line below its label', () => {
    const r = fields(['Ayam Goreng 2 40.000', 'Ongkir 3.000', 'Total', '43.000', 'Pembayaran GoPay'].join('\n'));
    expect(r.totalAmount?.value).toBe(43000);
  });

  it('reads OCR variants of the keyword', () => {
    const r = fields(['ITEM 5.00', 'T0TAL 5.00', 'CASH 10.00', 'CHANGE 5.00'].join('\n'));
    expect(r.totalAmount?.value).toBe(5);
  });

  it('finds no total where no amount is printed', () => {
    expect(fields('THANK YOU\nPLEASE COME AGAIN').totalAmount).toBeUndefined();
  });
});

describe('a card tender printed as a signed amount', () => {
  it('"Card QAR -59.00" is the amount paid: the total it equals, which the items add up to, is taken over the largest item', () => {
    const f = fields(['EAT STREET', 'SALES RECEIPT', 'Tea 12oz 1 13.00', 'Black Po 1 24.00', 'Fruit Salad 22.00', 'Total QAR 59.J0', 'Card QAR -59.00', 'Have a Nice Flight'].join('\n'), { extractLineItems: true });
    expect(f.totalAmount?.value).toBe(59);
    expect(f.evidence?.totalAmount).toContain('paid-equal(1)');
    // a card number is not a payment
    expect(fields(['SHOP', 'ITEM 4.00', 'TOTAL 4.00', 'CARD NO 4411'].join('\n')).paidAmount).toBeUndefined();
  });
});

describe('locale conventions in amounts', () => {
  it('reads Indonesian thousands (43.000 = 43000) and the IDR currency', () => {
    const r = fields(['Indomaret', 'Jl. Sudirman No. 5', 'ROTI 2 5.500 11.000', 'SUSU 1 32.000 32.000', 'TOTAL : 43.000', 'TUNAI : 50.000', 'KEMBALI : 7.000'].join('\n'));
    expect(r.totalAmount?.value).toBe(43000);
    expect(r.currencyCode?.value).toBe('IDR');
    expect(r.totalAmount?.currencyCode).toBe('IDR');
  });

  it('reads European decimal commas', () => {
    const r = fields(['Facture n° 123', 'Total HT : 46,68 €', 'TVA 20% : 9,34 €', 'Total TTC : 56,02 €'].join('\n'));
    expect(r.totalAmount?.value).toBe(56.02);
    expect(r.taxAmount?.value).toBe(9.34);
    expect(r.currencyCode?.value).toBe('EUR');
  });

  it('reads German totals with grouping', () => {
    const r = fields(['Rechnung', 'Zwischensumme 1.000,00 €', 'MwSt. 19% 190,00 €', 'Gesamtbetrag 1.190,00 €'].join('\n'));
    expect(r.totalAmount?.value).toBe(1190);
  });
});

describe('confidence follows the arithmetic', () => {
  it('is higher when subtotal + tax = total and cash - change = total than when nothing agrees', () => {
    const agree = fields(['SUBTOTAL 10.00', 'TAX 0.60', 'TOTAL 10.60', 'CASH 20.00', 'CHANGE 9.40'].join('\n')).totalAmount!;
    const disagree = fields(['SUBTOTAL 10.00', 'TAX 0.60', 'TOTAL 12.60', 'CASH 20.00', 'CHANGE 3.40'].join('\n')).totalAmount!;
    expect(agree.value).toBe(10.6);
    expect(agree.confidence).toBeGreaterThanOrEqual(0.9);
    expect(disagree.confidence).toBeLessThan(agree.confidence);
    expect(disagree.confidence).toBeLessThan(0.9);
  });

  it('stays below 0.9 for a lone unlabelled amount', () => {
    const r = fields('NASI LEMAK 5.00').totalAmount;
    expect(r?.value).toBe(5);
    expect(r!.confidence).toBeLessThan(0.6);
  });

  it('repairs a misread total when two independent sums agree on another value', () => {
    // 30.50 printed, but 45.70 - 14.80 = 30.90 and 101.00 - 70.10 = 30.90
    const r = fields(['Sub-Total : 45.70', 'Coupon Discount : 14.80', 'Grand Total : 30.50', 'Payment : 101.00', 'Change Due : 70.10'].join('\n')).totalAmount!;
    expect(r.value).toBe(30.9);
    expect(r.confidence).toBeLessThan(0.95);
  });

  it('keeps confidence within [0, 0.99]', () => {
    const r = fields(['SUBTOTAL 10.00', 'TAX 0.60', 'GRAND TOTAL 10.60', 'TOTAL 10.60', 'CASH 10.60', 'CHANGE 0.00']. join('\n')).totalAmount!;
    expect(r.confidence).toBeLessThanOrEqual(0.99);
    expect(r.confidence).toBeGreaterThan(0);
  });
});
