import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { guessDates, parseDates, readNumericDate } from '../../src/locale/dates.js';
import { documentFromText } from '../../src/document/geometry.js';

const NOW = new Date('2024-06-01T00:00:00Z');
const dateOf = (text: string, ctx: { near?: string; language?: string; extractTime?: boolean } = {}) =>
  extractFields(documentFromText(text), { extractTime: ctx.extractTime ?? false, now: NOW, ...(ctx.near ? { near: ctx.near } : {}), ...(ctx.language ? { language: ctx.language } : {}) }).date?.value.slice(0, 10);

describe('date forms', () => {
  const cases: Array<[string, string]> = [
    ['Date: 25/12/2018', '2018-12-25'],
    ['12-01-19 14:02', '2019-01-12'],
    ['25 DEC 2018', '2018-12-25'],
    ['05-JAN-17 10:11', '2017-01-05'],
    ['Date 27/MAR/2018', '2018-03-27'],
    ['OCT 3, 2016', '2016-10-03'],
    ['20180304 12:30', '2018-03-04'],
    ['Date: 2018-03-23', '2018-03-23'],
    ['02.10.22-23:10/2.2.15/TSAL', '2022-10-02'],
    ['Rechnungsdatum 7. Mai 2014', '2014-05-07'],
    ['Invoice Date: August 3 , 2014', '2014-08-03'],
    ['Order date: 28 Jan 15', '2015-01-28'],
    ['Tanggal 16 Okt 2022', '2022-10-16'],
    ['Factuurdatum: 19 april 2014', '2014-04-19'],
    ['Date : 12 févr. 2020', '2020-02-12'],
    ['Datum: 3. März 2021', '2021-03-03'],
    ['Fecha: 5 de agosto de 2019', '2019-08-05'],
    ['the 3rd of March 2019', '2019-03-03'],
    ['Tgl 03 Agu 2022', '2022-08-03'],
    ['30 Des 2021 19:00', '2021-12-30'],
    ['Date :28/04/18', '2018-04-28'],
    ['03-09-2022/01:03/AC3562F', '2022-09-03'],
    ['Time: 2016/11/02 18:01', '2016-11-02'],
    ["270ec' 16 17:58", '2016-12-27'],
    ['12 N0V 2019', '2019-11-12'],
    ['12Mar188:54A', '2018-03-12'],
  ];
  for (const [text, iso] of cases) it(`reads "${text}"`, () => expect(dateOf(text)).toBe(iso));
  it('reads a clock after TIME as no date ("TIME 09.20.18"), and a month read through an OCR slip less surely than one read whole', () => {
    expect(dateOf('TIME 09.20.18')).toBeUndefined();
    const conf = (text: string) => extractFields(documentFromText(text), { extractTime: false, now: NOW }).date?.confidence ?? 0;
    expect(conf("270ec' 16 17:58")).toBeLessThan(conf("27Dec' 16 17:58"));
  });
});

describe('day/month order', () => {
  it('uses day-first in Malaysia and month-first in the US when both are <= 12', () => {
    expect(dateOf('TOTAL RM 5.00\nSDN BHD\nDate: 03/04/2018')).toBe('2018-04-03');
    expect(dateOf('Walmart\nSpringfield, IL 62704\nSales Tax $0.50\nDate: 03/04/2018')).toBe('2018-03-04');
  });

  it('uses `near` to settle the order', () => {
    expect(dateOf('Date: 03/04/2018', { near: 'Chicago, IL, United States' })).toBe('2018-03-04');
    expect(dateOf('Date: 03/04/2018', { near: 'Kuala Lumpur, Malaysia' })).toBe('2018-04-03');
  });

  it('follows an unambiguous date printed elsewhere on the same document', () => {
    expect(dateOf('Printed 12/28/2017\nDate: 03/04/2018 10:00')).toBe('2018-03-04');
  });

  it('reads the only valid order when one part is > 12', () => {
    expect(readNumericDate(12, 28, 2017, 2, 4, true)).toMatchObject({ y: 2017, m: 12, d: 28, ambiguous: false });
    expect(readNumericDate(28, 12, 2017, 2, 4, false)).toMatchObject({ y: 2017, m: 12, d: 28, ambiguous: false });
    expect(readNumericDate(31, 2, 2017, 2, 4, true)).toBeUndefined();
  });
});

describe('transaction date vs other dates', () => {
  it('prefers the invoice date over the due date and reports the due date', () => {
    const r = extractFields(documentFromText('Invoice Date: 01/03/2020\nDue Date: 31/03/2020\nTotal 10.00'), { extractTime: false, now: NOW });
    expect(r.date?.value.slice(0, 10)).toBe('2020-03-01');
    expect(r.dueDate?.value.slice(0, 10)).toBe('2020-03-31');
  });

  it('skips expiry and promotion dates', () => {
    expect(dateOf('Voucher valid until 31/12/2019\nDate: 05/06/2019 10:22\nTOTAL 5.00')).toBe('2019-06-05');
  });

  it('rejects dates in the future and before 2000', () => {
    // never the future date as printed; at most a one-digit-confusion reading of it, with a low confidence
    expect(dateOf('Date: 05/06/2030')).not.toBe('2030-06-05');
    expect(extractFields(documentFromText('Date: 05/06/2030'), { extractTime: false, now: NOW }).date?.confidence ?? 0).toBeLessThan(0.5);
    expect(dateOf('Date: 05/06/2090')).toBeUndefined();
    expect(dateOf('Date: 05/06/1995')).toBeUndefined();
    expect(dateOf('Member since 01/01/2023\nDate: 05/06/2019 10:22')).toBe('2019-06-05');
  });

  it('keeps the printed time only with extractTime', () => {
    const text = 'Date: 25/12/2018 7:45 PM';
    const r = extractFields(documentFromText(text), { extractTime: true, now: NOW });
    expect(r.date?.value).toBe('2018-12-25T19:45:00.000Z');
    expect(extractFields(documentFromText(text), { extractTime: false, now: NOW }).date?.value).toBe('2018-12-25T12:00:00.000Z');
  });

  it('is more confident for a repeated, keyworded date than for a lone ambiguous one', () => {
    const strong = extractFields(documentFromText('Date: 25 Dec 2018 10:00\nTotal 5.00\nThank you 25 Dec 2018'), { extractTime: false, now: NOW }).date!;
    const weak = extractFields(documentFromText('ref 03/04/18'), { extractTime: false, now: NOW }).date!;
    expect(strong.confidence).toBeGreaterThan(weak.confidence);
    expect(strong.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('finds no date where none is printed', () => {
    expect(parseDates('TOTAL 12.50 ITEM 3', true, 2030)).toEqual([]);
    expect(dateOf('TOTAL 12.50\nQTY 3')).toBeUndefined();
  });

  describe('dates an OCR slip hid', () => {
    const now = NOW.getTime(), min = now - 15 * 365 * 86_400_000, max = now + 86_400_000;
    const guesses = (t: string) => guessDates(t, true, { minMs: min, maxMs: max }).map((g) => [`${g.y}-${g.m}-${g.d}`, g.rank]);

    it('restores a first separator lost to a space only when a time follows', () => {
      expect(guesses('07 08.22-20:30/2.2.17/F651')).toEqual([['2022-8-7', 0]]);
      expect(guesses('QTY 07 08.22 EACH')).toEqual([]);
      expect(guesses('02/07:22 22:25:09 Ni Putu')).toEqual([['2022-7-2', 0]]);
      expect(guesses('TABLE 02 07:22 BILL')).toEqual([]);
    });

    it('undoes one digit confusion in an impossible or implausible date, most likely first', () => {
      expect(guesses('76.06.22 16:09')).toEqual([['2022-6-26', 1], ['2022-6-16', 2]]); // day 76
      expect(guesses('Tanggal : 21-09-27')[0]).toEqual(['2022-9-21', 1]); // 2027 is in the future
      expect(guesses('04-08-2002 10:00')).toEqual([['2022-8-4', 4]]); // 2002 is too old
    });

    it('doubts a one-digit day before a zero-padded month (a digit lost at the edge)', () => {
      const lost = extractFields(documentFromText('SHOP\n6.05.24-16:09/2.2.15\nTOTAL 5.00'), { extractTime: false, now: NOW }).date!;
      const whole = extractFields(documentFromText('SHOP\n26.05.24-16:09/2.2.15\nTOTAL 5.00'), { extractTime: false, now: NOW }).date!;
      expect(lost.value.slice(0, 10)).toBe('2024-05-06');
      expect(lost.confidence).toBeLessThan(whole.confidence);
    });

    it('leaves plausible dates and non-dates alone', () => {
      expect(guesses('Date: 21-09-22')).toEqual([]);
      expect(guesses('12.34.56 TOTAL 1.500.000')).toEqual([]);
      expect(guesses('DPP= 38,198 PPN= 4,202')).toEqual([]);
    });

    it('takes a guess only when nothing plausible is printed, with a middling confidence', () => {
      const d = extractFields(documentFromText('TOKO MAJU\n76.05.24-16:09/2.2.17\nTOTAL 34,800'), { extractTime: false, now: NOW }).date!;
      expect(d.value.slice(0, 10)).toBe('2024-05-26');
      expect(d.confidence).toBeLessThan(0.7);
      expect(dateOf('TOKO MAJU\n76.05.24-16:09\nTanggal 03.04.24')).toBe('2024-04-03');
      expect(dateOf('TOKO MAJU\n07 05.24-20:30/2.2.17\nTOTAL 34,800')).toBe('2024-05-07');
    });
  });
});

describe('a year printed against the time (a reader that drops the space)', () => {
  it('reads the date and the time', async () => {
    const { parseDates, parseTime } = await import('../../src/locale/dates.js');
    for (const [text, ymd] of [['24 Mar201818:23', [2018, 3, 24]], ['Date:06/03/201812:06:00', [2018, 3, 6]], ['Mar 3, 201709:15', [2017, 3, 3]]] as const) {
      const [d] = parseDates(text, true, 2030);
      expect([d?.y, d?.m, d?.d], text).toEqual(ymd);
    }
    expect(parseTime('24 Mar201818:23')).toMatchObject({ h: 18, m: 23 });
    // not a year: an amount or an id running into a time stays unread as a date
    expect(parseDates('INV 1234/05/201899', true, 2030)).toEqual([]);
    expect(parseTime('ID 551818:23')).toBeUndefined();
  });
});

describe('month-name dates with OCR slips', () => {
  it('reads a day, month name and year printed without spaces ("16AUG2015"), not as digits', async () => {
    const { repairDigitRuns } = await import('../../src/locale/numbers.js');
    expect(repairDigitRuns('C9062 #0272 22:42:33 16AUG2015').text).toContain('16AUG2015');
    const { extractFields } = await import('../../src/extract/index.js');
    const { documentFromText } = await import('../../src/document/geometry.js');
    const r = extractFields(documentFromText(['GROCER LTD', 'BANANA £0.20', 'BALANCE DUE £0.20', 'C9062 #0272 22:42:33 16AUG2015'].join('\n')), { extractTime: false, now: new Date('2024-06-01T00:00:00Z') });
    expect(r.date?.value.slice(0, 10)).toBe('2015-08-16');
  });
  it("reads a month name, day and a two-digit year after a typographic apostrophe (\"Jul03’ 12\")", async () => {
    const { parseDates } = await import('../../src/locale/dates.js');
    const [d] = parseDates('Jul03’ 12 02:34pm', false, 2025);
    expect(d && [d.y, d.m, d.d]).toEqual([2012, 7, 3]);
  });
});
