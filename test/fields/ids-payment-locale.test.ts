import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { inferLocale } from '../../src/locale/index.js';
import { canonicalWord } from '../../src/locale/keywords.js';
import { keywordHits, tokenize } from '../../src/fields/lines.js';
import { documentFromText } from '../../src/document/geometry.js';
import type { FieldContext } from '../../src/fields/types.js';

const ctx = (extra: Partial<FieldContext> = {}): FieldContext => ({ extractTime: false, now: new Date('2024-06-01T00:00:00Z'), ...extra });
const fields = (text: string, extra: Partial<FieldContext> = {}) => extractFields(documentFromText(text), ctx(extra));

describe('invoice and receipt numbers', () => {
  it('reads invoice numbers in several languages', () => {
    expect(fields('Invoice No. 12429647').invoiceNumber?.value).toBe('12429647');
    expect(fields('Facture n° 2022089083').invoiceNumber?.value).toBe('2022089083');
    expect(fields('Rechnungsnr. 30064443 Kundennr. 47774').invoiceNumber?.value).toBe('30064443');
    expect(fields('Factuurnummer: 993548900 IBAN NL50INGB0683251309').invoiceNumber?.value).toBe('993548900');
    expect(fields('Invoice INV/2023/03/0008').invoiceNumber?.value).toBe('INV/2023/03/0008');
  });

  it('reads a number below its column header', () => {
    const r = fields(['Invoice Date      Invoice No', '08/09/2022        VF1005193039'].join('\n'));
    expect(r.invoiceNumber?.value).toBe('VF1005193039');
  });

  it('reads receipt numbers and keeps them apart from invoice numbers', () => {
    const r = fields(['Receipt No: R-000123', 'Invoice No: 17556/103/70503', 'Date: 01/02/2018'].join('\n'));
    expect(r.receiptNumber?.value).toBe('R-000123');
    expect(r.invoiceNumber?.value).toBe('17556/103/70503');
  });

  it('does not take a date for the number', () => {
    const r = fields('Invoice Date: 12/03/2018');
    expect(r.invoiceNumber).toBeUndefined();
  });
});

describe('payment type and card', () => {
  it('reads the card brand and last four digits', () => {
    const r = fields(['TOTAL 25.00', 'VISA ************1234 25.00', 'APPROVED'].join('\n'));
    expect(r.paymentType?.value).toBe('visa');
    expect(r.cardLast4?.value).toBe('1234');
  });

  it('reads cash (and Indonesian tunai)', () => {
    expect(fields(['TOTAL 5.00', 'CASH 10.00', 'CHANGE 5.00'].join('\n')).paymentType?.value).toBe('cash');
    expect(fields(['TOTAL 43.000', 'TUNAI 50.000', 'KEMBALI 7.000'].join('\n')).paymentType?.value).toBe('cash');
  });

  it('prefers the card over a "no cash refund" notice', () => {
    expect(fields(['TOTAL 25.00', 'MASTERCARD 25.00', 'NO CASH REFUND'].join('\n')).paymentType?.value).toBe('mastercard');
  });
});

describe('locale inference', () => {
  it('recognises Malaysia from RM, SDN BHD and states', () => {
    const l = inferLocale(documentFromText('ABC SDN BHD\nJALAN AMPANG\n50450 KUALA LUMPUR\nTOTAL RM 10.00'));
    expect(l.countryCode).toBe('MY');
    expect(l.currency).toBe('MYR');
    expect(l.dayFirst).toBe(true);
    expect(l.decimalComma).toBe(false);
  });

  it('an English page naming no country or currency whose date can only be month-first: US dollars, month-first', () => {
    const l = inferLocale(documentFromText('Liberty Tree Tavern\nSUSPENDED ON 1/13/2008 12:57:15 PM\nSUBTOTAL 37.47\nAMOUNT DUE 48.34'));
    expect(l.currency).toBe('USD');
    expect(l.dayFirst).toBe(false);
    expect(l.countryCode).toBeUndefined();
    // a date either way round proves nothing; nor does a page that prints its currency
    expect(inferLocale(documentFromText('Liberty Tree Tavern\nSUSPENDED ON 1/12/2008 12:57:15 PM\nAMOUNT DUE 48.34')).currency).toBe('');
    expect(inferLocale(documentFromText('CAFE\n1/13/2008\nTOTAL EUR 48.34')).currency).toBe('EUR');
  });

  it('recognises Indonesia from Rp, Jl. and Indonesian words, with whole rupiah', () => {
    const l = inferLocale(documentFromText('Jl. Sudirman 5\nTotal Rp 43.000\nTunai 50.000\nKembalian 7.000'));
    expect(l.countryCode).toBe('ID');
    expect(l.currency).toBe('IDR');
    expect(l.wholeCurrency).toBe(true);
  });

  it('keeps a Vietnamese page in whole dong when its thousands are grouped by spaces, whatever decimals OCR noise makes', () => {
    // three misread "decimals" beside three round thousands printed "35 000": dotted groups alone (none here) let the noise win
    const page = 'CỬA HÀNG TIỆN LỢI\nĐịa chỉ: 12 Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh\nSữa tươi 12.16\nBánh mì 8.52\nNước suối 15.05\nTiền Thanh Toán : 35 000\nTiền mặt : 50 000\nTiền thừa : 15 000';
    const l = inferLocale(documentFromText(page));
    expect(l.currency).toBe('VND');
    expect(l.wholeCurrency).toBe(true);
    expect(fields(page).totalAmount?.value).toBe(35000);
  });

  it('recognises euro countries and decimal commas', () => {
    const l = inferLocale(documentFromText('Facture\nTotal HT 46,68 €\nTVA 20% 9,34 €\nTotal TTC 56,02 €'));
    expect(l.countryCode).toBe('FR');
    expect(l.currency).toBe('EUR');
    expect(l.decimalComma).toBe(true);
  });

  it('lets `near` decide when the document says little', () => {
    const l = inferLocale(documentFromText('TOTAL 10.00'), { near: 'Austin, TX, United States' });
    expect(l.countryCode).toBe('US');
    expect(l.dayFirst).toBe(false);
    expect(l.currency).toBe('USD');
  });

  it('tells a page\'s country by its address before pound signs OCR made of noise ("Dublin, OH" is in the US)', () => {
    const text = 'meijer\n5 Sawmill Rd\nDublin, OH #58\n07/11/12\n£2.00 = TOTAL SAVINGS 3.56\n£3.00 CANDY 1.00\nTOTAL 3.00';
    const l = inferLocale(documentFromText(text));
    expect(l.countryCode).toBe('US');
    expect(l.dayFirst).toBe(false);
    expect(l.evidence).toContain('place-before-signs:US');
    // pound signs before no price in pounds and pence ("£2 =", a barcode's "£1101004000003") weigh less than the address
    const stray = inferLocale(documentFromText('meijer\nDublin, OH\n£2 = SAVINGS\n£3 CANDY\n£1101004000003 COUPON\nTOTAL 3.00'));
    expect(stray.countryCode).toBe('US');
    expect(stray.evidence).not.toContain('place-before-signs:US');
    // and they do not vote for the pound: the page's currency is its place's
    expect(stray.currency).toBe('USD');
    expect(fields(text).date?.value.slice(0, 10)).toBe('2012-07-11');
    // the Irish capital stays Irish; pound signs with no address elsewhere keep their country
    expect(inferLocale(documentFromText('Temple Bar\nDublin 2\nTotal 10.00')).countryCode).toBe('IE');
    expect(inferLocale(documentFromText('TEA £2.00\nCAKE £3.00\nTotal £5.00')).countryCode).toBe('GB');
  });

  it('reads the printed decimal style over the country habit', () => {
    const l = inferLocale(documentFromText('Invoice\nSubtotal 1,234.56 EUR\nVAT 234.57 EUR\nTotal 1,469.13 EUR'));
    expect(l.decimalComma).toBe(false);
  });
});

describe('keywords tolerate OCR', () => {
  it('maps OCR variants to lexicon words', () => {
    expect(canonicalWord('T0TAL')).toBe('TOTAL');
    expect(canonicalWord('TOTAI')).toBe('TOTAL');
    expect(canonicalWord('kounding')).toBe('ROUNDING');
    expect(canonicalWord('CHANGF')).toBe('CHANGE');
    expect(canonicalWord('BANANA')).toBe('BANANA');
  });

  it('maps Vietnamese label words misread by a look-alike letter, and keeps the currency word "dong" and "thank"', () => {
    expect(canonicalWord('phal')).toBe('PHAI');
    expect(canonicalWord('lien')).toBe('TIEN');
    expect(canonicalWord('Khach')).toBe('KHACH');
    expect(canonicalWord('dong')).toBe('DONG');
    expect(canonicalWord('THANK')).toBe('THANK');
    expect(keywordHits('Khach phal tra 94,000').hits[0]!.role).toBe('total');
    expect(keywordHits('lien mat 200,000').hits[0]!.role).toBe('paid');
  });

  it('reads "Tổng số thanh toán" (the sum to pay) as a final total, and "Tổng số" alone as a count', () => {
    const pay = keywordHits('Tổng số thanh toán: 26.000đ').hits[0]!;
    expect([pay.role, pay.strength]).toEqual(['total', 3.5]);
    expect(keywordHits('Tổng số 3').hits[0]!.role).toBe('quantity');
    // the whole receipt: "Tổng cộng" misread 28.000, the final "Tổng số thanh toán" 26.000
    const f = extractFields(documentFromText(['NHA SACH CAM PHA', '3-Bảng tuần hoàn 1 5.000 0 5.000đ', 'Hình học 10 1 21.000 0 21.000đ',
      'Tổng cộng 28.000đ', 'Chiết khấu bán hàng: 0đ', 'Tổng số thanh toán: 26.000đ', 'XIN CẢM ƠN QUÍ KHÁCH!'].join('\n')), { extractTime: false });
    expect(f.totalAmount?.value).toBe(26000);
  });

  it('labels amounts by the nearest keyword before them', () => {
    const { hits } = keywordHits('Item Count 1 Change Amt 0.05');
    expect(hits.map((h) => h.role)).toEqual(['quantity', 'change']);
    expect(keywordHits('Total Sales (Excluding GST) 51.42').hits[0]!.role).toBe('subtotal');
    expect(keywordHits('Total Sales (Inclusive of GST) 54.50').hits[0]!.role).toBe('total');
    expect(keywordHits('GST @6% included in total RM 1.19').hits[0]!.role).toBe('taxIncluded');
  });

  it('reads a label run into the amount before it, and a Spanish tendered and change misread by a letter', () => {
    // PaddleOCR without spaces, the € read as e: "Entregado: 200,00eCanbio: 76,00"
    expect(keywordHits('Entregado: 200,00eCanbio: 76,00').hits.map((h) => h.role)).toEqual(['paid', 'change']);
    expect(keywordHits('Entregado: 200,00e Canbio: 76,00').hits.map((h) => h.role)).toEqual(['paid', 'change']);
    // only after an amount: words run together stay one word ("MikTeaItem" is no "MikTea" + "Item")
    expect(tokenize('MikTeaItem 19000').canon).toBe('MIKTEAITEM 19000');
    expect(tokenize('19000MikTea').canon).toBe('19000 MIKTEA');
    const f = fields(['TATEL MADRID', '1,00 Chipiron 124,00', 'Total (Impuestos Incl.) 124,0', 'Entregado: 200,00eCanbio: 76,00'].join('\n'));
    expect(f.totalAmount?.value).toBe(124);
    expect(f.evidence?.totalAmount).toContain('paid-change(2)'); // 200 handed over, 76 back
  });
});
