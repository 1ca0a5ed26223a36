/**
 * Rules for receipts of shops and countries the corpus did not study (issue "Receipts nobody tuned
 * for"): Vietnamese labels and đồng, the currency from evidence rather than one glyph, more countries'
 * cues, a date run into its time, and the order of a date two readings disagree on. Each test feeds a
 * hand-made document that gave another answer before the rule.
 */
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { chooseCurrency, inferLocale } from '../../src/locale/index.js';
import { foldText } from '../../src/locale/keywords.js';
import { documentFromText } from '../../src/document/geometry.js';
import { combineReadings, swappedOrder } from '../../src/read/combine.js';
import type { FieldContext } from '../../src/fields/types.js';

const ctx = (extra: Partial<FieldContext> = {}): FieldContext => ({ extractTime: false, now: new Date('2024-06-01T00:00:00Z'), ...extra });
const doc = (lines: string[]) => documentFromText(lines.join('\n'));
const fields = (lines: string[]) => extractFields(doc(lines), ctx());
const locale = (lines: string[]) => inferLocale(doc(lines));

const VN_RECEIPT = [
  'MINIMART BINH AN',
  'Chợ Sủi Phú Thị Gia Lâm',
  'HÓA ĐƠN BÁN HÀNG',
  'Sữa Mộc Châu 110ml 12 4,375 52,500',
  'Sữa ADM đường 110ml 12 4,250 51,000',
  'Tổng số: 24',
  'Tổng cộng : 103,500',
  'Tổng tiền : 103,500',
  'Tiền khách trả: VND 200,000',
  'Tiền trả lại VND: 96,500',
  'Số GD: 000AC2212008001573 Ngày: 12/08/2020-16:22',
  'Xin cám ơn và hẹn gặp lại quý khách!',
];

describe('Vietnamese receipts', () => {
  it('folds đ to D with the other accents', () => {
    expect(foldText('Đơn giá Thành tiền')).toBe('DON GIA THANH TIEN');
  });
  it('are Vietnam in đồng, whole units, from the words printed around the amounts', () => {
    const l = locale(VN_RECEIPT);
    expect(l.countryCode).toBe('VN');
    expect(l.currency).toBe('VND');
    expect(l.wholeCurrency).toBe(true);
    expect(l.language).toBe('vi');
  });
  it('"Tổng tiền" is the total, not the cash handed over ("Tiền khách trả") nor the change ("Tiền trả lại")', () => {
    const f = fields(VN_RECEIPT);
    expect(f.totalAmount?.value).toBe(103500);
    expect(f.date?.value.slice(0, 10)).toBe('2020-08-12');
  });
  it('"Khách phải trả" is the amount to pay, "Tiền thừa" the change', () => {
    const f = fields(['QUÁN CƠM NGON', 'Cơm gà 2 45.000 90.000', 'Trà đá 1 4.000 4.000', 'Cộng tiền hàng 94.000', 'Khách phải trả 94.000', 'Tiền mặt 100.000', 'Tiền thừa 6.000', 'Ngày 15/08/2020']);
    expect(f.totalAmount?.value).toBe(94000);
  });
  it('a "Số GD" read as "SGD" next to a transaction number is no Singapore dollar when đồng is printed', () => {
    expect(locale(['SGD: 000AC2212008000970 Ngay: 09/08/2020', 'Hóa đơn bán hàng', 'Tổng tiền: 22,000', 'Tiền khách trả: VND 22,000']).currency).toBe('VND');
  });
});

describe('the currency from evidence, not from one glyph', () => {
  it('a stray € on a page that prints VND is đồng', () => {
    const l = locale([...VN_RECEIPT, '€ 108,000']);
    expect(l.currency).toBe('VND');
  });
  it('a bare "$" on an Australian receipt (ABN) is the Australian dollar, and its dates are day-first', () => {
    const l = locale(['BURGER BAR', 'ABN: 83 600 128 738', 'Date: 12/05/2017 12:40', 'Burger $10.50', 'Chips $3.90', 'Total $17.90']);
    expect(l.countryCode).toBe('AU');
    expect(l.currency).toBe('AUD');
    expect(l.dayFirst).toBe(true);
    expect(fields(['BURGER BAR', 'ABN: 83 600 128 738', 'Date: 12/05/2017 12:40', 'Burger $10.50', 'Total $17.90']).date?.value.slice(0, 10)).toBe('2017-05-12');
  });
  it('a pound sign standing alone does not make a receipt of another country British', () => {
    expect(locale(['SUSHI BAR', 'HONG KONG', 'HK$ 120.00', '£', 'TOTAL HK$ 120.00']).currency).toBe('HKD');
    // a pound sign before amounts, twice, is pounds
    expect(locale(['THE CROWN', 'Ale £4.50', 'TOTAL £4.50']).currency).toBe('GBP');
  });
  it('chooseCurrency: a printed code beats the country\'s, a single symbol does not, nothing sure keeps what is printed', () => {
    expect(chooseCurrency('THB', 0.9, 'GBP', { GBP: 3 }, {}, { GBP: 1 })).toBe('THB');
    expect(chooseCurrency('THB', 0.9, 'USD', { USD: 4 }, { USD: 2 }, {})).toBe('USD');
    expect(chooseCurrency('THB', 0.4, 'GBP', { GBP: 3 }, {}, { GBP: 1 })).toBe('GBP');
    expect(chooseCurrency('', 0, 'EUR', { EUR: 2 }, {}, { EUR: 1 })).toBe('EUR');
    expect(chooseCurrency('CAD', 0.7, 'USD', { USD: 3 }, {}, { USD: 3 })).toBe('CAD');
  });
  it('more countries from their own marks: Canada\'s HST and postal code, Oman\'s rial with three decimals', () => {
    expect(locale(['TIM HORTONS', 'Toronto ON M5V 2T6', 'Coffee 2.10', 'HST 13% 0.27', 'Total 2.37']).countryCode).toBe('CA');
    const om = fields(['CHILIS MUSCAT', 'Sultanate of Oman', 'Burger 4.500', 'Fries 2.100', 'TOTAL OMR 19.729']);
    // read as rials with decimals (19729 before); amounts are kept to the cent, within the scorer's 0.005
    expect(om.totalAmount?.value).toBeCloseTo(19.73, 2);
  });
});

describe('dates run into their time', () => {
  it('"01.10.202008.58": the date, then the time', () => {
    expect(fields(['THE COFFEE HOUSE', 'Thời gian:01.10.202008.58', 'Tổng tiền 50,000']).date?.value.slice(0, 10)).toBe('2020-10-01');
  });
});

describe('two readings of one date in the other order', () => {
  it('swappedOrder: same digits, day and month exchanged', () => {
    expect(swappedOrder('2017-05-12T12:00:00.000Z', '2017-12-05T12:00:00.000Z')).toBe(true);
    expect(swappedOrder('2017-05-05T12:00:00.000Z', '2017-05-05T12:00:00.000Z')).toBe(false);
    expect(swappedOrder('2017-05-12T12:00:00.000Z', '2017-12-06T12:00:00.000Z')).toBe(false);
  });
  it('the reading whose page showed its country more surely decides, whatever the confidences', () => {
    const au = doc(['BURGER BAR', 'ABN: 83 600 128 738', 'Melbourne VIC 3000', 'Date: 12/05/2017 12:40', 'Total $17.90']);
    const us = doc(['BURGER BAR', 'Date: 12/05/2017 12:40', 'Sales Tax $1.20', 'Total $17.90']);
    const a = extractFields(au, ctx()), b = extractFields(us, ctx());
    expect(a.country!.confidence).toBeGreaterThan(b.country!.confidence);
    expect(a.date?.value.slice(0, 10)).toBe('2017-05-12');
    expect(b.date?.value.slice(0, 10)).toBe('2017-12-05');
    const strongerSecond = { ...b, date: { ...b.date!, confidence: 0.99 } };
    expect(combineReadings(au, a, us, strongerSecond).date?.value.slice(0, 10)).toBe('2017-05-12');
    // a second reading that knew its country better wins the order
    expect(combineReadings(us, b, au, a).date?.value.slice(0, 10)).toBe('2017-05-12');
  });
  it('with `fields`, only those fields are weighed', () => {
    const one = doc(['SHOP A', 'Total 10.00', 'Date 01/02/2020']);
    const two = doc(['SHOP B', 'Total 12.00', 'Date 01/02/2020']);
    const a = extractFields(one, ctx()), b = { ...extractFields(two, ctx()) };
    b.totalAmount = { ...b.totalAmount!, confidence: 0.99 };
    // the rule (the more confident value), not models/combine.json's fitted choice
    const out = combineReadings(one, a, two, b, 'own-language', { fields: ['totalAmount'], choice: () => undefined });
    expect(out.totalAmount?.value).toBe(12);
    expect(out.merchantName?.value).toBe(a.merchantName?.value);
  });
});


describe('the day/month order when nothing names the country', () => {
  it('a "$" receipt in English is month-first, and the date stays below 0.9', () => {
    const l = locale(['DINER', 'Burger $8.99', 'Total $8.99', '04/07/2018']);
    expect(l.countryCode).toBeUndefined();
    expect(l.dayFirst).toBe(false);
    const f = fields(['DINER', 'Burger $8.99', 'Total $8.99', '04/07/2018']);
    expect(f.date?.value.slice(0, 10)).toBe('2018-04-07');
    expect(f.date!.confidence).toBeLessThan(0.9);
  });
  it('without a "$", or in another language, day-first as before', () => {
    expect(locale(['CAFE', 'Latte 3.50', 'Total 3.50', '04/07/2018']).dayFirst).toBe(true);
    expect(locale(['CAFE', 'Kaffee $3.50', 'Summe $3.50', 'Vielen Dank', '04/07/2018']).dayFirst).toBe(true);
  });
});

describe('an address ends where the careline, the company registration or the opening hours begin', () => {
  it('a careline run into its brand ("myNEWScareline : 1800 88 1231") is not part of the address', () => {
    const f = fields(['MYNEWS RETAIL SDN BHD', 'LOT R1, KWS REHAT & RAWAT PAGOH,', 'LEBUHRAYA UTARA SELATAN,', '84600, PAGOH JOHOR', 'myNEWScareline : 1800 88 1231', 'TOTAL 5.00']);
    expect(f.merchantAddress?.value).toMatch(/PAGOH JOHOR$/);
  });
  it('nor are the opening hours ("UNSERE ÖFFNUNGSZEITEN")', () => {
    const f = fields(['Zorblat Markt', 'Pohlweg 110', '33100 Paderborn', 'UNSERE ÖFFNUNGSZEITEN', 'SUMME 2,49']);
    expect(f.merchantAddress?.value ?? '').not.toMatch(/ZEITEN/);
  });
});
