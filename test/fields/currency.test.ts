/**
 * One currency per document unless it prints two (issue 15): a MYR receipt's total must not come back
 * GBP because one marker was misread; and the line-item check says "matches" only when the numbers agree.
 */
import { describe, it, expect } from 'vitest';
import { documentFromText } from '../../src/document/geometry.js';
import { extractFields } from '../../src/extract/index.js';
import { buildVerbose } from '../../src/response/build.js';
import { item } from '../helpers/extraction.js';
import type { FieldResults } from '../../src/fields/types.js';

const NOW = new Date('2024-06-01T00:00:00Z');

describe('a currency the page does not settle is given below 0.9', () => {
  const conf = (lines: string[]) => extractFields(documentFromText(lines.join('\n')), { now: NOW });
  it('a pound sign beside amounts, with a euro beside others: GBP, held below 0.9', () => {
    const f = conf(['TOWER BAR', 'KELLS CO. MEATH', '2 MAIN COURSE £20.00', '2 TEA €3.00', 'Total £28.00', 'CASH €28.00', 'VAT No IE 123', 'London SW1A 1AA']);
    expect(f.currencyCode?.value).toBe('GBP');
    expect(f.currencyCode!.confidence).toBeLessThan(0.9);
    expect(f.evidence?.locale).toContain('currency-contested:other-currency');
  });
  it('a pound sign on a page with an American address and phone: held below 0.9', () => {
    const f = conf(['COLONIAL', '2736 Countrywood Pkwy', 'Cordova, TN. 38016', '(901) 368-6150', 'COFFEE £2.00', 'Tax £0.18', 'Total £2.18', 'VAT 20%', 'London SW1A 1AA']);
    expect(f.currencyCode!.confidence).toBeLessThan(0.9);
    expect(f.evidence?.locale?.some((e) => e.startsWith('currency-contested:other-country:US'))).toBe(true);
  });
  it('a rival country is one the page places, not one its signs or its grouped amounts suggest', () => {
    // a Vietnamese page in dong, amounts grouped by thousands (as Indonesia's are) and one "Rs" read in noise
    const lines = ['CO.OPMART NGUYEN DINH CHIEU', '168 Nguyen Dinh Chieu, Quan 3, TP Ho Chi Minh', 'HOA DON BAN HANG', 'Ngay ban: 15/08/2020',
      'Sua tuoi 2 x 32.000 64.000', 'Banh mi 1 x 15.000 15.000', 'Rs 4 Tong cong 79.000', 'Tien mat 100.000', 'Tien thoi 21.000'];
    const f = conf(lines);
    expect(f.currencyCode?.value).toBe('VND');
    expect(f.evidence?.locale?.some((e) => e.startsWith('currency-contested'))).toBe(false);
    // an Indonesian street, telephone and words beside the Vietnamese address: two places, contested, below 0.9
    const g = conf([...lines, 'Jl. Sudirman No. 5, Jakarta Selatan', 'Telp. (021) 5551234', 'KEMBALIAN 21.000', 'TUNAI 100.000']);
    expect(g.currencyCode!.confidence).toBeLessThan(0.9);
    expect(g.evidence?.locale?.some((e) => e.startsWith('currency-contested:other-country:'))).toBe(true);
  });
  it('a page that settles its currency keeps it high: the ringgit of a Malaysian company printing RM', () => {
    const f = conf(['KEDAI MAKAN SERI MURNI SDN BHD', 'NO 12 JALAN MAWAR 43300 SERI KEMBANGAN SELANGOR', 'GST REG 000123456789', 'NASI LEMAK RM 8.50', 'TEH TARIK RM 5.60', 'TOTAL RM 14.10', 'CASH RM 20.00', 'CHANGE RM 5.90']);
    expect(f.currencyCode?.value).toBe('MYR');
    expect(f.currencyCode!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(f.evidence?.locale?.some((e) => e.startsWith('currency-contested'))).toBe(false);
  });
});

describe('document currency', () => {
  it('a single stray marker on the total does not change the currency of a MYR receipt', () => {
    const d = documentFromText([
      'KEDAI MAKAN SERI MURNI SDN BHD', 'NO 12 JALAN MAWAR 43300 SERI KEMBANGAN SELANGOR MALAYSIA', '12/03/2024',
      'NASI LEMAK RM 8.50', 'TEH TARIK RM 5.60', 'SST 6% RM 0.85', 'TOTAL GBP 15.00', 'CASH RM 20.00', 'CHANGE RM 5.00',
    ].join('\n'));
    const f = extractFields(d, { now: NOW });
    expect(f.totalAmount?.value).toBe(15);
    expect(f.totalAmount?.currencyCode).toBe('MYR');
    expect(f.taxAmount?.currencyCode ?? 'MYR').toBe('MYR');
    expect(f.currencyCode?.value).toBe('MYR');
  });

  it('a bare "$" on a receipt whose country the page settles is that country\'s money (a Malaysian shop that prints $)', () => {
    const d = documentFromText([
      'UNIHAKKA INTERNATIONAL SDN BHD', '12, JALAN TAMPOI 7/4, KAWASAN PERINDUSTRIAN TAMPOI, 81200 JOHOR BAHRU, JOHOR', 'GST REG #000656195584',
      'Date: 16/05/2018', '$5.50 1 $5.50', '$2.70 1 $2.70', 'Total Amount: $8.20', 'GST @6%: $0.46', 'CASH $8.20', 'Change $0.00',
    ].join('\n'));
    const f = extractFields(d, { now: NOW });
    expect(f.country?.code).toBe('MY');
    expect(f.currencyCode?.value).toBe('MYR');
    // with no country, "$" is the dollar
    expect(extractFields(documentFromText('Coffee $3.20\nTotal $3.20\nCash $5.00'), { now: NOW }).currencyCode?.value).toBe('USD');
  });

  it('the words of a one-country language are evidence of its country: a Vietnamese receipt with stray pound signs is in dong', () => {
    const lines = ['HOA DON BAN HANG', 'Thu ngan: Lan', 'Ca phe sua 1 29,000.00 29,000.00', '£ Banh mi 1 20,000.00 £40.00',
      'Tong tien 49,000.00', 'Tien mat 50,000.00', 'Tra lai khach 1,000.00', 'Cam on quy khach'];
    const f = extractFields(documentFromText(lines.join('\n')), { now: NOW });
    expect(f.country?.code).toBe('VN');
    expect(f.currencyCode?.value).toBe('VND');
    // one such word does not outweigh pound signs before the amounts
    expect(extractFields(documentFromText('Cam on\nTotal £ 12.00\nCash £ 20.00'), { now: NOW }).currencyCode?.value).toBe('GBP');
  });

  it('a place name is where the page is, not a printing of its currency; a sign needs its amount on its own line', () => {
    const vn = ['HOA DON BAN HANG', 'Pho Ha Noi', 'Mi xao Singapore 1 45,000', 'S$ cho: 09', 'Tong tien 45,000', 'Tien mat 50,000', 'Tra lai 5,000', 'Cam on quy khach'];
    expect(extractFields(documentFromText(vn.join('\n')), { now: NOW }).currencyCode?.value).toBe('VND');
    // "RS" at a line's end before a number on the next line is no rupee sign
    const noisy = ['HOA DON BAN HANG', 'Tong tien 45,000 RS', '9 Tien mat 50,000', 'Cam on quy khach'];
    expect(extractFields(documentFromText(noisy.join('\n')), { now: NOW }).currencyCode?.value).toBe('VND');
    expect(extractFields(documentFromText('GRAND HOTEL\nTotal Rs. 1,250.00\nCGST 2.5% 31.25'), { now: NOW }).currencyCode?.value).toBe('INR');
  });

  it('signs that lost the country to its place do not win its currency (a euro read as a pound)', () => {
    const fr = ['LE PETIT BISTROT', 'SIREN 123 456 789 RCS Lyon', 'Plat du jour £15.50', 'Dessert £6.00', 'TOTAL TTC £21.50', 'TVA 10% 1.95'];
    const f = extractFields(documentFromText(fr.join('\n')), { now: NOW });
    expect(f.evidence?.locale).toContain('place-before-signs:FR');
    expect(f.currencyCode?.value).toBe('EUR');
    expect(f.currencyCode!.confidence).toBeLessThan(0.9);
    const ie = ['RAJ GAYLORD', 'KERRY PIKE VILLAGE, CORK.', '1 CHICKEN JAL FREZI £15.95', '1 PILAU RICE £3.50', '7 Total £19.45'];
    expect(extractFields(documentFromText(ie.join('\n')), { now: NOW }).currencyCode?.value).toBe('EUR');
    // one generic mark ("N°") may place the page, but does not outweigh the pound signs beside every amount
    const gb = ['VOLUME ONE BOOKSHOP', 'N° 601 DRAWER 1', 'ADULT P/BACK £5.99', 'TOTAL £5.99', 'CASH £20.00', 'CHANGE £14.01'];
    expect(extractFields(documentFromText(gb.join('\n')), { now: NOW }).currencyCode?.value).toBe('GBP');
  });

  it('with no country and no currency printed, the keyword language\'s country\'s currency is a guess, given low', () => {
    const f = extractFields(documentFromText(['BOULANGERIE DU COIN', 'Date de vente 12/03/2024', 'Croissant 1,20', 'Baguette 1,10', 'TOTAL 2,30', 'Paiement carte 2,30'].join('\n')), { now: NOW });
    expect(f.currencyCode?.value).toBe('EUR');
    expect(f.currencyCode!.confidence).toBeLessThan(0.6);
    // English alone names no country: no currency
    expect(extractFields(documentFromText('Coffee 3.20\nTotal 3.20\nThank you'), { now: NOW }).currencyCode).toBeUndefined();
  });

  it('a document that prints two currencies keeps both', () => {
    const d = documentFromText([
      'DUTY FREE SHOP LTD', 'LONDON UNITED KINGDOM', '12/03/2024',
      'SUBTOTAL GBP 15.00', 'TOTAL GBP 15.00', 'TOTAL EUR 17.40', 'PAID EUR 17.40', 'RATE EUR 1.16',
    ].join('\n'));
    const f = extractFields(d, { now: NOW });
    // each amount keeps the code printed on its own line (both codes are printed on two lines or more)
    for (const a of [f.totalAmount, f.paidAmount, f.subtotalAmount]) if (a) expect(a.text).toContain(a.currencyCode!);
    expect(new Set([f.totalAmount, f.paidAmount, f.subtotalAmount].map((a) => a?.currencyCode)).size).toBeGreaterThan(1);
  });
});

describe('lineItemsCheck', () => {
  const fields = (check: FieldResults['itemsCheck'], items = [item('A', 1, 10, 10), item('B', 1, 8.15, 8.15)]): FieldResults =>
    ({ amounts: [], lineAmounts: [], numbers: [], warnings: [], lineItems: items, ...(check ? { itemsCheck: check } : {}) });
  const verbose = (f: FieldResults) => buildVerbose(documentFromText('A 10.00\nB 8.15\nTOTAL 15.00'), f, { targetRotation: 0, pages: 1, elapsed: 1, warnings: [] });

  it('matches is false when the items (18.15) do not add up to the expected total (15)', () => {
    const r = verbose(fields({ itemsSum: 15, against: 'total', expected: 15, matches: true }));
    expect(r.entities.lineItemsCheck).toEqual({ itemsSum: 18.15, against: 'total', expected: 15, matches: false });
  });

  it('matches stays true when they do add up', () => {
    const r = verbose(fields({ itemsSum: 18.15, against: 'total', expected: 18.15, matches: true }));
    expect(r.entities.lineItemsCheck).toEqual({ itemsSum: 18.15, against: 'total', expected: 18.15, matches: true });
  });
});
